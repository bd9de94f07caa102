import type { TestEvent } from '@qa-platform/client';

/** Where the reporter hands what it saw: the service, which knows the session. */
export interface TestEventSink {
  testEvent(event: TestEvent): void;
  testStarted(path: string[]): void;
}

/** The part of a framework's reporter message the reporter reads. */
interface Message {
  title?: string;
  duration?: number;
  error?: { message?: string; stack?: string };
}

const errorOf = (m: Message) => ({ message: m.error?.message ?? 'failed', ...(m.error?.stack ? { stack: m.error.stack } : {}) });

/**
 * A WebdriverIO reporter (the runner calls `emit` with each event of the framework) that turns
 * suites and tests into the platform's test events. The service adds it to the worker's reporters:
 * the framework reports skipped tests to reporters only, never to hooks.
 */
export class QaPlatformTestEvents {
  private readonly sink: TestEventSink;
  private readonly suites: string[] = [];

  constructor(options: { sink: TestEventSink }) {
    this.sink = options.sink;
  }

  /** Posting is the service's, which waits for it before the session ends. */
  get isSynchronised(): boolean {
    return true;
  }

  emit(type: string, message: Message): void {
    const now = new Date().toISOString();
    const title = message.title ?? '';
    const suite = this.suites.join(' › ') || undefined;
    const test = { name: title, ...(suite ? { suite } : {}), timestamp: now };
    switch (type) {
      case 'suite:start':
        this.suites.push(title);
        this.sink.testEvent({ type: 'suite_started', name: this.suites.join(' › '), timestamp: now });
        return;
      case 'suite:end':
        this.sink.testEvent({ type: 'suite_finished', name: this.suites.join(' › ') || title, timestamp: now, ...this.duration(message) });
        this.suites.pop();
        return;
      case 'test:start':
        this.sink.testStarted([...this.suites, title]);
        this.sink.testEvent({ type: 'test_started', ...test });
        return;
      case 'test:pass':
        this.sink.testEvent({ type: 'test_passed', ...test, ...this.duration(message) });
        return;
      case 'test:fail':
        this.sink.testEvent({ type: 'test_failed', ...test, ...this.duration(message), error: errorOf(message) });
        return;
      case 'test:pending':
        this.sink.testEvent({ type: 'test_skipped', ...test });
        return;
      default:
    }
  }

  private duration(message: Message): { durationMs?: number } {
    return typeof message.duration === 'number' && message.duration >= 0 ? { durationMs: Math.round(message.duration) } : {};
  }
}
