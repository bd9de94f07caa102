import { AppError } from '#shared/errors.js';
import type { PlannedTestPayload, PlanningBasis, TestRunStrategy } from '#events/df/test-runs.js';

// Planning a test run, pure: which tests of the APK run, how they are spread over the devices, in
// which batches a device launches them, and where tests go when a device or a process fails.

/** One instrumentation test. */
export interface TestId {
  className: string;
  methodName: string;
}

/** A test as the APK lists it. */
export interface ListedTest extends TestId {
  annotations: readonly string[];
  /** `@Ignore`d: reported as skipped, never run. */
  ignored: boolean;
}

/** What earlier runs of the same test APK say of a test. */
export interface TestHistory {
  meanMs: number;
  /** Passed attempts over finished attempts, 0 to 1. */
  passRate: number;
}

export type History = ReadonlyMap<string, TestHistory>;
export type PlannedTest = PlannedTestPayload;

export interface Shard {
  deviceId: string;
  tests: PlannedTest[];
  /** The sum of its tests' planned durations. */
  plannedMs: number;
}

/** The key of a test in maps and history: `className#methodName`. */
export const testKey = (t: TestId): string => `${t.className}#${t.methodName}`;

/** A test's expected duration when nothing is known of it (no history for the APK at all). */
export const DEFAULT_TEST_MS = 5_000;

export const DEFAULT_STRATEGY: TestRunStrategy = {
  sharding: 'duration',
  batchSize: 20,
  retries: 1,
  flakyThreshold: null,
  testTimeoutSeconds: 600,
  runTimeoutSeconds: 3_600,
  failFast: false,
  clearPackageData: false,
};

/** The request's `strategy` with every absent field at its default. */
export function resolveStrategy(given: Partial<TestRunStrategy> = {}): TestRunStrategy {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_STRATEGY, ...defined };
}

export interface TestFilter {
  classes?: readonly string[] | undefined;
  packages?: readonly string[] | undefined;
  annotations?: readonly string[] | undefined;
  notClasses?: readonly string[] | undefined;
  namePattern?: string | undefined;
}

/** `com.x.Foo` or `com.x.Foo#bar` names the test. */
const namesTest = (entry: string, t: TestId) => entry === t.className || entry === testKey(t);
/** An annotation given fully qualified or by its simple name. */
const hasAnnotation = (t: ListedTest, wanted: string) => t.annotations.some((a) => a === wanted || a.endsWith(`.${wanted}`) || wanted.endsWith(`.${a}`));

function patternOf(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'tests.namePattern is not a regular expression', { details: [{ path: 'tests.namePattern', message: 'not a regular expression' }] });
  }
}

/**
 * The tests of a listing a filter chooses: in each given list at least one entry matches (classes,
 * packages, annotations), `namePattern` matches `className#methodName`, and no `notClasses` entry
 * names it. Chosen tests the APK marks ignored come back as `skipped`, not to run.
 */
export function selectTests(listing: readonly ListedTest[], filter: TestFilter = {}): { run: TestId[]; skipped: TestId[] } {
  const pattern = filter.namePattern ? patternOf(filter.namePattern) : null;
  const chosen = listing.filter(
    (t) =>
      (!filter.classes?.length || filter.classes.some((c) => namesTest(c, t))) &&
      (!filter.packages?.length || filter.packages.some((p) => t.className.startsWith(`${p.replace(/\.$/, '')}.`))) &&
      (!filter.annotations?.length || filter.annotations.some((a) => hasAnnotation(t, a))) &&
      !filter.notClasses?.some((c) => namesTest(c, t)) &&
      (!pattern || pattern.test(testKey(t))),
  );
  const id = ({ className, methodName }: TestId): TestId => ({ className, methodName });
  return { run: chosen.filter((t) => !t.ignored).map(id), skipped: chosen.filter((t) => t.ignored).map(id) };
}

/** The expected duration of each test: its history's mean, else the median of the known means, else the default. */
function expectedDurations(tests: readonly TestId[], history: History): Map<string, number> {
  const known = tests.map((t) => history.get(testKey(t))?.meanMs).filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)]! : DEFAULT_TEST_MS;
  return new Map(tests.map((t) => [testKey(t), Math.round(history.get(testKey(t))?.meanMs ?? fallback)]));
}

/** The index of the shard with the least planned work (the first of equals), leaving out `except`. */
function lightest(loads: readonly number[], except = -1): number {
  let best = -1;
  loads.forEach((load, i) => {
    if (i !== except && (best === -1 || load < loads[best]!)) best = i;
  });
  return best;
}

const byDurationDesc = (ms: Map<string, number>) => (a: TestId, b: TestId) => ms.get(testKey(b))! - ms.get(testKey(a))! || testKey(a).localeCompare(testKey(b));

/**
 * Longest-processing-time-first: each test, longest first, onto the shard with the least planned work
 * so far, on top of the work `loads` already hold. Returns the shard index of each test, in that order.
 */
function packLongestFirst(tests: readonly TestId[], ms: Map<string, number>, loads: number[], avoid: (t: TestId, i: number) => boolean = () => false): Array<[TestId, number]> {
  return [...tests].sort(byDurationDesc(ms)).map((t) => {
    // The lightest device the test may go to; any when it may go to none.
    let i = -1;
    loads.forEach((load, j) => {
      if (!avoid(t, j) && (i === -1 || load < loads[i]!)) i = j;
    });
    if (i === -1) i = lightest(loads);
    loads[i]! += ms.get(testKey(t))!;
    return [t, i];
  });
}

