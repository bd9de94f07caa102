// Creates a new PGlite data directory (PostgreSQL's initdb) and exits. `openPglite` runs it in a
// child process so that the memory initdb takes (several hundred megabytes of WebAssembly heap that
// is never given back) leaves with the child instead of staying in the server for its whole life.
// Usage: node shared/db/pglite-initdb.mjs <data dir>
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: pglite-initdb.mjs <data dir>');
  process.exit(2);
}
const db = new PGlite(dataDir);
await db.waitReady;
await db.close();
process.exit(0);
