import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeyValueStore } from '../kv/types.js';

/** Requests allowed per window; 0 switches a limit off. */
export interface RateLimits {
  windowMs: number;
  /** Every request from one client address, before its credentials are looked at. */
  perAddress: number;
  /** Every interactive request of one user (an access token, whatever workspace it comes with). */
  perUser: number;
  /**
   * Every request of one API key or OAuth client (a CI fleet sharing one credential), unless an
   * administrator gave that credential a budget of its own (`principal.rateLimit`). A credential's
   * requests count here only, never against its user's interactive budget.
   */
  perCredential: number;
  /**
   * New device sessions and relay connections of one user: `POST /df/api/sessions`, WebDriver
   * `POST /df/wd/session`, and WebSocket upgrades of `/df/ws`, `/df/devtools`, `/df/debug-tunnel`.
   * The traffic inside a session (WebDriver commands, CDP messages, frames) is not limited.
   */
  newSessions: number;
}

/** Relay traffic of an open session: counted as neither requests nor new sessions. */
const RELAY_TRAFFIC = /^\/df\/(wd\/session\/[^/]+\/|devtools\/)/;
const NEW_SESSION = /^\/df\/(api\/sessions|wd\/session)\/?$/;
const RELAY_UPGRADE = /^\/df\/(ws|devtools|debug-tunnel)\//;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/**
 * Fixed-window counters in the key-value store (Redis in production, so every replica counts
 * together): each request adds one to its address's counter before authentication, and once
 * authenticated to its credential's (an API key, an OAuth client: the budget came with the verified
 * credential, no extra read) or else to its user's. Over a limit: 429 `TOO_MANY_REQUESTS` with `Retry-After`; every counted
 * answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`.
 *
 * Installs the address limit at once; call the returned function after access control is installed,
 * so the user limit runs once the principal is known.
 */
export function installRateLimits(app: FastifyInstance, kv: KeyValueStore, limits: RateLimits): () => void {
  const window = () => Math.floor(Date.now() / limits.windowMs);
  const charge = async (reply: FastifyReply, bucket: string, limit: number, what: string) => {
    const w = window();
    const count = await kv.increment(`rl:${bucket}:${w}`, { ttlMs: limits.windowMs + 1_000 });
    const reset = Math.max(1, Math.ceil(((w + 1) * limits.windowMs - Date.now()) / 1000));
    const seconds = Math.round(limits.windowMs / 1000);
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - count)));
    reply.header('ratelimit-reset', String(reset));
    reply.header('ratelimit-policy', `${limit};w=${seconds}`);
    if (count > limit) {
      reply.header('retry-after', String(reset));
      throw new AppError('TOO_MANY_REQUESTS', `Rate limit reached: ${limit} ${what} per ${seconds} s; retry in ${reset} s`, {
        details: [{ path: '', message: `${limit} ${what} per ${seconds} s` }],
      });
    }
  };
  const isUpgrade = (request: FastifyRequest) => (request.headers.upgrade ?? '').toLowerCase() === 'websocket';

  if (limits.perAddress > 0) {
    app.addHook('onRequest', async (request, reply) => {
      if (RELAY_TRAFFIC.test(pathOf(request.url)) && !isUpgrade(request)) return;
      await charge(reply, `addr:${request.ip}`, limits.perAddress, 'requests from one address');
    });
  }
  /** The counters one authenticated request is charged to (none when every limit that applies is off). */
  const chargesOf = (request: FastifyRequest): [bucket: string, limit: number, what: string][] | null => {
    const principal = request.principal;
    if (!principal) return null;
    const path = pathOf(request.url);
    const user = `user:${principal.companyId}:${principal.userId}`;
    const charges: [string, number, string][] = [];
    if (limits.newSessions > 0 && ((request.method === 'POST' && NEW_SESSION.test(path)) || (isUpgrade(request) && RELAY_UPGRADE.test(path)))) {
      charges.push([`new:${user}`, limits.newSessions, 'new sessions or connections']);
    }
    if (RELAY_TRAFFIC.test(path) && !isUpgrade(request)) return charges;
    if (principal.credentialId !== undefined) {
      const budget = principal.rateLimit ?? limits.perCredential;
      if (budget > 0) charges.push([`cred:${principal.companyId}:${principal.credentialId}`, budget, 'requests of this credential']);
    } else if (limits.perUser > 0) {
      charges.push([user, limits.perUser, 'requests']);
    }
    return charges;
  };
  return () => {
    // Synchronous when nothing is charged (the limits that apply are off): no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      const charges = chargesOf(request);
      if (!charges?.length) return done();
      (async () => {
        for (const [bucket, limit, what] of charges) await charge(reply, bucket, limit, what);
      })().then(() => done(), done);
    });
  };
}
