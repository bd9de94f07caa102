import type { Sql } from '#shared/db/index.js';

const LEASES_DDL = `
CREATE TABLE IF NOT EXISTS projection_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  epoch bigint NOT NULL,
  expires_at timestamptz NOT NULL
)`;

/** Who holds a projection's lease, until when, and its epoch (one more at every change of holder). */
export interface LeaseRow {
  name: string;
  holder: string;
  epoch: bigint;
  expiresAt: string;
}

/**
 * Leases on projections, kept in the database beside their checkpoints, so that of several runners
 * exactly one applies each projection and another takes it over when the holder stops renewing.
 *
 * A lease is held for `ttlMs` from its last renewal, by the database's clock only (runners' clocks
 * never compare). A new holder gets a new epoch; every batch a holder applies first checks, in the same
 * transaction and under a share lock on the lease row, that its holder and epoch still stand and have
 * not expired (`fence`). So a holder that paused past its lease cannot write after losing it, and a
 * taker waits for a batch in flight to commit before it takes over.
 */
export class ProjectionLeases {
  constructor(
    private readonly db: Sql,
    readonly holder: string,
    readonly ttlMs: number,
  ) {}

  async migrate(): Promise<void> {
    await this.db.query(LEASES_DDL);
  }

  /**
   * Renews the leases this holder has and takes those of `names` that are free or expired; answers
   * the epoch of each lease held now. Leases of others that are still valid are left alone.
   */
  async renew(names: readonly string[]): Promise<Map<string, bigint>> {
    const ttl = `${Math.max(1, Math.round(this.ttlMs))} milliseconds`;
    // A projection nobody ever held: create its row expired, so the update below decides the holder.
    await this.db.query(
      `INSERT INTO projection_leases (name, holder, epoch, expires_at)
       SELECT n, '', 0, now() - interval '1 second' FROM unnest($1::text[]) AS n
       ON CONFLICT (name) DO NOTHING`,
      [names],
    );
    const r = await this.db.query<{ name: string; epoch: unknown }>(
      `UPDATE projection_leases
          SET epoch = CASE WHEN holder = $2 AND expires_at > now() THEN epoch ELSE epoch + 1 END,
              holder = $2,
              expires_at = now() + $3::interval
        WHERE name = ANY($1::text[]) AND (holder = $2 OR expires_at <= now())
        RETURNING name, epoch`,
      [names, this.holder, ttl],
    );
    return new Map(r.rows.map((row) => [row.name, BigInt(String(row.epoch))]));
  }

  /**
   * In a batch's transaction, before it writes: true while this holder's lease of `name` at `epoch`
   * stands. The share lock keeps a taker out until the transaction ends.
   */
  async fence(tx: Sql, name: string, epoch: bigint): Promise<boolean> {
    const r = await tx.query(
      'SELECT 1 FROM projection_leases WHERE name = $1 AND holder = $2 AND epoch = $3 AND expires_at > now() FOR SHARE',
      [name, this.holder, epoch.toString()],
    );
    return r.rows.length === 1;
  }

  /** Gives this holder's leases up now (a clean stop), so another runner takes them at its next renewal. */
  async release(): Promise<void> {
    await this.db.query(`UPDATE projection_leases SET expires_at = now() - interval '1 second' WHERE holder = $1`, [this.holder]);
  }

  /** Every lease: who holds what (for `/health?detail=true`). */
  async all(): Promise<LeaseRow[]> {
    const r = await this.db.query<{ name: string; holder: string; epoch: unknown; expires_at: unknown }>(
      'SELECT name, holder, epoch, expires_at FROM projection_leases ORDER BY name',
    );
    return r.rows.map((row) => ({
      name: row.name,
      holder: row.holder,
      epoch: BigInt(String(row.epoch)),
      expiresAt: new Date(row.expires_at as string).toISOString(),
    }));
  }
}
