import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemon, freePort, redisServer, type Daemon as Store } from '#test/helpers/daemon.js';
import { eventually } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * The platform's stores fail under load and come back: a PostgreSQL, a Redis and a NATS server of the
 * test's own (on ports of their own) are stopped and started again while a writer creates teams. While
 * PostgreSQL is away requests are refused cleanly (503 SERVICE_UNAVAILABLE, none waiting past the
 * adapters' time-outs); while Redis or NATS is away writes go on; the platform recovers by itself, and no
 * acknowledged write is lost.
 */
const PG_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort().at(-1);
  return version ? join(root, version, 'bin') : null;
})();
const available = PG_BIN !== null && existsSync('/usr/bin/redis-server') && existsSync('/usr/sbin/nats-server') && process.getuid?.() === 0;
/** Longest a request may take during an outage: the adapters give up after 5 s. */
const REFUSAL_WITHIN_MS = 8_000;

let dir: string;
let postgres: Store;
let redis: Store;
let nats: Store;
let server: TestServer;
let company: SignedUpCompany;

/** A writer creating teams one after another; what was acknowledged (201) must survive everything. */
const writer = {
  running: false,
  acknowledged: [] as string[],
  answers: [] as { at: number; status: number; code: string | undefined; ms: number }[],
  n: 0,
  async loop() {
    this.running = true;
    while (this.running) {
      const name = `team-${++this.n}`;
      const started = Date.now();
      const r = await Promise.race([
        http(server.url, 'POST', '/api/v1/teams', { token: company.token, body: { name } }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('hung')), 30_000).unref()),
      ]).catch(() => ({ status: 0, body: null, headers: new Headers() }));
      this.answers.push({ at: Date.now(), status: r.status, code: errorCode(r), ms: Date.now() - started });
      if (r.status === 201) this.acknowledged.push(name);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
};

/** Waits until the writer has seen `count` answers after `since` that satisfy `predicate`, in a row. */
const answersInARow = (since: number, count: number, predicate: (a: { status: number }) => boolean, what: string) =>
  eventually(
    async () => {
      const recent = writer.answers.filter((a) => a.at > since);
      return recent.length >= count && recent.slice(-count).every(predicate) ? recent : undefined;
    },
    { timeoutMs: 60_000, what },
  );

/** Stops a store, proves the refusals are clean, starts it again and measures the recovery. */
async function outage(store: Store, name: string): Promise<{ refusals: number; worstMs: number; recoveredInMs: number }> {
  const stopped = Date.now();
  await store.stop();
  const during = await answersInARow(stopped, 3, (a) => a.status !== 201, `requests refused while ${name} is down`);
  const refused = during.filter((a) => a.status !== 201);
  const restarted = Date.now();
  await store.start();
  const after = await answersInARow(restarted, 3, (a) => a.status === 201, `writes accepted again after ${name} is back`);
  const firstOk = after.find((a) => a.status === 201)!;
  return {
    refusals: refused.length,
    worstMs: Math.max(...refused.map((a) => a.ms)),
    recoveredInMs: firstOk.at - restarted,
    ...{ statuses: [...new Set(refused.map((a) => `${a.status} ${a.code}`))] },
  } as { refusals: number; worstMs: number; recoveredInMs: number };
}

describe.skipIf(!available)('the platform while its stores fail', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qa-faults-'));
    const [pgPort, redisPort, natsPort] = [await freePort(), await freePort(), await freePort()];
    const pgData = join(dir, 'pg');
    execFileSync('mkdir', ['-p', pgData]);
    chmodSync(dir, 0o755);
    execFileSync('chown', ['-R', 'postgres:postgres', pgData]);
    // PostgreSQL will not run as root: its processes run as the postgres user.
    const user = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    execFileSync(join(PG_BIN!, 'initdb'), ['-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync'], { stdio: 'ignore', ...user });
    postgres = daemon(join(PG_BIN!, 'postgres'), ['-D', pgData, '-p', String(pgPort), '-k', pgData, '-c', 'listen_addresses=127.0.0.1'], /ready to accept connections/, user);
    redis = redisServer(redisPort);
    nats = daemon('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', join(dir, 'nats')], /Server is ready/);
    await Promise.all([postgres.start(), redis.start(), nats.start()]);
    server = await startTestServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      AGENT_ENABLED: 'false',
    });
    company = await signUpCompany(server.url, 'faults');
  }, 120_000);

  afterAll(async () => {
    writer.running = false;
    await server?.stop().catch(() => undefined);
    for (const s of [nats, redis, postgres]) await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses cleanly during each outage, recovers by itself, and loses no acknowledged write', { timeout: 300_000 }, async () => {
    const writing = writer.loop();
    await eventually(async () => (writer.acknowledged.length >= 5 ? true : undefined), { what: 'the first writes' });
    const figures: Record<string, unknown> = {};
    for (const [name, store] of [['Redis', redis], ['PostgreSQL', postgres], ['NATS', nats]] as const) {
      if (name === 'NATS' || name === 'Redis') {
        // The bus carries device traffic only, and Redis is a cache and counter store (rate limits count
        // locally, tokens are checked against the event record): writes go on while either is away.
        const stopped = Date.now();
        await store.stop();
        await answersInARow(stopped, 5, (a) => a.status === 201, `writes while ${name} is down`);
        await store.start();
        await eventually(async () => ((await http(server.url, 'GET', '/ready')).body.status === 'ready' ? true : undefined), { timeoutMs: 60_000, what: `ready again after ${name} is back` });
        continue;
      }
      const result = await outage(store, name);
      figures[name] = result;
      expect(result.worstMs, `${name}: a refused request took ${result.worstMs} ms`).toBeLessThan(REFUSAL_WITHIN_MS);
      expect(new Set(writer.answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.code}`)), `${name} outage answers`).toEqual(new Set(['503 SERVICE_UNAVAILABLE']));
    }
    writer.running = false;
    await writing;
    process.stdout.write(`dependency faults: ${JSON.stringify(figures)}; ${writer.acknowledged.length} acknowledged writes\n`);
    // Every acknowledged team is there, once.
    const listed = await eventually(async () => {
      const r = await http(server.url, 'GET', '/api/v1/teams?size=1000', { token: company.token });
      const names = new Set(((r.body.content ?? r.body) as { name: string }[]).map((t) => t.name));
      return writer.acknowledged.every((n) => names.has(n)) ? names : undefined;
    }, { what: 'every acknowledged team listed' });
    expect(writer.acknowledged.filter((n) => !listed.has(n))).toEqual([]);
  });
});
