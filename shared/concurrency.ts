/**
 * Two small concurrency tools the services share: work kept in order per key, and a cap on how much
 * work runs at once.
 */

/**
 * Runs the work given for one key one after another, in the order it was given; different keys run
 * side by side. A failed piece of work fails only its own promise: the next one still runs. A key is
 * forgotten as soon as its queue is empty.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once everything queued so far has run. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}

/** At most `limit` tasks at a time; the others wait in arrival order. */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Pauses a loop can be woken from before their time: new work came, or the process stops (a webhook
 * dispatcher, a mailer or a shipper following the event log waits in one between its rounds).
 */
export class Pauses {
  private readonly waiting = new Set<() => void>();

  /** Resolves after `ms`, or at the next `wakeAll`, whichever is first. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiting.add(wake);
    });
  }

  /** Ends every pause under way. */
  wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}
