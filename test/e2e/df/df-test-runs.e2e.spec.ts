import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sax from 'sax';
import type { ScriptedSuite, ScriptedTest } from '#test/adbd/instrument.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { catalogued } from '#test/helpers/catalog.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { freshDfctlConfig, runDfctl } from '#test/helpers/dfctl.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { assembleFixtureDex, fixtureTestApk, haveDexTools, testManifest } from '#test/helpers/test-apk.js';
import { zipOf } from '#test/helpers/zip.js';

/**
 * Test runs end to end: three adbd test devices behind Debian's adb, the server's in-process agent on
 * them, and the fixture suite's test APK run over all three through `/df/api/test-runs`. Every device
 * plays the same scripted suite, so a flaky test's attempts count across devices: it fails once and
 * passes on its retry elsewhere. Outcomes, the JUnit XML, the devices given back after the run and
 * after a cancel, and refused requests that start nothing.
 */
const ADMIN = { email: 'runs-admin@example.com', password: 'runs-password-1' };
const QUOTA = 3;
const PKG = 'com.example.app';
let server: TestServer;
let adb: AdbServer;
const peers: AdbdPeer[] = [];
const serials: string[] = [];
let token: string;
const versions: { app?: string; tests?: string } = {};
let suite: ScriptedSuite;
const picks: { fail?: string; crash?: string; hang?: string; flaky?: string } = {};
/** The two builds as files on disk, for dfctl run. */
const files: { app?: string; tests?: string } = {};
/** The first run's id: the console opens it. */
let firstRunId: string;

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });

const catalogue = async (name: string, bytes: Buffer) => (await catalogued(server.url, token, name, bytes)).versionId;

const androidDevices = async () => (await api('GET', '/devices?platform=android&size=50')).body.content as { id: string; status: string }[];
/** Polls until every Android device is available again. */
const allAvailable = () =>
  eventually(async () => {
    const list = await androidDevices();
    return list.length === 3 && list.every((d) => d.status === 'available') ? true : undefined;
  }, { what: 'every device available again', timeoutMs: 20_000 });
const finished = (id: string, timeoutMs = 90_000) =>
  eventually(async () => {
    const r = await api('GET', `/test-runs/${id}`);
    return ['passed', 'failed', 'error', 'cancelled'].includes(r.body.state) ? r.body : undefined;
  }, { what: `run ${id} to end`, timeoutMs });

/**
 * Each of a run's device sessions ended (giving its device back) within 2 s of the run's end, as the
 * platform recorded both: the session's `endedAt` against the run's.
 */
async function givenBackWithin2s(runId: string): Promise<void> {
  const run = await eventually(async () => {
    const r = (await api('GET', `/test-runs/${runId}`)).body;
    return r.endedAt && r.shards.every((s: { sessionId: string | null }) => s.sessionId) ? r : undefined;
  }, { what: `run ${runId}'s end and sessions`, timeoutMs: 20_000 });
  for (const shard of run.shards as { sessionId: string }[]) {
    const session = await eventually(async () => {
      const s = (await api('GET', `/sessions/${shard.sessionId}`)).body;
      return s.endedAt ? s : undefined;
    }, { what: `session ${shard.sessionId} to end`, timeoutMs: 20_000 });
    expect(session.endReason).toBe('test-run-finished');
    expect(Date.parse(session.endedAt) - Date.parse(run.endedAt), `session ${shard.sessionId}`).toBeLessThanOrEqual(2_000);
  }
}

/** The counts of a JUnit XML document's root, read by a real XML parser (which throws on malformed XML). */
function junitTotals(xml: string) {
  const parser = sax.parser(true);
  let root: Record<string, string> | null = null;
  let cases = 0;
  parser.onopentag = (node) => {
    if (node.name === 'testsuites') root = node.attributes as Record<string, string>;
    if (node.name === 'testcase') cases += 1;
  };
  parser.write(xml).close();
  return { root: root as Record<string, string> | null, cases };
}

const key = (t: { className: string; methodName: string }) => `${t.className}#${t.methodName}`;

