import { inTick, setIntervalOutsideTrace } from '#shared/tracing/index.js';
import type { KeyValueStore } from './types.js';
import { checkStep, checkTtl, copyReads, EntryMap, incremented, OpenState } from './entries.js';

export interface MemoryKvOptions {
  /** How often expired keys that nobody reads are dropped. */
  sweepIntervalMs?: number;
}

/** An in-process key-value store with time-to-live; every operation is synchronous inside, so atomic. */
export function createMemoryKv(options: MemoryKvOptions = {}): KeyValueStore {
  const entries = new EntryMap();
  const sweeper = setIntervalOutsideTrace(() => void inTick('kv.sweep', async (tick) => tick.count('entries.removed', entries.sweep())), options.sweepIntervalMs ?? 30_000);
  // The sweep is housekeeping; it must not keep the process alive.
  sweeper.unref();
  const state = new OpenState();

  return {
    kind: 'memory',

    ...copyReads(entries, state),

    async set(key, value, setOptions) {
      state.assertOpen();
      const ttl = checkTtl(setOptions?.ttlMs);
      entries.set(key, { value, expiresAt: ttl === undefined ? null : Date.now() + ttl });
    },

    async setIfAbsent(key, value, setOptions) {
      state.assertOpen();
      const ttl = checkTtl(setOptions?.ttlMs);
      const now = Date.now();
      if (entries.get(key, now)) return false;
      entries.set(key, { value, expiresAt: ttl === undefined ? null : now + ttl });
      return true;
    },

    async take(key) {
      state.assertOpen();
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      return entry.value;
    },

    async delete(key) {
      state.assertOpen();
      const existed = entries.get(key) !== undefined;
      entries.delete(key);
      return existed;
    },

    async increment(key, incrementOptions) {
      state.assertOpen();
      const by = checkStep(incrementOptions?.by);
      const ttl = checkTtl(incrementOptions?.ttlMs);
      const now = Date.now();
      const next = incremented(key, entries.get(key, now), by, ttl, now);
      entries.set(key, next);
      return Number(next.value);
    },

    async close() {
      state.close();
      clearInterval(sweeper);
      entries.clear();
    },
  };
}
