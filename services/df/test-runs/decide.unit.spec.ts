import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import type { TestRunEvent, TestRunStrategy } from '#events/df/test-runs.js';
import { testRunDecider, type TestRunCommand } from './decide.js';
import { resolveStrategy, testKey, type TestId } from './plan.js';
import { countsOf, nextBatch, remainingTests, statusOf, type TestRunRecord } from './state.js';

const spec = deciderSpec(testRunDecider);
const T0 = '2026-05-01T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const RUN = 'run-1';
const test = (n: number): TestId => ({ className: 'com.acme.LoginTest', methodName: `t${n}` });
const T1 = test(1);
const T2 = test(2);
const T3 = test(3);

const queue = (tests: TestId[], strategy: Partial<TestRunStrategy> = {}, skipped: TestId[] = []): TestRunCommand => ({
  type: 'Queue',
  runId: RUN,
  companyId: 1,
  workspaceId: 2,
  userId: 7,
  projectId: null,
  name: 'nightly',
  appVersionId: 'app-1',
  testVersionId: 'test-1',
  testPackage: 'com.acme.test',
  devices: { platform: 'android' },
  filter: {},
  strategy: resolveStrategy({ retries: 1, ...strategy }),
  tests,
  skipped,
  rerunOf: null,
  now: T0,
});
const plan = (shards: Record<string, TestId[]>): TestRunCommand => ({
  type: 'Plan',
  basis: 'uniform',
  shards: Object.entries(shards).map(([deviceId, tests]) => ({ deviceId, tests: tests.map((t) => ({ ...t, plannedMs: 1000, duplicate: false })) })),
});
const startShard = (deviceId: string, s = 0): TestRunCommand => ({ type: 'StartShard', deviceId, sessionId: `s-${deviceId}`, now: at(s) });
const start = (deviceId: string, t: TestId, s = 1): TestRunCommand => ({ type: 'StartTest', deviceId, ...t, now: at(s) });
const finishTest = (deviceId: string, t: TestId, outcome: 'passed' | 'failed' | 'errored' | 'skipped', extra: Partial<Extract<TestRunCommand, { type: 'FinishTest' }>> = {}): TestRunCommand => ({
  type: 'FinishTest',
  deviceId,
  ...t,
  outcome,
  durationMs: 1000,
  message: outcome === 'passed' ? null : 'boom',
  stack: null,
  artifacts: [],
  now: at(10),
  ...extra,
});
const endShard = (deviceId: string, state: 'completed' | 'infrastructure-failed', reason: string | null = null): TestRunCommand => ({ type: 'EndShard', deviceId, state, reason, now: at(20) });

/** Runs commands in order from a state, as handleCommand would one after another; the events of all and the state after. */
function drive(commands: TestRunCommand[], from: TestRunRecord = testRunDecider.initialState()) {
  let state = from;
  const events: TestRunEvent[] = [];
  for (const c of commands) {
    const out = testRunDecider.decide(c, state);
    events.push(...out);
    state = out.reduce(testRunDecider.evolve, state);
  }
  return { state, events, types: events.map((e) => e.type) };
}
const refusal = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : `not an AppError: ${String(err)}`;
  }
  return undefined;
};
type PayloadOf = { [E in TestRunEvent as E['type']]: E['payload'] };
function last<T extends keyof PayloadOf>(events: TestRunEvent[], type: T): PayloadOf[T] | undefined {
  return events.filter((e) => e.type === type).at(-1)?.payload as PayloadOf[T] | undefined;
}
/** The state with `t` started on `deviceId`. */
const running = (s: TestRunRecord, deviceId: string, t: TestId) => drive([start(deviceId, t)], s).state;

/** Queued, planned over d-1 and d-2 (T1, T2 on d-1; T3 on d-2), both shards started. */
const twoDevices = (strategy: Partial<TestRunStrategy> = {}) => drive([queue([T1, T2, T3], strategy), plan({ 'd-1': [T1, T2], 'd-2': [T3] }), startShard('d-1'), startShard('d-2')]).state;

