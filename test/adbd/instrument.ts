/**
 * `am instrument -w -r` as AndroidJUnitRunner answers it, for a test APK installed on the adbd peer:
 * the tests of a scripted suite, run one after another in real time, each reported through the raw
 * status protocol (`INSTRUMENTATION_STATUS: key=value`, `INSTRUMENTATION_STATUS_CODE: 1 | 0 | -2 | -3 |
 * -4`, then `INSTRUMENTATION_RESULT` and `INSTRUMENTATION_CODE`), with the runner's own logcat lines
 * (`TestRunner: started: …`, `finished: …`) and the test's own. A script says what each test does:
 * pass, fail with a stack, crash the process, hang until stopped, break the link to the device mid-test
 * (the output just ends), fail once and then pass (flaky: the attempts are counted on the suite, which
 * every device of a farm shares), be ignored, or fail an assumption. The runner's arguments are honoured: `-e class`, `-e notClass`, `-e package`,
 * `-e annotation`, `-e notAnnotation`, `-e numShards`/`-e shardIndex` (AndroidJUnitRunner's sharding
 * by the description's hash) and `-e log true` (list without running).
 */

/** What one test does when it runs. */
export type ScriptedOutcome =
  | { kind: 'pass' }
  | { kind: 'fail'; message: string }
  | { kind: 'crash' }
  | { kind: 'hang' }
  /** The link to the device breaks while it runs: the output ends with the test going on and no crash said. */
  | { kind: 'cut' }
  /** Fails its first `failures` attempts (default 1) across all devices, then passes. */
  | { kind: 'flaky'; failures?: number; message?: string }
  | { kind: 'ignored' }
  | { kind: 'assumption'; message: string };

export interface ScriptedTest {
  className: string;
  methodName: string;
  /** Class- and method-level annotations (Java names), for `-e annotation`. */
  annotations?: string[];
  outcome: ScriptedOutcome;
  /** How long it runs, in ms (real time). */
  durationMs: number;
  /** Lines the test writes to logcat while it runs. */
  logcat?: string[];
}

/** A test APK's suite: its package, runner, target and tests in the order the runner finds them. */
export interface ScriptedSuite {
  testPackage: string;
  runner: string;
  targetPackage: string;
  tests: ScriptedTest[];
  /** Attempts of each test so far (`class#method`), across every device the suite is installed on. */
  attempts?: Map<string, number>;
}

/** What the instrumentation needs of the device it runs on. */
export interface InstrumentationHost {
  write(text: string): void;
  close(): void;
  log(level: 'I' | 'E', tag: string, message: string): void;
  /** Called when the process is stopped (`am force-stop`, the shell stream closed). */
  onStop(listener: () => void): void;
}

/** Java's `String.hashCode`, as AndroidJUnitRunner's shard filter uses it. */
export function javaHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/** The `-e key value` arguments of an `am instrument` command line. */
export function instrumentArguments(words: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < words.length; i++) if (words[i] === '-e' && words[i + 1] !== undefined && words[i + 2] !== undefined) out.set(words[i + 1]!, words[i + 2]!);
  return out;
}

/** The tests of `suite` the arguments select, in order. */
export function selectScripted(suite: ScriptedSuite, args: Map<string, string>): ScriptedTest[] {
  const list = (key: string) => args.get(key)?.split(',').filter(Boolean) ?? [];
  const matches = (entries: string[], t: ScriptedTest) => entries.some((e) => e === t.className || e === `${t.className}#${t.methodName}`);
  const classes = list('class');
  const notClasses = list('notClass');
  const packages = list('package');
  const annotations = list('annotation');
  const notAnnotations = list('notAnnotation');
  const shards = Number(args.get('numShards') ?? 0);
  const shardIndex = Number(args.get('shardIndex') ?? 0);
  return suite.tests.filter(
    (t) =>
      (classes.length === 0 || matches(classes, t)) &&
      !matches(notClasses, t) &&
      (packages.length === 0 || packages.some((p) => t.className.startsWith(`${p}.`))) &&
      (annotations.length === 0 || annotations.some((a) => t.annotations?.includes(a))) &&
      !notAnnotations.some((a) => t.annotations?.includes(a)) &&
      (shards <= 1 || Math.abs(javaHash(`${t.methodName}(${t.className})`)) % shards === shardIndex),
  );
}

const STATUS_START = 1;
const STATUS_OK = 0;
const STATUS_FAILURE = -2;
const STATUS_IGNORED = -3;
const STATUS_ASSUMPTION = -4;

