import type { KeyValueStore } from './types.js';
import { checkStep, checkTtl, copyReads, EntryMap, incremented } from './entries.js';

export interface MemoryKvOptions {
  /** How often expired keys that nobody reads are dropped. */
  sweepIntervalMs?: number;
}

/** An in-process key-value store with time-to-live; every operation is synchronous inside, so atomic. */
export function createMemoryKv(options: MemoryKvOptions = {}): KeyValueStore {
  const entries = new EntryMap();
  const sweeper = setInterval(() => entries.sweep(), options.sweepIntervalMs ?? 30_000);
  // The sweep is housekeeping; it must not keep the process alive.
  sweeper.unref();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new Error('The key-value store is closed');
  }

  return {
    kind: 'memory',

    ...copyReads(entries, assertOpen),

    async set(key, value, setOptions) {
      assertOpen();
      const ttl = checkTtl(setOptions?.ttlMs);
      entries.set(key, { value, expiresAt: ttl === undefined ? null : Date.now() + ttl });
    },

    async setIfAbsent(key, value, setOptions) {
      assertOpen();
      const ttl = checkTtl(setOptions?.ttlMs);
      const now = Date.now();
      if (entries.get(key, now)) return false;
      entries.set(key, { value, expiresAt: ttl === undefined ? null : now + ttl });
      return true;
    },

    async take(key) {
      assertOpen();
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      return entry.value;
    },

    async delete(key) {
      assertOpen();
      const existed = entries.get(key) !== undefined;
      entries.delete(key);
      return existed;
    },

    async increment(key, incrementOptions) {
      assertOpen();
      const by = checkStep(incrementOptions?.by);
      const ttl = checkTtl(incrementOptions?.ttlMs);
      const now = Date.now();
      const next = incremented(key, entries.get(key, now), by, ttl, now);
      entries.set(key, next);
      return Number(next.value);
    },

    async ttl(key) {
      assertOpen();
      return entries.ttl(key);
    },

    async close() {
      closed = true;
      clearInterval(sweeper);
      entries.clear();
    },
  };
}
