import { inTick, setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { KeyedQueue } from '#shared/concurrency.js';
import type { Database } from '#shared/db/index.js';
import type { KeyValueStore } from './types.js';
import { checkStep, checkTtl, copyReads, EntryMap, incremented, OpenState, type Entry } from './entries.js';

export interface SqlKvOptions {
  /** How often expired rows (and their in-memory copies) are deleted. */
  sweepIntervalMs?: number;
  /** Receives failures of the background sweep, which has no caller to report to. */
  onError?: (err: unknown) => void;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS kv_entries (
    key text PRIMARY KEY,
    value text NOT NULL,
    expires_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS kv_entries_expires_at ON kv_entries (expires_at) WHERE expires_at IS NOT NULL;
`;

const UPSERT = `
  INSERT INTO kv_entries (key, value, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
`;

function toDate(expiresAt: number | null): Date | null {
  return expiresAt === null ? null : new Date(expiresAt);
}

function reportToConsole(err: unknown): void {
  console.error('key-value sweep failed', err);
}

/**
 * A durable key-value store on the SQL database (table `kv_entries`), for the embedded mode where the
 * logout blocklist and refresh tokens must survive a restart. Reads come from an in-memory copy loaded
 * at start; every write reaches SQL before it resolves. Valid for exactly one process per database:
 * a second process would neither see this one's writes nor be seen.
 */
export async function createSqlKv(db: Database, options: SqlKvOptions = {}): Promise<KeyValueStore> {
  const onError = options.onError ?? reportToConsole;
  await db.exec(SCHEMA);
  const entries = new EntryMap();
  const state = new OpenState();
  const loadedAt = Date.now();
  const { rows } = await db.query<{ key: string; value: string; expires_at: Date | string | null }>(
    'SELECT key, value, expires_at FROM kv_entries WHERE expires_at IS NULL OR expires_at > $1',
    [new Date(loadedAt)],
  );
  for (const row of rows) {
    entries.set(row.key, { value: row.value, expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime() });
  }

  // Operations on one key run one after another, so deciding from memory and writing to SQL is one step:
  // the memory copy changes only after SQL has the write, and nobody decides from a stale copy meanwhile.
  const queues = new KeyedQueue();
  async function serialized<T>(key: string, operation: () => Promise<T>): Promise<T> {
    state.assertOpen();
    return queues.run(key, operation);
  }

  async function write(key: string, entry: Entry): Promise<void> {
    await db.query(UPSERT, [key, entry.value, toDate(entry.expiresAt)]);
    entries.set(key, entry);
  }

  async function remove(key: string): Promise<void> {
    await db.query('DELETE FROM kv_entries WHERE key = $1', [key]);
    entries.delete(key);
  }

  let sweeping: Promise<void> = Promise.resolve();
  const sweeper = setIntervalOutsideTrace(() => {
    sweeping = inTick('kv.sweep', async (tick) => {
      const now = Date.now();
      // A row rewritten meanwhile carries its new expiry, so the condition spares it.
      const { rowCount } = await db.query('DELETE FROM kv_entries WHERE expires_at <= $1', [new Date(now)]);
      tick.count('rows.removed', rowCount);
      entries.sweep(now);
    }).catch(onError);
  }, options.sweepIntervalMs ?? 60_000);
  // The sweep is housekeeping; it must not keep the process alive.
  sweeper.unref();

  return {
    kind: 'sql',

    ...copyReads(entries, state),

    async set(key, value, setOptions) {
      const ttl = checkTtl(setOptions?.ttlMs);
      return serialized(key, () => write(key, { value, expiresAt: ttl === undefined ? null : Date.now() + ttl }));
    },

    async setIfAbsent(key, value, setOptions) {
      const ttl = checkTtl(setOptions?.ttlMs);
      return serialized(key, async () => {
        const now = Date.now();
        if (entries.get(key, now)) return false;
        // An expired row may still be in the table; the upsert replaces it.
        await write(key, { value, expiresAt: ttl === undefined ? null : now + ttl });
        return true;
      });
    },

    async take(key) {
      return serialized(key, async () => {
        const entry = entries.get(key);
        if (!entry) return null;
        await remove(key);
        return entry.value;
      });
    },

    async delete(key) {
      return serialized(key, async () => {
        if (!entries.get(key)) return false;
        await remove(key);
        return true;
      });
    },

    async increment(key, incrementOptions) {
      const by = checkStep(incrementOptions?.by);
      const ttl = checkTtl(incrementOptions?.ttlMs);
      return serialized(key, async () => {
        const now = Date.now();
        const next = incremented(key, entries.get(key, now), by, ttl, now);
        await write(key, next);
        return Number(next.value);
      });
    },

    /** Waits for writes in flight; the database belongs to the caller and stays open. */
    async close() {
      if (!state.close()) return;
      clearInterval(sweeper);
      await Promise.all([queues.idle(), sweeping]);
      entries.clear();
    },
  };
}
