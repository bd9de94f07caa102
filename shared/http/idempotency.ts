import { inTick, setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '#shared/db/index.js';
import { canonicalJson } from '../canonical.js';
import { AppError } from '../errors.js';
import { currentRequest, type RequestContext } from '../request-context.js';
import type { ActiveWorkspace, Principal } from './principal.js';
import { IdempotencyStore, type HeldKey } from './idempotency-store.js';

/** The header a client names a request by, and the one that marks an answer given again. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** 1–255 visible ASCII characters (no space, no control character). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The public APIs whose POSTs honour a key (as the gateway sees their paths). */
const PREFIXES = ['/v1', '/api/v1', '/df/api', '/tmt'];

/** Headers of an answer that belong to it (not to one delivery of it, like its request id or timing). */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'content-disposition', 'link', 'cache-control'];

export interface IdempotencyOptions {
  db: Database;
  /** How long an answer is answered again. */
  ttlMs: number;
  /** How long a request may hold its key without answering before a retry may run again. */
  inFlightMs: number;
  /** The largest answer kept, in bytes. */
  maxAnswerBytes: number;
  /** Seals kept answers (they may hold a secret shown once, a new API key's value). */
  box: { seal(plain: string, context: string): string; open(sealed: string, context: string): string };
  /** The platform's clock, read at each request (tests move it). */
  now: () => Date;
  /** The request's path as the gateway sees it (a module's own server gets `/df` paths stripped). */
  gatewayPath?: (url: string) => string;
  /** How often rows past their time to live are deleted; 0: never (tests). */
  sweepIntervalMs?: number;
}

/** A key held by a request, with the request's context (which says whether it has committed a write). */
export type Held = HeldKey & { writes?: RequestContext };

/** Why a request whose key was done cannot be answered again: its answer was not kept. */
function notKept(status: number, erased: boolean): AppError {
  if (erased) {
    return new AppError('IDEMPOTENCY_ANSWER_NOT_KEPT', `The request with this Idempotency-Key was done (status ${status}), but its answer named a person since erased and is not kept`);
  }
  if (status >= 200 && status < 500) {
    return new AppError('IDEMPOTENCY_ANSWER_NOT_KEPT', `The request with this Idempotency-Key was done (status ${status}), but its answer was too large to keep`);
  }
  const answered = status === 0 ? 'its client left before the answer' : `its answer (status ${status}) came before the read models had caught up`;
  return new AppError(
    'IDEMPOTENCY_ANSWER_NOT_KEPT',
    `The request with this Idempotency-Key was done: its write was saved, but ${answered}, and that answer is not kept. Read the resource to see the result; sent again with a new key, it would be written twice`,
  );
}

/** Whether a header's value is a usable key. */
export function isValidIdempotencyKey(value: string): boolean {
  return KEY.test(value);
}

/**
 * Who a key belongs to: the company and workspace, the user, and the credential acting for them (an API
 * key, an OAuth client), so two callers' equal keys never meet.
 */
export function idempotencyScope(principal: Principal, workspace: ActiveWorkspace | null): string {
  const credential = principal.clientId ? `client:${principal.clientId}` : principal.credentialId ? `${principal.credential ?? 'key'}:${principal.credentialId}` : 'user';
  return `c${principal.companyId}/w${workspace?.id ?? '-'}/u${principal.userId}/${credential}`;
}

/**
 * What makes two requests the same: method, URL and body. A parsed JSON body counts by its canonical
 * text (the order of keys aside), text and bytes as they are; a multipart body is not read before its
 * handler, so it counts by its `Content-Type` (with the boundary) and `Content-Length`: a retry must
 * send the same bytes, as a client resending its request does.
 */
export function requestFingerprint(request: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'body'>): string {
  const hash = createHash('sha256').update(`${request.method}\0${request.url}\0`);
  const type = String(request.headers['content-type'] ?? '');
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (media.startsWith('multipart/')) return hash.update(`${type}\0${String(request.headers['content-length'] ?? '')}`).digest('hex');
  hash.update(`${media}\0`);
  const body = request.body;
  if (body === undefined || body === null) return hash.digest('hex');
  if (Buffer.isBuffer(body)) hash.update(body);
  else if (typeof body === 'string') hash.update(`text\0${body}`);
  else hash.update(`json\0${canonicalJson(body)}`);
  return hash.digest('hex');
}

const inScope = (path: string): boolean => PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));

