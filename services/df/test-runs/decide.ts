import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ShardEnd, TestOutcome, TestRunEvent } from '#events/df/test-runs.js';
import { replan, retryTarget, testKey, type Shard, type TestId } from './plan.js';
import {
  countsOf,
  dropQueued,
  enqueue,
  initialRunState,
  isFinished,
  isLive,
  isSettled,
  liveDevices,
  pendingOf,
  settledState,
  withShard,
  withTest,
  type ShardRecord,
  type TestRunRecord,
} from './state.js';

type Payload<T extends TestRunEvent['type']> = Extract<TestRunEvent, { type: T }>['payload'];

export type TestRunCommand =
  | ({ type: 'Queue' } & Omit<Payload<'TestRunQueued'>, 'queuedAt'> & { now: string })
  /** The shards of `planShards`, once the run's devices are allocated. */
  | { type: 'Plan'; basis: Payload<'TestRunPlanned'>['basis']; shards: readonly Pick<Shard, 'deviceId' | 'tests'>[] }
  | { type: 'StartShard'; deviceId: string; sessionId: string | null; now: string }
  | { type: 'FileResults'; testSessionId: string | null; reason: string | null; now: string }
  | ({ type: 'StartTest'; deviceId: string; now: string } & TestId)
  | ({
      type: 'FinishTest';
      deviceId: string;
      outcome: Exclude<TestOutcome, 'flaky'>;
      durationMs: number;
      message: string | null;
      stack: string | null;
      artifacts: Payload<'TestFinished'>['artifacts'];
      logcat?: string[];
      /** The instrumentation process crashed or hung: the shard's remaining tests are planned again. */
      aborted?: 'crash' | 'hang';
      now: string;
    } & TestId)
  | { type: 'EndShard'; deviceId: string; state: Exclude<ShardEnd, 'cancelled'>; reason: string | null; now: string }
  | { type: 'Cancel'; reason: string | null; now: string }
  /** The sweeper's step: ends a run past its time-out, or one whose every test has settled. */
  | { type: 'Finish'; now: string }
  /** The run cannot go on anywhere (its runner cannot start): it ends in error with `reason`. */
  | { type: 'Fail'; reason: string; now: string };

const refuse = (message: string) => new AppError('INVALID_TRANSITION', message);
const invalid = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { details: [{ path, message }] });

function open(s: TestRunRecord): TestRunRecord {
  if (s.status === 'none') throw new AppError('NOT_FOUND', 'Test run not found');
  if (isFinished(s)) throw refuse(`The run has ended (${s.status})`);
  return s;
}

function shardOf(s: TestRunRecord, deviceId: string): ShardRecord {
  const shard = s.shards[deviceId];
  if (!shard) throw refuse(`Device ${deviceId} has no shard in this run`);
  return shard;
}

/** Events and the state they lead to, so a command's follow-ups are decided on what came before them. */
class Outcome {
  readonly events: TestRunEvent[] = [];
  constructor(public state: TestRunRecord) {}
  add(...events: TestRunEvent[]): this {
    for (const e of events) {
      this.events.push(e);
      this.state = testRunDecider.evolve(this.state, e);
    }
    return this;
  }
}

/** Ends every live shard (`cancelled` unless told otherwise) and the run with its counts. */
function finish(o: Outcome, state: 'passed' | 'failed' | 'error' | 'cancelled', reason: string | null, now: string, shardState: ShardEnd = 'cancelled'): Outcome {
  const runId = o.state.runId;
  for (const shard of Object.values(o.state.shards).filter(isLive)) o.add({ type: 'TestRunShardEnded', payload: { runId, deviceId: shard.deviceId, state: shardState, reason, endedAt: now } });
  return o.add({ type: 'TestRunFinished', payload: { runId, state, reason, counts: countsOf(o.state), endedAt: now } });
}

/** Once every test has settled, the remaining shards (all idle) complete and the run ends. */
const finishIfSettled = (o: Outcome, now: string): Outcome => (isSettled(o.state) && !isFinished(o.state) ? finish(o, settledState(o.state), null, now, 'completed') : o);

/** Moves what a shard had not finished onto the live shards (its own among them unless excluded), or ends the run in error without any. */
function replanFrom(o: Outcome, deviceId: string, keys: readonly string[], reason: string, now: string, includeSelf: boolean): Outcome {
  const moving = keys.map((k) => o.state.tests[k]!).filter((t) => t.passes === 0);
  if (moving.length === 0) return o;
  const emptied = withShard(o.state, deviceId, () => ({ queue: [] }));
  const shards = replan(moving, liveDevices(emptied, includeSelf ? undefined : deviceId), new Map());
  if (shards.length === 0) return finish(o, 'error', `No device left for ${moving.length} test(s): ${reason}`, now);
  return o.add({ type: 'TestsReplanned', payload: { runId: o.state.runId, fromDeviceId: deviceId, reason, shards: shards.map(({ deviceId: d, tests }) => ({ deviceId: d, tests })) } });
}

