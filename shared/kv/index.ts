export type { KeyValueStore } from './types.js';
export { createMemoryKv, type MemoryKvOptions } from './memory-kv.js';
export { connectRedisKv, type RedisKvOptions } from './redis-kv.js';
export { createSqlKv, type SqlKvOptions } from './sql-kv.js';
export { withLocalFallback, type FallbackKvOptions } from './fallback-kv.js';
export * from './memory-kv.js';
export * from './types.js';
