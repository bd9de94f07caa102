import { createHash } from 'node:crypto';
import type { Database } from './types.js';

const DIGESTS_DDL = `CREATE TABLE IF NOT EXISTS schema_digests (
  name text PRIMARY KEY,
  digest text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

const DEADLOCK_DETECTED = '40P01';
const TRIES = 5;

/**
 * Applies a block of idempotent DDL (`CREATE ... IF NOT EXISTS`, `ADD COLUMN IF NOT EXISTS`) named
 * `name`, unless exactly this text was applied already.
 *
 * Why not just run it every start: on PostgreSQL, `CREATE INDEX IF NOT EXISTS` takes a share lock on its
 * table before it finds the index there, and one block of statements holds each lock until it ends. A
 * replica starting beside one that is already writing those tables in another order then deadlocks with
 * it. So the text's digest is kept in `schema_digests`: a start with the same text reads one row and
 * takes no lock on any table. A changed text (a new version rolling out) is applied by one process at a
 * time, under an advisory lock, and a deadlock against the writers still running is tried again.
 */
export async function applySchema(db: Database, name: string, ddl: string): Promise<void> {
  const digest = createHash('sha256').update(ddl).digest('hex');
  if ((await appliedDigest(db, name)) === digest) return;
  if (db.dialect !== 'postgres') {
    // PGlite: one process, one connection; nothing runs beside this.
    await db.exec(`${DIGESTS_DDL};\n${ddl}`);
    await recordDigest(db, name, digest);
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext('schema_digests'))`);
        await tx.query(DIGESTS_DDL);
        const { rows } = await tx.query<{ digest: string }>('SELECT digest FROM schema_digests WHERE name = $1', [name]);
        if (rows[0]?.digest === digest) return;
        // No parameters: the driver sends this as one simple query, so several statements may follow.
        await tx.query(ddl);
        await recordDigest(tx, name, digest);
      });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= TRIES) throw err;
    }
  }
}

async function appliedDigest(db: Database, name: string): Promise<string | null> {
  try {
    const { rows } = await db.query<{ digest: string }>('SELECT digest FROM schema_digests WHERE name = $1', [name]);
    return rows[0]?.digest ?? null;
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return null; // no schema_digests yet
    throw err;
  }
}

async function recordDigest(sql: Pick<Database, 'query'>, name: string, digest: string): Promise<void> {
  await sql.query(
    `INSERT INTO schema_digests (name, digest) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET digest = EXCLUDED.digest, applied_at = now()`,
    [name, digest],
  );
}
