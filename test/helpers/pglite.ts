import { openPglite, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';

/** An in-memory PGlite with the SQL event store on it: one per test file (opening one takes seconds). */
export async function openPgliteStore(): Promise<{ db: Database; store: EventStore; close(): Promise<void> }> {
  const db = await openPglite();
  await migrateSqlEventStore(db);
  const store = createSqlEventStore(db);
  return {
    db,
    store,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
