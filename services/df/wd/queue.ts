import { qaMetrics } from '#shared/metrics/index.js';
import { boundToTrace, setIntervalOutsideTrace } from '#shared/tracing/index.js';

/** Why a waiter left the queue without a device, for `qa_webdriver_queue_wait_seconds`; its caller gets `error`. */
class QueueLeft {
  constructor(
    readonly why: 'timeout' | 'abandoned',
    readonly error: Error,
  ) {}
}

/** How often waiting requests look for a freed device when nothing told the queue. */
const POLL_MS = 500;

interface Waiter<T> {
  attempt: () => Promise<T | null>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
  done: boolean;
}

/**
 * New-session requests waiting for a free device, first come first served per company. Each waiter
 * brings its own `attempt` (find a free matching device and take it); the queue runs the attempts of
 * a company one at a time in arrival order, so an earlier request gets a freed device before a later
 * one asking for the same kind. A later request for a device the earlier ones cannot use is not held
 * up. The queue retries when told a device was freed (`notify`) and every half second while anyone
 * waits (devices freed elsewhere: another replica, the user, the idle time-out).
 */
export class DeviceQueue<T> {
  private readonly waiting = new Map<number, Waiter<T>[]>();
  private readonly pumping = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  private poller: NodeJS.Timeout | null = null;
  private stopped = false;

  /** Number of requests waiting for a company (all companies when absent). */
  size(companyId?: number): number {
    if (companyId !== undefined) return this.waiting.get(companyId)?.length ?? 0;
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /**
   * Waits until `attempt` yields a value, at most `timeoutMs`; `onTimeout` makes the error. An aborted
   * `signal` (the client went away) leaves the queue at once.
   */
  wait(companyId: number, attempt: () => Promise<T | null>, options: { timeoutMs: number; onTimeout: () => Error; signal?: AbortSignal }): Promise<T> {
    if (this.stopped) return Promise.reject(options.onTimeout());
    const started = performance.now();
    const waited = (outcome: string) => qaMetrics.webdriverQueueWait.observe({ outcome }, (performance.now() - started) / 1000);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        // Whoever runs it (another waiter's pump, the poller), the attempt is in its own request's trace.
        attempt: boundToTrace(attempt),
        resolve: (value) => {
          waited('acquired');
          resolve(value);
        },
        reject: (err) => {
          waited(err instanceof QueueLeft ? err.why : 'error');
          reject(err instanceof QueueLeft ? err.error : err);
        },
        done: false,
        timer: setTimeout(() => this.drop(companyId, waiter, new QueueLeft('timeout', options.onTimeout())), options.timeoutMs),
      };
      waiter.timer.unref();
      options.signal?.addEventListener('abort', () => this.drop(companyId, waiter, new QueueLeft('abandoned', new Error('The client went away'))), { once: true });
      const list = this.waiting.get(companyId) ?? [];
      list.push(waiter);
      qaMetrics.webdriverQueueWaiting.inc();
      this.waiting.set(companyId, list);
      this.ensurePoller();
      this.notify(companyId);
    });
  }

  /** A device may have been freed: let the company's waiters try again (all companies when absent). */
  notify(companyId?: number): void {
    const companies = companyId === undefined ? [...this.waiting.keys()] : [companyId];
    for (const c of companies) {
      if (this.pumping.has(c)) {
        this.again.add(c);
        continue;
      }
      const run = this.pump(c).finally(() => {
        this.pumping.delete(c);
        if (this.again.delete(c)) this.notify(c);
      });
      this.pumping.set(c, run);
    }
  }

  /** Rejects every waiter; later calls to `wait` fail at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    for (const [companyId, list] of this.waiting) for (const w of [...list]) this.drop(companyId, w, new Error('The hub is shutting down'));
    await Promise.allSettled([...this.pumping.values()]);
  }

  private async pump(companyId: number): Promise<void> {
    const list = this.waiting.get(companyId);
    if (!list) return;
    for (const waiter of [...list]) {
      if (waiter.done) continue;
      let value: T | null;
      try {
        value = await waiter.attempt();
      } catch (err) {
        this.drop(companyId, waiter, err);
        continue;
      }
      if (value === null) continue;
      if (waiter.done) {
        // Timed out or abandoned while the device was being taken: give it back.
        this.onAbandoned?.(value);
        continue;
      }
      this.remove(companyId, waiter);
      waiter.resolve(value);
    }
  }

  /** Called with a value acquired for a waiter that left meanwhile (the hub frees the device again). */
  onAbandoned: ((value: T) => void) | null = null;

  private drop(companyId: number, waiter: Waiter<T>, err: unknown): void {
    if (waiter.done) return;
    this.remove(companyId, waiter);
    waiter.reject(err);
  }

  private remove(companyId: number, waiter: Waiter<T>): void {
    waiter.done = true;
    qaMetrics.webdriverQueueWaiting.dec();
    clearTimeout(waiter.timer);
    const list = this.waiting.get(companyId);
    if (list) {
      const i = list.indexOf(waiter);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.waiting.delete(companyId);
    }
    if (this.waiting.size === 0 && this.poller) {
      clearInterval(this.poller);
      this.poller = null;
    }
  }

  private ensurePoller(): void {
    if (this.poller || this.stopped) return;
    this.poller = setIntervalOutsideTrace(() => this.notify(), POLL_MS);
    this.poller.unref();
  }
}