/** The bytes of an answer as `onSend` sees it; null for a stream (not kept). */
function answerBytes(payload: unknown): Buffer | null {
  if (payload === undefined || payload === null) return Buffer.alloc(0);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (Buffer.isBuffer(payload)) return payload;
  return null;
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** What a kept answer is sealed under: its scope and key. */
const answerContext = (held: { scope: string; key: string }) => `idempotency:${held.scope}:${held.key}`;

/**
 * After a person's erasure: every answer their company's requests had kept that names them (holds one of
 * `texts`, their address, name or username, in any letter case), and every answer to their own requests, is kept no
 * longer — a repeat of its key is 409 `IDEMPOTENCY_ANSWER_NOT_KEPT` saying why, and runs nothing. Answers
 * are sealed, so each of the company's is opened to be read. Answers the count of forgotten ones.
 */
export async function forgetAnswersNaming(
  db: Database,
  box: IdempotencyOptions['box'],
  person: { companyId: number; userId: number; texts: readonly string[] },
): Promise<number> {
  const store = new IdempotencyStore(db, { ttlMs: 0, inFlightMs: 0 });
  const texts = person.texts.filter((t) => t.length > 0).flatMap((t) => [t.toLowerCase(), JSON.stringify(t).slice(1, -1).toLowerCase()]);
  const own = `/u${person.userId}/`;
  let forgotten = 0;
  for await (const answer of store.keptAnswersOf(person.companyId)) {
    let names = answer.scope.includes(own);
    if (!names) {
      try {
        const text = Buffer.from(box.open(answer.body, answerContext(answer)), 'base64').toString('utf8').toLowerCase();
        names = texts.some((t) => text.includes(t));
      } catch {
        // Sealed under a key this process does not have: it cannot be read, here or by a repeat here; forget it.
        names = true;
      }
    }
    if (names) {
      await store.forgetErased(answer);
      forgotten++;
    }
  }
  return forgotten;
}

/**
 * `Idempotency-Key` on the public APIs' POSTs (docs/api-conventions.md, "Idempotency"), in the process
 * that runs the handler, after access control (the caller is known): the first request with a key
 * claims it and its 2xx or 4xx answer is kept; a repeat with the same request gets that answer again
 * (`Idempotent-Replayed: true`) without running the handler; another request with the key is 422
 * `IDEMPOTENCY_KEY_REUSED`; a repeat while the first runs is 409 `IDEMPOTENCY_KEY_IN_USE`. A 5xx lets
 * the key go, unless the request had committed a write before it (then a repeat is 409
 * `IDEMPOTENCY_ANSWER_NOT_KEPT`, never a second write). A route whose config says `idempotency: false` (the gateway's forwarding) is left to the
 * process it forwards to. A request without the header is not touched.
 */
export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const store = new IdempotencyStore(options.db, { ttlMs: options.ttlMs, inFlightMs: options.inFlightMs });
  const gatewayPath = options.gatewayPath ?? ((url: string) => url);
  app.decorateRequest('idempotencyKey', null);

  // Every hook returns at once, without a promise, for a request that holds no key (nearly all of them).
  app.addHook('preValidation', (request, reply, done) => {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || request.method !== 'POST' || !request.routeOptions.url) return done();
    if (request.routeOptions.config.idempotency === false || !inScope(gatewayPath(request.url))) return done();
    // A request answered from the hook (its kept answer sent) goes no further down this chain.
    admit(request, reply, Array.isArray(header) ? header.join(', ') : header).then((answered) => {
      if (!answered) done();
    }, done);
  });

  /** Claims the key for this request, or answers for it: the kept answer, or why not. */
  const admit = async (request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> => {
    // A request without a caller (sign-in, a public mock service, whose callers' headers are theirs) has
    // nobody to keep an answer for: it runs as without a key, whatever the header says.
    if (!request.principal) return false;
    if (!isValidIdempotencyKey(key)) {
      throw new AppError('IDEMPOTENCY_KEY_INVALID', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)', { details: [{ path: 'Idempotency-Key', message: 'Not 1 to 255 visible ASCII characters' }] });
    }
    const scope = idempotencyScope(request.principal, request.workspace);
    const fingerprint = requestFingerprint(request);
    const claim = await store.claim(scope, key, fingerprint, options.now());
    if (claim.kind === 'claimed') {
      request.idempotencyKey = { scope, key, createdAt: claim.createdAt, writes: currentRequest() };
      return false;
    }
    if (claim.fingerprint !== fingerprint) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request (another body, method or path); send a new key for a new request');
    }
    if (claim.kind === 'running') {
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; try again shortly', { headers: { 'retry-after': '1' } });
    }
    if (claim.kind === 'not-kept') throw notKept(claim.status, claim.erased);
    let body: Buffer;
    try {
      body = Buffer.from(options.box.open(claim.body, answerContext({ scope, key })), 'base64');
    } catch (cause) {
      // Sealed under a key this process does not have (replicas with different SECRETS_KEYs).
      request.log.warn({ err: cause }, 'a kept idempotent answer does not open here');
      throw new AppError('IDEMPOTENCY_ANSWER_NOT_KEPT', `The request with this Idempotency-Key was done (status ${claim.status}); its answer cannot be read here`, { cause });
    }
    // Sent from the hook: the handler does not run (onSend does, holding nothing).
    void reply.code(claim.status).headers({ ...claim.headers, [REPLAYED_HEADER]: 'true' }).send(body);
    return true;
  };

  /**
   * Keeps the answer of the request holding `held` (2xx, 4xx), or lets the key go (anything else) —
   * unless the request had committed a write by then: its key is then kept as done, answer not kept, so
   * that a retry does not write it twice (a 503 because the read models had not caught up, say).
   */
  const keep = async (request: FastifyRequest, reply: FastifyReply, held: Held, payload: unknown): Promise<void> => {
    const status = reply.statusCode;
    try {
      const kept = (status >= 200 && status < 300) || (status >= 400 && status < 500);
      const bytes = kept ? answerBytes(payload) : null;
      if (!kept && held.writes?.committed) await store.completeUnkept(held, status);
      else if (!kept) await store.release(held);
      else if (bytes === null || bytes.length > options.maxAnswerBytes) await store.completeUnkept(held, status);
      else await store.complete(held, { status, headers: keptHeaders(reply), body: options.box.seal(bytes.toString('base64'), answerContext(held)) });
    } catch (err) {
      // The answer still goes out; the key stays held until the in-flight timeout lets a retry run.
      request.log.error({ err }, 'keeping an idempotent answer failed');
    }
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotencyKey;
    if (!held) return done(null, payload);
    request.idempotencyKey = null;
    void keep(request, reply, held, payload).then(() => done(null, payload));
  });

  // A request that ended without an answer (its client went away before one was sent) lets its key go,
  // unless it had committed a write (then it is done, with no answer to give: status 0).
  app.addHook('onResponse', (request, _reply, done) => {
    const held = request.idempotencyKey;
    if (!held) return done();
    request.idempotencyKey = null;
    (held.writes?.committed ? store.completeUnkept(held, 0) : store.release(held))
      .catch((err: unknown) => request.log.error({ err }, 'releasing an idempotency key failed'))
      .finally(() => done());
  });

  const every = options.sweepIntervalMs ?? 3_600_000;
  if (every > 0) {
    const sweeper = setIntervalOutsideTrace(() => {
      // One DELETE finds and removes what expired: a sweep that removed rows is a span, after the fact.
      inTick('idempotency.sweep', async (tick) => tick.count('rows.removed', await store.sweep(options.now()))).catch((err: unknown) => app.log.warn({ err }, 'sweeping idempotency keys failed'));
    }, every);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
  }
}

/** The OpenAPI parameter every POST of the public APIs documents (added to the document by `documentIdempotencyKey`). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency"',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
} as const;

/** Adds the `Idempotency-Key` header parameter to every POST of the public APIs in an OpenAPI document (in place). */
export function documentIdempotencyKey(document: object, gatewayPath: (url: string) => string = (url) => url): void {
  const doc = document as { paths?: Record<string, { post?: { parameters?: unknown[]; security?: unknown[] } } | undefined>; components?: { parameters?: Record<string, unknown> } };
  const components = (doc.components ??= {});
  components.parameters = { ...components.parameters, IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const post = item?.post;
    // An operation without credentials (sign-in, a public mock service) has no caller to keep answers for.
    if (!post || !inScope(gatewayPath(path)) || (Array.isArray(post.security) && post.security.length === 0)) continue;
    post.parameters = [...(post.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key this request holds until its answer is kept (shared/http/idempotency.ts). */
    idempotencyKey: Held | null;
  }
  interface FastifyContextConfig {
    /** `false`: this process does not honour `Idempotency-Key` on the route (the gateway's forwarding: the module does). */
    idempotency?: boolean;
  }
}
