import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { DATA_PLANE_AUDIENCE, DATA_PLANE_MAX_TTL_SECONDS, DATA_PLANE_TOKEN_TYPE } from '#shared/auth/index.js';

export interface DataPlaneClaims {
  hostId: string;
  deviceId: string;
  sessionId: string;
  scope: string;
}

/** The service's public keys as its hello answer carries them. */
export type DataPlaneJwks = { keys: readonly object[] };

/** A refusal of the data plane, with the HTTP status and stable code it is answered with. */
export class DataPlaneRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DataPlaneRefusal';
  }
}

const MAX_TOKEN_LENGTH = 4_096;
const CLOCK_TOLERANCE_SECONDS = 5;
const ALGORITHMS = ['EdDSA', 'ES256'];

/**
 * Verifies data-plane tokens: signed by one of the service's keys (asymmetric algorithms only), of
 * type `df-dp+jwt`, for audience `df-agent` and this host, not expired, and valid for at most a minute
 * from now, so a leaked token is worth little.
 */
export class DataPlaneVerifier {
  private keySet: JWTVerifyGetKey | null = null;

  constructor(private readonly options: { hostId: string; now?: () => Date }) {}

  get ready(): boolean {
    return this.keySet !== null;
  }

  setKeys(jwks: DataPlaneJwks): void {
    // Only public asymmetric keys: an `oct` key would turn the check into a shared secret.
    const keys = (jwks.keys as readonly Record<string, unknown>[]).filter((k) => (k.kty === 'OKP' || k.kty === 'EC') && k.d === undefined);
    this.keySet = keys.length > 0 ? createLocalJWKSet({ keys } as unknown as JSONWebKeySet) : null;
  }

  async verify(token: string): Promise<DataPlaneClaims> {
    if (!this.keySet) throw new DataPlaneRefusal(503, 'DATA_PLANE_NOT_READY', 'The agent has no verification keys yet');
    if (token.length > MAX_TOKEN_LENGTH) throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'Invalid data-plane token');
    const now = this.options.now?.() ?? new Date();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.keySet, {
        algorithms: ALGORITHMS,
        audience: DATA_PLANE_AUDIENCE,
        typ: DATA_PLANE_TOKEN_TYPE,
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new DataPlaneRefusal(401, 'TOKEN_EXPIRED', 'The data-plane token has expired');
      throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'Invalid data-plane token');
    }
    const { sub, deviceId, sessionId, scope, exp } = payload;
    if (typeof exp !== 'number' || exp > Math.floor(now.getTime() / 1000) + DATA_PLANE_MAX_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS) {
      throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'The data-plane token is valid for too long');
    }
    if (typeof deviceId !== 'string' || typeof sessionId !== 'string' || typeof scope !== 'string' || typeof sub !== 'string') {
      throw new DataPlaneRefusal(401, 'UNAUTHORIZED', 'The data-plane token lacks its claims');
    }
    if (sub !== this.options.hostId) throw new DataPlaneRefusal(403, 'FORBIDDEN', 'The token is for another host');
    return { hostId: sub, deviceId, sessionId, scope };
  }
}
