import type { KeyValueStore } from './types.js';

/**
 * The rules every key-value adapter applies the same way (argument checks, counter arithmetic), and the
 * in-memory entry map that the memory adapter and the SQL adapter's read copy share.
 */

export interface Entry {
  value: string;
  /** Epoch milliseconds; `null` when the key does not expire. */
  expiresAt: number | null;
}

/** Validates a time-to-live and rounds it up to whole milliseconds; `undefined` means no expiry. */
export function checkTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

/** Validates an increment step. */
export function checkStep(by: number | undefined): number {
  const step = by ?? 1;
  if (!Number.isSafeInteger(step)) throw new RangeError(`increment step must be an integer, got ${by}`);
  return step;
}

/** The counter after adding `by`: a new one expires after `ttlMs`, an existing one keeps its expiry. */
export function incremented(key: string, current: Entry | undefined, by: number, ttlMs: number | undefined, now: number): Entry {
  // Same acceptance as Redis INCRBY: an optional minus sign and digits, nothing else.
  if (current && !/^-?\d+$/.test(current.value)) throw new TypeError(`Value at "${key}" is not an integer`);
  const next = (current ? Number(current.value) : 0) + by;
  if (!Number.isSafeInteger(next)) throw new RangeError(`Value at "${key}" is not an integer or out of range`);
  if (current) return { value: String(next), expiresAt: current.expiresAt };
  return { value: String(next), expiresAt: ttlMs === undefined ? null : now + ttlMs };
}

/** Entries with lazy expiry: an expired entry is never returned and is dropped when looked at. */
export class EntryMap {
  private readonly entries = new Map<string, Entry>();

  /** The live entry for `key`, if any. */
  get(key: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: Entry): void {
    this.entries.set(key, entry);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Milliseconds left for a live key with an expiry; `null` otherwise. */
  ttl(key: string, now = Date.now()): number | null {
    const entry = this.get(key, now);
    return entry?.expiresAt == null ? null : entry.expiresAt - now;
  }

  /** Drops every expired entry, so keys nobody reads again do not stay in memory; answers how many. */
  sweep(now = Date.now()): number {
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now && this.entries.delete(key)) removed += 1;
    }
    return removed;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Whether an in-process store is still open: once closed, every operation fails. */
export class OpenState {
  private closed = false;

  /** Throws when the store is closed. */
  assertOpen(): void {
    if (this.closed) throw new Error('The key-value store is closed');
  }

  /** Closes the store; false when it was closed already. */
  close(): boolean {
    if (this.closed) return false;
    this.closed = true;
    return true;
  }
}

/** The reads both in-process stores answer from their copy, while the store is open. */
export function copyReads(entries: EntryMap, state: OpenState): Pick<KeyValueStore, 'get' | 'getMany' | 'getManyNow' | 'ttl'> {
  const getManyNow = (keys: readonly string[]) => {
    state.assertOpen();
    const now = Date.now();
    return keys.map((key) => entries.get(key, now)?.value ?? null);
  };
  return {
    getManyNow,
    async get(key) {
      state.assertOpen();
      return entries.get(key)?.value ?? null;
    },
    async getMany(keys) {
      return getManyNow(keys);
    },
    async ttl(key) {
      state.assertOpen();
      return entries.ttl(key);
    },
  };
}
