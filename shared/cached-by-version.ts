/**
 * Answers of a look-up kept while the read models they come from stand still: in one process the cache
 * follows them exactly (it is dropped whenever a projection moves); across processes an answer lives
 * `ttlMs` at most. The gateway's access checks and the single-sign-on hold of credentials use it.
 */

export interface VersionCacheOptions {
  /**
   * Position of the read model the answers come from, when this process runs it: any change to it
   * empties the cache at once. Without it, answers are trusted for `ttlMs`.
   */
  version?: () => bigint | undefined;
  ttlMs: number;
  maxEntries?: number;
}

/** Remembers the answers of `load` by `keyOf`, so a hot path does not ask the database on every call. */
export function cachedByVersion<A extends unknown[], V>(load: (...args: A) => Promise<V>, keyOf: (...args: A) => string, options: VersionCacheOptions): Cached<A, V> {
  const maxEntries = options.maxEntries ?? 10_000;
  let entries = new Map<string, { value: V; at: number }>();
  let seenVersion: bigint | undefined;
  /** The answer this cache holds and may still give, if any (after dropping what a new version outdated). */
  const held = (version: bigint | undefined, args: A): { value: V } | undefined => {
    if (version !== seenVersion) {
      entries = new Map();
      seenVersion = version;
    }
    const hit = entries.get(keyOf(...args));
    return hit && (version !== undefined || Date.now() - hit.at < options.ttlMs) ? hit : undefined;
  };
  const cached = async (...args: A) => {
    const version = options.version?.();
    const hit = held(version, args);
    if (hit) return hit.value;
    const key = keyOf(...args);
    const now = Date.now();
    const value = await load(...args);
    // A read that started before a change must not be cached under the new version.
    if (options.version?.() === version) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, at: now });
    }
    return value;
  };
  return Object.assign(cached, { now: (...args: A) => held(options.version?.(), args) });
}

/** A cached look-up, and the same answered at once when the cache holds it (`now`, `undefined` otherwise). */
export type Cached<A extends unknown[], V> = ((...args: A) => Promise<V>) & { now(...args: A): { value: V } | undefined };
