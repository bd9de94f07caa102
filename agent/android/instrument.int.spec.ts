import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedSuite, ScriptedTest } from '#test/adbd/instrument.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually } from '#test/helpers/df-farm.js';
import type { RpcResult } from '#shared/wire/index.js';
import type { AndroidDevice } from './device.js';
import { AndroidProvider } from './provider.js';

/**
 * Instrumentation runs on the adbd test device through Debian's adb server and adbkit, as in production:
 * the peer plays a scripted suite through `am instrument -w -r`, the driver reads it as it streams.
 */
let adb: AdbServer;
let peer: AdbdPeer;
let provider: AndroidProvider;
let driver: AndroidDevice;

const CLASS = 'com.example.shop.CheckoutTest';
const test = (methodName: string, outcome: ScriptedTest['outcome'], extra: Partial<ScriptedTest> = {}): ScriptedTest => ({ className: CLASS, methodName, outcome, durationMs: 20, ...extra });
const suite: ScriptedSuite = {
  testPackage: 'com.example.shop.test',
  runner: 'androidx.test.runner.AndroidJUnitRunner',
  targetPackage: 'com.example.shop',
  tests: [
    test('paysByCard', { kind: 'pass' }, { logcat: ['card accepted'] }),
    test('refusesExpiredCard', { kind: 'fail', message: 'expected refusal' }),
    test('retriesOnce', { kind: 'flaky' }),
    test('hangsOnSpinner', { kind: 'hang' }),
    test('crashesOnBack', { kind: 'crash' }),
    test('skipped', { kind: 'ignored' }),
  ],
};
const refs = (...names: string[]) => names.map((methodName) => ({ className: CLASS, methodName }));

async function runToEnd(tests: { className: string; methodName: string }[], options: { clearPackageData?: boolean; runner?: string } = {}): Promise<RpcResult<'instrumentPoll'>> {
  const { runId } = driver.startInstrumentation({
    op: 'instrumentStart',
    testPackage: suite.testPackage,
    runner: options.runner ?? suite.runner,
    targetPackage: suite.targetPackage,
    tests,
    testTimeoutMs: 1_500,
    ...(options.clearPackageData ? { clearPackageData: true } : {}),
  });
  return followToEnd(runId);
}

/** Long polls a run until it is over (each poll answers at the next event or the end), then reads it whole. */
async function followToEnd(runId: string): Promise<RpcResult<'instrumentPoll'>> {
  let afterSeq = 0;
  for (;;) {
    const polled = await driver.pollInstrumentation(runId, afterSeq, 10_000);
    if (polled.done) return driver.pollInstrumentation(runId, 0);
    afterSeq = polled.lastSeq;
  }
}

const outcomes = (polled: RpcResult<'instrumentPoll'>) => polled.events.flatMap((e) => (e.kind === 'finished' ? [`${e.methodName}:${e.outcome}`] : []));

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Test Runner Phone', release: '14' }));
  for (const name of [suite.testPackage, suite.targetPackage]) peer.packages.set(name, { name, path: `/data/app/${name}-1/base.apk`, system: false });
  peer.scriptSuite(suite);
  adb = await startAdbServer();
  const added: AndroidDevice[] = [];
  provider = new AndroidProvider({ hostId: 'instrument-host', adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false, logger: pino({ level: 'silent' }) });
  await provider.start({ added: (d) => added.push(d as AndroidDevice), removed: () => undefined });
  await adb.connect(port);
  driver = await eventually(async () => added[0], { what: 'the device' });
  await driver.prepare(() => undefined);
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await adb?.stop();
  await peer?.close();
});

