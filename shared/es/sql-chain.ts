import type { Sql } from '#shared/db/index.js';

/*
 * The history's chain.
 *
 * Every event belongs to one chain: its company's (`company:<id>`, from `metadata.companyId`) or, with no
 * company, the installation's (`installation`). Within a chain the events are numbered 1, 2, 3 ...
 * (`chain_seq`) and each carries `chain_hash = SHA-256(previous hash || canonical encoding)`, the first
 * one's previous hash being 32 zero bytes. The canonical encoding is PostgreSQL's text of a JSON array:
 *
 *   [chain, position as text, stream, revision, event id, type, version, payload, metadata]
 *
 * jsonb's text output is deterministic (keys ordered, one spacing), so the database computes it, and a
 * verifier that is handed that text (an export carries it as `encoded`) recomputes the hash from the
 * bytes without knowing jsonb's rules; an export also reads the event from it.
 *
 * A group commit's statement (group-commit.ts) numbers and hashes its events itself: it locks the head
 * rows of the chains its events belong to (`es_chains`, in chain order), gives each event its number and
 * its hash with a window over the group's events of that chain (the es_chain_fold aggregate), inserts
 * them with both, and writes the heads back, all in the one statement. An event that arrives without a
 * hash — an append alone, or a group's event whose chain has no head row yet — is numbered and hashed
 * by a BEFORE INSERT trigger instead, under the same row lock, in the transaction that appends it; there
 * the head travels from event to event in a transaction-local setting and an AFTER INSERT statement
 * trigger writes it back to its row (es_chain_link, es_chain_flush). Concurrent
 * appends of one company therefore queue on that row for the rest of their transaction; the group
 * statement inserts its events ordered by chain so that two groups take chain rows in the same order.
 * Chain order is the order of `chain_seq`, which may differ from position order between concurrent
 * transactions; the position is in the hash, so moving an event moves its hash too.
 *
 * Events recorded before the chain existed are chained by the migration, in position order, at the end
 * of their chain (`migrateSqlChain`).
 */

/** The previous hash of a chain's first event. */
export const GENESIS_HASH = Buffer.alloc(32);

/** The chain an event belongs to, from its metadata (SQL over a row named `e`). */
export const CHAIN_OF_SQL = (metadata: string) => `COALESCE('company:' || (${metadata}->>'companyId'), 'installation')`;

/** The canonical encoding as text (SQL over an es_events row, or a trigger's NEW). */
export const ENCODED_SQL = (e: string, position: string) =>
  `jsonb_build_array(${e}.chain, (${position})::text, ${e}.stream_id, ${e}.revision, ${e}.event_id::text, ${e}.type, ${e}.version, ${e}.payload, ${e}.metadata)::text`;

const GENESIS_SQL = `'\\x${GENESIS_HASH.toString('hex')}'::bytea`;

