import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import { batches, DEFAULT_TEST_MS, planShards, replan, resolveStrategy, retryTarget, selectTests, testKey, type ListedTest, type TestHistory, type TestId } from './plan.js';

const DEVICES = ['d-1', 'd-2', 'd-3'];
/** 30 tests over 5 classes, listed in a scrambled order, whose durations grow geometrically from 100 ms to 20 s. */
const SUITE: TestId[] = Array.from({ length: 30 }, (_, n) => ({ className: `com.acme.Suite${n % 5}`, methodName: `test${(n * 7) % 30}` }));
const durationOf = (t: TestId) => Math.round(100 * 200 ** (Number(t.methodName.slice(4)) / 29));
const historyOf = (tests: TestId[], passRate: (t: TestId) => number = () => 1) => new Map<string, TestHistory>(tests.map((t) => [testKey(t), { meanMs: durationOf(t), passRate: passRate(t) }]));
const spread = (lengths: number[]) => Math.max(...lengths) / Math.min(...lengths);
const lengths = (shards: { plannedMs: number }[]) => shards.map((s) => s.plannedMs);

describe('planning a run', () => {
  it('the suite is skewed: 100 ms to 20 s, about 119 s in all', () => {
    const ms = SUITE.map(durationOf);
    expect([Math.min(...ms), Math.max(...ms), ms.reduce((a, b) => a + b, 0)]).toEqual([100, 20_000, 119_273]);
  });

  it('with history, packs longest first: the planned shard lengths are within 20 % of each other; dealt uniformly they are not', () => {
    const history = historyOf(SUITE);
    const byDuration = planShards(SUITE, DEVICES, history, { sharding: 'duration', flakyThreshold: null });
    const uniform = planShards(SUITE, DEVICES, history, { sharding: 'uniform', flakyThreshold: null });
    expect(byDuration.basis).toBe('duration');
    expect(uniform.basis).toBe('uniform');
    expect(spread(lengths(byDuration.shards))).toBeLessThanOrEqual(1.2);
    expect(spread(lengths(uniform.shards))).toBeGreaterThan(1.2);
    // The figures, for the record: 39.8 s on each device against 32.8 / 39.3 / 47.2 s dealt uniformly.
    expect(lengths(byDuration.shards)).toEqual([39_759, 39_766, 39_748]);
    expect(lengths(uniform.shards)).toEqual([32_753, 39_319, 47_201]);
    for (const plan of [byDuration, uniform]) {
      expect(plan.shards.flatMap((s) => s.tests.map(testKey)).sort()).toEqual(SUITE.map(testKey).sort());
      for (const s of plan.shards) expect(s.plannedMs).toBe(s.tests.reduce((a, t) => a + t.plannedMs, 0));
    }
    // Each shard starts with its longest test.
    for (const s of byDuration.shards) expect(s.tests[0]!.plannedMs).toBe(Math.max(...s.tests.map((t) => t.plannedMs)));
  });

  it('without history, deals the tests round-robin in listing order at the default duration, whatever the strategy asked', () => {
    const plan = planShards(SUITE.slice(0, 7), DEVICES, new Map(), { sharding: 'duration', flakyThreshold: null });
    expect(plan.basis).toBe('uniform');
    expect(plan.shards.map((s) => s.tests.length)).toEqual([3, 2, 2]);
    expect(plan.shards[0]!.tests.map(testKey)).toEqual([SUITE[0], SUITE[3], SUITE[6]].map((t) => testKey(t!)));
    expect(plan.shards[0]!.plannedMs).toBe(3 * DEFAULT_TEST_MS);
  });

  it('gives a test without history the median duration of those with history', () => {
    const known = SUITE.slice(0, 3);
    const plan = planShards([...known, { className: 'com.acme.New', methodName: 'fresh' }], ['d-1'], historyOf(known), { sharding: 'duration', flakyThreshold: null });
    const median = known.map(durationOf).sort((a, b) => a - b)[1];
    expect(plan.shards[0]!.tests.find((t) => t.className === 'com.acme.New')?.plannedMs).toBe(median);
  });

  it('runs a test whose pass rate is below the flaky threshold twice from the start, on two different devices', () => {
    const doubtful = new Set(['test29', 'test3']);
    const history = historyOf(SUITE, (t) => (doubtful.has(t.methodName) ? 0.6 : 0.99));
    const plan = planShards(SUITE, DEVICES, history, { sharding: 'duration', flakyThreshold: 0.9 });
    const holders = (name: string) => plan.shards.filter((s) => s.tests.some((t) => t.methodName === name)).map((s) => s.deviceId);
    for (const name of doubtful) expect(new Set(holders(name)).size).toBe(2);
    expect(plan.shards.flatMap((s) => s.tests.filter((t) => t.duplicate).map((t) => t.methodName)).sort()).toEqual(['test29', 'test3']);
    expect(plan.shards.flatMap((s) => s.tests)).toHaveLength(32);
    // One device: nowhere to put a twin.
    expect(planShards(SUITE, ['d-1'], history, { sharding: 'duration', flakyThreshold: 0.9 }).shards[0]!.tests).toHaveLength(30);
    // No threshold: no twins.
    expect(planShards(SUITE, DEVICES, history, { sharding: 'duration', flakyThreshold: null }).shards.flatMap((s) => s.tests)).toHaveLength(30);
  });

  it('refuses a plan without a device', () => {
    expect(() => planShards(SUITE, [], new Map(), { sharding: 'uniform', flakyThreshold: null })).toThrow(AppError);
  });

  it('cuts a shard into launches of at most batchSize tests', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches([], 3)).toEqual([]);
    expect(() => batches([1], 0)).toThrow(RangeError);
  });

  it('re-plans remaining tests onto live devices on top of the work they have left', () => {
    const remaining = [
      { className: 'a.A', methodName: 'x', plannedMs: 9_000 },
      { className: 'a.A', methodName: 'y', plannedMs: 4_000 },
      { className: 'a.A', methodName: 'z', plannedMs: 4_000 },
    ];
    const shards = replan(remaining, [{ deviceId: 'd-2', remainingMs: 10_000 }, { deviceId: 'd-3', remainingMs: 0 }], new Map());
    expect(shards.map((s) => [s.deviceId, s.tests.map((t) => t.methodName), s.plannedMs])).toEqual([
      ['d-2', ['z'], 4_000],
      ['d-3', ['x', 'y'], 13_000],
    ]);
    // History, when it knows a test, outweighs the duration it was planned with.
    expect(replan(remaining.slice(0, 1), [{ deviceId: 'd-2', remainingMs: 0 }], new Map([['a.A#x', { meanMs: 100, passRate: 1 }]]))[0]!.tests[0]!.plannedMs).toBe(100);
    expect(replan(remaining, [], new Map())).toEqual([]);
    // A test that failed on the idle device goes to the busy one; alone, it goes back to where it failed.
    const retry = [{ className: 'a.A', methodName: 'r', plannedMs: 500, failedOn: ['d-3'] }];
    expect(replan(retry, [{ deviceId: 'd-2', remainingMs: 10_000 }, { deviceId: 'd-3', remainingMs: 0 }], new Map()).map((s) => s.deviceId)).toEqual(['d-2']);
    expect(replan(retry, [{ deviceId: 'd-3', remainingMs: 0 }], new Map()).map((s) => s.deviceId)).toEqual(['d-3']);
  });

  it('retries elsewhere than where the test failed, on the idlest device; there only when no other is live', () => {
    expect(retryTarget('d-1', DEVICES, new Map([['d-2', 5_000], ['d-3', 1_000]]))).toBe('d-3');
    expect(retryTarget('d-1', DEVICES)).toBe('d-2');
    expect(retryTarget(['d-1', 'd-2'], DEVICES, new Map([['d-3', 99_000]]))).toBe('d-3');
    expect(retryTarget('d-1', ['d-1'])).toBe('d-1');
    expect(retryTarget('d-1', [])).toBeNull();
  });

  it('fills the strategy’s absent fields with the defaults', () => {
    expect(resolveStrategy({ retries: 3, batchSize: undefined })).toMatchObject({ retries: 3, batchSize: 20, sharding: 'duration', flakyThreshold: null, failFast: false });
  });
});

