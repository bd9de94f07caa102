import type { RedisKvOptions } from './redis-kv.js';
import type { KeyValueStore } from './types.js';

export type { KeyValueStore } from './types.js';
export type { RedisKvOptions } from './redis-kv.js';
export { createMemoryKv, type MemoryKvOptions } from './memory-kv.js';
export { createSqlKv, type SqlKvOptions } from './sql-kv.js';
export { withLocalFallback, type FallbackKvOptions } from './fallback-kv.js';
export * from './memory-kv.js';
export * from './types.js';

/** Connects a key-value store to Redis (`./redis-kv.ts`); its client is loaded only by a process that uses Redis. */
export async function connectRedisKv(url: string, options: RedisKvOptions = {}): Promise<KeyValueStore> {
  return (await import('./redis-kv.js')).connectRedisKv(url, options);
}
