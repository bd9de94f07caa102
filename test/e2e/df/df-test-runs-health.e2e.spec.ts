import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedSuite, ScriptedTest } from '#test/adbd/instrument.js';
import { startConnectedPeer } from '#test/helpers/adb.js';
import { catalogued } from '#test/helpers/catalog.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { assembleFixtureDex, fixtureTestApk, haveDexTools, testManifest } from '#test/helpers/test-apk.js';
import { zipOf } from '#test/helpers/zip.js';

/**
 * A test run's shards count for their device's failed sessions in a row, end to end: one adbd test
 * device behind Debian's adb, the server's in-process agent on it, the fixture suite's test APK run on
 * it through `/df/api/test-runs`, the company's `failedSessionsMax` at 2. A shard whose device link
 * breaks mid-test ends `infrastructure-failed` and its session's outcome is failed; a shard that
 * completes — with a failing test among its tests — passes its session and breaks the count; two
 * broken shards in a row quarantine the device, naming why, and the next run finds no device.
 */
const ADMIN = { email: 'runs-health-admin@example.com', password: 'runs-health-password-1' };
const PKG = 'com.example.app';
const CUT = 'run shard: The device failed: DEVICE_UNREACHABLE: The connection to the device ended during ';
let server: TestServer;
let android: Awaited<ReturnType<typeof startConnectedPeer>>;
let token: string;
let deviceId: string;
let suite: ScriptedSuite;
const versions: { app?: string; tests?: string } = {};

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};
const healthOf = async (): Promise<{ state: string; reasons: string[] } | null> => (await api('GET', `/devices/${deviceId}`)).body.health;

/** Every runnable test of the suite does `outcome`; the first of them `first` (when given). */
function script(outcome: ScriptedTest['outcome'], first: ScriptedTest['outcome'] = outcome): void {
  const runnable = suite.tests.filter((t) => t.outcome.kind !== 'ignored');
  for (const t of runnable) t.outcome = t === runnable[0] ? first : outcome;
}

/**
 * Runs the whole suite on the one device and waits for the run's end, its shard's session's end and the
 * device to be free again (the failed-sessions check runs as the session closes, before the device is
 * freed): the run, its one shard and that session.
 */
async function runOnce(): Promise<{ run: { state: string }; shard: { state: string; reason: string | null }; session: { outcome: string | null; outcomeReason: string | null; endReason: string } }> {
  const created = await api('POST', '/test-runs', {
    name: 'shards and health',
    appVersionId: versions.app,
    testVersionId: versions.tests,
    devices: { platform: 'android' },
    strategy: { sharding: 'uniform', batchSize: 5, retries: 0, testTimeoutSeconds: 5 },
  });
  expectStatus(created, 202);
  const run = await eventually(async () => {
    const r = (await api('GET', `/test-runs/${created.body.id}`)).body;
    return r.endedAt && r.shards.every((s: { sessionId: string | null }) => s.sessionId) ? r : undefined;
  }, { what: `run ${created.body.id} to end`, timeoutMs: 60_000 });
  expect(run.shards).toHaveLength(1);
  const shard = run.shards[0];
  const session = await eventually(async () => {
    const s = (await api('GET', `/sessions/${shard.sessionId}`)).body;
    return s.endedAt ? s : undefined;
  }, { what: `session ${shard.sessionId} to end`, timeoutMs: 20_000 });
  await eventually(async () => ((await api('GET', `/devices/${deviceId}`)).body.status === 'available' ? true : undefined), { what: 'the device free again', timeoutMs: 20_000 });
  return { run, shard, session };
}

describe.skipIf(!haveDexTools())('test run shards and the failed sessions in a row', () => {
  beforeAll(async () => {
    android = await startConnectedPeer({ model: 'Shard Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    server = await startTestServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'runs-health-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: android.adb.port, uiautomator2: false }, devices: [] }),
    });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    deviceId = await eventually(async () => ((await api('GET', '/devices?platform=android')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, {
      what: 'the android device available',
      timeoutMs: 60_000,
    });
    const dex = await assembleFixtureDex();
    versions.app = (await catalogued(server.url, token, 'app.apk', zipOf([['AndroidManifest.xml', testManifest(PKG)], ['classes.dex', dex.get('classes.dex')!]]))).versionId;
    versions.tests = (await catalogued(server.url, token, 'app-androidTest.apk', await fixtureTestApk())).versionId;
    const listing = await api('GET', `/files/app-versions/${versions.tests}/tests`);
    expectStatus(listing, 200);
    suite = {
      testPackage: `${PKG}.test`,
      runner: listing.body.runner,
      targetPackage: listing.body.targetPackage,
      tests: (listing.body.tests as { className: string; methodName: string; annotations: string[]; ignored: boolean }[]).map((t) => ({
        className: t.className,
        methodName: t.methodName,
        annotations: t.annotations,
        outcome: t.ignored ? { kind: 'ignored' } : { kind: 'pass' },
        durationMs: 40,
      })),
    };
    android.peer.scriptSuite(suite);
    const rules = await api('PUT', '/fleet/health-rules', { batteryMinPercent: 15, temperatureMaxC: 45, storageMinMb: 500, failedSessionsMax: 2 });
    expectStatus(rules, 200);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await android?.stop();
  });

  it('counts a broken shard as a failed session and a completed one as passed; two broken in a row quarantine the device naming why', async () => {
    // The link to the device breaks in the first test: the shard ends infrastructure-failed (no device
    // left for its tests: the run ends in error) and its session's outcome is failed, naming why.
    script({ kind: 'cut' });
    const first = await runOnce();
    expect(first.shard.state).toBe('infrastructure-failed');
    expect(first.run.state).toBe('error');
    expect(first.session).toMatchObject({ outcome: 'failed', endReason: 'test-run-finished' });
    expect(first.session.outcomeReason).toContain(CUT);
    expect((await healthOf())?.state ?? 'unread').not.toBe('quarantined');

    // Every test runs, one fails: the run failed, but the shard completed and its session passed.
    script({ kind: 'pass' }, { kind: 'fail', message: 'expected 4 but was 5' });
    const second = await runOnce();
    expect(second.run.state).toBe('failed');
    expect(second.shard.state).toBe('completed');
    expect(second.session).toMatchObject({ outcome: 'passed', outcomeReason: 'run shard: completed', endReason: 'test-run-finished' });

    // Broken again: one failed since the passed one, below 2.
    script({ kind: 'cut' });
    const third = await runOnce();
    expect(third.shard.state).toBe('infrastructure-failed');
    expect(third.session.outcome).toBe('failed');
    expect((await healthOf())?.state ?? 'unread').not.toBe('quarantined');

    // And again: two in a row, the device is quarantined naming why, and the next run finds no device.
    const fourth = await runOnce();
    expect(fourth.shard.state).toBe('infrastructure-failed');
    const held = await eventually(async () => {
      const h = await healthOf();
      return h?.state === 'quarantined' ? h : undefined;
    }, { what: 'the device quarantined' });
    expect(held.reasons).toHaveLength(1);
    expect(held.reasons[0]).toContain(`2 sessions in a row failed; the last: outcome failed: ${CUT}`);
    const refused = await api('POST', '/test-runs', { appVersionId: versions.app, testVersionId: versions.tests, devices: { platform: 'android' } });
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('quarantined: 2 sessions in a row failed');
  }, 240_000);
});
