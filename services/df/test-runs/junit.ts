import type { TestOutcome } from '#events/df/test-runs.js';
import type { TestAttemptView } from '#projections/df-test-runs/index.js';
import { testKey, type TestId } from './plan.js';

// One JUnit XML report of a run, merged over its devices, as Maven Surefire writes it: a <testsuite>
// per test class (what Jenkins, GitLab and GitHub's reporters group by), one <testcase> per test
// whatever its attempts; a test that passed after failing carries its failed attempts as
// <flakyFailure>/<flakyError>, one that failed every attempt its first as <failure>/<error> and the
// others as <rerunFailure>/<rerunError>. Pure: the rows in, the text out.

/** One attempt of a test, as the run's read model lists them. */
export type JunitAttempt = Pick<TestAttemptView, 'className' | 'methodName' | 'deviceId' | 'attempt' | 'outcome' | 'durationMs' | 'message' | 'stack'>;

export interface JunitRun {
  id: string;
  name: string | null;
  /** When the run started (or was queued), ISO 8601. */
  timestamp: string;
}

// Characters XML 1.0 does not allow, not even as references: C0 controls but tab, line feed and
// carriage return, U+FFFE/U+FFFF and unpaired surrogates. They are written as `\uXXXX`, visibly.
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const visible = (s: string) => s.replace(ILLEGAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/** Text content: markup characters as entities, illegal characters made visible. */
export const xmlText = (s: string): string => visible(s).replace(/[&<>]|\r/g, (c) => ENTITIES[c]!);
/** An attribute's value: also quotes, and line breaks and tabs as references (a parser would fold them into spaces). */
export const xmlAttr = (s: string): string => visible(s).replace(/[&<>"'\n\r\t]/g, (c) => ENTITIES[c]!);

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const attrs = (a: Record<string, string | number | null>) =>
  Object.entries(a)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');

const isFail = (o: TestOutcome) => o === 'failed' || o === 'errored';
const isPass = (o: TestOutcome) => o === 'passed' || o === 'flaky';

/** The exception class a stack starts with (`java.lang.AssertionError: ...`), else what the outcome was. */
function typeOf(a: JunitAttempt): string {
  const head = /^\s*([\w$]+(?:\.[\w$]+)+)(?::|\s*$)/m.exec(a.stack ?? '');
  return head?.[1] ?? (a.outcome === 'errored' ? 'Error' : 'AssertionError');
}

/** What a test came to over its attempts, for the report (a pass beside a failure is flaky). */
export type JunitVerdict = 'passed' | 'flaky' | 'failed' | 'errored' | 'skipped' | 'notRun';

export function verdictOf(attempts: readonly JunitAttempt[]): JunitVerdict {
  const failures = attempts.filter((a) => isFail(a.outcome));
  if (attempts.some((a) => isPass(a.outcome))) return failures.length ? 'flaky' : 'passed';
  if (failures.length) return failures[0]!.outcome === 'errored' ? 'errored' : 'failed';
  return attempts.length ? 'skipped' : 'notRun';
}

/** A failed attempt as Surefire nests it: `<flakyFailure>` or `<rerunFailure>` with its `<stackTrace>`. */
function nestedFailure(kind: 'flaky' | 'rerun', a: JunitAttempt): string {
  const tag = `${kind}${a.outcome === 'errored' ? 'Error' : 'Failure'}`;
  const stack = a.stack ? `<stackTrace>${xmlText(a.stack)}</stackTrace>` : '';
  return `      <${tag}${attrs({ message: a.message, type: typeOf(a) })}>${stack}</${tag}>\n`;
}

/** Which device ran each attempt and how it ended: the testcase's `<system-out>`. */
const attemptLog = (attempts: readonly JunitAttempt[]) => attempts.map((a) => `attempt ${a.attempt} on ${a.deviceId ?? '-'}: ${a.outcome} (${seconds(a.durationMs)} s)`).join('\n');

function testcase(test: TestId, attempts: readonly JunitAttempt[], verdict: JunitVerdict): string {
  const final = attempts.at(-1);
  const open = `    <testcase${attrs({ name: test.methodName, classname: test.className, time: seconds(final?.durationMs ?? 0) })}>\n`;
  let body = '';
  if (verdict === 'notRun') body = `      <skipped message="Not run: the run ended before it"/>\n`;
  else if (verdict === 'skipped') body = `      <skipped${attrs({ message: final?.message ?? null })}/>\n`;
  else if (verdict === 'flaky') body = attempts.filter((a) => isFail(a.outcome)).map((a) => nestedFailure('flaky', a)).join('');
  else if (verdict === 'failed' || verdict === 'errored') {
    const [first, ...reruns] = attempts.filter((a) => isFail(a.outcome));
    const tag = first!.outcome === 'errored' ? 'error' : 'failure';
    body = `      <${tag}${attrs({ message: first!.message, type: typeOf(first!) })}>${xmlText(first!.stack ?? '')}</${tag}>\n${reruns.map((a) => nestedFailure('rerun', a)).join('')}`;
  }
  const out = attempts.length ? `      <system-out>${xmlText(attemptLog(attempts))}</system-out>\n` : '';
  return `${open}${body}${out}    </testcase>\n`;
}

interface Totals {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}
const add = (t: Totals, verdict: JunitVerdict, ms: number) => {
  t.tests += 1;
  if (verdict === 'failed') t.failures += 1;
  if (verdict === 'errored') t.errors += 1;
  if (verdict === 'skipped' || verdict === 'notRun') t.skipped += 1;
  t.ms += ms;
};
const totalsAttrs = (t: Totals) => ({ tests: t.tests, failures: t.failures, errors: t.errors, skipped: t.skipped, time: seconds(t.ms) });

/**
 * The run's JUnit XML: classes and tests in the order of their first row, attempts by number; `notRun`
 * names tests the run never got to (written as skipped). Counts in the attributes are per test.
 */
export function junitXml(run: JunitRun, rows: readonly JunitAttempt[], notRun: readonly TestId[] = []): string {
  const classes = new Map<string, Map<string, { test: TestId; attempts: JunitAttempt[] }>>();
  const entry = (t: TestId) => {
    const tests = classes.get(t.className) ?? new Map<string, { test: TestId; attempts: JunitAttempt[] }>();
    classes.set(t.className, tests);
    const e = tests.get(testKey(t)) ?? { test: { className: t.className, methodName: t.methodName }, attempts: [] };
    tests.set(testKey(t), e);
    return e;
  };
  for (const r of rows) entry(r).attempts.push(r);
  for (const t of notRun) entry(t);
  const all: Totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const suites = [...classes].map(([className, tests]) => {
    const totals: Totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
    const cases = [...tests.values()].map(({ test, attempts }) => {
      attempts.sort((a, b) => a.attempt - b.attempt);
      const verdict = verdictOf(attempts);
      const ms = attempts.at(-1)?.durationMs ?? 0;
      add(totals, verdict, ms);
      add(all, verdict, ms);
      return testcase(test, attempts, verdict);
    });
    return `  <testsuite${attrs({ name: className, ...totalsAttrs(totals), timestamp: run.timestamp.replace(/\.\d+Z$|Z$/, '') })}>\n${cases.join('')}  </testsuite>\n`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ id: run.id, name: run.name ?? run.id, ...totalsAttrs(all) })}>\n${suites.join('')}</testsuites>\n`;
}
