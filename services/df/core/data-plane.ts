import { sessionById } from '#projections/df-sessions/index.js';
import type { SigningKeys } from '#shared/auth/index.js';
import { issueDataPlaneToken } from '#shared/auth/index.js';
import type { Database } from '#shared/db/index.js';
import { AppError, found } from '#shared/errors.js';
import type { KeyValueStore } from '#shared/kv/index.js';

/** Where the data-plane URL an agent advertised in its hello is kept (replaced by every hello). */
export const dataPlaneUrlKey = (hostId: string) => `df:host-dp:${hostId}`;
const hostAliveKey = (hostId: string) => `df:host:${hostId}`;

/** Lifetime of a data-plane token: it is needed only to open a request or a WebSocket. */
export const DATA_PLANE_TOKEN_TTL_SECONDS = 30;

export interface DataPlaneTarget {
  /** `{agent's data-plane URL}/devices/{deviceId}`: append the route prefix and path (`/devtools/json/version`, `/wd/session`). */
  baseUrl: string;
  /** Bearer token for the agent (`Authorization: Bearer <token>`, or `?dp_token=`), valid for 30 s. */
  token: string;
  deviceId: string;
  hostId: string;
}

/** The gateway's way to a session's device over the data plane (docs/modules/device-testing.md, "Data plane"). */
export interface DataPlane {
  /**
   * The device of an active session and a token good for `scope` on it. The caller has already
   * checked that its principal may use the session. A session that is not active is 409
   * `SESSION_NOT_ACTIVE`; a host without a (live) data plane is 503 `DEVICE_UNREACHABLE`.
   */
  target(sessionId: string, scope: string): Promise<DataPlaneTarget>;
}

export interface DataPlaneDeps {
  db: Database;
  kv: KeyValueStore;
  keys: Pick<SigningKeys, 'alg' | 'kid' | 'privateKey'>;
  now: () => Date;
}

export function createDataPlane(deps: DataPlaneDeps): DataPlane {
  return {
    async target(sessionId, scope) {
      const session = found(await sessionById(deps.db, sessionId), 'Session not found');
      if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
      const [url, alive] = await Promise.all([deps.kv.get(dataPlaneUrlKey(session.hostId)), deps.kv.get(hostAliveKey(session.hostId))]);
      if (!url || alive === null) throw new AppError('DEVICE_UNREACHABLE', 'The device\'s host offers no data plane right now');
      const { token } = await issueDataPlaneToken(
        deps.keys,
        { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id, scope },
        { ttlSeconds: DATA_PLANE_TOKEN_TTL_SECONDS, now: deps.now() },
      );
      return { baseUrl: `${url.replace(/\/+$/, '')}/devices/${encodeURIComponent(session.deviceId)}`, token, deviceId: session.deviceId, hostId: session.hostId };
    },
  };
}
