import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import { parseJunit } from './parse.js';

const refusal = (xml: string): AppError => {
  try {
    parseJunit(xml);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('parseJunit accepted the document');
};

describe('parseJunit', () => {
  it("reads testcases at any depth of nested suites, with outcome, duration and details; properties and system-out without a device session's link leave it null", () => {
    const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="all" tests="5">
  <testsuite name="outer">
    <properties><property name="browser" value="none"/></properties>
    <testsuite name="inner">
      <testcase classname="math" name="adds" time="0.012"><system-out>log line</system-out></testcase>
      <testcase classname="math" name="divides" time="1,234.5"><failure message="expected 1 to be 2" type="AssertionError"><![CDATA[at divides (math.test.ts:3:5)]]></failure></testcase>
    </testsuite>
    <testcase name="no class" time="x"><skipped message="later"/></testcase>
  </testsuite>
  <testsuite name="second root suite">
    <testcase classname="io" name="reads"><error message="boom" type="TypeError">stack</error></testcase>
    <testcase classname="io" name="flaky"><skipped/><failure message="lost"/></testcase>
  </testsuite>
</testsuites>`;
    expect(parseJunit(xml)).toEqual([
      { classname: 'math', name: 'adds', outcome: 'passed', durationMs: 12, details: null, deviceSessionId: null },
      { classname: 'math', name: 'divides', outcome: 'failed', durationMs: 1_234_500, details: 'AssertionError: expected 1 to be 2\n\nat divides (math.test.ts:3:5)', deviceSessionId: null },
      { classname: 'outer', name: 'no class', outcome: 'skipped', durationMs: null, details: 'later', deviceSessionId: null },
      { classname: 'io', name: 'reads', outcome: 'error', durationMs: null, details: 'Error: TypeError: boom\n\nstack', deviceSessionId: null },
      { classname: 'io', name: 'flaky', outcome: 'failed', durationMs: null, details: 'lost', deviceSessionId: null },
    ]);
  });

  it('takes a <testsuite> as the root, and several <testsuite> roots one after the other', () => {
    expect(parseJunit('<testsuite name="s"><testcase name="t"/></testsuite>')).toEqual([{ classname: 's', name: 't', outcome: 'passed', durationMs: null, details: null, deviceSessionId: null }]);
    expect(parseJunit('<testsuite name="a"><testcase name="t"/></testsuite>\n<testsuite name="b"><testcase name="t"/></testsuite>').map((c) => c.classname)).toEqual(['a', 'b']);
  });

  it('refuses XML that is not well-formed with INVALID_XML naming the line and column', () => {
    const err = refusal('<testsuites>\n  <testsuite name="a">\n    <testcase name="t">\n  </testsuite>\n</testsuites>');
    expect(err.code).toBe('INVALID_XML');
    expect(err.message).toMatch(/line 4, column \d+/);
    expect(err.details?.[0]).toMatchObject({ line: 4 });
    expect(refusal('').code).toBe('INVALID_XML');
  });

  it('refuses well-formed XML that is not JUnit, and a report without testcases', () => {
    expect(refusal('<project><target name="x"/></project>')).toMatchObject({ code: 'NOT_JUNIT', message: expect.stringContaining('<project>') });
    expect(refusal('<testsuite name="a"><testcase name="t"/></testsuite><html/>').code).toBe('NOT_JUNIT');
    expect(refusal('<testsuite>\n<testcase classname="a"/></testsuite>')).toMatchObject({ code: 'NOT_JUNIT', message: expect.stringContaining('line 2') });
    expect(refusal('<testsuites><testsuite name="empty"/></testsuites>').code).toBe('JUNIT_EMPTY');
  });

  it('keeps a failure message once when the body repeats it (vitest, Playwright Test), and both when it does not', () => {
    const xml = `<testsuite name="s">
      <testcase name="repeats"><failure message="expected 0.5 to be 2" type="AssertionError">AssertionError: expected 0.5 to be 2
 ❯ math.test.ts:11:19</failure></testcase>
      <testcase name="errs"><error message="boom" type="TypeError">TypeError: boom
    at run (io.ts:3:5)</error></testcase>
      <testcase name="apart"><failure message="lost" type="AssertionError">at apart (x.ts:1:1)</failure></testcase>
    </testsuite>`;
    expect(parseJunit(xml).map((c) => c.details)).toEqual([
      'AssertionError: expected 0.5 to be 2\n ❯ math.test.ts:11:19',
      'Error\n\nTypeError: boom\n    at run (io.ts:3:5)',
      'AssertionError: lost\n\nat apart (x.ts:1:1)',
    ]);
  });

  it("finds a testcase's device session: a df.session property (id or link), else a replay link in its system-out or system-err; never a test session's link", () => {
    const id = (n: number) => `0b5e${n}000-aaaa-4bbb-8ccc-00000000000${n}`;
    const xml = `<testsuites><testsuite name="s">
      <properties><property name="df.session" value="${id(9)}"/></properties>
      <testcase name="annotated"><properties><property name="df.session" value="${id(1).toUpperCase()}"/></properties><system-out>replay: https://qa.example.test/sessions/${id(8)}?pane=replay</system-out></testcase>
      <testcase name="as text"><properties><property name="qa-platform.session">https://qa.example.test/df/api/sessions/${id(2)}</property></properties></testcase>
      <testcase name="printed"><failure message="m">at x</failure><system-out>[[ATTACHMENT|trace.zip]]
[qa-platform] s › printed failed; replay: https://qa.example.test/sessions/${id(3)}?pane=replay</system-out></testcase>
      <testcase name="on stderr"><system-err>see http://127.0.0.1:8080/device-farm/sessions/${id(4)}</system-err></testcase>
      <testcase name="test session only"><system-out>https://qa.example.test/test-sessions/${id(5)} and /v1/test-sessions/${id(5)}</system-out></testcase>
      <testcase name="other property"><properties><property name="browser" value="${id(6)}"/></properties></testcase>
    </testsuite></testsuites>`;
    expect(parseJunit(xml).map((c) => [c.name, c.deviceSessionId])).toEqual([
      ['annotated', id(1)],
      ['as text', id(2)],
      ['printed', id(3)],
      ['on stderr', id(4)],
      ['test session only', null],
      ['other property', null],
    ]);
  });
});
