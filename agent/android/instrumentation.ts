import { StringDecoder } from 'node:string_decoder';

/**
 * A streaming reader of `am instrument -w -r` output (the raw status protocol of Android's
 * `Instrumentation.sendStatus` and `finish`), pure: bytes in, typed events out, whatever the chunks.
 *
 * The protocol, one record per line, a value running on over the lines that follow it until the next
 * record (stack traces, the runner's `stream` text):
 *
 *     INSTRUMENTATION_STATUS: <key>=<value>      a key of the status being built
 *     INSTRUMENTATION_STATUS_CODE: <code>        that status is complete: 1 test started, 2 in progress,
 *                                                0 passed, -1 error, -2 failure, -3 ignored, -4 assumption failure
 *     INSTRUMENTATION_RESULT: <key>=<value>      a key of the run's result (`stream`, `shortMsg`, `longMsg`)
 *     INSTRUMENTATION_CODE: <code>               the run ended (-1, Activity.RESULT_OK, when the runner finished)
 *     INSTRUMENTATION_FAILED: <component>        the instrumentation could not start
 *     INSTRUMENTATION_ABORTED: <why>             the run was cut short (the system crashed)
 *
 * A process crash mid-test shows as a result with `shortMsg=Process crashed.` after a test's start and
 * no finish; output that ends without `INSTRUMENTATION_CODE` (the process or the connection died) is a
 * failed run too. A test still open when the run ends finishes as an `error` with the run's reason.
 * Events after the run's end are not emitted.
 */

export type TestOutcome = 'passed' | 'error' | 'failed' | 'ignored' | 'assumptionFailure';

export type InstrumentationEvent =
  | { type: 'testStarted'; className: string; methodName: string; current: number | null; total: number | null }
  | { type: 'testFinished'; className: string; methodName: string; outcome: TestOutcome; stack: string | null; message: string | null }
  | { type: 'runFinished'; code: number; result: Record<string, string> }
  | { type: 'runFailed'; message: string; result: Record<string, string> };

const OUTCOMES: Record<number, TestOutcome> = { 0: 'passed', [-1]: 'error', [-2]: 'failed', [-3]: 'ignored', [-4]: 'assumptionFailure' };
const STATUS = 'INSTRUMENTATION_STATUS: ';
const STATUS_CODE = 'INSTRUMENTATION_STATUS_CODE: ';
const RESULT = 'INSTRUMENTATION_RESULT: ';
const CODE = 'INSTRUMENTATION_CODE: ';
const FAILED = 'INSTRUMENTATION_FAILED: ';
const ABORTED = 'INSTRUMENTATION_ABORTED: ';
const RESULT_OK = -1;

/** `java.lang.AssertionError: expected:<1> but was:<2>` from the first line of a stack trace. */
const messageOf = (stack: string | null): string | null => (stack ? (stack.split('\n', 1)[0] ?? null) : null);
const intOrNull = (s: string | undefined): number | null => (s !== undefined && /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : null);

export class InstrumentationParser {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private status: Record<string, string> = {};
  private result: Record<string, string> = {};
  /** The map and key a continuation line extends. */
  private open: { into: Record<string, string>; key: string } | null = null;
  private running: { className: string; methodName: string } | null = null;
  private ended = false;

  /** Feeds a chunk (split anywhere, even inside a character); answers the events its complete lines make. */
  push(chunk: Buffer | string): InstrumentationEvent[] {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: InstrumentationEvent[] = [];
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.line(line, out);
    }
    return out;
  }

  /** The output ended: the last line, and a failed run if it never said it ended. */
  end(): InstrumentationEvent[] {
    const out: InstrumentationEvent[] = [];
    const last = (this.pending + this.decoder.end()).replace(/\r$/, '');
    this.pending = '';
    if (last !== '') this.line(last, out);
    if (!this.ended) this.fail('The instrumentation output ended before the run did (the process or the connection died)', out);
    return out;
  }

  private line(line: string, out: InstrumentationEvent[]): void {
    if (this.ended) return;
    if (line.startsWith(STATUS)) this.keyValue(this.status, line.slice(STATUS.length));
    else if (line.startsWith(RESULT)) this.keyValue(this.result, line.slice(RESULT.length));
    else if (line.startsWith(STATUS_CODE)) {
      this.open = null;
      this.statusComplete(intOrNull(line.slice(STATUS_CODE.length)), out);
    } else if (line.startsWith(CODE)) {
      this.open = null;
      this.runComplete(intOrNull(line.slice(CODE.length)), out);
    } else if (line.startsWith(FAILED)) this.fail(`Instrumentation failed: ${line.slice(FAILED.length).trim()}`, out);
    else if (line.startsWith(ABORTED)) this.fail(`Instrumentation aborted: ${line.slice(ABORTED.length).trim()}`, out);
    else if (this.open) this.open.into[this.open.key] += `\n${line}`;
    // Anything else (a shell's own messages before the first record) is not part of the protocol.
  }

  private keyValue(into: Record<string, string>, text: string): void {
    const eq = text.indexOf('=');
    const key = eq < 0 ? text : text.slice(0, eq);
    into[key] = eq < 0 ? '' : text.slice(eq + 1);
    this.open = { into, key };
  }

  private statusComplete(code: number | null, out: InstrumentationEvent[]): void {
    const s = this.status;
    this.status = {};
    const className = s.class;
    const methodName = s.test;
    if (className === undefined || methodName === undefined) {
      // A status of the runner itself: an error code is the run failing (no instrumentation, a bad argument).
      if (code !== null && code < 0) this.fail(text(s.Error) ?? text(s.stream) ?? `The runner reported status ${code}`, out);
      return;
    }
    if (code === 1) {
      this.running = { className, methodName };
      out.push({ type: 'testStarted', className, methodName, current: intOrNull(s.current), total: intOrNull(s.numtests) });
      return;
    }
    const outcome = code === null ? undefined : OUTCOMES[code];
    if (!outcome) return; // 2: in progress, or a code this protocol does not know
    const stack = text(s.stack);
    this.running = null;
    out.push({ type: 'testFinished', className, methodName, outcome, stack, message: messageOf(stack) });
  }

  private runComplete(code: number | null, out: InstrumentationEvent[]): void {
    const shortMsg = text(this.result.shortMsg);
    if (shortMsg !== null || code !== RESULT_OK) {
      this.fail(shortMsg ?? text(this.result.longMsg) ?? `The instrumentation ended with code ${code ?? 'unknown'}`, out);
      return;
    }
    this.closeRunning(null, out);
    this.ended = true;
    out.push({ type: 'runFinished', code, result: trimmed(this.result) });
  }

  private fail(message: string, out: InstrumentationEvent[]): void {
    this.closeRunning(message, out);
    this.ended = true;
    out.push({ type: 'runFailed', message, result: trimmed(this.result) });
  }

  /** A test started and never finished: it ends as an error, with why the run ended. */
  private closeRunning(reason: string | null, out: InstrumentationEvent[]): void {
    if (!this.running) return;
    const message = `The test did not finish: ${reason ?? 'the run ended without its result'}`;
    out.push({ type: 'testFinished', ...this.running, outcome: 'error', stack: null, message });
    this.running = null;
  }
}

/** A value without the blank lines that end it; null for none or only blanks. */
function text(value: string | undefined): string | null {
  const t = value?.replace(/\s+$/, '');
  return t ? t : null;
}

const trimmed = (r: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.replace(/\s+$/, '')]));
