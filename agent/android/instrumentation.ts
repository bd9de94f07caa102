/**
 * The raw status protocol of `am instrument -r`, read as it streams. The runner reports each test as a
 * bundle of `INSTRUMENTATION_STATUS: key=value` lines (a value may run over several lines: a stack, the
 * `stream` text) closed by `INSTRUMENTATION_STATUS_CODE: <n>` — 1 started, 0 passed, -1 errored, -2
 * failed, -3 ignored, -4 assumption failed — and the run as `INSTRUMENTATION_RESULT: key=value` lines
 * closed by `INSTRUMENTATION_CODE: <n>`. A process that dies mid-test ends with a result whose
 * `shortMsg` says so (`Process crashed.`) and no status for the test it was running; an instrumentation
 * that cannot start prints `INSTRUMENTATION_FAILED: …` (or `android.util.AndroidException: …`).
 */

export type InstrumentationOutcome = 'passed' | 'errored' | 'failed' | 'ignored' | 'assumption';

export type InstrumentationEvent =
  | { kind: 'started'; className: string; methodName: string; current: number | null; numTests: number | null }
  | { kind: 'finished'; className: string; methodName: string; outcome: InstrumentationOutcome; stack?: string; message?: string }
  /** The run's end: its code (-1 is Activity.RESULT_OK), and the crash or error it reports, if any. */
  | { kind: 'result'; code: number | null; shortMsg?: string; longMsg?: string; stream?: string }
  /** The instrumentation did not start (no such runner, no such package). */
  | { kind: 'failedToStart'; message: string };

const OUTCOMES: Record<string, InstrumentationOutcome> = { '0': 'passed', '-1': 'errored', '-2': 'failed', '-3': 'ignored', '-4': 'assumption' };

const STATUS = 'INSTRUMENTATION_STATUS: ';
const STATUS_CODE = 'INSTRUMENTATION_STATUS_CODE: ';
const RESULT = 'INSTRUMENTATION_RESULT: ';
const CODE = 'INSTRUMENTATION_CODE: ';
const FAILED = /^(?:android\.util\.AndroidException: )?INSTRUMENTATION_FAILED: (.*)$/;

/** The first line of a stack, without the exception's class (`java.lang.AssertionError: expected 2` → `expected 2`). */
export function stackMessage(stack: string): string {
  const first = stack.split('\n', 1)[0] ?? '';
  const m = first.match(/^[\w.$]+(?:Exception|Error|Throwable|Failure|Violation)\w*: (.*)$/);
  return (m?.[1] ?? first).trim();
}

/**
 * A parser fed the output in chunks of any size (`push`), then `end()`; it calls `emit` with each event
 * as soon as its closing line has arrived.
 */
export class InstrumentationParser {
  private rest = '';
  private fields = new Map<string, string>();
  private lastKey: string | null = null;
  private inResult = false;
  private ended = false;

  constructor(private readonly emit: (event: InstrumentationEvent) => void) {}

  push(chunk: string): void {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) this.line(line.replace(/\r$/, ''));
  }

  /** The output ended: a last line without its newline is read, and an unfinished result is given. */
  end(): void {
    if (this.rest) this.line(this.rest.replace(/\r$/, ''));
    this.rest = '';
    if (this.inResult && !this.ended) this.finishResult(null);
  }

  private line(line: string): void {
    if (line.startsWith(STATUS_CODE)) {
      this.finishStatus(line.slice(STATUS_CODE.length).trim());
    } else if (line.startsWith(STATUS)) {
      this.inResult = false;
      this.field(line.slice(STATUS.length));
    } else if (line.startsWith(RESULT)) {
      if (!this.inResult) this.fields = new Map();
      this.inResult = true;
      this.field(line.slice(RESULT.length));
    } else if (line.startsWith(CODE)) {
      const code = Number(line.slice(CODE.length).trim());
      this.finishResult(Number.isFinite(code) ? code : null);
    } else {
      const failed = line.match(FAILED);
      if (failed) this.emit({ kind: 'failedToStart', message: (failed[1] ?? '').trim() });
      else if (this.lastKey !== null) this.fields.set(this.lastKey, `${this.fields.get(this.lastKey) ?? ''}\n${line}`);
    }
  }

  private field(text: string): void {
    const eq = text.indexOf('=');
    const key = eq < 0 ? text : text.slice(0, eq);
    this.fields.set(key, eq < 0 ? '' : text.slice(eq + 1));
    this.lastKey = key;
  }

  private finishStatus(code: string): void {
    const fields = this.fields;
    this.fields = new Map();
    this.lastKey = null;
    const className = fields.get('class');
    const methodName = fields.get('test');
    if (!className || !methodName) return; // a runner's own status (no test), as some runners send
    if (code === '1') {
      const number = (key: string) => (fields.has(key) ? Number(fields.get(key)) : null);
      this.emit({ kind: 'started', className, methodName, current: number('current'), numTests: number('numtests') });
      return;
    }
    const outcome = OUTCOMES[code] ?? 'errored';
    const stack = fields.get('stack')?.trim();
    this.emit({ kind: 'finished', className, methodName, outcome, ...(stack ? { stack, message: stackMessage(stack) } : {}) });
  }

  private finishResult(code: number | null): void {
    const fields = this.fields;
    this.fields = new Map();
    this.lastKey = null;
    this.inResult = false;
    this.ended = true;
    const text = (key: string) => {
      const value = fields.get(key)?.trim();
      return value ? { [key]: value } : {};
    };
    this.emit({ kind: 'result', code, ...text('shortMsg'), ...text('longMsg'), ...text('stream') });
  }
}

/** Whether a run's result says the process died (a crash, a native crash, a time-out kill). */
export function resultCrashed(result: Extract<InstrumentationEvent, { kind: 'result' }>): boolean {
  return result.shortMsg !== undefined && /crash|died|killed|Native crash|Process/i.test(result.shortMsg);
}