describe.skipIf(!haveDexTools())('test runs across three android devices', () => {
  beforeAll(async () => {
    adb = await startAdbServer();
    for (const n of [1, 2, 3]) {
      const { peer, port } = await startPeer({ model: `Runner Phone ${n}`, manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
      peers.push(peer);
      serials.push(await adb.connect(port));
    }
    server = await startTestServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      DF_QUOTA_CONCURRENT_SESSIONS: String(QUOTA),
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'runs-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }),
    });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    await eventually(async () => ((await androidDevices()).length === 3 ? true : undefined), { what: 'three android devices', timeoutMs: 60_000 });
    const dex = await assembleFixtureDex();
    const appBytes = zipOf([['AndroidManifest.xml', testManifest(PKG)], ['classes.dex', dex.get('classes.dex')!]]);
    const testBytes = await fixtureTestApk();
    versions.app = await catalogue('app.apk', appBytes);
    versions.tests = await catalogue('app-androidTest.apk', testBytes);
    const dir = mkdtempSync(join(tmpdir(), 'runs-apks-'));
    [files.app, files.tests] = [join(dir, 'app.apk'), join(dir, 'app-androidTest.apk')];
    writeFileSync(files.app, appBytes);
    writeFileSync(files.tests, testBytes);
    const listing = await api('GET', `/files/app-versions/${versions.tests}/tests`);
    expect(listing.status).toBe(200);
    const runnable = (listing.body.tests as { className: string; methodName: string; ignored: boolean }[]).filter((t) => !t.ignored).map(key);
    // Dealt round-robin over three devices, the tests at multiples of 3 share the first device: the
    // flaky and failing tests fail there first and are retried elsewhere before its crash and hang
    // (at its end) send the crashed and hung tests' retries to the other devices.
    const last = 3 * Math.floor((runnable.length - 1) / 3);
    [picks.flaky, picks.fail, picks.crash, picks.hang] = [runnable[0]!, runnable[3]!, runnable[last - 3]!, runnable[last]!];
    const outcomeOf = (k: string, ignored: boolean): ScriptedTest['outcome'] => {
      if (ignored) return { kind: 'ignored' };
      if (k === picks.fail) return { kind: 'fail', message: 'expected 4 but was 5' };
      if (k === picks.crash) return { kind: 'crash' };
      if (k === picks.hang) return { kind: 'hang' };
      if (k === picks.flaky) return { kind: 'flaky', failures: 1 };
      return { kind: 'pass' };
    };
    suite = {
      testPackage: `${PKG}.test`,
      runner: listing.body.runner,
      targetPackage: listing.body.targetPackage,
      tests: (listing.body.tests as { className: string; methodName: string; annotations: string[]; ignored: boolean }[]).map((t) => ({
        className: t.className,
        methodName: t.methodName,
        annotations: t.annotations,
        outcome: outcomeOf(key(t), t.ignored),
        durationMs: 60,
        logcat: [`running ${key(t)}`],
      })),
    };
    for (const peer of peers) peer.scriptSuite(suite);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await adb?.stop();
    for (const p of peers) await p.close();
  });

  const request = (extra: Record<string, unknown> = {}) => ({
    name: 'nightly',
    appVersionId: versions.app,
    testVersionId: versions.tests,
    devices: { platform: 'android' },
    strategy: { sharding: 'uniform', batchSize: 5, retries: 1, testTimeoutSeconds: 2 },
    ...extra,
  });

  it('runs the suite over the three devices: passes, a failure with its stack, a crash, a hang, a flaky test', async () => {
    const project = await http(server.url, 'POST', '/v1/projects', { token, body: { name: 'Android app', key: 'ANDR' } });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const projectId = project.body.data.id as string;
    const created = await api('POST', '/test-runs', request({ projectId }));
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body).toEqual({ id: expect.any(String), state: 'queued' });
    const run = await finished(created.body.id);
    firstRunId = run.id;
    const rows = (await api('GET', `/test-runs/${run.id}/tests`)).body as { className: string; methodName: string; deviceId: string | null; attempt: number; outcome: string; message: string | null; stack: string | null }[];
    const of = (k: string) => rows.filter((r) => key(r) === k).sort((a, b) => a.attempt - b.attempt);
    const ignored = suite.tests.filter((t) => t.outcome.kind === 'ignored').length;
    const total = suite.tests.length;
    expect(run.state, JSON.stringify(run)).toBe('failed');
    expect(run.counts).toEqual({ total, passed: total - ignored - 4, failed: 3, flaky: 1, skipped: ignored, notRun: 0 });
    expect(run.shards.map((s: { state: string }) => s.state)).toEqual(['completed', 'completed', 'completed']);

    const fail = of(picks.fail!);
    expect(fail.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(fail[0]!.stack).toContain('java.lang.AssertionError: expected 4 but was 5');
    // Evidence per attempt: the test's own device log lines, and a screenshot of a failure that downloads as a PNG.
    const evidence = rows as unknown as { logcat: string[]; artifacts: { name: string; url?: string }[]; outcome: string; className: string; methodName: string }[];
    for (const r of evidence.filter((x) => x.outcome === 'passed')) {
      expect(r.logcat.some((l) => l.includes(`running ${key(r)}`)), key(r)).toBe(true);
      expect(r.logcat.filter((l) => l.includes('running ')), key(r)).toHaveLength(1);
      expect(r.artifacts).toEqual([]);
    }
    const failed = evidence.find((x) => key(x) === picks.fail)!;
    expect(failed.artifacts).toHaveLength(1);
    const png = await fetch(new URL(failed.artifacts[0]!.url!, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await png.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect(fail[0]!.deviceId, JSON.stringify(rows.filter((r) => r.outcome !== 'passed').map((r) => [key(r), r.attempt, r.outcome, r.deviceId, r.message]), null, 1)).not.toBe(fail[1]!.deviceId);
    const crash = of(picks.crash!);
    expect(crash.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(crash[0]!.message).toContain('process died');
    const hang = of(picks.hang!);
    expect(hang.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(hang[0]!.message).toMatch(/No end within 2 s|No result within the test time-out of 2 s/);
    const flaky = of(picks.flaky!);
    expect(flaky.map((r) => r.outcome)).toEqual(['failed', 'flaky']);
    expect(flaky[0]!.deviceId).not.toBe(flaky[1]!.deviceId);
    // Every other test ran once and passed: the tests after the crash and the hang still ran.
    for (const t of suite.tests.filter((t) => t.outcome.kind === 'pass')) expect(of(key(t)).map((r) => r.outcome), key(t)).toEqual(['passed']);

    const junit = await fetch(new URL(`/df/api/test-runs/${run.id}/junit`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(junit.headers.get('content-type')).toContain('application/xml');
    const { root, cases } = junitTotals(await junit.text());
    expect(root).toMatchObject({ tests: String(total), failures: '3', errors: '0', skipped: String(ignored) });
    expect(cases).toBe(total);

    const report = await fetch(new URL(`/df/api/test-runs/${run.id}/report`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(report.headers.get('content-type')).toContain('text/html');
    const html = await report.text();
    expect(html).toContain('Timeline per device');
    expect(html).toContain('flaky test');
    expect(html).not.toMatch(/<script/i);
    await givenBackWithin2s(run.id);
    await allAvailable();
    // Each device's part ran in a session of its own, ended with the run.
    const sessions = (await api('GET', '/sessions?size=100')).body.content as { id: string; deviceId: string; endReason: string | null }[];
    const ends = sessions.filter((x) => x.endReason === 'test-run-finished');
    expect(new Set(ends.map((x) => x.deviceId)).size).toBe(3);

    // The results went into a new, completed test session of the project: one result per test and
    // attempt, on the device session that ran it, the retries and the flaky pass among them.
    const filed = await eventually(async () => ((await api('GET', `/test-runs/${run.id}`)).body.testSessionId as string | null) ?? undefined, { what: 'the results filed', timeoutMs: 30_000 });
    const v1 = (path: string) => http(server.url, 'GET', path, { token });
    const testSession = await v1(`/v1/test-sessions/${filed}`);
    expect(testSession.body.data).toMatchObject({ projectId, status: 'completed', name: 'Test run nightly' });
    const results: { status: string; notes: string | null; title: string; deviceSessionId: string | null }[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const r = await v1(`/v1/test-sessions/${filed}/results?history=true&limit=100&page=${page}`);
      results.push(...r.body.data);
      pages = Math.ceil(r.body.pagination.total / 100);
    }
    expect(results).toHaveLength(rows.length);
    const title = (k: string) => k.replace('#', ' › ');
    const flakyResults = results.filter((r) => r.title === title(picks.flaky!));
    expect(flakyResults.map((r) => r.status).sort()).toEqual(['failed', 'passed']);
    expect(flakyResults.find((r) => r.status === 'passed')!.notes).toContain('flaky');
    const sessionIds = new Set(ends.map((x) => x.id));
    expect(new Set(flakyResults.map((r) => r.deviceSessionId)).size).toBe(2);
    for (const r of flakyResults) expect(sessionIds.has(r.deviceSessionId!)).toBe(true);
    expect(results.filter((r) => r.title === title(picks.fail!)).map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(results.filter((r) => r.status === 'skipped')).toHaveLength(ignored);

    const other = await signUpCompany(server.url, 'runs-other');
    expect((await api('GET', `/test-runs/${run.id}`, undefined, other.token)).status).toBe(404);
    expect((await api('POST', `/test-runs/${run.id}/cancel`, undefined, other.token)).status).toBe(404);
    const list = await api('GET', '/test-runs?state=failed');
    expect(list.body.content.map((r: { id: string }) => r.id)).toContain(run.id);
  }, 180_000);

  it('cancels a run: its tests stop and every device is available again', async () => {
    await allAvailable();
    const created = await api('POST', '/test-runs', request({ tests: { classes: [picks.hang!] }, strategy: { testTimeoutSeconds: 120, retries: 0 } }));
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    await eventually(async () => {
      const r = await api('GET', `/test-runs/${created.body.id}`);
      return r.body.shards?.some((s: { currentTest: string | null }) => s.currentTest === picks.hang) ? true : undefined;
    }, { what: 'the hanging test to run', timeoutMs: 60_000 });
    const cancelled = await api('POST', `/test-runs/${created.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ id: created.body.id, state: 'cancelled' });
    expect((await api('GET', `/test-runs/${created.body.id}`)).body.counts).toMatchObject({ total: 1, notRun: 1 });
    await givenBackWithin2s(created.body.id);
    await allAvailable();
  }, 120_000);

  it('refuses what it cannot run with stable codes, and starts nothing', async () => {
    await allAvailable();
    const before = (await api('GET', '/test-runs')).body.totalElements;
    const notTests = await api('POST', '/test-runs', request({ testVersionId: versions.app }));
    expect([notTests.status, notTests.body.code]).toEqual([409, 'NOT_A_TEST_APK']);
    const noDevice = await api('POST', '/test-runs', request({ devices: { platform: 'android', models: ['No Such Phone'] } }));
    expect([noDevice.status, noDevice.body.code]).toEqual([409, 'NO_MATCHING_DEVICES']);
    const tooMany = await api('POST', '/test-runs', request({ devices: { platform: 'android', count: QUOTA + 1 } }));
    expect([tooMany.status, tooMany.body.code]).toEqual([403, 'QUOTA_EXCEEDED']);
    const noTests = await api('POST', '/test-runs', request({ tests: { classes: ['com.example.NoSuchTest'] } }));
    expect([noTests.status, noTests.body.code]).toEqual([422, 'NO_TESTS_SELECTED']);
    expect((await api('POST', '/test-runs', request({ appVersionId: 'no-such-version' }))).status).toBe(404);
    // A project that is not the workspace's, and one that is not an id.
    const noProject = await api('POST', '/test-runs', request({ projectId: '00000000-0000-4000-8000-000000000000' }));
    expect([noProject.status, noProject.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await api('POST', '/test-runs', request({ projectId: 42 }))).status).toBe(400);
    expect((await api('GET', '/test-runs')).body.totalElements).toBe(before);
    expect((await androidDevices()).every((d) => d.status === 'available')).toBe(true);
  });
  it('ends a run whose runner the devices do not have in error, RUNNER_NOT_FOUND, every device given back', async () => {
    await allAvailable();
    // The devices know the suite under another runner than the one the test APK declares.
    for (const peer of peers) peer.scriptSuite({ ...suite, runner: 'com.example.OtherRunner' });
    try {
      const created = await api('POST', '/test-runs', request({ tests: { classes: [picks.fail!.split('#')[0]!] } }));
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const run = await finished(created.body.id);
      expect(run.state).toBe('error');
      expect(run.reason).toMatch(/^RUNNER_NOT_FOUND: /);
      expect(run.counts.passed + run.counts.failed).toBe(0);
    } finally {
      for (const peer of peers) peer.scriptSuite(suite);
    }
    await allAvailable();
  }, 120_000);

  it('dfctl run: exits 1 when tests fail, 0 when every test passes, 2 when no device matches; writes the JUnit file', async () => {
    await allAvailable();
    const env = { DFCTL_CONFIG: freshDfctlConfig() };
    const login = await runDfctl(['login', '--server', server.url, '--email', ADMIN.email, '--password-stdin'], { input: ADMIN.password, env });
    expect(login.code, login.stderr).toBe(0);
    const junit = join(mkdtempSync(join(tmpdir(), 'runs-junit-')), 'results.xml');
    const run = (...extra: string[]) =>
      runDfctl(['run', '--app', files.app!, '--tests', files.tests!, '--devices', 'android>=12', '--retries', '0', '--test-timeout', '5', '--poll-ms', '200', '--junit', junit, ...extra], { env, timeoutMs: 120_000 });

    const failing = await run('--class', picks.fail!);
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stderr).toMatch(/test run \S+ started/);
    expect(failing.stdout).toMatch(/^failed: 1\/1 tests done, 1 failed\nReport: http:\/\/127\.0\.0\.1:\d+\/df\/api\/test-runs\/\S+\/report\n$/);
    expect(junitTotals(readFileSync(junit, 'utf8')).root).toMatchObject({ tests: '1', failures: '1' });
    await allAvailable();

    const passing = suite.tests.find((t) => t.outcome.kind === 'pass')!;
    const passed = await run('--class', key(passing));
    expect(passed.code, passed.stderr).toBe(0);
    expect(junitTotals(readFileSync(junit, 'utf8')).root).toMatchObject({ tests: '1', failures: '0' });
    await allAvailable();

    const none = await run('--devices', 'android>=99');
    expect(none.code, none.stdout).toBe(2);
    expect(none.stderr).toMatch(/\(NO_MATCHING_DEVICES\)/);
  }, 240_000);

  it("in the console: the runs list and a run's page — progress, devices, a failure's stack, flaky marked, re-run failed; axe finds nothing", async () => {
    await allAvailable();
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.getByRole('link', { name: 'Test runs' }).click();
      await page.getByRole('table', { name: 'Test runs' }).waitFor();
      await expectAccessible(page, 'the test runs list');
      await page.goto(`${server.url}/test-runs/${firstRunId}`);
      await page.getByRole('heading', { name: /nightly/ }).waitFor();
      const total = suite.tests.length;
      await page.getByText(new RegExp(`^${total} of ${total} done, 3 failed, 1 flaky$`)).waitFor();
      expect(await page.getByRole('list', { name: 'What ran on each device' }).getByRole('listitem').count()).toBe(3);
      await page.getByRole('heading', { name: 'Failures (3)' }).waitFor();
      const failure = page.locator('details', { hasText: picks.fail!.split('#')[1]! }).first();
      await failure.locator('summary').click();
      await failure.getByText('java.lang.AssertionError: expected 4 but was 5').first().waitFor();
      // Its evidence: the device log of that test alone, and the screen as it failed.
      const log = failure.getByLabel(/^Device log of /).first();
      expect(await log.textContent()).toContain(`running ${picks.fail}`);
      expect(await log.textContent()).not.toContain(`running ${picks.flaky}`);
      const shot = failure.getByRole('img', { name: /^The screen when / }).first();
      await shot.waitFor();
      await page.waitForFunction((img) => { const i = img as unknown as { complete: boolean; naturalWidth: number }; return i.complete && i.naturalWidth === 360; }, await shot.elementHandle());
      await page.getByRole('heading', { name: 'Flaky (1)' }).waitFor();
      await expectAccessible(page, "a run's page");
      await page.getByRole('button', { name: 'Re-run failed' }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/test-runs/') && !u.pathname.endsWith(firstRunId));
      const rerun = new URL(page.url()).pathname.split('/').pop()!;
      const again = await finished(rerun);
      expect(again.counts.total).toBe(3);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
    await allAvailable();
  }, 240_000);

  it('moves the tests of a device that leaves mid-run to the others, and still runs every test', async () => {
    await allAvailable();
    // Tests of 400 ms: each device is busy for seconds, so the run is surely caught with a test going on
    // (at 60 ms a loaded machine could see the run end between two looks, and never find a shard mid-test).
    for (const t of suite.tests) t.durationMs = 400;
    let last: unknown = null;
    const created = await api('POST', '/test-runs', request({ tests: { notClasses: [picks.hang!, picks.crash!, picks.fail!, picks.flaky!] }, strategy: { sharding: 'uniform', batchSize: 1, retries: 0, testTimeoutSeconds: 10 } }));
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const lost = await eventually(async () => {
      const r = await api('GET', `/test-runs/${created.body.id}`);
      last = r.body;
      return r.body.shards?.find((s: { currentTest: string | null }) => s.currentTest !== null)?.deviceId as string | undefined;
    }, { what: 'a shard running a test', timeoutMs: 60_000 }).catch((err: unknown) => {
      throw new Error(`${String(err)}; the run as last seen: ${JSON.stringify(last)}`);
    });
    // The peers are "Runner Phone 1" to 3, in the order of their serials.
    const model = (await api('GET', `/devices/${lost}`)).body.model as string;
    await adb.disconnect(serials[Number(/\d+$/.exec(model)![0]) - 1]!);
    const run = await finished(created.body.id);
    const shard = run.shards.find((s: { deviceId: string }) => s.deviceId === lost);
    expect(shard.state).toBe('infrastructure-failed');
    expect(run.state, JSON.stringify(run)).toBe('passed');
    expect(run.counts.notRun).toBe(0);
  }, 120_000);
});