describe('test run decider', () => {
  it('queues a run once, with its test list; refuses an empty or repeated list', () => {
    const queued = drive([queue([T1, T2], {}, [T3])]);
    expect(queued.events).toEqual([{ type: 'TestRunQueued', payload: expect.objectContaining({ runId: RUN, tests: [T1, T2], skipped: [T3], queuedAt: T0, companyId: 1, workspaceId: 2 }) }]);
    expect(queued.state.status).toBe('queued');
    spec.given(queued.events).when(queue([T1])).thenRefused('ALREADY_EXISTS');
    spec.given([]).when(queue([])).thenRefused('VALIDATION_FAILED');
    spec.given([]).when(queue([T1, T1])).thenRefused('VALIDATION_FAILED');
    spec.given([]).when(startShard('d-1')).thenRefused('NOT_FOUND');
  });

  it('plans every test of the run on some device, each device once, no stranger', () => {
    const queued = drive([queue([T1, T2])]).events;
    spec.given(queued).when(plan({ 'd-1': [T1] })).thenRefused('VALIDATION_FAILED');
    spec.given(queued).when(plan({ 'd-1': [T1, T2, T3] })).thenRefused('VALIDATION_FAILED');
    spec.given(queued).when(plan({})).thenRefused('VALIDATION_FAILED');
    const planned = drive([plan({ 'd-1': [T1], 'd-2': [T2] })], drive([queue([T1, T2])]).state);
    expect(planned.types).toEqual(['TestRunPlanned']);
    expect(refusal(() => testRunDecider.decide(plan({ 'd-1': [T1, T2] }), planned.state))).toBe('INVALID_TRANSITION');
  });

  it('runs a shard test by test, numbering attempts; a test starts only where it is queued and the device is free', () => {
    const s = twoDevices();
    expect(s.status).toBe('running');
    expect(drive([start('d-1', T1)], s).events).toEqual([{ type: 'TestStarted', payload: { runId: RUN, deviceId: 'd-1', ...T1, attempt: 1, startedAt: at(1) } }]);
    expect(refusal(() => drive([start('d-1', T3)], s))).toBe('INVALID_TRANSITION');
    expect(refusal(() => drive([start('d-1', T1), start('d-1', T2)], s))).toBe('INVALID_TRANSITION');
    expect(refusal(() => drive([finishTest('d-1', T2, 'passed')], s))).toBe('INVALID_TRANSITION');
    expect(refusal(() => drive([start('d-9', T1)], s))).toBe('INVALID_TRANSITION');
    const inTwos = drive([queue([T1, T2, T3], { batchSize: 2 }), plan({ 'd-1': [T1, T2, T3] })]).state;
    expect(nextBatch(inTwos, 'd-1')).toEqual([T1, T2].map(testKey));
    expect(nextBatch(drive([startShard('d-1'), start('d-1', T1)], inTwos).state, 'd-1')).toEqual([T2, T3].map(testKey));
  });

  it('passes a run whose every test passed, completing the idle shards with the counts', () => {
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'passed'), start('d-1', T2), finishTest('d-1', T2, 'passed'), endShard('d-1', 'completed'), start('d-2', T3), finishTest('d-2', T3, 'passed')], twoDevices());
    expect(r.types.slice(-2)).toEqual(['TestRunShardEnded', 'TestRunFinished']);
    expect(last(r.events, 'TestRunShardEnded')).toMatchObject({ deviceId: 'd-2', state: 'completed' });
    expect(last(r.events, 'TestRunFinished')).toEqual({ runId: RUN, state: 'passed', reason: null, counts: { total: 3, passed: 3, failed: 0, flaky: 0, skipped: 0, notRun: 0 }, endedAt: at(10) });
  });

  it('refuses test results after the run ended, and commands on a finished run', () => {
    const cancelled = drive([start('d-1', T1), { type: 'Cancel', reason: 'by user', now: at(5) }], twoDevices()).state;
    expect(refusal(() => drive([finishTest('d-1', T1, 'passed')], cancelled))).toBe('INVALID_TRANSITION');
    expect(refusal(() => drive([start('d-2', T3)], cancelled))).toBe('INVALID_TRANSITION');
    expect(drive([{ type: 'Cancel', reason: null, now: at(6) }, { type: 'Finish', now: at(9999) }, endShard('d-1', 'completed')], cancelled).events).toEqual([]);
  });

  it('retries a failure on another device, never the one it failed on while another lives; a pass on retry is flaky and the run passes', () => {
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'failed')], twoDevices());
    expect(last(r.events, 'TestRetryScheduled')).toEqual({ runId: RUN, ...T1, attempt: 2, failedOn: 'd-1', deviceId: 'd-2' });
    const after = drive([start('d-2', T3), finishTest('d-2', T3, 'passed'), start('d-2', T1), finishTest('d-2', T1, 'passed'), start('d-1', T2), finishTest('d-1', T2, 'passed')], r.state);
    expect(after.events.find((e) => e.type === 'TestStarted' && e.payload.methodName === 't1')?.payload).toMatchObject({ attempt: 2, deviceId: 'd-2' });
    expect(after.events.find((e) => e.type === 'TestFinished' && e.payload.methodName === 't1')?.payload).toMatchObject({ outcome: 'flaky', attempt: 2 });
    expect(last(after.events, 'TestRunFinished')).toMatchObject({ state: 'passed', counts: { total: 3, passed: 2, failed: 0, flaky: 1, skipped: 0, notRun: 0 } });
  });

  it('retries on the same device when it is the only one live, and fails the run once retries are spent', () => {
    const one = drive([queue([T1], { retries: 2 }), plan({ 'd-1': [T1] }), startShard('d-1')]).state;
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'failed'), start('d-1', T1), finishTest('d-1', T1, 'errored'), start('d-1', T1), finishTest('d-1', T1, 'failed')], one);
    expect(r.events.filter((e) => e.type === 'TestRetryScheduled').map((e) => e.payload)).toEqual([
      expect.objectContaining({ attempt: 2, deviceId: 'd-1' }),
      expect.objectContaining({ attempt: 3, deviceId: 'd-1' }),
    ]);
    expect(r.events.filter((e) => e.type === 'TestFinished').map((e) => e.type === 'TestFinished' && e.payload.attempt)).toEqual([1, 2, 3]);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'failed', counts: { total: 1, failed: 1, notRun: 0 } });
  });

  it('with fail-fast, ends the run failed at the first test that fails for good, the rest not run', () => {
    const r = drive([finishTest('d-1', T1, 'failed')], running(twoDevices({ failFast: true, retries: 0 }), 'd-1', T1));
    expect(r.types).toEqual(['TestFinished', 'TestRunShardEnded', 'TestRunShardEnded', 'TestRunFinished']);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'failed', reason: 'Fail-fast: com.acme.LoginTest#t1 failed', counts: { failed: 1, notRun: 2 } });
    // With a retry left, a failure is not yet final: no fail-fast.
    expect(drive([finishTest('d-1', T1, 'failed')], running(twoDevices({ failFast: true, retries: 1 }), 'd-1', T1)).types).toEqual(['TestFinished', 'TestRetryScheduled']);
  });

  it('moves the tests of a device whose host died to the devices left, giving back the attempt it cut short', () => {
    const r = drive([endShard('d-1', 'infrastructure-failed', 'host h-1 lost')], running(twoDevices(), 'd-1', T1));
    expect(r.events.map((e) => e.type)).toEqual(['TestRunShardEnded', 'TestsReplanned']);
    expect(last(r.events, 'TestsReplanned')).toEqual({ runId: RUN, fromDeviceId: 'd-1', reason: 'host h-1 lost', shards: [{ deviceId: 'd-2', tests: [expect.objectContaining(T1), expect.objectContaining(T2)] }] });
    expect(remainingTests(r.state).map(testKey).sort()).toEqual([T1, T2, T3].map(testKey));
    expect(drive([start('d-2', T1)], r.state).events[0]?.payload).toMatchObject({ attempt: 1 });
  });

  it('ends the run in error when no device is left with tests remaining', () => {
    const r = drive([endShard('d-1', 'infrastructure-failed', 'host h-1 lost'), endShard('d-2', 'infrastructure-failed', 'host h-2 lost')], twoDevices());
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'error', reason: 'No device left for 3 test(s): host h-2 lost', counts: { notRun: 3 } });
    expect(r.state.status).toBe('error');
  });

  it('ends a crashed or hung test as failed with the reason and plans the shard’s remaining tests again', () => {
    const s = drive([queue([T1, T2, T3], { retries: 0 }), plan({ 'd-1': [T1, T2, T3], 'd-2': [] }), startShard('d-1'), startShard('d-2')]).state;
    const r = drive([finishTest('d-1', T1, 'errored', { message: 'Process crashed.', aborted: 'crash' })], running(s, 'd-1', T1));
    expect(r.types).toEqual(['TestFinished', 'TestsReplanned']);
    expect(last(r.events, 'TestFinished')).toMatchObject({ outcome: 'errored', message: 'Process crashed.' });
    const moved = last(r.events, 'TestsReplanned')!;
    expect(moved.reason).toBe('The test process crashed in com.acme.LoginTest#t1');
    expect(moved.shards.map((p) => [p.deviceId, p.tests.map((t) => t.methodName)])).toEqual([['d-1', ['t2']], ['d-2', ['t3']]]);
  });

  it('fails a test that overran its time-out even when reported passed', () => {
    const r = drive([finishTest('d-1', T1, 'passed', { durationMs: 601_000 })], running(twoDevices({ testTimeoutSeconds: 600 }), 'd-1', T1));
    expect(r.events[0]?.payload).toMatchObject({ outcome: 'failed', message: 'Exceeded the test time-out of 600 s' });
  });

  it('ends a test its device has not reported within the time-out as hung, and plans the shard’s rest again', () => {
    const s = running(twoDevices({ testTimeoutSeconds: 60, retries: 0 }), 'd-1', T1);
    expect(drive([{ type: 'Finish', now: at(60) }], s).events).toEqual([]);
    const r = drive([{ type: 'Finish', now: at(61) }], s);
    expect(r.types).toEqual(['TestFinished', 'TestsReplanned']);
    expect(r.events[0]?.payload).toMatchObject({ ...T1, deviceId: 'd-1', outcome: 'failed', durationMs: 60_000, message: 'No result within the test time-out of 60 s' });
    expect(last(r.events, 'TestsReplanned')).toMatchObject({ fromDeviceId: 'd-1', reason: 'The test process hung in com.acme.LoginTest#t1' });
    expect(refusal(() => drive([finishTest('d-1', T1, 'passed')], r.state))).toBe('INVALID_TRANSITION');
  });

  it('ends a run past its time-out in error; before it, Finish changes nothing', () => {
    const s = twoDevices({ runTimeoutSeconds: 60 });
    expect(drive([{ type: 'Finish', now: at(59) }], s).events).toEqual([]);
    const r = drive([{ type: 'Finish', now: at(60) }], s);
    expect(r.types).toEqual(['TestRunShardEnded', 'TestRunShardEnded', 'TestRunFinished']);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'error', reason: 'Exceeded the run time-out of 60 s', counts: { notRun: 3 } });
  });

  it('fails a run that cannot go on: error with the reason, every shard cancelled; a finished run stays as it is', () => {
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'passed'), { type: 'Fail', reason: 'RUNNER_NOT_FOUND: no such runner', now: at(11) }], twoDevices());
    expect(r.types.slice(2)).toEqual(['TestRunShardEnded', 'TestRunShardEnded', 'TestRunFinished']);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'error', reason: 'RUNNER_NOT_FOUND: no such runner', counts: { passed: 1, notRun: 2 } });
    expect(drive([{ type: 'Fail', reason: 'again', now: at(12) }], r.state).events).toEqual([]);
  });

  it('cancels a run: its shards end cancelled, what did not finish is not run', () => {
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'passed'), { type: 'Cancel', reason: 'by user', now: at(11) }], twoDevices());
    expect(r.types.slice(2)).toEqual(['TestRunCancelled', 'TestRunShardEnded', 'TestRunShardEnded', 'TestRunFinished']);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'cancelled', counts: { total: 3, passed: 1, notRun: 2 } });
  });

  it('files its results once, and only after its end', () => {
    const file: TestRunCommand = { type: 'FileResults', testSessionId: 'ts-1', reason: null, now: at(30) };
    expect(refusal(() => drive([file], twoDevices()))).toBe('INVALID_TRANSITION');
    const ended = drive([{ type: 'Cancel', reason: 'by user', now: at(11) }], twoDevices()).state;
    const r = drive([file, { ...file, testSessionId: 'ts-2' }], ended);
    expect(r.events).toEqual([{ type: 'TestRunResultsFiled', payload: { runId: RUN, testSessionId: 'ts-1', reason: null } }]);
  });

  it('a completed shard has run out of tests; ending one twice changes nothing', () => {
    const s = twoDevices();
    expect(refusal(() => drive([endShard('d-1', 'completed')], s))).toBe('INVALID_TRANSITION');
    const done = drive([start('d-2', T3), finishTest('d-2', T3, 'passed'), endShard('d-2', 'completed')], s);
    expect(done.types).toEqual(['TestStarted', 'TestFinished', 'TestRunShardEnded']);
    expect(drive([endShard('d-2', 'completed')], done.state).events).toEqual([]);
  });

  it('counts preventive duplicates once: a pass drops the queued twin, a failed twin beside a pass makes the test flaky', () => {
    const dup = (deviceId: string, t: TestId) => ({ deviceId, tests: [{ ...t, plannedMs: 1000, duplicate: deviceId === 'd-2' }] });
    const base = drive([queue([T1], { retries: 0 }), { type: 'Plan', basis: 'duration', shards: [dup('d-1', T1), dup('d-2', T1)] }, startShard('d-1'), startShard('d-2')]).state;
    const passedFirst = drive([start('d-1', T1), finishTest('d-1', T1, 'passed')], base);
    expect(last(passedFirst.events, 'TestRunFinished')).toMatchObject({ state: 'passed', counts: { total: 1, passed: 1 } });
    const oneFailed = drive([start('d-1', T1), start('d-2', T1), finishTest('d-2', T1, 'failed'), finishTest('d-1', T1, 'passed')], base);
    expect(oneFailed.types).not.toContain('TestRetryScheduled');
    expect(last(oneFailed.events, 'TestRunFinished')).toMatchObject({ state: 'passed', counts: { total: 1, flaky: 1 } });
  });

  it('counts the ignored tests and tests the runner skipped as skipped', () => {
    const s = drive([queue([T1], {}, [T2, T3]), plan({ 'd-1': [T1] }), startShard('d-1')]).state;
    const r = drive([start('d-1', T1), finishTest('d-1', T1, 'skipped')], s);
    expect(last(r.events, 'TestRunFinished')).toMatchObject({ state: 'passed', counts: { total: 3, skipped: 3, passed: 0 } });
    expect(countsOf(r.state)).toEqual({ total: 3, passed: 0, failed: 0, flaky: 0, skipped: 3, notRun: 0 });
    expect([statusOf({ passes: 1, failures: 1, skips: 0 }), statusOf({ passes: 0, failures: 2, skips: 0 }), statusOf({ passes: 0, failures: 0, skips: 0 })]).toEqual(['flaky', 'failed', 'notRun']);
  });
});
