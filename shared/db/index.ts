export type { Database, Sql } from './types.js';
export { openPostgres } from './postgres.js';
export { openPglite } from './pglite.js';
export { DataDirLockedError } from './data-dir-lock.js';
export { applySchema } from './schema.js';
export * from './rows.js';