/** Runs the selected tests of `suite` on `host`, as `am instrument -w -r` prints them. */
export function runInstrumentation(suite: ScriptedSuite, words: string[], host: InstrumentationHost): void {
  const args = instrumentArguments(words);
  const listOnly = args.get('log') === 'true';
  const tests = selectScripted(suite, args);
  const attempts = (suite.attempts ??= new Map());
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  host.onStop(() => {
    stopped = true;
    if (timer) clearTimeout(timer);
  });
  const status = (test: ScriptedTest, index: number, code: number, extra: Record<string, string>) => {
    const fields: Record<string, string> = { class: test.className, current: String(index + 1), id: 'AndroidJUnitRunner', numtests: String(tests.length), ...extra, test: test.methodName };
    host.write(`${Object.entries(fields).map(([k, v]) => `INSTRUMENTATION_STATUS: ${k}=${v}`).join('\n')}\nINSTRUMENTATION_STATUS_CODE: ${code}\n`);
  };
  const description = (t: ScriptedTest) => `${t.methodName}(${t.className})`;
  const failures: string[] = [];
  const began = Date.now();

  const finishRun = () => {
    const seconds = ((Date.now() - began) / 1000).toFixed(3);
    const summary = failures.length === 0 ? `OK (${tests.length} test${tests.length === 1 ? '' : 's'})` : `FAILURES!!!\nTests run: ${tests.length},  Failures: ${failures.length}`;
    const listed = failures.map((f, i) => `${i + 1}) ${f}`).join('\n');
    host.write(`INSTRUMENTATION_RESULT: stream=\n\nTime: ${seconds}\n${failures.length ? `There ${failures.length === 1 ? 'was 1 failure' : `were ${failures.length} failures`}:\n${listed}\n\n` : ''}${summary}\n\n\nINSTRUMENTATION_CODE: -1\n`);
    host.close();
  };

  const next = (index: number) => {
    if (stopped) return;
    const test = tests[index];
    if (!test) return finishRun();
    const key = `${test.className}#${test.methodName}`;
    const stream = index === 0 || tests[index - 1]?.className !== test.className ? `\n${test.className}:` : '';
    status(test, index, STATUS_START, { stream });
    if (listOnly) {
      status(test, index, STATUS_OK, { stream: '.' });
      return next(index + 1);
    }
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    host.log('I', 'TestRunner', `started: ${description(test)}`);
    if (test.outcome.kind === 'ignored') {
      host.log('I', 'TestRunner', `ignored: ${description(test)}`);
      status(test, index, STATUS_IGNORED, { stream: '' });
      return next(index + 1);
    }
    for (const line of test.logcat ?? []) host.log('I', 'TestCode', line);
    if (test.outcome.kind === 'hang') return; // until the process is stopped
    timer = setTimeout(() => {
      timer = null;
      if (stopped) return;
      const outcome = test.outcome;
      if (outcome.kind === 'cut') return host.close();
      if (outcome.kind === 'crash') {
        for (const line of ['FATAL EXCEPTION: main', `Process: ${suite.targetPackage}`, `java.lang.IllegalStateException: crashed in ${description(test)}`]) host.log('E', 'AndroidRuntime', line);
        host.write('INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n');
        host.close();
        return;
      }
      const failing = outcome.kind === 'fail' || (outcome.kind === 'flaky' && attempt <= (outcome.failures ?? 1));
      if (failing) {
        const message = outcome.kind === 'fail' ? outcome.message : (outcome.message ?? `flaky: attempt ${attempt} failed`);
        const stack = `java.lang.AssertionError: ${message}\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat ${test.className}.${test.methodName}(${test.className.split('.').at(-1)}.java:42)`;
        host.log('E', 'TestRunner', `failed: ${description(test)}`);
        for (const line of stack.split('\n')) host.log('E', 'TestRunner', line);
        failures.push(`${description(test)}\n${stack}`);
        status(test, index, STATUS_FAILURE, { stack, stream: `\nError in ${description(test)}:\n${stack}` });
      } else if (outcome.kind === 'assumption') {
        const stack = `org.junit.AssumptionViolatedException: ${outcome.message}\n\tat org.junit.Assume.assumeTrue(Assume.java:68)`;
        status(test, index, STATUS_ASSUMPTION, { stack, stream: '' });
      } else {
        status(test, index, STATUS_OK, { stream: '.' });
      }
      host.log('I', 'TestRunner', `finished: ${description(test)}`);
      next(index + 1);
    }, test.durationMs);
  };
  next(0);
}