const CHAIN_MIGRATION = [
  `ALTER TABLE es_events ADD COLUMN IF NOT EXISTS chain text COLLATE "C"`,
  `ALTER TABLE es_events ADD COLUMN IF NOT EXISTS chain_seq bigint`,
  `ALTER TABLE es_events ADD COLUMN IF NOT EXISTS chain_hash bytea`,
  `CREATE UNIQUE INDEX IF NOT EXISTS es_events_chain_seq ON es_events (chain, chain_seq)`,
  // A chain's head: its last event's number and hash (0 and zeros before its first).
  `CREATE TABLE IF NOT EXISTS es_chains (
     chain text COLLATE "C" PRIMARY KEY,
     seq bigint NOT NULL,
     head bytea NOT NULL
   )`,
  // Moves chain c on by one event encoded as `encoded`; answers its number and hash. The first time a
  // transaction meets a chain it locks the head row (made if missing); after that the head is kept in a
  // transaction-local setting, not written row by row (one UPDATE of a row per event would leave a chain
  // of row versions that every later update of the transaction walks). es_chain_flush writes it back.
  `CREATE OR REPLACE FUNCTION es_chain_link(c text, encoded text, OUT seq bigint, OUT head bytea) LANGUAGE plpgsql AS $$
   DECLARE
     state jsonb := COALESCE(NULLIF(current_setting('es.chain_heads', true), ''), '{}')::jsonb;
     cur jsonb := state -> c;
   BEGIN
     IF cur IS NULL THEN
       SELECT h.seq, h.head INTO seq, head FROM es_chains h WHERE h.chain = c FOR UPDATE;
       IF NOT FOUND THEN
         INSERT INTO es_chains (chain, seq, head) VALUES (c, 0, ${GENESIS_SQL}) ON CONFLICT (chain) DO NOTHING;
         SELECT h.seq, h.head INTO seq, head FROM es_chains h WHERE h.chain = c FOR UPDATE;
       END IF;
     ELSE
       seq := (cur ->> 0)::bigint;
       head := decode(cur ->> 1, 'hex');
     END IF;
     seq := seq + 1;
     head := sha256(head || convert_to(encoded, 'UTF8'));
     PERFORM set_config('es.chain_heads', jsonb_set(state, ARRAY[c], jsonb_build_array(seq, encode(head, 'hex')))::text, true);
   END $$`,
  // Writes the heads this transaction moved back to their rows (locked by es_chain_link since). PL/pgSQL
  // rather than SQL: its UPDATE is planned once per connection, not at every call.
  `CREATE OR REPLACE FUNCTION es_chain_flush() RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE es_chains h SET seq = (j.value ->> 0)::bigint, head = decode(j.value ->> 1, 'hex')
     FROM jsonb_each(COALESCE(NULLIF(current_setting('es.chain_heads', true), ''), '{}')::jsonb) AS j
     WHERE h.chain = j.key AND h.seq <> (j.value ->> 0)::bigint;
   END $$`,
  // One step of a chain as an aggregate: the state is the hash so far, started from the head given with
  // the first event (the state is NULL before it). Run as a window over a group's events of one chain
  // (GROUP_APPEND_SQL), it gives each event its hash without a trigger.
  `CREATE OR REPLACE FUNCTION es_chain_step(state bytea, head bytea, encoded text) RETURNS bytea LANGUAGE plpgsql STABLE AS $$
   BEGIN
     RETURN sha256(COALESCE(state, head) || convert_to(encoded, 'UTF8'));
   END $$`,
  `CREATE OR REPLACE AGGREGATE es_chain_fold(bytea, text) (SFUNC = es_chain_step, STYPE = bytea)`,
  `CREATE OR REPLACE FUNCTION es_chain_event() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.chain := ${CHAIN_OF_SQL('NEW.metadata')};
     SELECT n.seq, n.head INTO NEW.chain_seq, NEW.chain_hash
     FROM es_chain_link(NEW.chain, ${ENCODED_SQL('NEW', '(NEW.transaction_id::text::bigint << 16) | NEW.index_in_append')}) AS n;
     RETURN NEW;
   END $$`,
  // After each insert statement: the heads the row trigger moved, if it ran (a group append that hashed
  // all its events itself leaves nothing to write, and pays one setting's read). Once written, the
  // setting is cleared: a later event of the transaction reads its chain's head from the row again (the
  // row this transaction locked and wrote), and a later statement has nothing to write.
  `CREATE OR REPLACE FUNCTION es_chain_statement() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF COALESCE(current_setting('es.chain_heads', true), '') NOT IN ('', '{}') THEN
       PERFORM es_chain_flush();
       PERFORM set_config('es.chain_heads', '', true);
     END IF;
     RETURN NULL;
   END $$`,
  // The row trigger runs only for events that arrive without their hash: a group append hashes its own.
  `DO $$ BEGIN
     IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'es_events_chain' AND tgrelid = 'es_events'::regclass AND tgqual IS NULL) THEN
       DROP TRIGGER es_events_chain ON es_events;
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'es_events_chain' AND tgrelid = 'es_events'::regclass) THEN
       CREATE TRIGGER es_events_chain BEFORE INSERT ON es_events FOR EACH ROW WHEN (NEW.chain_hash IS NULL) EXECUTE FUNCTION es_chain_event();
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'es_events_chain_heads' AND tgrelid = 'es_events'::regclass) THEN
       CREATE TRIGGER es_events_chain_heads AFTER INSERT ON es_events FOR EACH STATEMENT EXECUTE FUNCTION es_chain_statement();
     END IF;
   END $$`,
];

