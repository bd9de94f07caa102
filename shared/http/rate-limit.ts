import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeyValueStore } from '../kv/index.js';
import { qaMetrics } from '../metrics/index.js';

/** Requests allowed per window; 0 switches a limit off. */
export interface RateLimits {
  windowMs: number;
  /**
   * Requests from one client address that no credential answers for, in two counters of this size:
   * requests without one (sign-in, public routes), and requests whose credential was refused or not
   * looked at (someone guessing keys).
   */
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
   * New device sessions of one credential (an API key, a device key, an OAuth client), or of one user
   * signed in with an access token: `POST /df/api/sessions` and WebDriver `POST /df/wd/session`.
   * A guard against abuse; what bounds a fleet is the company's concurrent-session quota and the queue.
   */
  newSessions: number;
}

export interface RateLimitOptions {
  /** Lower-case request headers that carry a credential (`authorization`, `x-api-key`, ...). */
  credentialHeaders: readonly string[];
}

/**
 * The traffic of an open session: every path of a WebDriver session (`DELETE /df/wd/session/{id}`
 * too), its CDP relay (HTTP and WebSocket), the viewer socket and the debug tunnel. It is neither
 * counted nor refused: a test that got its device must be able to drive it and give it back. Each is
 * bound to one session the caller may use (the routes refuse any other), and the debug tunnel has
 * its own per-session cap.
 */
const SESSION_TRAFFIC = /^\/df\/(wd\/session\/[^/]+(\/|$)|devtools\/[^/]+(\/|$)|ws\/sessions\/[^/]+\/?$|debug-tunnel\/)/;
const NEW_SESSION = /^\/df\/(api\/sessions|wd\/session)\/?$/;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** A budget's name in `qa_rate_limit_refusals_total`, from its counter's prefix (never the address or id after it). */
const BUDGET_NAMES: Record<string, string> = { addr: 'address', 'addr-unanswered': 'address_unanswered', cred: 'credential', user: 'user', new: 'new_sessions' };

/** One budget a request is counted against: its counter, its limit, and how a refusal names it. */
interface Budget {
  bucket: string;
  limit: number;
  what: string;
}

/** Where a counter stands after a request was counted (or looked at). */
interface Standing {
  budget: Budget;
  count: number;
  resetSeconds: number;
}

/** Whether a request is the traffic of an open session, which no limit counts or refuses. */
export const isSessionTraffic = (url: string): boolean => SESSION_TRAFFIC.test(pathOf(url));

/**
 * Fixed-window counters in the key-value store (Redis in production, so every replica counts
 * together). A request is counted against the one budget that answers for it:
 *
 * - with a credential that authenticates: that credential's budget (an API key, a device key, an OAuth
 *   client: the budget came with the verified credential, no extra read), or else its user's; a new
 *   device session also against the new-session budget of that credential or user;
 * - otherwise its client address: requests without a credential in one counter, requests whose
 *   credential did not answer for them (refused, or on a public route) in another, counted once their
 *   answer is known.
 *
 * A request with a credential is not counted against its address, so a CI fleet, the downloads of its
 * jobs and the console of its administrator behind one address never spend each other's budget, and
 * the address budget can never bite before a credential's own. A request with a credential is refused
 * by its address only once that address has spent its budget on credentials that did not answer
 * (someone guessing keys).
 *
 * Over a limit: 429 `TOO_MANY_REQUESTS` with `Retry-After`, and `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy` of the budget that refused. Every
 * counted answer carries those headers too, of the budget nearest its limit.
 *
 * Installs the address limit at once; call the returned function after access control is installed,
 * so the credential and user limits run once the principal is known.
 */
