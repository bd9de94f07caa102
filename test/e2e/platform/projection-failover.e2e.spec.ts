import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { eventually } from '#test/helpers/df-farm.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Two projections runners as their own processes on one PostgreSQL database, and the organization
 * module in a third: one runner holds every projection's lease; killed with SIGKILL, the other takes
 * the leases over and the writes made after the kill reach the read models.
 */
const HANG = 180_000;
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let organization: TestServer;
const runners: ChildServer[] = [];
const dirs: string[] = [];

interface Lease {
  name: string;
  holder: string;
  mine: boolean;
}
const leases = async (runner: ChildServer): Promise<Lease[]> => (await http(runner.url, 'GET', '/health?detail=true')).body.projections as Lease[];

async function startRunner(): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-runner-'));
  dirs.push(dir);
  const runner = await startChildServer({ ...deployment.env, NODE_ENV: 'test', SERVICES: 'projections', DATA_DIR: dir });
  runners.push(runner);
  return runner;
}

beforeAll(async () => {
  deployment = await sharedDeployment();
}, HANG);

afterAll(async () => {
  await organization?.stop();
  for (const r of runners) {
    r.child.kill('SIGTERM');
    await r.exited;
  }
  await deployment?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, HANG);

describe('projections runners with leases', () => {
  it('hands every projection to the survivor when the holder is killed, and loses no acknowledged write', { timeout: HANG }, async () => {
    const first = await startRunner();
    const held = await eventually(async () => {
      const all = await leases(first);
      expect(all.length).toBeGreaterThan(10);
      expect(all.every((l) => l.mine)).toBe(true);
      return all;
    }, { timeoutMs: 60_000, what: 'the first runner holding every lease' });
    const second = await startRunner();
    // The second follows: it holds nothing while the first renews.
    const ready = await http(second.url, 'GET', '/ready');
    expect(ready.body.projections).toEqual({ applying: 0, following: held.length });

    organization = await startTestServer(deployment.env, ['organization']);
    const before = { email: 'before@example.com', password: 'before-password', name: 'B', companyName: 'Before' };
    expect((await http(organization.url, 'POST', '/api/v1/auth/signup', { body: before })).status).toBe(201);

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    // Written while no runner applies: durable (201), or refused for now because the read model is
    // behind (503); either way it reaches the read model once the survivor holds the leases.
    const after = { email: 'after@example.com', password: 'after-password', name: 'A', companyName: 'After' };
    const written = await http(organization.url, 'POST', '/api/v1/auth/signup', { body: after });
    expect([201, 503]).toContain(written.status);
    // First the survivor takes every lease (read from its /ready, which counts no sign-in attempt)...
    await eventually(async () => ((await http(second.url, 'GET', '/ready')).body.projections?.applying === held.length ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the survivor applying every projection',
    });
    // ...then the sign-up reaches the read model. Each sign-in tried before that is a failed one, and
    // five of them lock the account (LOGIN_MAX_FAILURES_PER_ACCOUNT), so the poll starts only now.
    await eventually(async () => {
      expect((await http(organization.url, 'POST', '/api/v1/auth/login', { body: { email: after.email, password: after.password } })).status).toBe(200);
      return true;
    }, { timeoutMs: 30_000, what: 'the sign-up made after the kill in the read model' });

    const taken = await leases(second);
    expect(taken.map((l) => l.name).sort()).toEqual(held.map((l) => l.name).sort());
    expect(taken.every((l) => l.mine)).toBe(true);
    expect((await http(second.url, 'GET', '/ready')).body.projections).toEqual({ applying: held.length, following: 0 });
    expect(second.logs.some((l) => l.msg === 'projection lease taken')).toBe(true);
    // The write acknowledged before the kill is still there.
    expect((await http(organization.url, 'POST', '/api/v1/auth/login', { body: { email: before.email, password: before.password } })).status).toBe(200);
  });
});
