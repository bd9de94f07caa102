import type { Database } from '#shared/db/index.js';
import { rechainFrom, type EventMetadata } from '#shared/es/index.js';
import type { PersonalData } from '#shared/pii/index.js';
import { migrationPendingThrough } from '#shared/pii/index.js';

/*
 * The personal data migration (`npm run pii:migrate`): events recorded before personal data was sealed
 * hold names, addresses and notes as they were typed. This seals them where they lie — the one time
 * stored events are rewritten — and, since the chain hashes what is stored, hashes each touched chain
 * again from its first rewritten event, in the same transaction (appends wait on the chains' rows).
 * Checkpoints signed over the old hashes from there on no longer match: they are moved to
 * `es_checkpoints_superseded` with the migration's time, the old and new head of their chain (kept as
 * the record of what was rewritten, not deleted), and the caller signs fresh ones at once.
 */

/** A superseded checkpoint: the checkpoint's own columns (es_checkpoints), when and why it was set aside. */
const SUPERSEDED_DDL = `CREATE TABLE IF NOT EXISTS es_checkpoints_superseded (
  LIKE es_checkpoints,
  superseded_at timestamptz NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (chain, seq, superseded_at)
)`;

const PAGE = 2_000;

export interface ChainRewrite {
  chain: string;
  /** The first event of the chain whose bytes changed. */
  fromSeq: number;
  oldHead: string;
  newHead: string;
  /** Events hashed again (from `fromSeq` to the head). */
  rehashed: number;
  /** Checkpoints moved to `es_checkpoints_superseded`. */
  superseded: number;
}

export interface MigrationReport {
  /** Events whose personal data was sealed. */
  sealed: number;
  /** Events read. */
  read: number;
  chains: ChainRewrite[];
}

type Row = { position: string; chain: string | null; chain_seq: string | null; type: string; payload: unknown; metadata: EventMetadata };

/** Runs the migration in one transaction; `onProgress` after each page read. Nothing to do when none is pending. */
export async function migratePersonalData(db: Database, data: PersonalData, onProgress: (read: number, through: bigint) => void = () => {}): Promise<MigrationReport | null> {
  const through = await migrationPendingThrough(db);
  if (through === null) return null;
  return db.transaction(async (tx) => {
    await tx.query(SUPERSEDED_DDL);
    // Appends take their chain's row FOR UPDATE: they wait until this commits.
    await tx.query(`LOCK TABLE es_chains IN EXCLUSIVE MODE`);
    // Keys made in this transaction: PGlite's one connection is held by it.
    const sealing = data.within(tx);
    const firstRewritten = new Map<string, number>();
    let after = 0n;
    let read = 0;
    let sealed = 0;
    for (;;) {
      const { rows } = await tx.query<Row>(
        `SELECT position::text AS position, chain, chain_seq::text AS chain_seq, type, payload, metadata FROM es_events
          WHERE position > $1::bigint AND position <= $2::bigint ORDER BY position LIMIT ${PAGE}`,
        [String(after), String(through)],
      );
      if (rows.length === 0) break;
      const events = rows.map((r) => ({ type: r.type, payload: r.payload, metadata: r.metadata }));
      const sealedEvents = await sealing.seal(events);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const next = sealedEvents[i]!;
        if (next === events[i]) continue;
        await tx.query(`UPDATE es_events SET payload = $2::jsonb, metadata = $3::jsonb WHERE position = $1::bigint`, [row.position, JSON.stringify(next.payload), JSON.stringify(next.metadata)]);
        sealed++;
        if (row.chain !== null && row.chain_seq !== null) {
          const seq = Number(row.chain_seq);
          if (!firstRewritten.has(row.chain) || seq < firstRewritten.get(row.chain)!) firstRewritten.set(row.chain, seq);
        }
      }
      read += rows.length;
      after = BigInt(rows.at(-1)!.position);
      onProgress(read, after);
    }
    const now = new Date().toISOString();
    const chains: ChainRewrite[] = [];
    for (const [chain, fromSeq] of [...firstRewritten].sort(([a], [b]) => a.localeCompare(b))) {
      const moved = await rechainFrom(tx, chain, fromSeq);
      const reason = `personal data sealed from event ${fromSeq} of the chain on: head ${moved.oldHead} became ${moved.newHead}`;
      const { rowCount } = await tx.query(
        `WITH gone AS (DELETE FROM es_checkpoints WHERE chain = $1 AND seq >= $2 RETURNING *)
         INSERT INTO es_checkpoints_superseded (chain, seq, position, head, at, key_id, signature, superseded_at, reason)
         SELECT chain, seq, position, head, at, key_id, signature, $3::timestamptz, $4 FROM gone`,
        [chain, fromSeq, now, reason],
      );
      chains.push({ chain, fromSeq, oldHead: moved.oldHead, newHead: moved.newHead, rehashed: moved.events, superseded: rowCount });
    }
    await tx.query(`UPDATE pii_migration SET pending_through = NULL, migrated_at = $1`, [now]);
    return { sealed, read, chains };
  });
}
