import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestEvent } from '@qa-platform/client';

/** Where the reporter hands what it saw: the service, which knows the session. */
export interface TestEventSink {
  testEvent(event: TestEvent): void;
  testStarted(path: string[]): void;
  /** What the spec's report says once its session ended: the failed tests' replay and video lines. */
  reportLines?(): string[];
}

/** What WebdriverIO gives a reporter besides its own options: where its report goes. */
interface ReporterOptions {
  sink: TestEventSink;
  /** The run's output (the launcher prints it under the reporter's name at the end). */
  writeStream?: { write(content: string): unknown };
  /** A file instead, when the configuration names an `outputDir`. */
  logFile?: string;
}

/** The part of a framework's reporter message the reporter reads. */
interface Message {
  cid?: string;
  title?: string;
  duration?: number;
  error?: { message?: string; stack?: string };
}

const errorOf = (m: Message) => ({ message: m.error?.message ?? 'failed', ...(m.error?.stack ? { stack: m.error.stack } : {}) });

/**
 * A WebdriverIO reporter (the runner calls `emit` with each event of the framework) that turns
 * suites and tests into the platform's test events. The service adds it to the worker's reporters:
 * the framework reports skipped tests to reporters only, never to hooks. At the spec's end (after its
 * session ended) it writes what the service gathered — each failed test's replay and video links — as
 * its report: the run's output under `"QaPlatformTestEvents" Reporter:`, or its log file in `outputDir`.
 */
export class QaPlatformTestEvents {
  private readonly sink: TestEventSink;
  private readonly options: ReporterOptions;
  private readonly suites: string[] = [];

  constructor(options: ReporterOptions) {
    this.sink = options.sink;
    this.options = options;
  }

  /** Posting is the service's, which waits for it before the session ends. */
  get isSynchronised(): boolean {
    return true;
  }

  emit(type: string, message: Message): void {
    if (type === 'runner:end') return this.writeReport(message.cid);
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

  private writeReport(cid: string | undefined): void {
    const lines = this.sink.reportLines?.() ?? [];
    if (lines.length === 0) return;
    const text = lines.map((l) => `[${cid ?? '?'}] ${l}\n`).join('');
    if (this.options.logFile) {
      mkdirSync(dirname(this.options.logFile), { recursive: true });
      appendFileSync(this.options.logFile, text);
    } else {
      this.options.writeStream?.write(text);
    }
  }

  private duration(message: Message): { durationMs?: number } {
    return typeof message.duration === 'number' && message.duration >= 0 ? { durationMs: Math.round(message.duration) } : {};
  }
}
