import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { ROOT } from '../root.js';
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

export interface PgliteOptions {
  /**
   * PostgreSQL's `shared_buffers` inside PGlite (e.g. `16MB`). PGlite's WebAssembly memory only
   * grows and its shared memory is zeroed when it starts, so all of it is resident for the process's
   * life: PostgreSQL's default (128MB) costs about 120 MB of resident memory at rest; the files are
   * read through the operating system's cache either way. Given on the command line of PGlite's
   * backend, never written into the data directory's `postgresql.conf`.
   */
  sharedBuffers?: string;
}

const INITDB_SCRIPT = join(ROOT, 'shared', 'db', 'pglite-initdb.mjs');

/**
 * Creates the data directory in a child process when it is new: PGlite's initdb grows the
 * WebAssembly heap to several hundred megabytes, and that memory never goes back to the system, so
 * done in this process it would stay resident for the server's life (about 850 MB at rest after a
 * first start against about 360 MB after any later one).
 */
async function initDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  try {
    await promisify(execFile)(process.execPath, [INITDB_SCRIPT, dataDir], { timeout: 300_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`could not create the embedded database under ${dataDir}${stderr ? `: ${stderr}` : ''}`, { cause: err });
  }
}

/** What the embedded server uses unless `PGLITE_SHARED_BUFFERS` says otherwise. */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '16MB';

/**
 * Opens PGlite in this process: files under `dataDir`, or in memory when `dataDir` is undefined.
 * PGlite has one connection; it queues queries and transactions itself. A data directory is held by
 * one process at a time (`DataDirLockedError` otherwise).
 */
export async function openPglite(dataDir?: string, options: PgliteOptions = {}): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS}`];
  let db: PGlite;
  try {
    if (dataDir) await initDataDir(dataDir);
    db = new PGlite(dataDir, { startParams });
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