/**
 * The shards of a run: `duration` (when history knows any of the tests) packs longest first on each
 * test's mean duration; otherwise the tests are dealt round-robin in listing order (`uniform`). Tests
 * whose pass rate is below `flakyThreshold` get a preventive duplicate on another device (with two
 * devices or more). A shard's tests run in the order given.
 */
export function planShards(
  tests: readonly TestId[],
  devices: readonly string[],
  history: History,
  strategy: Pick<TestRunStrategy, 'sharding' | 'flakyThreshold'>,
): { basis: PlanningBasis; shards: Shard[] } {
  if (devices.length === 0) throw new AppError('VALIDATION_FAILED', 'A run needs at least one device', { details: [{ path: 'devices', message: 'no device' }] });
  const ms = expectedDurations(tests, history);
  const basis: PlanningBasis = strategy.sharding === 'duration' && tests.some((t) => history.has(testKey(t))) ? 'duration' : 'uniform';
  const loads = devices.map(() => 0);
  const lists: PlannedTest[][] = devices.map(() => []);
  const place = (t: TestId, i: number, duplicate: boolean) => lists[i]!.push({ className: t.className, methodName: t.methodName, plannedMs: ms.get(testKey(t))!, duplicate });
  const shardOf = new Map<string, number>();
  if (basis === 'duration') {
    for (const [t, i] of packLongestFirst(tests, ms, loads)) {
      place(t, i, false);
      shardOf.set(testKey(t), i);
    }
  } else {
    tests.forEach((t, n) => {
      const i = n % devices.length;
      loads[i]! += ms.get(testKey(t))!;
      place(t, i, false);
      shardOf.set(testKey(t), i);
    });
  }
  const threshold = strategy.flakyThreshold;
  if (threshold !== null && devices.length > 1) {
    const doubtful = tests.filter((t) => (history.get(testKey(t))?.passRate ?? 1) < threshold).sort(byDurationDesc(ms));
    for (const t of doubtful) {
      const i = lightest(loads, shardOf.get(testKey(t)));
      loads[i]! += ms.get(testKey(t))!;
      place(t, i, true);
    }
  }
  return { basis, shards: devices.map((deviceId, i) => ({ deviceId, tests: lists[i]!, plannedMs: loads[i]! })) };
}

/** A shard's tests in launches of at most `batchSize` (one `am instrument` each), in order. */
export function batches<T>(shardTests: readonly T[], batchSize: number): T[][] {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, not ${batchSize}`);
  const out: T[][] = [];
  for (let i = 0; i < shardTests.length; i += batchSize) out.push(shardTests.slice(i, i + batchSize));
  return out;
}

/** A device still taking tests and the planned work it has left. */
export interface LiveDevice {
  deviceId: string;
  remainingMs: number;
}

/**
 * Where the tests a shard did not finish go: longest first onto the live devices, on top of the work
 * each has left, a test that failed on a device onto another one while there is one. A test's duration
 * is its history's mean, else the duration it was planned with.
 */
export function replan(remainingTests: readonly (TestId & { plannedMs: number; failedOn?: readonly string[] })[], liveDevices: readonly LiveDevice[], history: History): Shard[] {
  if (liveDevices.length === 0) return [];
  const ms = new Map(remainingTests.map((t) => [testKey(t), Math.round(history.get(testKey(t))?.meanMs ?? t.plannedMs)]));
  const failedOn = new Map(remainingTests.map((t) => [testKey(t), new Set(t.failedOn ?? [])]));
  const loads = liveDevices.map((d) => d.remainingMs);
  const lists: PlannedTest[][] = liveDevices.map(() => []);
  // A test that failed on a device goes to another one while there is one, as a retry does.
  const avoid = (t: TestId, i: number) => failedOn.get(testKey(t))!.has(liveDevices[i]!.deviceId);
  for (const [t, i] of packLongestFirst(remainingTests, ms, loads, avoid)) lists[i]!.push({ className: t.className, methodName: t.methodName, plannedMs: ms.get(testKey(t))!, duplicate: false });
  return liveDevices.map((d, i) => ({ deviceId: d.deviceId, tests: lists[i]!, plannedMs: loads[i]! - d.remainingMs })).filter((s) => s.tests.length > 0);
}

/**
 * The device a failed test runs again on: never one it failed on while another device is live — the
 * idlest of those (least planned work left, absent from `busy` meaning idle; the first of equals). With
 * no other device, one it failed on if that is still live; null when no device is live.
 */
export function retryTarget(failedOn: string | readonly string[], devices: readonly string[], busy: ReadonlyMap<string, number> = new Map()): string | null {
  const failed = new Set(typeof failedOn === 'string' ? [failedOn] : failedOn);
  const others = devices.filter((d) => !failed.has(d));
  const pool = others.length ? others : devices;
  let best: string | null = null;
  for (const d of pool) if (best === null || (busy.get(d) ?? 0) < (busy.get(best) ?? 0)) best = d;
  return best;
}
