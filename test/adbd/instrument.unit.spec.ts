import { describe, expect, it } from 'vitest';
import { InstrumentationParser, type InstrumentationEvent } from '#agent/android/instrumentation.js';
import { javaHash, runInstrumentation, selectScripted, type ScriptedSuite, type ScriptedTest } from './instrument.js';

const test = (methodName: string, outcome: ScriptedTest['outcome'], extra: Partial<ScriptedTest> = {}): ScriptedTest => ({
  className: 'com.example.app.LoginTest',
  methodName,
  outcome,
  durationMs: 1,
  ...extra,
});

function suiteOf(tests: ScriptedTest[]): ScriptedSuite {
  return { testPackage: 'com.example.app.test', runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: 'com.example.app', tests };
}

/** Runs the instrumentation to its end (or until `stopAfter` lines of output, then stops it); answers what it printed and logged. */
function run(suite: ScriptedSuite, words: string[], stopWhen?: (out: string) => boolean): Promise<{ out: string; log: string[]; closed: boolean }> {
  return new Promise((resolve) => {
    let out = '';
    const log: string[] = [];
    const stops: (() => void)[] = [];
    runInstrumentation(suite, ['am', 'instrument', '-w', '-r', ...words, `${suite.testPackage}/${suite.runner}`], {
      write: (text) => {
        out += text;
        if (stopWhen?.(out)) {
          stops.forEach((f) => f());
          resolve({ out, log, closed: false });
        }
      },
      close: () => resolve({ out, log, closed: true }),
      log: (level, tag, message) => log.push(`${level} ${tag}: ${message}`),
      onStop: (listener) => stops.push(listener),
    });
  });
}

const codes = (out: string) => [...out.matchAll(/INSTRUMENTATION_STATUS_CODE: (-?\d)/g)].map((m) => Number(m[1]));

describe('the adbd peer’s am instrument', () => {
  it('reports each test started and passed, then the run, as AndroidJUnitRunner prints it', async () => {
    const { out, log } = await run(suiteOf([test('signsIn', { kind: 'pass' }, { logcat: ['typing the password'] }), test('signsOut', { kind: 'pass' })]), []);
    expect(codes(out)).toEqual([1, 0, 1, 0]);
    expect(out).toContain('INSTRUMENTATION_STATUS: test=signsIn\nINSTRUMENTATION_STATUS_CODE: 1');
    expect(out).toContain('INSTRUMENTATION_STATUS: numtests=2');
    expect(out).toMatch(/INSTRUMENTATION_RESULT: stream=\n\nTime: [\d.]+\nOK \(2 tests\)\n\n\nINSTRUMENTATION_CODE: -1\n$/);
    expect(log).toEqual([
      'I TestRunner: started: signsIn(com.example.app.LoginTest)',
      'I TestCode: typing the password',
      'I TestRunner: finished: signsIn(com.example.app.LoginTest)',
      'I TestRunner: started: signsOut(com.example.app.LoginTest)',
      'I TestRunner: finished: signsOut(com.example.app.LoginTest)',
    ]);
  });

  it('reports a failure with its stack, an ignored test and a failed assumption', async () => {
    const { out } = await run(suiteOf([test('fails', { kind: 'fail', message: 'expected 2' }), test('skipped', { kind: 'ignored' }), test('assumes', { kind: 'assumption', message: 'no network' })]), []);
    expect(codes(out)).toEqual([1, -2, 1, -3, 1, -4]);
    expect(out).toContain('INSTRUMENTATION_STATUS: stack=java.lang.AssertionError: expected 2\n\tat org.junit.Assert.fail');
    expect(out).toContain('There was 1 failure:\n1) fails(com.example.app.LoginTest)');
    expect(out).toContain('FAILURES!!!\nTests run: 3,  Failures: 1');
  });

  it('ends the run as a crashed process in the middle of a test', async () => {
    const { out, closed } = await run(suiteOf([test('crashes', { kind: 'crash' }), test('neverRuns', { kind: 'pass' })]), []);
    expect(closed).toBe(true);
    expect(codes(out)).toEqual([1]);
    expect(out).toMatch(/INSTRUMENTATION_RESULT: shortMsg=Process crashed\.\nINSTRUMENTATION_CODE: 0\n$/);
  });

  it('hangs in a hanging test until stopped', async () => {
    const { out } = await run(suiteOf([test('hangs', { kind: 'hang' }), test('after', { kind: 'pass' })]), [], (o) => o.includes('test=hangs'));
    expect(codes(out)).toEqual([1]);
    expect(out).not.toContain('INSTRUMENTATION_RESULT');
  });

  it('fails a flaky test on its first attempt and passes it on the next, counted across devices', async () => {
    const suite = suiteOf([test('flaky', { kind: 'flaky' })]);
    expect(codes((await run(suite, [])).out)).toEqual([1, -2]);
    expect(codes((await run(suite, [])).out)).toEqual([1, 0]);
  });

  it('lists the selected tests without running them (-e log true)', async () => {
    const { out, log } = await run(suiteOf([test('a', { kind: 'fail', message: 'x' }), test('b', { kind: 'hang' })]), ['-e', 'log', 'true']);
    expect(codes(out)).toEqual([1, 0, 1, 0]);
    expect(log).toEqual([]);
  });

  it('selects by class, method, package, annotation and shard', () => {
    const tests = [
      test('a', { kind: 'pass' }, { annotations: ['androidx.test.filters.SmallTest'] }),
      test('b', { kind: 'pass' }),
      test('c', { kind: 'pass' }, { className: 'com.example.other.CartTest', annotations: ['androidx.test.filters.LargeTest'] }),
    ];
    const suite = suiteOf(tests);
    const names = (args: Record<string, string>) => selectScripted(suite, new Map(Object.entries(args))).map((t) => t.methodName);
    expect(names({ class: 'com.example.app.LoginTest#b,com.example.other.CartTest' })).toEqual(['b', 'c']);
    expect(names({ notClass: 'com.example.app.LoginTest' })).toEqual(['c']);
    expect(names({ package: 'com.example.app' })).toEqual(['a', 'b']);
    expect(names({ annotation: 'androidx.test.filters.SmallTest' })).toEqual(['a']);
    const shards = [0, 1].map((shardIndex) => names({ numShards: '2', shardIndex: String(shardIndex) }));
    expect([...shards[0]!, ...shards[1]!].sort()).toEqual(['a', 'b', 'c']);
    expect(shards[0]).toEqual(tests.filter((t) => Math.abs(javaHash(`${t.methodName}(${t.className})`)) % 2 === 0).map((t) => t.methodName));
  });

  it('hashes as Java’s String.hashCode', () => {
    expect(javaHash('hello')).toBe(99162322);
    expect(javaHash('testSomething(com.example.FooTest)')).toBe(javaHash('testSomething(com.example.FooTest)'));
    expect(javaHash('polygenelubricants')).toBe(-2147483648);
  });
});

describe('the peer’s output, read by the agent’s parser', () => {
  it('gives each test’s outcome and the run’s end', async () => {
    const { out } = await run(suiteOf([test('a', { kind: 'pass' }), test('b', { kind: 'fail', message: 'nope' }), test('c', { kind: 'ignored' })]), []);
    const events: InstrumentationEvent[] = [];
    const parser = new InstrumentationParser((e) => events.push(e));
    parser.push(out);
    parser.end();
    expect(events.map((e) => (e.kind === 'finished' ? `${e.methodName}:${e.outcome}:${e.message ?? ''}` : e.kind))).toEqual(['started', 'a:passed:', 'started', 'b:failed:nope', 'started', 'c:ignored:', 'result']);
  });
});
