import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKeys } from './keys.js';

/** The `typ` header of data-plane tokens (service → agent), so no other JWT of ours can pass as one. */
export const DATA_PLANE_TOKEN_TYPE = 'df-dp+jwt';
/** The audience of data-plane tokens: a device host's agent. */
export const DATA_PLANE_AUDIENCE = 'df-agent';
/** The longest lifetime a data-plane token may have; an agent refuses tokens valid for longer. */
export const DATA_PLANE_MAX_TTL_SECONDS = 60;

export interface DataPlaneTokenClaims {
  /** The device host the token is for (`sub`). */
  hostId: string;
  deviceId: string;
  sessionId: string;
  /** What the bearer may do on the data plane (`devtools`, `webdriver`, ...). */
  scope: string;
}

/**
 * Signs a short-lived token the gateway presents to an agent's data plane: audience `df-agent`,
 * `sub` the host, the device, session and scope it is good for, valid for `ttlSeconds` (at most 60).
 */
export async function issueDataPlaneToken(
  keys: Pick<SigningKeys, 'alg' | 'kid' | 'privateKey'>,
  claims: DataPlaneTokenClaims,
  options: { ttlSeconds?: number; now?: Date } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const ttl = Math.min(options.ttlSeconds ?? 30, DATA_PLANE_MAX_TTL_SECONDS);
  if (!(ttl >= 1)) throw new RangeError('ttlSeconds must be at least 1');
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const token = await new SignJWT({ deviceId: claims.deviceId, sessionId: claims.sessionId, scope: claims.scope })
    .setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: DATA_PLANE_TOKEN_TYPE })
    .setSubject(claims.hostId)
    .setAudience(DATA_PLANE_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(keys.privateKey);
  return { token, expiresAt: new Date((iat + ttl) * 1000) };
}
