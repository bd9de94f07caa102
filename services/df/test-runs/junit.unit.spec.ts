import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { parseJunit } from '../../tmt/junit-import/parse.js';
import { junitXml, verdictOf, xmlAttr, type JunitAttempt } from './junit.js';

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/** The document as a tree, read by a strict (well-formedness checking) XML parser. */
function parse(xml: string): Element {
  const parser = sax.parser(true);
  const root: Element = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.onerror = (error) => {
    throw error;
  };
  parser.onopentag = (tag) => {
    const el: Element = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    stack.at(-1)!.children.push(el);
    stack.push(el);
  };
  parser.ontext = (t) => {
    stack.at(-1)!.text += t;
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  parser.write(xml).close();
  return root.children[0]!;
}
const all = (el: Element, name: string): Element[] => [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];

const STACK = 'java.lang.AssertionError: expected <1> but was <2> & "quoted"\n\tat com.acme.LoginTest.ok(LoginTest.kt:12)\n\u001b[31mred\u001b[0m \u0000 nul ]]> \uD800 lone';
const row = (className: string, methodName: string, attempt: number, outcome: JunitAttempt['outcome'], deviceId: string | null = `d-${attempt}`, extra: Partial<JunitAttempt> = {}): JunitAttempt => ({
  className,
  methodName,
  deviceId,
  attempt,
  outcome,
  durationMs: 1500 * attempt,
  message: outcome === 'passed' || outcome === 'flaky' ? null : 'expected <1> but was <2>',
  stack: outcome === 'failed' || outcome === 'errored' ? STACK : null,
  ...extra,
});
const LOGIN = 'com.acme.LoginTest';
const CART = 'com.acme.CartTest';
const ROWS: JunitAttempt[] = [
  row(LOGIN, 'ok', 1, 'passed'),
  row(LOGIN, 'flaky', 1, 'failed'),
  row(LOGIN, 'flaky', 2, 'flaky'),
  row(LOGIN, 'broken', 1, 'failed'),
  row(LOGIN, 'broken', 2, 'errored', 'd-2', { message: 'Process crashed.' }),
  row(CART, 'crash', 1, 'errored', 'd-3', { message: 'Instrumentation run failed due to Process crashed.', stack: 'java.lang.IllegalStateException\n\tat x' }),
  row(CART, 'ignored', 1, 'skipped', null, { message: 'ignored' }),
];
const RUN = { id: 'run-1', name: 'nightly <main>', timestamp: '2026-05-01T10:00:00.000Z' };

describe('the JUnit report of a run', () => {
  const xml = junitXml(RUN, ROWS, [{ className: CART, methodName: 'neverRan' }]);
  const doc = parse(xml);

  it('is well-formed, one testsuite per class and one testcase per test whatever its attempts', () => {
    expect(doc.name).toBe('testsuites');
    expect(all(doc, 'testsuite').map((s) => s.attributes.name)).toEqual([LOGIN, CART]);
    expect(all(doc, 'testcase').map((c) => `${c.attributes.classname}#${c.attributes.name}`)).toEqual([
      `${LOGIN}#ok`, `${LOGIN}#flaky`, `${LOGIN}#broken`, `${CART}#crash`, `${CART}#ignored`, `${CART}#neverRan`,
    ]);
  });

  it('counts in the attributes what the rows say, per suite and in all', () => {
    const keys = [...new Set(ROWS.map((r) => `${r.className}#${r.methodName}`))];
    const verdicts = keys.map((k) => verdictOf(ROWS.filter((r) => `${r.className}#${r.methodName}` === k)));
    expect(verdicts).toEqual(['passed', 'flaky', 'failed', 'errored', 'skipped']);
    expect(doc.attributes).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '2' });
    const [login, cart] = all(doc, 'testsuite');
    expect(login!.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '0', time: '7.500' });
    expect(cart!.attributes).toMatchObject({ tests: '3', failures: '0', errors: '1', skipped: '2' });
    for (const suite of [doc, login!, cart!]) {
      const cases = all(suite, 'testcase');
      const direct = (name: string) => cases.filter((c) => c.children.some((x) => x.name === name)).length;
      expect(Number(suite.attributes.tests)).toBe(cases.length);
      expect(Number(suite.attributes.failures)).toBe(direct('failure'));
      expect(Number(suite.attributes.errors)).toBe(direct('error'));
      expect(Number(suite.attributes.skipped)).toBe(direct('skipped'));
    }
  });

  it('writes retries as Surefire does: flakyFailure beside a pass, failure then rerunError for a test that never passed', () => {
    const byName = (n: string) => all(doc, 'testcase').find((c) => c.attributes.name === n)!;
    expect(byName('flaky').children.map((c) => c.name)).toEqual(['flakyFailure', 'system-out']);
    expect(all(byName('flaky'), 'stackTrace')).toHaveLength(1);
    expect(byName('broken').children.map((c) => c.name)).toEqual(['failure', 'rerunError', 'system-out']);
    expect(byName('broken').children[0]!.attributes).toEqual({ message: 'expected <1> but was <2>', type: 'java.lang.AssertionError' });
    expect(byName('broken').children[1]!.attributes.message).toBe('Process crashed.');
    expect(byName('crash').children[0]!.attributes.type).toBe('java.lang.IllegalStateException');
    expect(byName('neverRan').children.map((c) => c.name)).toEqual(['skipped']);
    expect(byName('broken').children[2]!.text).toBe('attempt 1 on d-1: failed (1.500 s)\nattempt 2 on d-2: errored (3.000 s)');
  });

  it('escapes markup and makes control characters and lone surrogates visible, keeping the rest of a stack as it was', () => {
    const failure = all(doc, 'failure')[0]!;
    expect(failure.text).toBe('java.lang.AssertionError: expected <1> but was <2> & "quoted"\n\tat com.acme.LoginTest.ok(LoginTest.kt:12)\n\\u001b[31mred\\u001b[0m \\u0000 nul ]]> \\ud800 lone');
    expect(doc.attributes.name).toBe('nightly <main>');
    expect(parse(`<a b="${xmlAttr('line\nnext\ttab "q" \u0007')}"/>`).attributes.b).toBe('line\nnext\ttab "q" \\u0007');
  });

  it('reads back through the platform’s own JUnit import with each test’s final outcome', () => {
    expect(parseJunit(xml).map((c) => [c.name, c.outcome])).toEqual([
      ['ok', 'passed'], ['flaky', 'passed'], ['broken', 'failed'], ['crash', 'error'], ['ignored', 'skipped'], ['neverRan', 'skipped'],
    ]);
  });
});
