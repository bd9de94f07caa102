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
  it('reads testcases at any depth of nested suites, with outcome, duration and details; properties and system-out are read past', () => {
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
      { classname: 'math', name: 'adds', outcome: 'passed', durationMs: 12, details: null },
      { classname: 'math', name: 'divides', outcome: 'failed', durationMs: 1_234_500, details: 'AssertionError: expected 1 to be 2\n\nat divides (math.test.ts:3:5)' },
      { classname: 'outer', name: 'no class', outcome: 'skipped', durationMs: null, details: 'later' },
      { classname: 'io', name: 'reads', outcome: 'error', durationMs: null, details: 'Error: TypeError: boom\n\nstack' },
      { classname: 'io', name: 'flaky', outcome: 'failed', durationMs: null, details: 'lost' },
    ]);
  });

  it('takes a <testsuite> as the root, and several <testsuite> roots one after the other', () => {
    expect(parseJunit('<testsuite name="s"><testcase name="t"/></testsuite>')).toEqual([{ classname: 's', name: 't', outcome: 'passed', durationMs: null, details: null }]);
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
});
