import { describe, expect, it } from 'vitest';
import { InstrumentationParser, type InstrumentationEvent } from './instrumentation.js';

/**
 * Transcripts of `am instrument -w -r` in the shape AndroidJUnitRunner and the activity manager write
 * them (status keys `class`, `current`, `id`, `numtests`, `stream`, `test`, `stack`; a result's
 * `stream` or `shortMsg`), each read whole, byte by byte, and split in two at every position.
 */
const status = (fields: Record<string, string>, code: number) =>
  Object.entries(fields)
    .map(([k, v]) => `INSTRUMENTATION_STATUS: ${k}=${v}\n`)
    .join('') + `INSTRUMENTATION_STATUS_CODE: ${code}\n`;
const test = (cls: string, name: string, current: number, extra: Record<string, string> = {}) => ({ class: cls, current: String(current), id: 'AndroidJUnitRunner', numtests: '4', stream: '', test: name, ...extra });

const STACK = 'java.lang.AssertionError: expected:<Grüße> but was:<Gruesse>\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.example.app.CalculatorTest.subtracts(CalculatorTest.java:21)\n';
const FULL_RUN =
  status(test('com.example.app.CalculatorTest', 'addsTwoNumbers', 1), 1) +
  status(test('com.example.app.CalculatorTest', 'addsTwoNumbers', 1, { stream: '.' }), 0) +
  status(test('com.example.app.CalculatorTest', 'subtracts', 2), 1) +
  status(test('com.example.app.CalculatorTest', 'subtracts', 2, { stack: STACK, stream: `\nError in subtracts(com.example.app.CalculatorTest):\n${STACK}` }), -2) +
  status(test('com.example.app.CalculatorTest', 'divideByZero', 3), 1) +
  status(test('com.example.app.CalculatorTest', 'divideByZero', 3), -3) +
  status(test('com.example.app.CalculatorTest', 'onlyOnTablets', 4), 1) +
  status(test('com.example.app.CalculatorTest', 'onlyOnTablets', 4, { stack: 'org.junit.AssumptionViolatedException: got: <false>, expected: is <true>\n\tat org.junit.Assume.assumeTrue(Assume.java:68)\n' }), -4) +
  'INSTRUMENTATION_RESULT: stream=\n\nTime: 0.412\nThere was 1 failure:\n1) subtracts(com.example.app.CalculatorTest)\n' +
  STACK +
  '\nFAILURES!!!\nTests run: 3,  Failures: 1\n\n\nINSTRUMENTATION_CODE: -1\n';

const started = (methodName: string, current: number, total = 4): InstrumentationEvent => ({ type: 'testStarted', className: 'com.example.app.CalculatorTest', methodName, current, total });
const finished = (methodName: string, outcome: string, stack: string | null = null, message: string | null = null) => ({ type: 'testFinished', className: 'com.example.app.CalculatorTest', methodName, outcome, stack, message });