export function installRateLimits(app: FastifyInstance, kv: KeyValueStore, limits: RateLimits, options: RateLimitOptions): () => void {
  const seconds = Math.round(limits.windowMs / 1000);
  const window = () => Math.floor(Date.now() / limits.windowMs);
  const resetOf = (w: number) => Math.max(1, Math.ceil(((w + 1) * limits.windowMs - Date.now()) / 1000));
  const counter = (bucket: string, w: number) => `rl:${bucket}:${w}`;
  const count = async (budget: Budget): Promise<Standing> => {
    const w = window();
    const n = await kv.increment(counter(budget.bucket, w), { ttlMs: limits.windowMs + 1_000 });
    return { budget, count: n, resetSeconds: resetOf(w) };
  };
  const headersOf = ({ budget, count: n, resetSeconds }: Standing): Record<string, string> => ({
    'ratelimit-limit': String(budget.limit),
    'ratelimit-remaining': String(Math.max(0, budget.limit - n)),
    'ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `${budget.limit};w=${seconds}`,
  });
  /** The 429 of a budget; its headers go on the reply too, for handlers that answer errors their own way (W3C). */
  const refusal = (reply: FastifyReply, standing: Standing): AppError => {
    const { budget, resetSeconds } = standing;
    const headers = { ...headersOf(standing), 'retry-after': String(resetSeconds) };
    qaMetrics.rateLimitRefusals.inc({ budget: BUDGET_NAMES[budget.bucket.slice(0, budget.bucket.indexOf(':'))] ?? 'other' });
    reply.headers(headers);
    return new AppError('TOO_MANY_REQUESTS', `Rate limit reached: ${budget.limit} ${budget.what} per ${seconds} s; retry in ${resetSeconds} s`, { headers });
  };
  /** Answers with the headers of the refusing budget, or else of the one with the fewest requests left. */
  const settle = (reply: FastifyReply, standings: Standing[]): void => {
    const over = standings.find((s) => s.count > s.budget.limit);
    if (over) throw refusal(reply, over);
    const nearest = standings.reduce<Standing | null>((a, s) => (a && a.budget.limit - a.count <= s.budget.limit - s.count ? a : s), null);
    if (nearest) reply.headers(headersOf(nearest));
  };

  const carriesCredential = (request: FastifyRequest) =>
    options.credentialHeaders.some((h) => {
      const v = request.headers[h];
      return typeof v === 'string' && v.length > 0;
    });
  const anonymousBudget = (request: FastifyRequest): Budget => ({ bucket: `addr:${request.ip}`, limit: limits.perAddress, what: 'requests without a credential from one address' });
  const unansweredBudget = (request: FastifyRequest): Budget => ({ bucket: `addr-unanswered:${request.ip}`, limit: limits.perAddress, what: 'requests from one address whose credential was not accepted' });
  /** Requests whose address charge waits for their credential's verdict. */
  const deferred = new WeakSet<FastifyRequest>();

  if (limits.perAddress > 0) {
    app.addHook('onRequest', async (request, reply) => {
      if (isSessionTraffic(request.url)) return;
      if (!carriesCredential(request)) return settle(reply, [await count(anonymousBudget(request))]);
      // Not counted yet: only refused while the address has spent its budget on credentials that did not answer.
      const budget = unansweredBudget(request);
      const w = window();
      const n = Number((await kv.get(counter(budget.bucket, w))) ?? 0);
      if (n >= budget.limit) throw refusal(reply, { budget, count: n + 1, resetSeconds: resetOf(w) });
      deferred.add(request);
    });
    // A credential that did not answer for its request (refused, or on a public route where none is
    // looked at): the request counts against its address after all.
    app.addHook('onResponse', async (request) => {
      if (!deferred.has(request) || request.principal) return;
      await count(unansweredBudget(request)).catch((err: unknown) => request.log.warn({ err }, 'counting a request against its address failed'));
    });
  }

  /** The budgets one authenticated request is counted against (none when every limit that applies is off). */
  const budgetsOf = (request: FastifyRequest): Budget[] => {
    const principal = request.principal;
    if (!principal || isSessionTraffic(request.url)) return [];
    const budgets: Budget[] = [];
    const credential = principal.credentialId === undefined ? null : `cred:${principal.companyId}:${principal.credentialId}`;
    const user = `user:${principal.companyId}:${principal.userId}`;
    if (credential) {
      const budget = principal.rateLimit ?? limits.perCredential;
      if (budget > 0) budgets.push({ bucket: credential, limit: budget, what: 'requests of this credential' });
    } else if (limits.perUser > 0) {
      budgets.push({ bucket: user, limit: limits.perUser, what: 'requests of this user' });
    }
    if (limits.newSessions > 0 && request.method === 'POST' && NEW_SESSION.test(pathOf(request.url))) {
      budgets.push({ bucket: `new:${credential ?? user}`, limit: limits.newSessions, what: `new sessions of this ${credential ? 'credential' : 'user'}` });
    }
    return budgets;
  };
  return () => {
    // Synchronous when nothing is counted (the limits that apply are off): no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      const budgets = budgetsOf(request);
      if (budgets.length === 0) return done();
      (async () => {
        const standings: Standing[] = [];
        // One at a time, stopping at the first refusal: a refused request spends no later budget.
        for (const budget of budgets) {
          const standing = await count(budget);
          standings.push(standing);
          if (standing.count > budget.limit) break;
        }
        settle(reply, standings);
      })().then(() => done(), done);
    });
  };
}
