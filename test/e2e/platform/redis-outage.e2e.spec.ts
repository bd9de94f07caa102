import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, redisServer, REDIS_SERVER_AVAILABLE, type Daemon } from '#test/helpers/daemon.js';
import { eventually } from '#test/helpers/df-farm.js';
import { signIn, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Redis is a cache and a counter store: the platform serves without it and comes back with it. A Redis
 * of the test's own (never the shared one) is flushed, stopped and started again empty under a server
 * on PostgreSQL. A logged-out token stays refused through all of it; a valid token reads and writes
 * while Redis is away; `/ready` says Redis is degraded and stays 200; what needs Redis (refreshing)
 * answers 503 quickly; everything is normal again once it is back.
 */
/** Longest a request may take while Redis is away: the adapter gives up at once on a closed connection, or after 5 s. */
const ANSWER_WITHIN_MS = 6_000;

let dir: string;
let redis: Daemon;
let redisPort: number;
let database: { url: string; drop: () => Promise<void> };
let server: TestServer;
let company: SignedUpCompany;

const timed = async <T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const started = Date.now();
  const result = await run();
  return { result, ms: Date.now() - started };
};

/** A fresh sign-in of the company's administrator: another session, its own tokens. */
const newSession = async () => {
  const r = await signIn(server.url, company.email, company.password);
  expect(r.status).toBe(200);
  return r.body as { token: string; refreshToken: string };
};

const me = (token: string) => http(server.url, 'GET', '/api/v1/users/me', { token });