/** A failed test with no pass, no other instance pending and retries left goes again on another device. */
function retryIfDue(o: Outcome, key: string, failedOnDevice: string): boolean {
  const t = o.state.tests[key]!;
  if (t.passes > 0 || pendingOf(o.state, key) > 0 || t.retriesUsed >= o.state.strategy.retries) return false;
  const live = liveDevices(o.state);
  const target = retryTarget(t.failedOn, live.map((d) => d.deviceId), new Map(live.map((d) => [d.deviceId, d.remainingMs])));
  if (target === null) return false;
  o.add({ type: 'TestRetryScheduled', payload: { runId: o.state.runId, className: t.className, methodName: t.methodName, attempt: t.starts + 1, failedOn: failedOnDevice, deviceId: target } });
  return true;
}

function decideFinishTest(c: Extract<TestRunCommand, { type: 'FinishTest' }>, s: TestRunRecord): TestRunEvent[] {
  open(s);
  const key = testKey(c);
  const running = shardOf(s, c.deviceId).running;
  if (running?.key !== key) throw refuse(`${key} is not running on device ${c.deviceId}`);
  const limitMs = s.strategy.testTimeoutSeconds * 1000;
  const overran = c.durationMs > limitMs && c.outcome !== 'failed' && c.outcome !== 'errored';
  const base = overran ? 'failed' : c.outcome;
  const failedBefore = s.tests[key]!.failures > 0;
  const outcome: TestOutcome = base === 'passed' && failedBefore ? 'flaky' : base;
  const message = overran ? `Exceeded the test time-out of ${s.strategy.testTimeoutSeconds} s` : c.message;
  const o = new Outcome(s).add({
    type: 'TestFinished',
    payload: { runId: s.runId, deviceId: c.deviceId, className: c.className, methodName: c.methodName, attempt: running.attempt, outcome, durationMs: c.durationMs, message, stack: c.stack, artifacts: c.artifacts, logcat: c.logcat ?? [] },
  });
  if (c.aborted) {
    replanFrom(o, c.deviceId, o.state.shards[c.deviceId]!.queue, c.aborted === 'crash' ? `The test process crashed in ${key}` : `The test process hung in ${key}`, c.now, true);
    if (isFinished(o.state)) return o.events;
  }
  if (outcome === 'failed' || outcome === 'errored') {
    const retried = retryIfDue(o, key, c.deviceId);
    const t = o.state.tests[key]!;
    if (!retried && s.strategy.failFast && t.passes === 0 && pendingOf(o.state, key) === 0) return finish(o, 'failed', `Fail-fast: ${key} failed`, c.now).events;
  }
  return finishIfSettled(o, c.now).events;
}

/**
 * The backstop of the per-test time-out: a test whose device has not reported it within the time-out
 * ends failed as hung, and its shard's remaining tests are planned again (as when the agent reports a hang).
 */
function endOverdueTests(o: Outcome, now: string): Outcome {
  const limitMs = o.state.strategy.testTimeoutSeconds * 1000;
  for (const shard of Object.values(o.state.shards)) {
    const running = o.state.shards[shard.deviceId]!.running;
    if (isFinished(o.state) || !running || Date.parse(now) < Date.parse(running.startedAt) + limitMs) continue;
    const { className, methodName } = o.state.tests[running.key]!;
    const message = `No result within the test time-out of ${o.state.strategy.testTimeoutSeconds} s`;
    o.add(...decideFinishTest({ type: 'FinishTest', deviceId: shard.deviceId, className, methodName, outcome: 'failed', durationMs: Date.parse(now) - Date.parse(running.startedAt), message, stack: null, artifacts: [], aborted: 'hang', now }, o.state));
  }
  return o;
}

