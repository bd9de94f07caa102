import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { WrongExpectedRevisionError, type EventFilter, type EventStore, type NewEvent, type RecordedEvent, type Subscription } from '../types.js';

/** Consumes a subscription in the background and lets a test wait for what it has received. */
export class Collector {
  readonly events: RecordedEvent[] = [];
  error: unknown;
  readonly done: Promise<void>;
  private ended = false;
  private readonly listeners = new Set<() => void>();

  constructor(readonly subscription: Subscription) {
    this.done = (async () => {
      try {
        for await (const e of subscription) {
          this.events.push(e);
          this.changed();
        }
      } catch (err) {
        this.error = err;
      } finally {
        this.ended = true;
        this.changed();
      }
    })();
  }

  /** The first `count` events, once received; fails after `timeoutMs`. */
  async waitForCount(count: number, timeoutMs = 15_000): Promise<RecordedEvent[]> {
    await this.waitUntil((events) => events.length >= count, timeoutMs, `${count} events`);
    return this.events.slice(0, count);
  }

  /** Resolves once `check` holds for the events received so far; fails after `timeoutMs`. */
  async waitUntil(check: (events: RecordedEvent[]) => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.events)) {
      if (this.error) throw this.error;
      if (this.ended) throw new Error(`The subscription ended with ${this.events.length} events, before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what}; received ${this.events.length} events`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.listeners.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.listeners.add(wake);
      });
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Waits until the store shows `position` to readers; a server's other transactions can hold it back briefly. */
export async function visible(store: EventStore, position: bigint, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let head = await store.headPosition();
  while (head < position) {
    if (Date.now() > deadline) throw new Error(`Position ${position} not visible after ${timeoutMs} ms (head ${head})`);
    // Polling the condition itself: there is no event to wait on for another session's commit.
    await new Promise((resolve) => setTimeout(resolve, 10));
    head = await store.headPosition();
  }
}

export async function readAllPages(
  store: EventStore,
  options: { after: bigint; filter: EventFilter },
  pageSize: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after = options.after;
  for (;;) {
    const page = await store.readAll({ after, maxCount: pageSize, filter: options.filter });
    out.push(...page);
    if (page.length < pageSize) return out;
    after = (page.at(-1) as RecordedEvent).position;
  }
}

export async function refusal(append: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await append.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
}

export async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function expectStrictlyIncreasing(positions: bigint[]): void {
  const firstBreak = positions.findIndex((p, i) => i > 0 && p <= (positions[i - 1] as bigint));
  expect(firstBreak, `position ${positions[firstBreak]} does not follow ${positions[firstBreak - 1]}`).toBe(-1);
}

export function event(type: string, payload: unknown = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    payload,
    metadata: { occurredAt: new Date().toISOString(), actorId: 'contract-test', correlationId: randomUUID() },
  };
}

export function tag(): string {
  return randomBytes(5).toString('hex');
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
