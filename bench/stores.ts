import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore, type SqlEventStore, type SqlEventStoreOptions } from '#shared/es/index.js';
import { createTestDatabase } from '#test/helpers/postgres.js';

/** An event store on its own fresh database, removed again by `dispose`. */
export interface BenchStore {
  name: 'PostgreSQL' | 'PGlite';
  /** The PostgreSQL database's name; absent for PGlite. */
  database?: string;
  db: Database;
  store: SqlEventStore;
  dispose(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server, opened as the platform opens it: a pool of 20 and a
 * LISTEN connection for appends of other processes.
 */
export async function openPostgresStore(options: SqlEventStoreOptions = {}): Promise<BenchStore> {
  const { url, drop } = await createTestDatabase('qa_bench');
  const db = openPostgres(url, { max: 20 });
  try {
    await migrateSqlEventStore(db);
    const store = createSqlEventStore(db, { listenUrl: url, ...options });
    return {
      name: 'PostgreSQL',
      database: new URL(url).pathname.slice(1),
      db,
      store,
      async dispose() {
        await store.close();
        await db.close();
        await drop();
      },
    };
  } catch (err) {
    await db.close().catch(() => {});
    await drop();
    throw err;
  }
}

/** PGlite in a new temporary directory, as the embedded mode keeps it under DATA_DIR. */
export async function openPgliteStore(options: SqlEventStoreOptions = {}): Promise<BenchStore> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-bench-pglite-'));
  try {
    const db = await openPglite(dir);
    await migrateSqlEventStore(db);
    const store = createSqlEventStore(db, options);
    return {
      name: 'PGlite',
      db,
      store,
      async dispose() {
        await store.close();
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** How many benchmark events of `type` the store holds. */
export async function countEvents(db: Database, type: string): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM es_events WHERE type = $1', [type]);
  return Number(rows[0]?.n ?? 0);
}
