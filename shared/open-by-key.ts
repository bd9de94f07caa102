import { setIntervalOutsideTrace } from './tracing/index.js';

const NONE: ReadonlySet<never> = new Set();

/**
 * Open things (sockets, streams) grouped by a key (a session), and a check of every group, every
 * `everyMs` while any is open, that closes what must go (an ended session's sockets). The timer does
 * not keep the process alive and stops once nothing is open.
 */
export class OpenByKey<T> {
  private readonly open = new Map<string, Set<T>>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly everyMs: number,
    private readonly check: (key: string, entries: ReadonlySet<T>) => Promise<void>,
  ) {}

  /** Tracks an entry under `key`; the answer forgets it again. */
  track(key: string, entry: T): () => void {
    let set = this.open.get(key);
    if (!set) this.open.set(key, (set = new Set()));
    set.add(entry);
    this.sweeper ??= setIntervalOutsideTrace(() => void this.sweep(), this.everyMs);
    this.sweeper.unref();
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.open.get(key) === set) this.open.delete(key);
    };
  }

  /** The entries open under `key`. */
  of(key: string): ReadonlySet<T> {
    return this.open.get(key) ?? NONE;
  }

  /** Forgets every entry of `key` (they were closed). */
  forget(key: string): void {
    this.open.delete(key);
  }

  /** Stops the checks and hands every entry to `close`, forgetting them all (the server is stopping). */
  closeAll(close: (entry: T) => void): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const set of this.open.values()) for (const entry of set) close(entry);
    this.open.clear();
  }

  private async sweep(): Promise<void> {
    for (const [key, entries] of [...this.open]) await this.check(key, entries);
    if (this.open.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