function decideEndShard(c: Extract<TestRunCommand, { type: 'EndShard' }>, s: TestRunRecord): TestRunEvent[] {
  if (s.status === 'none') throw new AppError('NOT_FOUND', 'Test run not found');
  const shard = shardOf(s, c.deviceId);
  if (!isLive(shard) || isFinished(s)) return [];
  if (c.state === 'completed' && (shard.queue.length > 0 || shard.running)) throw refuse(`Device ${c.deviceId} still has ${shard.queue.length + (shard.running ? 1 : 0)} test(s) of the run`);
  const left = [...(shard.running ? [shard.running.key] : []), ...shard.queue];
  const o = new Outcome(s).add({ type: 'TestRunShardEnded', payload: { runId: s.runId, deviceId: c.deviceId, state: c.state, reason: c.reason, endedAt: c.now } });
  if (c.state === 'infrastructure-failed') replanFrom(o, c.deviceId, left, c.reason ?? `Device ${c.deviceId} failed`, c.now, false);
  return finishIfSettled(o, c.now).events;
}

function decidePlan(c: Extract<TestRunCommand, { type: 'Plan' }>, s: TestRunRecord): TestRunEvent[] {
  open(s);
  if (s.basis !== null) throw refuse('The run is already planned');
  if (c.shards.length === 0) throw invalid('shards', 'A run needs at least one device');
  const devices = c.shards.map((p) => p.deviceId);
  if (new Set(devices).size !== devices.length) throw invalid('shards', 'A device holds one shard');
  for (const p of c.shards) {
    const keys = p.tests.map(testKey);
    if (new Set(keys).size !== keys.length) throw invalid('shards', `A shard holds a test once (device ${p.deviceId})`);
    const stranger = keys.find((k) => !s.tests[k]);
    if (stranger) throw invalid('shards', `${stranger} is not a test of the run`);
  }
  const planned = new Set(c.shards.flatMap((p) => p.tests.map(testKey)));
  const missing = Object.keys(s.tests).filter((k) => !planned.has(k));
  if (missing.length) throw invalid('shards', `${missing.length} test(s) have no shard: ${missing.slice(0, 3).join(', ')}`);
  return [{ type: 'TestRunPlanned', payload: { runId: s.runId, basis: c.basis, shards: c.shards.map((p) => ({ deviceId: p.deviceId, tests: p.tests.map((t) => ({ ...t })) })) } }];
}

/**
 * One test run (`test-run-<runId>`). Rules: no result after the run has ended; a retry never goes to
 * a device the test failed on while another device is live; attempts are numbered per test; a run is
 * `passed` when every test passed in the end (flaky counts as passed), `failed` when one failed in
 * the end, `error` when it could not complete (no device left, run time-out), `cancelled` on request.
 */
