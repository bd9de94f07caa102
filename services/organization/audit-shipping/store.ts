import type { Database } from '#shared/db/index.js';

/*
 * Where each shipping target stands: the log position of the last audited event it acknowledged (a
 * syslog batch written to its socket, an HTTP batch answered 2xx), its last error and when it last
 * shipped; and a lease, so one process ships to a target at a time (the one whose lease is current
 * renews it with every batch; another takes it over once it has lapsed).
 */

const MIGRATION = `CREATE TABLE IF NOT EXISTS audit_shipping (
  target text PRIMARY KEY,
  position bigint NOT NULL DEFAULT 0,
  shipped_at timestamptz,
  last_error text,
  leased_by text,
  lease_until timestamptz
)`;

export async function migrateAuditShipping(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('audit_shipping_migrate'))`);
    await tx.query(MIGRATION);
  });
}

export interface TargetState {
  position: bigint;
  shippedAt: string | null;
  lastError: string | null;
}

/** Takes or renews the target's lease for `leaseMs`; answers its position when this process holds it, null when another does. */
export async function lease(db: Database, target: string, owner: string, leaseMs: number): Promise<bigint | null> {
  await db.query(`INSERT INTO audit_shipping (target) VALUES ($1) ON CONFLICT (target) DO NOTHING`, [target]);
  const { rows } = await db.query<{ position: string }>(
    `UPDATE audit_shipping SET leased_by = $2, lease_until = clock_timestamp() + make_interval(secs => $3::double precision)
     WHERE target = $1 AND (leased_by = $2 OR lease_until IS NULL OR lease_until < clock_timestamp())
     RETURNING position::text AS position`,
    [target, owner, leaseMs / 1000],
  );
  return rows[0] ? BigInt(rows[0].position) : null;
}

/** Moves the target on to `position` (never back), while this process holds the lease. */
export async function acknowledge(db: Database, target: string, owner: string, position: bigint): Promise<void> {
  await db.query(
    `UPDATE audit_shipping SET position = GREATEST(position, $3::bigint), shipped_at = clock_timestamp(), last_error = NULL
     WHERE target = $1 AND leased_by = $2`,
    [target, owner, position.toString()],
  );
}

/** Moves the target back to `position` (a batch written to a connection that went away may not have arrived). */
export async function rewind(db: Database, target: string, position: bigint): Promise<void> {
  await db.query(`UPDATE audit_shipping SET position = LEAST(position, $2::bigint) WHERE target = $1`, [target, position.toString()]);
}

export async function recordError(db: Database, target: string, error: string): Promise<void> {
  await db.query(`UPDATE audit_shipping SET last_error = $2 WHERE target = $1`, [target, error.slice(0, 500)]);
}

/** Lets the lease go (a stopping process), so another process takes over at once. */
export async function release(db: Database, target: string, owner: string): Promise<void> {
  await db.query(`UPDATE audit_shipping SET leased_by = NULL, lease_until = NULL WHERE target = $1 AND leased_by = $2`, [target, owner]);
}

export async function targetState(db: Database, target: string): Promise<TargetState> {
  const { rows } = await db.query<{ position: string; shipped_at: string | Date | null; last_error: string | null }>(
    `SELECT position::text AS position, shipped_at, last_error FROM audit_shipping WHERE target = $1`,
    [target],
  );
  const r = rows[0];
  if (!r) return { position: 0n, shippedAt: null, lastError: null };
  return { position: BigInt(r.position), shippedAt: r.shipped_at === null ? null : new Date(r.shipped_at).toISOString(), lastError: r.last_error };
}