describe.skipIf(!REDIS_SERVER_AVAILABLE)('the platform while Redis fails or loses its data', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qa-redis-outage-'));
    redisPort = await freePort();
    redis = redisServer(redisPort);
    await redis.start();
    database = await createTestDatabase('qa_redis_outage');
    server = await startTestServer({
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_KEY_PREFIX: 'qa-redis-outage:',
      AGENT_ENABLED: 'false',
      // Switched on, so their counters are exercised while Redis is away.
      RATE_LIMIT_PER_ADDRESS: '100000',
      RATE_LIMIT_PER_USER: '100000',
      DATA_DIR: dir,
    });
    company = await signUpCompany(server.url, 'redis-outage');
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await redis?.stop();
    await database?.drop().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a logged-out token refused after Redis loses every key (FLUSHALL)', async () => {
    const session = await newSession();
    expect((await me(session.token)).status).toBe(200);
    expect((await http(server.url, 'POST', '/api/v1/auth/logout', { token: session.token })).status).toBe(204);
    expect(errorCode(await me(session.token))).toBe('TOKEN_REVOKED');

    const client = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
    await client.connect();
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    // At once after the flush, while the cache is reloaded, and after it is complete again.
    const right = await me(session.token);
    expect(right.status, JSON.stringify(right.body)).toBe(401);
    expect(errorCode(right)).toBe('TOKEN_REVOKED');
    expect((await me(company.token)).status).toBe(200);
    await eventually(async () => {
      const probe = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
      await probe.connect();
      try {
        return (await probe.exists('qa-redis-outage:auth:revocations:complete')) === 1 ? true : undefined;
      } finally {
        probe.disconnect();
      }
    }, { what: 'the revocation cache reloaded' });
    expect(errorCode(await me(session.token))).toBe('TOKEN_REVOKED');
    // A refresh token lived only in Redis: lost with it, and refused (sign in again).
    const fresh = await newSession();
    const c2 = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
    await c2.connect();
    await c2.flushall().finally(() => c2.disconnect());
    const refreshed = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: fresh.refreshToken } });
    expect(refreshed.status).toBe(401);
    expect(errorCode(refreshed)).toBe('REFRESH_TOKEN_INVALID');
    expect((await me(fresh.token)).status).toBe(200);
  });

  it('answers a logout only once the event record holds it, even while an older transaction holds the log\'s safe head below it', { timeout: 60_000 }, async () => {
    const session = await newSession();
    const sid = (JSON.parse(Buffer.from(session.token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
    // An older transaction with an id, left open: the log's safe head stays below every event appended meanwhile.
    const older = new pg.Client({ connectionString: database.url });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      let answered = false;
      const logout = http(server.url, 'POST', '/api/v1/auth/logout', { token: session.token }).then((r) => {
        answered = r.status === 204;
        return r;
      });
      // The session's end is committed (and, before its answer, written to the cache) ...
      await eventually(async () => {
        const { rows } = await older.query(`SELECT 1 FROM es_events WHERE type = 'SignInSessionEnded' AND payload->>'signInSessionId' = $1`, [sid]);
        return rows.length === 1 ? true : undefined;
      }, { what: 'the session end committed' });
      // ... and then the cache loses everything. A token accepted now must be one whose logout was not answered yet.
      const flush = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
      await flush.connect();
      await flush.flushall().finally(() => flush.disconnect());
      const meanwhile = await me(session.token);
      if (meanwhile.status === 200) expect(answered, 'the logout was answered before the record held it').toBe(false);
      await older.query('COMMIT');
      expect([204, 503]).toContain((await logout).status);
    } finally {
      await older.end();
    }
    await eventually(async () => (errorCode(await me(session.token)) === 'TOKEN_REVOKED' ? true : undefined), { what: 'the logged-out token refused' });
  });

  it('serves reads and writes with a valid token while Redis is down, refuses logged-out tokens, says it is degraded, and recovers', { timeout: 120_000 }, async () => {
    const loggedOut = await newSession();
    expect((await http(server.url, 'POST', '/api/v1/auth/logout', { token: loggedOut.token })).status).toBe(204);
    const toEndDuringOutage = await newSession();
    const refreshable = await newSession();

    await redis.stop();
    const figures: Record<string, number> = {};

    const read = await timed(() => http(server.url, 'GET', '/api/v1/teams', { token: company.token }));
    expect(read.result.status, JSON.stringify(read.result.body)).toBe(200);
    figures.readMs = read.ms;
    const write = await timed(() => http(server.url, 'POST', '/api/v1/teams', { token: company.token, body: { name: 'made while Redis is down' } }));
    expect(write.result.status, JSON.stringify(write.result.body)).toBe(201);
    figures.writeMs = write.ms;
    const refused = await timed(() => me(loggedOut.token));
    expect(refused.result.status).toBe(401);
    expect(errorCode(refused.result)).toBe('TOKEN_REVOKED');
    figures.loggedOutRefusalMs = refused.ms;

    // A logout while Redis is down is recorded as an event and refused from then on.
    expect((await http(server.url, 'POST', '/api/v1/auth/logout', { token: toEndDuringOutage.token })).status).toBe(204);
    expect(errorCode(await me(toEndDuringOutage.token))).toBe('TOKEN_REVOKED');

    // Refresh tokens live in Redis: refreshing needs it, and says so quickly.
    const refresh = await timed(() => http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: refreshable.refreshToken } }));
    expect(refresh.result.status).toBe(503);
    expect(errorCode(refresh.result)).toBe('SERVICE_UNAVAILABLE');
    expect(refresh.result.headers.get('retry-after')).not.toBeNull();
    figures.refreshRefusalMs = refresh.ms;

    const ready = await timed(() => http(server.url, 'GET', '/ready'));
    expect(ready.result.status).toBe(200);
    expect(ready.result.body).toMatchObject({ status: 'degraded', degraded: ['redis'], checks: { keyValue: 'degraded', database: 'ok' } });
    figures.readyMs = ready.ms;
    const detail = await http(server.url, 'GET', '/health?detail=true');
    expect(detail.body.dependencies).toMatchObject({ status: 'degraded', checks: { keyValue: 'degraded' } });
    for (const [what, ms] of Object.entries(figures)) expect(ms, what).toBeLessThan(ANSWER_WITHIN_MS);

    // Back, empty (no persistence): a restart that lost its data.
    await redis.start();
    await eventually(async () => ((await http(server.url, 'GET', '/ready')).body.status === 'ready' ? true : undefined), { timeoutMs: 30_000, what: 'ready again' });
    expect(errorCode(await me(loggedOut.token))).toBe('TOKEN_REVOKED');
    expect(errorCode(await me(toEndDuringOutage.token))).toBe('TOKEN_REVOKED');
    expect((await me(company.token)).status).toBe(200);
    const again = await newSession();
    const refreshedAfter = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: again.refreshToken } });
    expect(refreshedAfter.status).toBe(200);
    process.stdout.write(`redis outage: ${JSON.stringify(figures)}\n`);
  });
});
