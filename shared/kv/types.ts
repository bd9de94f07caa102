/**
 * The key-value port: token blocklist, refresh-token families, rate limits, presence and locks.
 * Values are strings; every write may carry a time-to-live after which the key is gone.
 * Each operation is atomic on its own.
 */
export interface KeyValueStore {
  readonly kind: 'memory' | 'redis' | 'sql';
  get(key: string): Promise<string | null>;
  /**
   * The values of several keys in one step (one round trip to Redis: `MGET`), in the order asked;
   * `null` for each absent key. Checks that read several keys on every request use it.
   */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  /**
   * `getMany` answered at once, where the store keeps its values in this process (the in-memory store
   * and the SQL store's copy); Redis has none. Checks on every request use it to skip a turn.
   */
  getManyNow?(keys: readonly string[]): (string | null)[];
  /** Sets the value; with `ttlMs` the key expires after that many milliseconds. */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Sets only when the key is absent; returns whether it did (a lock or a once-only marker). */
  setIfAbsent(key: string, value: string, options?: { ttlMs?: number }): Promise<boolean>;
  /** Returns the value and deletes the key in one step; `null` when absent (single use tokens). */
  take(key: string): Promise<string | null>;
  /** Deletes; returns whether the key existed. */
  delete(key: string): Promise<boolean>;
  /**
   * Adds `by` (default 1) to an integer counter and returns the new value. A counter created by this
   * call gets `ttlMs`; later increments keep the original expiry (fixed windows).
   */
  increment(key: string, options?: { by?: number; ttlMs?: number }): Promise<number>;
  /** Milliseconds until the key expires; `null` when it has no expiry or does not exist. */
  ttl(key: string): Promise<number | null>;
  close(): Promise<void>;
}
