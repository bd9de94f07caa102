import { describe, expect, it } from 'vitest';
import type { TestRunEvent } from '#events/df/test-runs.js';
import { seeded } from '#test/fuzz/openapi-fuzz.js';
import { testRunDecider, type TestRunCommand } from './decide.js';
import { planShards, resolveStrategy, testKey, type TestId } from './plan.js';
import { countsOf, isFinished, isLive, type TestRunRecord } from './state.js';

// Whole runs driven as an agent would, with failures, crashes, hangs and hosts dying at random (a
// seeded generator, so each seed is one fixed run): the rules must hold in every one of them.

const T0 = Date.parse('2026-05-01T10:00:00.000Z');
const TESTS: TestId[] = Array.from({ length: 24 }, (_, n) => ({ className: `com.acme.Suite${n % 4}`, methodName: `t${n}` }));
const DEVICES = ['d-1', 'd-2', 'd-3', 'd-4'];

interface Violation {
  seed: number;
  rule: string;
}

/** The agent's next step: end a drained shard, finish the running test, start the next one; or a host dies. */
function nextCommand(s: TestRunRecord, rnd: () => number, now: string): TestRunCommand | null {
  const live = Object.values(s.shards).filter(isLive);
  if (live.length === 0) return null;
  const shard = live[Math.floor(rnd() * live.length)]!;
  const { deviceId } = shard;
  if (rnd() < 0.01) return { type: 'EndShard', deviceId, state: 'infrastructure-failed', reason: `host of ${deviceId} lost`, now };
  if (shard.state === 'planned') return { type: 'StartShard', deviceId, sessionId: null, now };
  if (shard.running) {
    const [className, methodName] = shard.running.key.split('#') as [string, string];
    const roll = rnd();
    const outcome = roll < 0.15 ? 'failed' : roll < 0.18 ? 'errored' : roll < 0.2 ? 'skipped' : 'passed';
    const aborted = outcome === 'errored' ? (rnd() < 0.5 ? 'crash' : 'hang') : undefined;
    return { type: 'FinishTest', deviceId, className, methodName, outcome, durationMs: Math.floor(rnd() * 5000), message: null, stack: null, artifacts: [], ...(aborted ? { aborted } : {}), now };
  }
  const key = shard.queue[0];
  if (!key) return { type: 'EndShard', deviceId, state: 'completed', reason: null, now };
  const [className, methodName] = key.split('#') as [string, string];
  return { type: 'StartTest', deviceId, className, methodName, now };
}

/** Checks the rules on the events one command caused, against the state before each of them. */
function check(seed: number, before: TestRunRecord, events: TestRunEvent[], out: Violation[]): TestRunRecord {
  let s = before;
  for (const e of events) {
    if (isFinished(s)) out.push({ seed, rule: `${e.type} after the run ended` });
    if (e.type === 'TestRetryScheduled') {
      const failedOn = s.tests[testKey(e.payload)]!.failedOn;
      const others = Object.values(s.shards).filter((x) => isLive(x) && !failedOn.includes(x.deviceId));
      if (failedOn.includes(e.payload.deviceId) && others.length > 0) out.push({ seed, rule: 'a retry went to a device the test failed on while another was live' });
    }
    if (e.type === 'TestStarted' && e.payload.attempt !== s.tests[testKey(e.payload)]!.starts + 1) out.push({ seed, rule: 'attempts not numbered one by one' });
    if (e.type === 'TestRunFinished') {
      const c = e.payload.counts;
      if (c.passed + c.failed + c.flaky + c.skipped + c.notRun !== c.total || c.total !== TESTS.length) out.push({ seed, rule: 'counts do not add up' });
      if (e.payload.state === 'passed' && (c.failed > 0 || c.notRun > 0)) out.push({ seed, rule: 'passed with a failed or unrun test' });
      if (e.payload.state === 'failed' && c.failed === 0) out.push({ seed, rule: 'failed without a failed test' });
    }
    s = testRunDecider.evolve(s, e);
  }
  return s;
}

function simulate(seed: number, failFast: boolean, out: Violation[]): TestRunRecord {
  const rnd = seeded(seed);
  const strategy = resolveStrategy({ retries: 2, failFast, flakyThreshold: 0.5 });
  const history = new Map(TESTS.map((t, n) => [testKey(t), { meanMs: 100 + n * 500, passRate: n % 7 === 0 ? 0.3 : 1 }]));
  const { basis, shards } = planShards(TESTS, DEVICES, history, strategy);
  const queue: TestRunCommand = {
    type: 'Queue', runId: `run-${seed}`, companyId: 1, workspaceId: 2, userId: 7, projectId: null, name: null, appVersionId: 'a', testVersionId: 't', testPackage: 'p',
    devices: { platform: 'android' }, filter: {}, strategy, tests: TESTS, skipped: [], rerunOf: null, now: new Date(T0).toISOString(),
  };
  let s = testRunDecider.initialState();
  const commands: (TestRunCommand | null)[] = [queue, { type: 'Plan', basis, shards }];
  for (let step = 0; step < 2_000 && !isFinished(s); step++) {
    const now = new Date(T0 + step * 1000).toISOString();
    const c = commands.shift() ?? nextCommand(s, rnd, now);
    if (!c) break;
    s = check(seed, s, testRunDecider.decide(c, s), out);
  }
  if (!isFinished(s)) out.push({ seed, rule: 'the run did not end' });
  return s;
}

describe('simulated runs', () => {
  it('end, count every test once, and keep retries off the device a test failed on, whatever happens (300 seeded runs)', () => {
    const violations: Violation[] = [];
    const endings: Record<string, number> = {};
    for (let seed = 1; seed <= 300; seed++) {
      const s = simulate(seed, seed % 3 === 0, violations);
      endings[s.status] = (endings[s.status] ?? 0) + 1;
      expect(countsOf(s).total).toBe(TESTS.length);
    }
    expect(violations.slice(0, 5)).toEqual([]);
    // The seeds reach every way a run ends but cancellation (not simulated).
    expect(Object.keys(endings).sort()).toEqual(['error', 'failed', 'passed']);
  });
});