/** Chains the unchained events (recorded before the chain existed) one by one, in position order. */
const BACKFILL_FUNCTION = `CREATE OR REPLACE FUNCTION es_chain_backfill() RETURNS bigint LANGUAGE plpgsql AS $$
   DECLARE p bigint; s bigint; h bytea; done bigint := 0;
   BEGIN
     FOR p IN SELECT position FROM es_events WHERE chain_hash IS NULL ORDER BY position LOOP
       UPDATE es_events e SET chain = ${CHAIN_OF_SQL('e.metadata')} WHERE e.position = p;
       SELECT n.seq, n.head INTO s, h FROM es_events e, es_chain_link(e.chain, ${ENCODED_SQL('e', 'e.position')}) AS n
       WHERE e.position = p;
       UPDATE es_events SET chain_seq = s, chain_hash = h WHERE position = p;
       done := done + 1;
     END LOOP;
     PERFORM es_chain_flush();
     RETURN done;
   END $$`;

/**
 * Creates the chain's columns, table, functions and trigger, then chains the events recorded before it
 * existed (those without a hash) in position order, at the end of their chains. Runs inside the store's
 * migration, under its lock; the chain rows are locked meanwhile, so appends of upgraded processes wait
 * rather than interleave. Answers how many events it chained.
 */
export async function migrateSqlChain(tx: Sql): Promise<number> {
  for (const statement of [...CHAIN_MIGRATION, BACKFILL_FUNCTION]) await tx.query(statement);
  const { rows } = await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM es_events WHERE chain_hash IS NULL`);
  if (Number(rows[0]?.n ?? 0) === 0) return 0;
  await tx.query(`LOCK TABLE es_chains IN EXCLUSIVE MODE`);
  const { rows: done } = await tx.query<{ n: string | number }>(`SELECT es_chain_backfill() AS n`);
  return Number(done[0]?.n ?? 0);
}

/**
 * Hashes chain `chain` again from its event `fromSeq` on, in chain order, after the stored bytes of
 * events from there on were rewritten (the personal data migration, `npm run pii:migrate`), and moves
 * its head. Run in the transaction that rewrote them, with the chain's head row locked; answers the old
 * and the new head.
 */
export async function rechainFrom(tx: Sql, chain: string, fromSeq: number): Promise<{ oldHead: string; newHead: string; events: number }> {
  const { rows } = await tx.query<{ old_head: string; new_head: string; n: string | number }>(
    `WITH RECURSIVE prev AS (
       SELECT COALESCE((SELECT chain_hash FROM es_events WHERE chain = $1 AND chain_seq = $2::bigint - 1), ${GENESIS_SQL}) AS h
     ), walk AS (
       SELECT e.chain_seq AS seq, e.position, sha256((SELECT h FROM prev) || convert_to(${ENCODED_SQL('e', 'e.position')}, 'UTF8')) AS h
         FROM es_events e WHERE e.chain = $1 AND e.chain_seq = $2::bigint
       UNION ALL
       SELECT e.chain_seq, e.position, sha256(w.h || convert_to(${ENCODED_SQL('e', 'e.position')}, 'UTF8'))
         FROM walk w JOIN es_events e ON e.chain = $1 AND e.chain_seq = w.seq + 1
     ), moved AS (
       UPDATE es_events e SET chain_hash = w.h FROM walk w WHERE e.position = w.position RETURNING w.seq, w.h
     ), last AS (SELECT h FROM moved ORDER BY seq DESC LIMIT 1)
     SELECT encode((SELECT head FROM es_chains WHERE chain = $1), 'hex') AS old_head, encode((SELECT h FROM last), 'hex') AS new_head,
            (SELECT count(*) FROM moved) AS n`,
    [chain, fromSeq],
  );
  const r = rows[0]!;
  await tx.query(`UPDATE es_chains SET head = decode($2, 'hex') WHERE chain = $1`, [chain, r.new_head]);
  return { oldHead: r.old_head, newHead: r.new_head, events: Number(r.n) };
}