describe('choosing the tests', () => {
  const t = (className: string, methodName: string, annotations: string[] = [], ignored = false): ListedTest => ({ className, methodName, annotations, ignored });
  const LISTING = [
    t('com.acme.login.LoginTest', 'ok', ['androidx.test.filters.SmallTest']),
    t('com.acme.login.LoginTest', 'wrongPassword', ['androidx.test.filters.LargeTest']),
    t('com.acme.login.LoginTest', 'legacy', [], true),
    t('com.acme.cart.CartTest', 'add', ['androidx.test.filters.SmallTest', 'com.acme.Smoke']),
    t('com.acme.cartography.MapTest', 'zoom'),
  ];
  const names = (filter: Parameters<typeof selectTests>[1]) => {
    const { run, skipped } = selectTests(LISTING, filter);
    return { run: run.map(testKey), skipped: skipped.map(testKey) };
  };

  it('without a filter, runs every test; ignored ones are skipped, not run', () => {
    expect(names({})).toEqual({ run: ['com.acme.login.LoginTest#ok', 'com.acme.login.LoginTest#wrongPassword', 'com.acme.cart.CartTest#add', 'com.acme.cartography.MapTest#zoom'], skipped: ['com.acme.login.LoginTest#legacy'] });
  });

  it('by class or class#method, by package (not a package that merely starts alike), by annotation fully qualified or simple', () => {
    expect(names({ classes: ['com.acme.cart.CartTest', 'com.acme.login.LoginTest#ok'] }).run).toEqual(['com.acme.login.LoginTest#ok', 'com.acme.cart.CartTest#add']);
    expect(names({ packages: ['com.acme.cart'] }).run).toEqual(['com.acme.cart.CartTest#add']);
    expect(names({ annotations: ['SmallTest'] }).run).toEqual(['com.acme.login.LoginTest#ok', 'com.acme.cart.CartTest#add']);
    expect(names({ annotations: ['com.acme.Smoke'] }).run).toEqual(['com.acme.cart.CartTest#add']);
  });

  it('notClasses excludes, namePattern matches className#methodName, and the kinds combine', () => {
    expect(names({ notClasses: ['com.acme.login.LoginTest'] })).toEqual({ run: ['com.acme.cart.CartTest#add', 'com.acme.cartography.MapTest#zoom'], skipped: [] });
    expect(names({ namePattern: '#(ok|zoom)$' }).run).toEqual(['com.acme.login.LoginTest#ok', 'com.acme.cartography.MapTest#zoom']);
    expect(names({ packages: ['com.acme.login'], annotations: ['LargeTest'] }).run).toEqual(['com.acme.login.LoginTest#wrongPassword']);
    expect(names({ packages: ['com.acme.login'], notClasses: ['com.acme.login.LoginTest#ok'] })).toEqual({ run: ['com.acme.login.LoginTest#wrongPassword'], skipped: ['com.acme.login.LoginTest#legacy'] });
  });

  it('refuses a name pattern that is not a regular expression', () => {
    let code: string | undefined;
    try {
      selectTests(LISTING, { namePattern: '(' });
    } catch (err) {
      code = (err as AppError).code;
    }
    expect(code).toBe('VALIDATION_FAILED');
  });
});
