import type { PlanningBasis, ShardEnd, TestRunCounts, TestRunState, TestRunStrategy } from '#events/df/test-runs.js';
import { batches, testKey, type LiveDevice, type TestId } from './plan.js';

// A test run as its stream knows it, and what the decider asks of it: each test's status (the flaky
// marking), the counts, the tests that remain, the devices still taking tests.

/** One test of the run, over all its attempts on all devices. */
export interface TestRecord extends TestId {
  /** The duration the plan expects. */
  plannedMs: number;
  /** Attempts started (one cut short by its device failing is given back). */
  starts: number;
  passes: number;
  failures: number;
  skips: number;
  /** Devices it failed on. */
  failedOn: string[];
  /** Retries scheduled so far. */
  retriesUsed: number;
}

export interface RunningTest {
  key: string;
  attempt: number;
  startedAt: string;
}

/** One device's part of the run: the tests it has yet to start, in order, and the one it runs. */
export interface ShardRecord {
  deviceId: string;
  state: 'planned' | 'running' | ShardEnd;
  queue: string[];
  running: RunningTest | null;
  startedAt: string | null;
  /** The device session the shard runs in, once started (none when its runner had none). */
  sessionId: string | null;
  /** Why it ended, when it said (an `infrastructure-failed` shard's device or host failure). */
  endReason: string | null;
}

export interface TestRunRecord {
  status: TestRunState | 'none';
  runId: string;
  companyId: number;
  workspaceId: number;
  strategy: TestRunStrategy;
  queuedAt: string;
  startedAt: string | null;
  basis: PlanningBasis | null;
  /** By `testKey`, in the listing's order. */
  tests: Record<string, TestRecord>;
  /** The tests the APK marks ignored (skipped, never run). */
  skipped: string[];
  /** By device id, in the plan's order. */
  shards: Record<string, ShardRecord>;
  /** The test-management project the results go to, or null. */
  projectId: string | null;
  /** Whether the results were filed (or their filing given up) after the end. */
  filed: boolean;
}

/** What a test came to: `flaky` passed after (or beside) a failed attempt; `pending` has an instance yet to finish. */
export type TestStatus = 'passed' | 'flaky' | 'failed' | 'skipped' | 'notRun';

export const initialRunState = (): TestRunRecord => ({
  status: 'none',
  runId: '',
  companyId: 0,
  workspaceId: 0,
  strategy: { sharding: 'uniform', batchSize: 1, retries: 0, flakyThreshold: null, testTimeoutSeconds: 1, runTimeoutSeconds: 1, failFast: false, clearPackageData: false },
  queuedAt: '',
  startedAt: null,
  basis: null,
  tests: {},
  skipped: [],
  shards: {},
  projectId: null,
  filed: false,
});

export const isFinished = (s: Pick<TestRunRecord, 'status'>): boolean => s.status === 'passed' || s.status === 'failed' || s.status === 'error' || s.status === 'cancelled';
export const isLive = (shard: ShardRecord): boolean => shard.state === 'planned' || shard.state === 'running';

/** How many instances of a test are queued or running on some shard. */
export const pendingOf = (s: TestRunRecord, key: string): number =>
  Object.values(s.shards).reduce((n, shard) => n + shard.queue.filter((k) => k === key).length + (shard.running?.key === key ? 1 : 0), 0);

/** The flaky marking: a test with a passed and a failed attempt is flaky; passed without failure, failed without pass. */
export function statusOf(t: Pick<TestRecord, 'passes' | 'failures' | 'skips'>): TestStatus {
  if (t.passes > 0) return t.failures > 0 ? 'flaky' : 'passed';
  if (t.failures > 0) return 'failed';
  return t.skips > 0 ? 'skipped' : 'notRun';
}

/** The run's counts by each test's status; the APK's ignored tests count as skipped. */
export function countsOf(s: TestRunRecord): TestRunCounts {
  const counts: TestRunCounts = { total: 0, passed: 0, failed: 0, flaky: 0, skipped: s.skipped.length, notRun: 0 };
  for (const t of Object.values(s.tests)) counts[statusOf(t)] += 1;
  counts.total = Object.keys(s.tests).length + s.skipped.length;
  return counts;
}

/** Tests with an instance still to finish, in the listing's order. */
export const remainingTests = (s: TestRunRecord): TestRecord[] => Object.entries(s.tests).filter(([key]) => pendingOf(s, key) > 0).map(([, t]) => t);

/** The tests a device launches next (one `am instrument`): the head of its queue, at most `batchSize`, as keys. */
export const nextBatch = (s: TestRunRecord, deviceId: string): string[] => batches(s.shards[deviceId]?.queue ?? [], s.strategy.batchSize)[0] ?? [];

/** Every test has had its say: planned, and no instance queued or running anywhere. */
export const isSettled = (s: TestRunRecord): boolean => s.basis !== null && remainingTests(s).length === 0;

/** The shards still taking tests, with the planned work each has left. */
export function liveDevices(s: TestRunRecord, except?: string): LiveDevice[] {
  return Object.values(s.shards)
    .filter((shard) => isLive(shard) && shard.deviceId !== except)
    .map((shard) => ({ deviceId: shard.deviceId, remainingMs: [...shard.queue, ...(shard.running ? [shard.running.key] : [])].reduce((ms, k) => ms + (s.tests[k]?.plannedMs ?? 0), 0) }));
}

/** The state a run ends in once settled: failed when a test failed in the end, error when one never ran. */
export function settledState(s: TestRunRecord): 'passed' | 'failed' | 'error' {
  const c = countsOf(s);
  if (c.failed > 0) return 'failed';
  return c.notRun > 0 ? 'error' : 'passed';
}

// Evolution steps, one per kind of change, shared by the decider's `evolve`.

export const withTest = (s: TestRunRecord, key: string, change: (t: TestRecord) => Partial<TestRecord>): TestRunRecord => {
  const t = s.tests[key];
  return t ? { ...s, tests: { ...s.tests, [key]: { ...t, ...change(t) } } } : s;
};

export const withShard = (s: TestRunRecord, deviceId: string, change: (shard: ShardRecord) => Partial<ShardRecord>): TestRunRecord => {
  const shard = s.shards[deviceId];
  return shard ? { ...s, shards: { ...s.shards, [deviceId]: { ...shard, ...change(shard) } } } : s;
};

/** Appends tests to the named shards' queues. */
export function enqueue(s: TestRunRecord, plans: readonly { deviceId: string; tests: readonly TestId[] }[]): TestRunRecord {
  return plans.reduce((acc, p) => withShard(acc, p.deviceId, (shard) => ({ queue: [...shard.queue, ...p.tests.map(testKey)] })), s);
}

/** Drops the queued (not running) instances of a test from every shard: it passed, its duplicates need not run. */
export function dropQueued(s: TestRunRecord, key: string): TestRunRecord {
  const shards = Object.fromEntries(Object.entries(s.shards).map(([id, shard]) => [id, shard.queue.includes(key) ? { ...shard, queue: shard.queue.filter((k) => k !== key) } : shard]));
  return { ...s, shards };
}
