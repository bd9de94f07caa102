import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.js';
import type { Database, Sql } from './types.js';

/**
 * PGlite runs each query synchronously on this thread and resolves it through promise callbacks only,
 * so a long run of queries (a registration storm, a projection catching up) never lets timers or
 * sockets in: heartbeats go unanswered and requests wait for the whole run. Every query therefore first
 * gives the event loop a turn when more than this long has passed since the last one.
 */
const TURN_MS = 5;
let lastTurn = performance.now();

async function turnTaken(): Promise<void> {
  if (performance.now() - lastTurn < TURN_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastTurn = performance.now();
}

/**
 * Opens PGlite in this process: files under `dataDir`, or in memory when `dataDir` is undefined.
 * PGlite has one connection; it queues queries and transactions itself. A data directory is held by
 * one process at a time (`DataDirLockedError` otherwise).
 */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  let db: PGlite;
  try {
    db = dataDir ? new PGlite(dataDir) : new PGlite();
    await db.waitReady;
  } catch (err) {
    release();
    throw err;
  }
  const query: Sql['query'] = async (text, params) => {
    await turnTaken();
    const r = await db.query<Record<string, unknown>>(text, params as unknown[] | undefined);
    return { rows: r.rows as never, rowCount: r.affectedRows ?? r.rows.length };
  };
  return {
    dialect: 'pglite',
    query,
    async exec(text) {
      await db.exec(text);
    },
    async transaction(fn) {
      return db.transaction(async (t) =>
        fn({
          query: async (text, params) => {
            await turnTaken();
            const r = await t.query<Record<string, unknown>>(text, params as unknown[] | undefined);
            return { rows: r.rows as never, rowCount: r.affectedRows ?? r.rows.length };
          },
        }),
      );
    },
    async close() {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}
