import { createMemoryKv } from './memory-kv.js';
import type { KeyValueStore } from './types.js';

export interface FallbackKvOptions {
  /** After a failure of the shared store, how long calls go straight to the local one before trying it again. */
  retryAfterMs?: number;
  /** Told once when the shared store starts failing, and once when it answers again. */
  onChange?: (state: 'degraded' | 'ok', err?: unknown) => void;
}

/**
 * A key-value store for what may be counted per process while the shared store (Redis) is away: rate
 * limits and throttles. Every call goes to the shared store; when it fails, the same call runs on an
 * in-process store instead, and for `retryAfterMs` further calls skip the shared store altogether, so
 * an outage costs one failed round trip per interval rather than one per request. Counts made locally
 * are not merged back: a window may allow up to once more its limit per replica during an outage.
 */
export function withLocalFallback(shared: KeyValueStore, options: FallbackKvOptions = {}): KeyValueStore & { degraded(): boolean } {
  const local = createMemoryKv();
  const retryAfterMs = options.retryAfterMs ?? 1_000;
  let downUntil = 0;
  let down = false;

  async function run<T>(operation: (kv: KeyValueStore) => Promise<T>): Promise<T> {
    if (Date.now() < downUntil) return operation(local);
    try {
      const result = await operation(shared);
      if (down) {
        down = false;
        options.onChange?.('ok');
      }
      return result;
    } catch (err) {
      downUntil = Date.now() + retryAfterMs;
      if (!down) {
        down = true;
        options.onChange?.('degraded', err);
      }
      return operation(local);
    }
  }

  return {
    kind: shared.kind,
    degraded: () => down,
    get: (key) => run((kv) => kv.get(key)),
    getMany: (keys) => run((kv) => kv.getMany(keys)),
    set: (key, value, o) => run((kv) => kv.set(key, value, o)),
    setIfAbsent: (key, value, o) => run((kv) => kv.setIfAbsent(key, value, o)),
    take: (key) => run((kv) => kv.take(key)),
    delete: (key) => run((kv) => kv.delete(key)),
    increment: (key, o) => run((kv) => kv.increment(key, o)),
    ttl: (key) => run((kv) => kv.ttl(key)),
    // The shared store belongs to the caller.
    close: () => local.close(),
  };
}