describe('instrumentation runs on Android', () => {
  it('runs the tests in one launch and reports each outcome, its stack and its log lines', { timeout: 30_000 }, async () => {
    const polled = await runToEnd(refs('paysByCard', 'refusesExpiredCard', 'retriesOnce', 'skipped'));
    expect(outcomes(polled)).toEqual(['paysByCard:passed', 'refusesExpiredCard:failed', 'retriesOnce:failed', 'skipped:ignored']);
    expect(polled.notRun).toEqual([]);
    const failed = polled.events.find((e) => e.kind === 'finished' && e.methodName === 'refusesExpiredCard');
    expect(failed).toMatchObject({ message: 'expected refusal', stack: expect.stringContaining(`at ${CLASS}.refusesExpiredCard`) });
    const passed = polled.events.find((e) => e.kind === 'finished' && e.methodName === 'paysByCard');
    expect(passed?.kind === 'finished' ? passed.logcat : []).toEqual(expect.arrayContaining([expect.stringContaining('card accepted')]));
    expect(peer.record.instrumentations.at(-1)).toBe(`am instrument -w -r -e class ${CLASS}#paysByCard,${CLASS}#refusesExpiredCard,${CLASS}#retriesOnce,${CLASS}#skipped ${suite.testPackage}/${suite.runner}`);
  });

  it('passes a flaky test on its next attempt', { timeout: 30_000 }, async () => {
    expect(outcomes(await runToEnd(refs('retriesOnce')))).toEqual(['retriesOnce:passed']);
  });

  it('ends a hung test after its time-out, stops the app, and reports what it did not reach', { timeout: 30_000 }, async () => {
    const polled = await runToEnd(refs('paysByCard', 'hangsOnSpinner', 'skipped'));
    expect(outcomes(polled)).toEqual(['paysByCard:passed', 'hangsOnSpinner:timedOut']);
    expect(polled.notRun).toEqual(refs('skipped'));
    expect(polled.failure).toBe('a test hung');
    expect(peer.record.forceStopped).toContain(suite.targetPackage);
  });

  it('ends a test whose process crashed as crashed, and reports the rest as not run', { timeout: 30_000 }, async () => {
    const polled = await runToEnd(refs('crashesOnBack', 'skipped'));
    expect(outcomes(polled)).toEqual(['crashesOnBack:crashed']);
    expect(polled.notRun).toEqual(refs('skipped'));
  });

  it('clears the app’s data before each test when asked, one launch each', { timeout: 30_000 }, async () => {
    const cleared = peer.record.cleared.length;
    const launches = peer.record.instrumentations.length;
    expect(outcomes(await runToEnd(refs('paysByCard', 'skipped'), { clearPackageData: true }))).toEqual(['paysByCard:passed', 'skipped:ignored']);
    expect(peer.record.cleared.slice(cleared)).toEqual([suite.targetPackage, suite.targetPackage]);
    expect(peer.record.instrumentations.length - launches).toBe(2);
  });

  it('says a runner that does not exist could not start, and runs nothing', { timeout: 30_000 }, async () => {
    const polled = await runToEnd(refs('paysByCard'), { runner: 'com.example.NoSuchRunner' });
    expect(polled.failure).toMatch(/could not start: .*NoSuchRunner/);
    expect(outcomes(polled)).toEqual([]);
    expect(polled.notRun).toEqual(refs('paysByCard'));
  });

  it('stops a run on request, and the session’s release stops the one going on', { timeout: 30_000 }, async () => {
    const { runId } = driver.startInstrumentation({ op: 'instrumentStart', testPackage: suite.testPackage, runner: suite.runner, targetPackage: suite.targetPackage, tests: refs('hangsOnSpinner'), testTimeoutMs: 60_000 });
    // A long poll answers with the first event as it comes.
    expect((await driver.pollInstrumentation(runId, 0, 10_000)).events.map((e) => e.kind)).toEqual(['started']);
    // With nothing new (the test hangs), it answers empty once its wait is over.
    expect(await driver.pollInstrumentation(runId, 1, 200)).toMatchObject({ events: [], lastSeq: 1, done: false });
    expect(() => driver.startInstrumentation({ op: 'instrumentStart', testPackage: suite.testPackage, runner: suite.runner, targetPackage: suite.targetPackage, tests: refs('paysByCard'), testTimeoutMs: 5_000 })).toThrow(/going on/);
    expect(await driver.stopInstrumentation(runId)).toEqual({ runId, stopped: true });
    const polled = await followToEnd(runId);
    expect(polled.failure).toBe('stopped');
    expect(polled.notRun).toEqual([]);
    expect(outcomes(polled)).toEqual(['hangsOnSpinner:errored']);
  });
});
