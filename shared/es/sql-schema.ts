import type { Database } from '#shared/db/index.js';
import { migrateSqlChain } from './sql-chain.js';

/*
 * Global positions.
 *
 * A sequence number is handed out when a row is inserted, but transactions commit in another order, so a
 * reader can see position 12 before 11 exists and skip 11 for ever. Here the position is built from the
 * writing transaction's id instead: (xid8 << 16) | index of the event within its append. A reader returns
 * only events whose transaction id is below the xmin of its own snapshot: every transaction older than
 * xmin has finished, and every transaction that starts later gets a larger id, so no event below that
 * "frontier" can appear afterwards. Positions are therefore not dense, but they only ever grow in the
 * order a reader may see them, which is what a one-number checkpoint needs.
 *
 * The price: any transaction of the cluster that holds a transaction id (a write anywhere, in any
 * database) holds the frontier back until it ends. That delays subscribers, it never reorders them; a
 * session left idle in a transaction stalls them, which `idle_in_transaction_session_timeout` bounds.
 * Such a transaction need not be an append and may never signal its end, so a subscriber that finds
 * committed events held back looks again after a few milliseconds, backing off to its poll interval.
 *
 * Subscribers wake on an in-process signal after each local append, on NOTIFY from other processes
 * (server only, with `listenUrl`), and otherwise poll; a missed wake-up only delays them (sql-wake.ts).
 */

/** One append writes at most this many events, so its index fits in the 16 low bits of a position. */
export const MAX_EVENTS_PER_APPEND = 65_535;

// Positions below this come from transactions older than the snapshot's xmin. pg_current_snapshot() is
// the snapshot the statement itself reads with, so the bound and the rows read always agree.
export const FRONTIER_SQL = `(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)`;

const MIGRATION = [
  // stream_id and type are compared byte-wise ("C"), so `LIKE 'prefix%'` can use the b-tree indexes.
  `CREATE TABLE IF NOT EXISTS es_streams (
     stream_id text COLLATE "C" PRIMARY KEY,
     revision integer NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS es_events (
     transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
     index_in_append integer NOT NULL CHECK (index_in_append >= 0 AND index_in_append < ${MAX_EVENTS_PER_APPEND}),
     position bigint GENERATED ALWAYS AS ((transaction_id::text::bigint << 16) | index_in_append) STORED,
     event_id uuid NOT NULL,
     stream_id text COLLATE "C" NOT NULL,
     revision integer NOT NULL,
     type text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     payload jsonb NOT NULL,
     metadata jsonb NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT es_events_pkey PRIMARY KEY (position),
     CONSTRAINT es_events_stream_revision_key UNIQUE (stream_id, revision)
   )`,
  `CREATE INDEX IF NOT EXISTS es_events_type_position ON es_events (type, position)`,
];

/**
 * Creates the event store's tables and indexes when they are missing, and the history's chain
 * (sql-chain.ts); safe to run from many processes at once.
 */
export async function migrateSqlEventStore(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    // CREATE ... IF NOT EXISTS still races with itself across sessions; one migrator at a time.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('es_migrate'))`);
    for (const statement of MIGRATION) await tx.query(statement);
    await migrateSqlChain(tx);
  });
}
