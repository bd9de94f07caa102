import { Redis } from 'ioredis';
import type { KeyValueStore } from './types.js';
import { checkStep, checkTtl } from './entries.js';

export interface RedisKvOptions {
  /** Prepended to every key, so several stores (services, test runs) can share one Redis. */
  keyPrefix?: string;
  /** Receives connection errors after start-up (ioredis reconnects by itself meanwhile). */
  onError?: (err: Error) => void;
}

// EXISTS, INCRBY and PEXPIRE in one script run atomically: only the call that creates the counter sets
// its expiry, so a window is fixed from its first hit.
const INCREMENT = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and tonumber(ARGV[2]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value
`;

/** The command `defineCommand` adds; ioredis cannot type it for us. */
interface WithIncrement {
  kvIncrement(key: string, by: number, ttlMs: number): Promise<number>;
}

/** Connects a key-value store to Redis; resolves once connected, rejects when Redis cannot be reached. */
export async function connectRedisKv(url: string, options: RedisKvOptions = {}): Promise<KeyValueStore> {
  const onError = options.onError ?? ((err: Error) => console.error('redis key-value store:', err.message));
  // While Redis is away a command fails at once (no offline queue) or within the command time-out, and
  // the request is answered 503, instead of waiting for a reconnection; the client reconnects by itself.
  const redis = new Redis(url, { keyPrefix: options.keyPrefix, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 5_000 });
  let started = false;
  // Before start-up the failure reaches the caller as the rejection below, so it is not reported twice.
  redis.on('error', (err: Error) => {
    if (started) onError(err);
  });
  try {
    await redis.connect();
    started = true;
  } catch (err) {
    // Without this ioredis keeps retrying in the background for a store nobody holds.
    redis.disconnect();
    throw err;
  }
  redis.defineCommand('kvIncrement', { numberOfKeys: 1, lua: INCREMENT });
  const scripted = redis as Redis & WithIncrement;

  return {
    kind: 'redis',

    async get(key) {
      return redis.get(key);
    },

    async getMany(keys) {
      // MGET: one command, one round trip; the key prefix applies to each key.
      return keys.length === 0 ? [] : redis.mget(...keys);
    },

    async set(key, value, setOptions) {
      const ttl = checkTtl(setOptions?.ttlMs);
      if (ttl === undefined) await redis.set(key, value);
      else await redis.set(key, value, 'PX', ttl);
    },

    async setIfAbsent(key, value, setOptions) {
      const ttl = checkTtl(setOptions?.ttlMs);
      const reply = ttl === undefined ? await redis.set(key, value, 'NX') : await redis.set(key, value, 'PX', ttl, 'NX');
      return reply === 'OK';
    },

    async take(key) {
      return redis.getdel(key);
    },

    async delete(key) {
      return (await redis.del(key)) > 0;
    },

    async increment(key, incrementOptions) {
      const by = checkStep(incrementOptions?.by);
      const ttl = checkTtl(incrementOptions?.ttlMs) ?? 0;
      return scripted.kvIncrement(key, by, ttl);
    },

    async ttl(key) {
      // PTTL answers -2 for a missing key and -1 for a key without expiry.
      const ms = await redis.pttl(key);
      return ms < 0 ? null : ms;
    },

    async close() {
      await redis.quit();
    },
  };
}
