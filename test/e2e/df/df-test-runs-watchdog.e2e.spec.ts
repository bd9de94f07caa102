import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectedPeer } from '#test/helpers/adb.js';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { catalogueHangingSuite, haveDexTools } from '#test/helpers/test-apk.js';

/**
 * Never busy for nothing, for a test run: two replicas of one deployment (one PostgreSQL database,
 * Redis, NATS). Replica B runs the device host (an adbd test device behind Debian's adb); replica A, a
 * process of its own, runs a test run whose one test hangs on that device. A is killed (SIGKILL: nothing
 * ends the shard). Nothing vouches for the shard's session any more, so B's busy-device watchdog ends it
 * `abandoned` and the device is available again; the audit and the session's timeline name the
 * watchdog; B's run sweeper then ends the run, which no process holds, in error.
 */
const ADMIN = { email: 'runs-watchdog@example.com', password: 'runs-watchdog-password' };
const PERIOD_MS = 500;
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let android: Awaited<ReturnType<typeof startConnectedPeer>>;
let dataDir: string;
let b: TestServer;
let a: ChildServer | null = null;

beforeAll(async () => {
  if (!haveDexTools()) return;
  deployment = await sharedDeployment();
  android = await startConnectedPeer({ model: 'Orphan Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
  // One data directory for both, as a volume both replicas mount: the catalogued builds are blobs in it.
  dataDir = mkdtempSync(join(tmpdir(), 'runs-watchdog-'));
  const shared = { ...deployment.env, DATA_DIR: dataDir, DF_WATCHDOG_PERIOD: `${PERIOD_MS}ms` };
  b = await startTestServer({
    ...shared,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'orphan-node', heartbeatMs: 300, android: { adbHost: '127.0.0.1', adbPort: android.adb.port, uiautomator2: false }, devices: [] }),
  });
  a = await startChildServer({ ...shared, AGENT_ENABLED: 'false' });
}, 180_000);

afterAll(async () => {
  if (a && a.child.exitCode === null && a.child.signalCode === null) {
    a.child.kill('SIGTERM');
    await a.exited;
  }
  await b?.stop();
  await android?.stop();
  await deployment?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!haveDexTools())("a test run shard whose replica died", () => {
  it('is ended abandoned by the watchdog of another replica, which gives its device back; the run then ends in error', { timeout: 300_000 }, async () => {
    const token = (await http(b.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const on = (server: { url: string }) => (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const apiA = on(a!), apiB = on(b);
    const device = async () => ((await apiB('GET', '/devices?platform=android')).body.content as { id: string; status: string }[])[0];
    await eventually(async () => ((await device())?.status === 'available' ? true : undefined), { what: 'the device', timeoutMs: 120_000 });

    const { appVersionId: app, testVersionId: tests, hung } = await catalogueHangingSuite(b.url, token, android.peer);

    // The run lives in replica A, the process that started it.
    const created = await apiA('POST', '/test-runs', { name: 'orphaned', appVersionId: app, testVersionId: tests, devices: { platform: 'android' }, tests: { classes: [hung.className] }, strategy: { testTimeoutSeconds: 600 } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const runId = created.body.id as string;
    const running = await eventually(async () => {
      const r = (await apiB('GET', `/test-runs/${runId}`)).body;
      return r.shards?.[0]?.currentTest === `${hung.className}#${hung.methodName}` ? r : undefined;
    }, { what: 'the hanging test to run', timeoutMs: 60_000 });
    const sessionId = running.shards[0].sessionId as string;
    // Held by its live shard, the session outlasts many of the watchdog's periods while the test hangs.
    await eventually(async () => {
      const s = (await apiB('GET', `/sessions/${sessionId}`)).body;
      expect(s.status).toBe('active');
      return Date.now() - Date.parse(s.lastActivityAt) > 6 * PERIOD_MS ? true : undefined;
    }, { what: 'the session silent for six periods, still open' });
    expect((await device())!.status).toBe('in_use');

    a!.child.kill('SIGKILL');
    await a!.exited;

    const session = await eventually(async () => {
      const s = (await apiB('GET', `/sessions/${sessionId}`)).body;
      return s.endedAt ? s : undefined;
    }, { what: 'the shard session to end', timeoutMs: 60_000 });
    expect(session.endReason).toBe('abandoned');
    await eventually(async () => ((await device())?.status === 'available' ? true : undefined), { what: 'the device available again', timeoutMs: 60_000 });
    await eventually(async () => {
      const events = (await http(b.url, 'GET', `/api/v1/audit/events?sessionId=${sessionId}&size=50`, { token })).body.content as { eventType: string; actorName: string | null }[];
      return events.find((e) => e.eventType === 'DeviceSessionEnded')?.actorName === 'watchdog' ? true : undefined;
    }, { what: 'the audited end, by the watchdog' });
    const timeline = (await apiB('GET', `/sessions/${sessionId}/activities?kind=lifecycle&size=100`)).body.content as { detail: Record<string, unknown>; actorId: string | null }[];
    expect(timeline.find((e) => e.detail.event === 'abandoned')).toMatchObject({ detail: { holder: 'run-shard' }, actorId: 'watchdog' });

    const run = await eventually(async () => {
      const r = (await apiB('GET', `/test-runs/${runId}`)).body;
      return r.state !== 'running' && r.state !== 'queued' ? r : undefined;
    }, { what: 'the orphaned run to end', timeoutMs: 60_000 });
    expect(run.state).toBe('error');
    expect(run.reason).toMatch(/stopped before it ended/);
  });
});
