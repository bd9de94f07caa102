/**
 * What a test runner tells the platform about one automation session — its test events, its name and
 * its outcome — sent in order and never dropped for a passing trouble: a call that got no answer, or a
 * 5xx (a 429 or 503 once the retries of `runnerCall` are spent) stays at the head of the queue and is
 * sent again, with the same `Idempotency-Key`; a call the platform refuses for good (a 4xx: the session
 * is gone, the body is wrong) is dropped and said. `settled()` waits for the queue and answers, in words,
 * what could not be sent.
 */
import { newKey } from './retry.js';
import { QaPlatformApiError, runnerCall, type RunnerConnection } from './runner.js';

/** One automation test event, as `POST /df/api/automation/sessions/{id}/test-events` takes it. */
export interface TestEvent {
  type: 'suite_started' | 'test_started' | 'test_passed' | 'test_failed' | 'test_skipped' | 'suite_finished';
  name: string;
  suite?: string;
  durationMs?: number;
  error?: { message: string; stack?: string };
  timestamp: string;
  metadata?: Record<string, unknown>;
}

export interface SessionReportOptions {
  /** Tries of a call in one round of sending, waiting 1, 2, 4 ... s between them (default 4). */
  tries?: number;
  /** How to wait between tries (tests pass their own); default a timer. */
  wait?: (ms: number) => Promise<void>;
  /** Told of each trouble as it happens (default `console.warn`). */
  warn?: (message: string) => void;
}

/** The most test events one call carries (the platform takes up to 500). */
const BATCH = 500;

interface Call {
  /** What it tells, for the end's account: "3 test events", "the outcome". */
  what: () => string;
  /** Test events still gathering while the call waits its turn; null for a rename or an outcome. */
  events: TestEvent[] | null;
  method: 'POST' | 'PUT';
  path: string;
  body: () => unknown;
  key: string;
  /** The last trouble sending it. */
  error: string | null;
  /** Sent at least once: what it carries is fixed (a try again sends the same body with the same key). */
  tried: boolean;
}

/** Whether sending again may succeed: no answer at all, or the platform's own trouble. */
const passing = (err: unknown): boolean => !(err instanceof QaPlatformApiError) || err.status >= 500 || err.status === 408 || err.status === 429;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class SessionReport {
  private readonly queue: Call[] = [];
  private readonly unsent: string[] = [];
  private sending: Promise<void> | null = null;
  private readonly tries: number;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly connection: RunnerConnection,
    readonly sessionId: string,
    options: SessionReportOptions = {},
  ) {
    this.tries = Math.max(1, options.tries ?? 4);
    this.wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.warn = options.warn ?? ((m) => console.warn(m));
  }

  /** Queues a test event; events queued while a call is under way leave together. */
  event(event: TestEvent): void {
    const tail = this.queue.at(-1);
    // Only a call never sent still gathers: one under way or tried already carries what it carried.
    if (tail?.events && !tail.tried && tail.events.length < BATCH) {
      tail.events.push(event);
    } else {
      const events = [event];
      this.push({ what: () => plural(events.length, 'test event'), events, method: 'POST', path: `/df/api/automation/sessions/${this.sessionId}/test-events`, body: () => events });
    }
    this.send();
  }

  /** Queues a rename of the session. */
  rename(name: string): void {
    this.push({ what: () => 'the session name', events: null, method: 'PUT', path: `/df/api/sessions/${this.sessionId}/name`, body: () => ({ name: name.slice(0, 200) }) });
    this.send();
  }

  /** Queues the session's outcome. */
  outcome(outcome: 'passed' | 'failed', reason?: string): void {
    const body = { outcome, ...(reason ? { reason: reason.slice(0, 2_000) } : {}) };
    this.push({ what: () => 'the outcome', events: null, method: 'PUT', path: `/df/api/sessions/${this.sessionId}/outcome`, body: () => body });
    this.send();
  }

  /**
   * Sends what is queued, trying a call held back by a passing trouble once more; answers what could
   * not be sent since the last time, each as a sentence ("could not send 2 test events of session …: …").
   */
  async settled(): Promise<string[]> {
    await this.sending;
    if (this.queue.length > 0) await this.send();
    for (const call of this.queue.splice(0)) this.unsent.push(`could not send ${call.what()} of session ${this.sessionId}: ${call.error ?? 'not sent'}`);
    return this.unsent.splice(0);
  }

  private push(call: Omit<Call, 'key' | 'error' | 'tried'>): void {
    this.queue.push({ ...call, key: newKey(), error: null, tried: false });
  }

  /** One round of sending, head first; a round under way takes what is queued meanwhile. */
  private send(): Promise<void> {
    this.sending ??= this.round().finally(() => (this.sending = null));
    return this.sending;
  }

  private async round(): Promise<void> {
    for (let call = this.queue[0]; call; call = this.queue[0]) {
      if (!(await this.deliver(call))) return;
      this.queue.shift();
    }
  }

  /** Sends one call: true when it is done with (sent, or refused for good), false when held back. */
  private async deliver(call: Call): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      call.tried = true;
      try {
        await runnerCall(this.connection, call.method, call.path, call.body(), { idempotencyKey: call.key });
        return true;
      } catch (err) {
        call.error = err instanceof Error ? err.message : String(err);
        if (!passing(err)) {
          this.unsent.push(`the platform refused ${call.what()} of session ${this.sessionId}: ${call.error}`);
          this.warn(`[qa-platform] reporting to the platform was refused: ${call.error}`);
          return true;
        }
        if (attempt >= this.tries) {
          this.warn(`[qa-platform] reporting to the platform failed ${plural(attempt, 'time')}, kept to send again: ${call.error}`);
          return false;
        }
        await this.wait(1000 * 2 ** (attempt - 1));
      }
    }
  }
}