export const testRunDecider = defineDecider<TestRunCommand, TestRunEvent, TestRunRecord>({
  initialState: initialRunState,

  evolve: {
    TestRunQueued: (_, { payload: p }) => ({
      ...initialRunState(),
      status: 'queued',
      runId: p.runId,
      companyId: p.companyId,
      workspaceId: p.workspaceId,
      strategy: p.strategy,
      queuedAt: p.queuedAt,
      tests: Object.fromEntries(p.tests.map((t) => [testKey(t), { className: t.className, methodName: t.methodName, plannedMs: 0, starts: 0, passes: 0, failures: 0, skips: 0, failedOn: [], retriesUsed: 0 }])),
      skipped: p.skipped.map(testKey),
      projectId: p.projectId,
    }),
    TestRunPlanned: (s, { payload: p }) => {
      const shards = Object.fromEntries(p.shards.map((shard) => [shard.deviceId, { deviceId: shard.deviceId, state: 'planned' as const, queue: [], running: null, startedAt: null, sessionId: null, endReason: null }]));
      const tests = { ...s.tests };
      for (const t of p.shards.flatMap((shard) => shard.tests)) if (tests[testKey(t)]) tests[testKey(t)] = { ...tests[testKey(t)]!, plannedMs: t.plannedMs };
      return enqueue({ ...s, basis: p.basis, shards, tests }, p.shards);
    },
    TestRunShardStarted: (s, { payload: p }) => ({ ...withShard(s, p.deviceId, () => ({ state: 'running', startedAt: p.startedAt, sessionId: p.sessionId })), status: 'running', startedAt: s.startedAt ?? p.startedAt }),
    TestStarted: (s, { payload: p }) => {
      const key = testKey(p);
      const started = withShard(s, p.deviceId, (shard) => ({ running: { key, attempt: p.attempt, startedAt: p.startedAt }, queue: shard.queue.filter((k, i) => k !== key || i !== shard.queue.indexOf(key)) }));
      return withTest(started, key, () => ({ starts: p.attempt }));
    },
    TestFinished: (s, { payload: p }) => {
      const key = testKey(p);
      const idle = withShard(s, p.deviceId, () => ({ running: null }));
      const passed = p.outcome === 'passed' || p.outcome === 'flaky';
      const failed = p.outcome === 'failed' || p.outcome === 'errored';
      const counted = withTest(idle, key, (t) => ({
        passes: t.passes + (passed ? 1 : 0),
        failures: t.failures + (failed ? 1 : 0),
        skips: t.skips + (p.outcome === 'skipped' ? 1 : 0),
        failedOn: failed && !t.failedOn.includes(p.deviceId) ? [...t.failedOn, p.deviceId] : t.failedOn,
      }));
      return passed ? dropQueued(counted, key) : counted;
    },
    TestRetryScheduled: (s, { payload: p }) => withTest(enqueue(s, [{ deviceId: p.deviceId, tests: [p] }]), testKey(p), (t) => ({ retriesUsed: t.retriesUsed + 1 })),
    TestRunShardEnded: (s, { payload: p }) => {
      const running = s.shards[p.deviceId]?.running;
      // An attempt cut short by its device failing is not the test's: it is given back.
      const givenBack = running && p.state === 'infrastructure-failed' ? withTest(s, running.key, (t) => ({ starts: t.starts - 1 })) : s;
      return withShard(givenBack, p.deviceId, () => ({ state: p.state, queue: [], running: null, endReason: p.reason }));
    },
    TestsReplanned: (s, { payload: p }) => enqueue(withShard(s, p.fromDeviceId, () => ({ queue: [] })), p.shards),
    TestRunFinished: (s, { payload: p }) => ({ ...s, status: p.state }),
    TestRunCancelled: (s) => s,
    TestRunResultsFiled: (s) => ({ ...s, filed: true }),
  },

  decide: {
    Queue: (c, s) => {
      if (s.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Test run already exists');
      if (c.tests.length === 0) throw invalid('tests', 'No test of the APK matches the filter');
      const keys = [...c.tests, ...c.skipped].map(testKey);
      if (new Set(keys).size !== keys.length) throw invalid('tests', 'A test is listed once');
      const { type: _type, now, ...request } = c;
      return [{ type: 'TestRunQueued', payload: { ...request, queuedAt: now } }];
    },
    Plan: decidePlan,
    StartShard: (c, s) => {
      open(s);
      const shard = shardOf(s, c.deviceId);
      if (shard.state === 'running') return [];
      if (shard.state !== 'planned') throw refuse(`The shard of device ${c.deviceId} has ended (${shard.state})`);
      return [{ type: 'TestRunShardStarted', payload: { runId: s.runId, deviceId: c.deviceId, sessionId: c.sessionId, startedAt: c.now } }];
    },
    StartTest: (c, s) => {
      open(s);
      const key = testKey(c);
      const shard = shardOf(s, c.deviceId);
      if (shard.state !== 'running') throw refuse(`The shard of device ${c.deviceId} is ${shard.state}`);
      if (shard.running) throw refuse(`Device ${c.deviceId} is running ${shard.running.key}`);
      if (!shard.queue.includes(key)) throw refuse(`${key} is not queued on device ${c.deviceId}`);
      return [{ type: 'TestStarted', payload: { runId: s.runId, deviceId: c.deviceId, className: c.className, methodName: c.methodName, attempt: s.tests[key]!.starts + 1, startedAt: c.now } }];
    },
    FinishTest: decideFinishTest,
    EndShard: decideEndShard,
    Cancel: (c, s) => {
      if (s.status === 'cancelled') return [];
      open(s);
      return finish(new Outcome(s).add({ type: 'TestRunCancelled', payload: { runId: s.runId, reason: c.reason } }), 'cancelled', c.reason, c.now).events;
    },
    FileResults: (c, s) => {
      if (s.status === 'none') throw new AppError('NOT_FOUND', 'Test run not found');
      if (!isFinished(s)) throw refuse('The run has not ended');
      if (s.filed) return [];
      return [{ type: 'TestRunResultsFiled', payload: { runId: s.runId, testSessionId: c.testSessionId, reason: c.reason } }];
    },
    Fail: (c, s) => (s.status === 'none' || isFinished(s) ? [] : finish(new Outcome(s), 'error', c.reason, c.now).events),
    Finish: (c, s) => {
      if (s.status === 'none' || isFinished(s)) return [];
      const limitMs = s.strategy.runTimeoutSeconds * 1000;
      if (Date.parse(c.now) >= Date.parse(s.startedAt ?? s.queuedAt) + limitMs) return finish(new Outcome(s), 'error', `Exceeded the run time-out of ${s.strategy.runTimeoutSeconds} s`, c.now).events;
      return finishIfSettled(endOverdueTests(new Outcome(s), c.now), c.now).events;
    },
  },
});
