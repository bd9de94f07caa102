import { replayLink, runnerCall } from '@qa-platform/client';
import type { Settings } from './settings.js';

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

/**
 * What a runner tells the platform about one session: its name, its test events and its outcome.
 * Calls go out one after another in the order they were asked for; test events asked for while a
 * call is under way leave together, as one batch.
 */
export class SessionReport {
  private chain: Promise<void> = Promise.resolve();
  private events: TestEvent[] = [];
  private failures: string[] = [];

  constructor(
    private readonly settings: Settings,
    readonly sessionId: string,
    private readonly warn: (message: string) => void = (m) => console.warn(m),
  ) {}

  /** Queues a test event. */
  event(event: TestEvent): void {
    this.events.push(event);
    this.then(async () => {
      const batch = this.events.splice(0, 500);
      if (batch.length > 0) await runnerCall(this.settings, 'POST', `/df/api/automation/sessions/${this.sessionId}/test-events`, batch);
    });
  }

  /** Queues a rename of the session. */
  rename(name: string): void {
    this.then(() => runnerCall(this.settings, 'PUT', `/df/api/sessions/${this.sessionId}/name`, { name: name.slice(0, 200) }).then(() => undefined));
  }

  /** Queues the session's outcome. */
  outcome(outcome: 'passed' | 'failed', reason?: string): void {
    const body = { outcome, ...(reason ? { reason: reason.slice(0, 2_000) } : {}) };
    this.then(() => runnerCall(this.settings, 'PUT', `/df/api/sessions/${this.sessionId}/outcome`, body).then(() => undefined));
  }

  /** Waits for every queued call; answers the failures seen since the last time. */
  async settled(): Promise<string[]> {
    await this.chain;
    return this.failures.splice(0);
  }

  get replayLink(): string {
    return replayLink(this.settings, this.sessionId);
  }

  private then(call: () => Promise<void>): void {
    this.chain = this.chain.then(call).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      this.failures.push(message);
      this.warn(`[qa-platform] reporting to the platform failed: ${message}`);
    });
  }
}
