import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#shared/auth/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { migrateCheckpoints } from '#projections/checkpoints.js';
import { checkpointWaiter } from '#services/read-models.js';
import { createSqlEventStore, migrateSqlEventStore } from '../es/postgres-event-store.js';
import { handleCommand, type Decider } from '../es/decider.js';
import { installIdempotency } from './idempotency.js';
import { createHttpServer } from './server.js';

// The idempotency hook on a real server and a real (PGlite) database, with routes that count their
// runs: what is kept (2xx, 4xx), what is not (5xx: a retry runs again, unless a write was committed
// first), an answer too large to keep,
// text and multipart bodies, requests out of its reach, sealing, the in-flight timeout and the time to live.
// The caller is set by a test hook in place of the access control (tested on its own).

let db: Database;
let app: FastifyInstance;
let clock = Date.now();
const runs: Record<string, number> = {};
const ran = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);

beforeAll(async () => {
  db = await openPglite();
  app = await createHttpServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024 * 1024 });
  app.decorateRequest('principal', null);
  app.decorateRequest('workspace', null);
  app.addHook('onRequest', async (request) => {
    const user = request.headers['x-test-user'];
    if (typeof user !== 'string') return;
    request.principal = { kind: 'user', userId: Number(user), companyId: 1, tokenWorkspaceId: null, jti: 'j', exp: 0, iat: 0, issuedAtMs: 0 };
    request.workspace = { id: 7, companyId: 1, archived: false, modules: [] };
  });
  installIdempotency(app, { db, ttlMs: 3_600_000, inFlightMs: 60_000, maxAnswerBytes: 64, box: new SecretBox(randomBytes(32)), now: () => new Date(clock), sweepIntervalMs: 0 });
  app.post('/tmt/things', async (_request, reply) => reply.code(201).send({ n: ran('things') }));
  app.post('/tmt/refused', async (_request, reply) => reply.code(409).send({ code: 'NAME_TAKEN', n: ran('refused') }));
  app.post('/tmt/flaky', async () => {
    if (ran('flaky') === 1) throw new Error('broke');
    return { n: runs.flaky };
  });
  // A write committed, then a read model that stays behind past the wait: 503 after the commit.
  await migrateSqlEventStore(db);
  await migrateCheckpoints(db);
  await db.query(`INSERT INTO projection_checkpoints (name, position, version) VALUES ('lagging', 0, 1)`);
  const store = createSqlEventStore(db);
  const noter: Decider<{ type: 'Note' }, { type: 'Noted'; payload: { n: number } }, null> = { initialState: () => null, evolve: (x) => x, decide: () => [{ type: 'Noted', payload: { n: 1 } }] };
  app.post('/tmt/written', async () => {
    ran('written');
    const { position } = await handleCommand({ store, streamId: 'note-written', decider: noter, command: { type: 'Note' }, context: { now: new Date() }, load: async () => ({ state: null, revision: -1 }) });
    await checkpointWaiter(db, { timeoutMs: 0, pollMs: 1 }).waitFor(position!);
    return { n: runs.written };
  });
  app.post('/tmt/big', async () => ({ n: ran('big'), filler: 'x'.repeat(100) }));
  app.post('/tmt/slow', async () => {
    ran('slow');
    await new Promise<void>((resolve) => void waiting.push(resolve));
    return { n: runs.slow };
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post('/other/things', async () => ({ n: ran('other') }));
  await app.register(async (scope) => {
    await scope.register((await import('@fastify/multipart')).default);
    scope.post('/tmt/upload', async (request) => {
      const file = await request.file();
      return { n: ran('upload'), bytes: (await file!.toBuffer()).length };
    });
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

/** The slow requests waiting to answer. */
const waiting: (() => void)[] = [];
const releaseSlow = () => waiting.splice(0).forEach((release) => release());
beforeEach(() => {
  for (const k of Object.keys(runs)) delete runs[k];
  clock = Date.now();
});

const post = (url: string, key: string | undefined, body: unknown = { a: 1 }, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'x-test-user': '1', ...(key !== undefined ? { 'idempotency-key': key } : {}), ...(typeof body === 'string' || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });

describe('the idempotency hook', () => {
  it('keeps a 2xx and a 4xx answer, and counts a JSON body by its content whatever the order of its keys', async () => {
    const first = await post('/tmt/things', 'k-json', { a: 1, b: [1, 2] });
    const again = await app.inject({ method: 'POST', url: '/tmt/things', headers: { 'x-test-user': '1', 'idempotency-key': 'k-json', 'content-type': 'application/json' }, payload: '{"b":[1,2],"a":1}' });
    expect([first.statusCode, again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([201, 201, first.body, 'true']);
    const refused = await post('/tmt/refused', 'k-409');
    const refusedAgain = await post('/tmt/refused', 'k-409');
    expect([refused.statusCode, refusedAgain.statusCode, refusedAgain.body]).toEqual([409, 409, refused.body]);
    expect(runs).toEqual({ things: 1, refused: 1 });
  });

  it('keeps no 5xx: the retry runs the handler again', async () => {
    expect((await post('/tmt/flaky', 'k-5xx')).statusCode).toBe(500);
    const retry = await post('/tmt/flaky', 'k-5xx');
    expect([retry.statusCode, retry.json(), retry.headers['idempotent-replayed']]).toEqual([200, { n: 2 }, undefined]);
    expect((await post('/tmt/flaky', 'k-5xx')).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps the key of a request that failed after committing a write: the retry is 409 IDEMPOTENCY_ANSWER_NOT_KEPT, never a second write', async () => {
    const first = await post('/tmt/written', 'k-written');
    expect([first.statusCode, first.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(first.json().message).toMatch(/saved/);
    const retry = await post('/tmt/written', 'k-written');
    expect([retry.statusCode, retry.json().code]).toEqual([409, 'IDEMPOTENCY_ANSWER_NOT_KEPT']);
    expect(retry.json().message).toMatch(/write was saved.*status 503/);
    expect(runs.written).toBe(1);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM es_events WHERE stream_id = 'note-written'`);
    expect(rows[0]!.n).toBe(1);
    // A different request with the key is still told it is another one.
    expect((await post('/tmt/written', 'k-written', { a: 2 })).json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('records an answer over the size limit as done, and refuses its repeat with 409 IDEMPOTENCY_ANSWER_NOT_KEPT', async () => {
    expect((await post('/tmt/big', 'k-big')).statusCode).toBe(200);
    const again = await post('/tmt/big', 'k-big');
    expect([again.statusCode, again.json().code]).toEqual([409, 'IDEMPOTENCY_ANSWER_NOT_KEPT']);
    expect(again.json().message).toContain('status 200');
    expect(runs.big).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request runs, and the first answer once it is done', async () => {
    const first = post('/tmt/slow', 'k-slow');
    await expect.poll(() => runs.slow).toBe(1);
    const during = await post('/tmt/slow', 'k-slow');
    expect([during.statusCode, during.json().code, during.headers['retry-after']]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE', '1']);
    releaseSlow();
    expect((await first).statusCode).toBe(200);
    expect((await post('/tmt/slow', 'k-slow')).headers['idempotent-replayed']).toBe('true');
    expect(runs.slow).toBe(1);
  });

  it('lets a retry run once the first has held its key past the in-flight timeout (its process died)', async () => {
    const first = post('/tmt/slow', 'k-dead');
    await expect.poll(() => runs.slow).toBe(1);
    clock += 61_000;
    const taken = post('/tmt/slow', 'k-dead');
    await expect.poll(() => runs.slow).toBe(2);
    releaseSlow();
    expect((await taken).json()).toEqual({ n: 2 });
    expect((await first).statusCode).toBe(200);
    // The answer kept is the one of the request that held the key last.
    expect((await post('/tmt/slow', 'k-dead')).json()).toEqual({ n: 2 });
  });

  it('counts text bodies by their bytes, and a multipart body by its Content-Type and length', async () => {
    expect((await post('/tmt/things', 'k-text', 'hello', { 'content-type': 'text/plain' })).statusCode).toBe(201);
    expect((await post('/tmt/things', 'k-text', 'hello', { 'content-type': 'text/plain' })).headers['idempotent-replayed']).toBe('true');
    expect((await post('/tmt/things', 'k-text', 'hellO', { 'content-type': 'text/plain' })).json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const form = (boundary: string, text: string) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`);
    const upload = (boundary: string, text: string) => post('/tmt/upload', 'k-multipart', form(boundary, text), { 'content-type': `multipart/form-data; boundary=${boundary}` });
    const first = await upload('b1', 'abc');
    expect([first.statusCode, first.json()]).toEqual([200, { n: 1, bytes: 3 }]);
    expect((await upload('b1', 'abc')).headers['idempotent-replayed']).toBe('true');
    expect((await upload('b1', 'abcd')).json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(runs.upload).toBe(1);
  });

  it('leaves alone a request without the header, without a caller, or outside the public APIs', async () => {
    await post('/tmt/things', undefined);
    await post('/tmt/things', undefined);
    await app.inject({ method: 'POST', url: '/tmt/things', headers: { 'idempotency-key': 'k-anon', 'content-type': 'application/json' }, payload: '{}' });
    // Not even read: a caller-less route's headers are its callers' own (a public mock service's).
    const anonymous = await app.inject({ method: 'POST', url: '/tmt/things', headers: { 'idempotency-key': 'not a key', 'content-type': 'application/json' }, payload: '{}' });
    expect(anonymous.statusCode).toBe(201);
    await post('/other/things', 'k-other');
    await post('/other/things', 'k-other');
    expect(runs).toEqual({ things: 4, other: 2 });
  });

  it('keeps answers sealed and one key per caller; past its time to live a key names a new request', async () => {
    await post('/tmt/things', 'k-sealed', { secret: 'shown-once' });
    expect((await post('/tmt/things', 'k-sealed', { secret: 'shown-once' }, { 'x-test-user': '2' })).headers['idempotent-replayed']).toBeUndefined();
    const { rows } = await db.query<{ scope: string; body: string }>(`SELECT scope, body FROM idempotency_keys WHERE key = 'k-sealed' ORDER BY scope`);
    expect(rows.map((r) => r.scope)).toEqual(['c1/w7/u1/user', 'c1/w7/u2/user']);
    for (const r of rows) expect(r.body).toMatch(/^sealed:v1:/);
    const { rows: before } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys');
    expect(before[0]!.n).toBeGreaterThan(0);
    clock += 3_600_001;
    expect((await post('/tmt/things', 'k-sealed', { secret: 'shown-once' })).headers['idempotent-replayed']).toBeUndefined();
    expect(runs.things).toBe(3);
  });
});
