import { describe, expect, it } from 'vitest';
import { InstrumentationParser, resultCrashed, stackMessage, type InstrumentationEvent } from './instrumentation.js';

// What AndroidJUnitRunner prints for `am instrument -w -r`: one passing test, one failing with its stack
// (whose lines run on after its key), one ignored, then the run's result.
const RUN = [
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=1',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=3',
  'INSTRUMENTATION_STATUS: stream=',
  'com.example.LoginTest:',
  'INSTRUMENTATION_STATUS: test=signsIn',
  'INSTRUMENTATION_STATUS_CODE: 1',
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=1',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=3',
  'INSTRUMENTATION_STATUS: stream=.',
  'INSTRUMENTATION_STATUS: test=signsIn',
  'INSTRUMENTATION_STATUS_CODE: 0',
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=2',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=3',
  'INSTRUMENTATION_STATUS: stream=',
  'INSTRUMENTATION_STATUS: test=rejectsBadPassword',
  'INSTRUMENTATION_STATUS_CODE: 1',
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=2',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=3',
  'INSTRUMENTATION_STATUS: stack=java.lang.AssertionError: expected:<2> but was:<3>',
  '\tat org.junit.Assert.fail(Assert.java:89)',
  '\tat com.example.LoginTest.rejectsBadPassword(LoginTest.java:42)',
  '',
  'INSTRUMENTATION_STATUS: stream=',
  'Error in rejectsBadPassword(com.example.LoginTest):',
  'java.lang.AssertionError: expected:<2> but was:<3>',
  'INSTRUMENTATION_STATUS: test=rejectsBadPassword',
  'INSTRUMENTATION_STATUS_CODE: -2',
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=3',
  'INSTRUMENTATION_STATUS: test=later',
  'INSTRUMENTATION_STATUS_CODE: 1',
  'INSTRUMENTATION_STATUS: class=com.example.LoginTest',
  'INSTRUMENTATION_STATUS: current=3',
  'INSTRUMENTATION_STATUS: test=later',
  'INSTRUMENTATION_STATUS_CODE: -3',
  'INSTRUMENTATION_RESULT: stream=',
  '',
  'Time: 1.234',
  '',
  'FAILURES!!!',
  'Tests run: 2,  Failures: 1',
  '',
  '',
  'INSTRUMENTATION_CODE: -1',
  '',
].join('\r\n');

const EXPECTED: InstrumentationEvent[] = [
  { kind: 'started', className: 'com.example.LoginTest', methodName: 'signsIn', current: 1, numTests: 3 },
  { kind: 'finished', className: 'com.example.LoginTest', methodName: 'signsIn', outcome: 'passed' },
  { kind: 'started', className: 'com.example.LoginTest', methodName: 'rejectsBadPassword', current: 2, numTests: 3 },
  {
    kind: 'finished',
    className: 'com.example.LoginTest',
    methodName: 'rejectsBadPassword',
    outcome: 'failed',
    stack: 'java.lang.AssertionError: expected:<2> but was:<3>\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.example.LoginTest.rejectsBadPassword(LoginTest.java:42)',
    message: 'expected:<2> but was:<3>',
  },
  { kind: 'started', className: 'com.example.LoginTest', methodName: 'later', current: 3, numTests: null },
  { kind: 'finished', className: 'com.example.LoginTest', methodName: 'later', outcome: 'ignored' },
  { kind: 'result', code: -1, stream: 'Time: 1.234\n\nFAILURES!!!\nTests run: 2,  Failures: 1' },
];

function parse(chunks: string[]): InstrumentationEvent[] {
  const events: InstrumentationEvent[] = [];
  const parser = new InstrumentationParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  parser.end();
  return events;
}

describe('the am instrument -r status protocol', () => {
  it('reads a run: started, passed, failed with its stack, ignored, and the result', () => {
    expect(parse([RUN])).toEqual(EXPECTED);
  });

  it('reads the same events however the output is split', () => {
    for (let at = 1; at < RUN.length; at++) expect(parse([RUN.slice(0, at), RUN.slice(at)]), `split at ${at}`).toEqual(EXPECTED);
    expect(parse([...RUN])).toEqual(EXPECTED);
  });

  it('reads a process that crashed mid-test: a start without its end, and the crash', () => {
    const crash = 'INSTRUMENTATION_STATUS: class=com.example.A\nINSTRUMENTATION_STATUS: test=t\nINSTRUMENTATION_STATUS_CODE: 1\nINSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n';
    const events = parse([crash]);
    expect(events).toEqual([
      { kind: 'started', className: 'com.example.A', methodName: 't', current: null, numTests: null },
      { kind: 'result', code: 0, shortMsg: 'Process crashed.' },
    ]);
    expect(resultCrashed(events[1] as Extract<InstrumentationEvent, { kind: 'result' }>)).toBe(true);
  });

  it('reads an errored test (-1) and a failed assumption (-4)', () => {
    const out = ['-1', '-4'].map((code) => `INSTRUMENTATION_STATUS: class=C\nINSTRUMENTATION_STATUS: test=t${code}\nINSTRUMENTATION_STATUS: stack=java.lang.IllegalStateException: boom\nINSTRUMENTATION_STATUS_CODE: ${code}\n`).join('');
    expect(parse([out]).map((e) => (e.kind === 'finished' ? [e.outcome, e.message] : e.kind))).toEqual([
      ['errored', 'boom'],
      ['assumption', 'boom'],
    ]);
  });

  it('says when the instrumentation could not start', () => {
    expect(parse(['android.util.AndroidException: INSTRUMENTATION_FAILED: com.example.test/androidx.test.runner.AndroidJUnitRunner\n'])).toEqual([
      { kind: 'failedToStart', message: 'com.example.test/androidx.test.runner.AndroidJUnitRunner' },
    ]);
  });

  it('gives an unfinished result when the output stops before its code', () => {
    expect(parse(['INSTRUMENTATION_RESULT: shortMsg=Process crashed.'])).toEqual([{ kind: 'result', code: null, shortMsg: 'Process crashed.' }]);
  });

  it('takes the message of a stack without the exception’s class', () => {
    expect(stackMessage('java.lang.AssertionError: expected 2\n\tat x')).toBe('expected 2');
    expect(stackMessage('org.junit.AssumptionViolatedException: no network')).toBe('no network');
    expect(stackMessage('something odd')).toBe('something odd');
  });
});
