import { randomBytes } from 'node:crypto';

/** Collects what handlers receive and lets a test wait for a condition on them, without sleeping. */
export class Received<T> {
  readonly items: T[] = [];
  private waiters: Array<{ done: (items: T[]) => boolean; resolve: () => void }> = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.done(this.items)) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves with the items once `done` holds for them; rejects after `timeoutMs`. */
  async until(done: (items: T[]) => boolean, timeoutMs = 5_000): Promise<T[]> {
    if (done(this.items)) return this.items;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const waiter = { done, resolve };
        this.waiters.push(waiter);
        timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error(`Condition not met within ${timeoutMs} ms; received ${JSON.stringify(this.items)}`));
        }, timeoutMs);
      });
    } finally {
      clearTimeout(timer);
    }
    return this.items;
  }

  /** Resolves with the items once there are at least `count`. */
  atLeast(count: number, timeoutMs?: number): Promise<T[]> {
    return this.until((items) => items.length >= count, timeoutMs);
  }
}

export const text = (data: Uint8Array): string => Buffer.from(data).toString('utf8');
export const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
export const suffix = (): string => randomBytes(5).toString('hex');

// Absence can only be shown by waiting: redelivery is scheduled by the ack wait, so a test that proves
// "never delivered again" has to let that time pass (once or twice over) before looking.
export const waitPast = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