const TRANSCRIPTS: { what: string; text: string; events: unknown[] }[] = [
  {
    what: 'a run with a pass, a failure with a stack over several lines, an ignored test and an assumption failure',
    text: FULL_RUN,
    events: [
      started('addsTwoNumbers', 1),
      finished('addsTwoNumbers', 'passed'),
      started('subtracts', 2),
      finished('subtracts', 'failed', STACK.trimEnd(), 'java.lang.AssertionError: expected:<Grüße> but was:<Gruesse>'),
      started('divideByZero', 3),
      finished('divideByZero', 'ignored'),
      started('onlyOnTablets', 4),
      finished('onlyOnTablets', 'assumptionFailure', 'org.junit.AssumptionViolatedException: got: <false>, expected: is <true>\n\tat org.junit.Assume.assumeTrue(Assume.java:68)', 'org.junit.AssumptionViolatedException: got: <false>, expected: is <true>'),
      { type: 'runFinished', code: -1, result: { stream: `\n\nTime: 0.412\nThere was 1 failure:\n1) subtracts(com.example.app.CalculatorTest)\n${STACK}\nFAILURES!!!\nTests run: 3,  Failures: 1` } },
    ],
  },
  {
    what: 'the same run with CRLF line ends (older devices through adb shell)',
    text: FULL_RUN.replace(/\n/g, '\r\n'),
    events: [],
  },
  {
    what: 'the process crashing mid-test',
    text: status(test('com.example.app.CalculatorTest', 'addsTwoNumbers', 1), 1) + 'INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n',
    events: [
      started('addsTwoNumbers', 1),
      finished('addsTwoNumbers', 'error', null, 'The test did not finish: Process crashed.'),
      { type: 'runFailed', message: 'Process crashed.', result: { shortMsg: 'Process crashed.' } },
    ],
  },
  {
    what: 'an instrumentation that is not installed',
    text:
      'INSTRUMENTATION_STATUS: id=ActivityManagerService\nINSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{com.example.app.test/androidx.test.runner.AndroidJUnitRunner}\nINSTRUMENTATION_STATUS_CODE: -1\nandroid.util.AndroidException: INSTRUMENTATION_FAILED: com.example.app.test/androidx.test.runner.AndroidJUnitRunner\n\tat com.android.commands.am.Instrument.run(Instrument.java:519)\n',
    events: [{ type: 'runFailed', message: 'Unable to find instrumentation info for: ComponentInfo{com.example.app.test/androidx.test.runner.AndroidJUnitRunner}', result: {} }],
  },
  {
    what: 'INSTRUMENTATION_FAILED on its own line',
    text: 'INSTRUMENTATION_FAILED: com.example.app.test/androidx.test.runner.AndroidJUnitRunner\n',
    events: [{ type: 'runFailed', message: 'Instrumentation failed: com.example.app.test/androidx.test.runner.AndroidJUnitRunner', result: {} }],
  },
  {
    what: 'output cut off mid-test, without a last newline',
    text: status(test('com.example.app.CalculatorTest', 'addsTwoNumbers', 1), 1) + 'INSTRUMENTATION_STATUS: class=com.example.app.Calc',
    events: [
      started('addsTwoNumbers', 1),
      finished('addsTwoNumbers', 'error', null, 'The test did not finish: The instrumentation output ended before the run did (the process or the connection died)'),
      { type: 'runFailed', message: 'The instrumentation output ended before the run did (the process or the connection died)', result: {} },
    ],
  },
];
TRANSCRIPTS[1]!.events = TRANSCRIPTS[0]!.events;

const read = (chunks: Buffer[]): InstrumentationEvent[] => {
  const parser = new InstrumentationParser();
  return [...chunks.flatMap((c) => parser.push(c)), ...parser.end()];
};

describe('reading am instrument -w -r output', () => {
  for (const t of TRANSCRIPTS) {
    it(`${t.what}: whole, byte by byte, and split in two anywhere`, () => {
      const bytes = Buffer.from(t.text, 'utf8');
      expect(read([bytes])).toEqual(t.events);
      expect(read([...bytes].map((b) => Buffer.from([b])))).toEqual(t.events);
      for (let k = 0; k <= bytes.length; k++) expect(read([bytes.subarray(0, k), bytes.subarray(k)]), `split at ${k}`).toEqual(t.events);
    });
  }

  it('emits each event as soon as its last line is complete', () => {
    const parser = new InstrumentationParser();
    const start = status(test('com.example.app.CalculatorTest', 'addsTwoNumbers', 1), 1);
    expect(parser.push(start.slice(0, -1))).toEqual([]);
    expect(parser.push('\n')).toEqual([started('addsTwoNumbers', 1)]);
  });

  it('emits nothing after the run ended', () => {
    const parser = new InstrumentationParser();
    parser.push('INSTRUMENTATION_CODE: -1\n');
    expect(parser.push(status(test('com.example.app.CalculatorTest', 'late', 1), 1))).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});
