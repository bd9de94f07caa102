import type { Sql } from '#shared/db/index.js';
import type { ChainEvent, Checkpoint } from '#shared/audit/verify-chain.js';
import { GENESIS } from '#shared/audit/verify-chain.js';
import type { EvidenceEvent } from '#shared/audit/session-evidence.js';
import { ENCODED_SQL } from '#shared/es/index.js';

/** What walks a chain: its events and checkpoints in chain order. */
export type ChainItem = { event: ChainEvent } | { checkpoint: Checkpoint };

/** Numbers of a chain's events to walk, both inclusive. */
export interface SeqRange {
  first: number;
  last: number;
}

const PAGE = 2_000;

/** A range's bound: a position (digits) or an ISO 8601 time. */
export type Bound = { position: bigint } | { time: Date };

const boundSql = (b: Bound, op: '>=' | '<='): [string, string] =>
  'position' in b ? [`position ${op} $2::bigint`, b.position.toString()] : [`recorded_at ${op} $2::timestamptz`, b.time.toISOString()];

/** The events of `chain` between `from` and `to` (inclusive) as numbers of the chain; null when none. */
export async function seqRange(db: Sql, chain: string, from: Bound | undefined, to: Bound | undefined): Promise<SeqRange | null> {
  const edge = async (b: Bound | undefined, op: '>=' | '<=', agg: 'min' | 'max') => {
    const [cond, value] = b ? boundSql(b, op) : ['true', ''];
    const { rows } = await db.query<{ s: string | null }>(
      `SELECT ${agg}(chain_seq)::text AS s FROM es_events WHERE chain = $1 AND ${cond}`,
      b ? [chain, value] : [chain],
    );
    return rows[0]?.s == null ? null : Number(rows[0].s);
  };
  const first = await edge(from, '>=', 'min');
  const last = await edge(to, '<=', 'max');
  return first === null || last === null || first > last ? null : { first, last };
}

/** The number and hash the walk of `range` starts from: the event before it (GENESIS before the first). */
export async function anchorOf(db: Sql, chain: string, range: SeqRange): Promise<{ seq: number; hash: string } | null> {
  if (range.first <= 1) return { seq: 0, hash: GENESIS };
  const { rows } = await db.query<{ hash: string }>(
    `SELECT encode(chain_hash, 'hex') AS hash FROM es_events WHERE chain = $1 AND chain_seq = $2`,
    [chain, range.first - 1],
  );
  return rows[0] ? { seq: range.first - 1, hash: rows[0].hash } : null;
}

type EventRow = {
  seq: string;
  position: string;
  hash: string | null;
  encoded: string;
};

type CheckpointRow = {
  seq: string;
  position: string;
  head: string;
  at: string;
  key_id: string;
  signature: string;
};

/** The chain's events and checkpoints in `range`, in order (a checkpoint right after its event), page by page. */
export async function* chainItems(db: Sql, chain: string, range: SeqRange): AsyncGenerator<ChainItem> {
  for (let from = range.first; from <= range.last; from += PAGE) {
    const to = Math.min(range.last, from + PAGE - 1);
    const { rows: events } = await db.query<EventRow>(
      `SELECT chain_seq::text AS seq, position::text AS position, encode(chain_hash, 'hex') AS hash,
              ${ENCODED_SQL('e', 'e.position')} AS encoded
       FROM es_events e WHERE chain = $1 AND chain_seq BETWEEN $2 AND $3 ORDER BY chain_seq`,
      [chain, from, to],
    );
    const { rows: checkpoints } = await db.query<CheckpointRow>(
      `SELECT seq::text AS seq, position::text AS position, encode(head, 'hex') AS head, at, key_id, signature
       FROM es_checkpoints k WHERE chain = $1 AND seq BETWEEN $2 AND $3 ORDER BY k.seq`,
      [chain, from, to],
    );
    let c = 0;
    for (const e of events) {
      yield { event: { seq: Number(e.seq), position: e.position, hash: e.hash ?? '', encoded: e.encoded } };
      for (; c < checkpoints.length && Number(checkpoints[c]!.seq) <= Number(e.seq); c++) yield { checkpoint: checkpointOf(chain, checkpoints[c]!) };
    }
    for (; c < checkpoints.length; c++) yield { checkpoint: checkpointOf(chain, checkpoints[c]!) };
  }
}

const checkpointOf = (chain: string, r: CheckpointRow): Checkpoint => ({
  chain,
  seq: Number(r.seq),
  position: r.position,
  head: r.head,
  at: r.at,
  keyId: r.key_id,
  signature: r.signature,
});

/** The chain's head as its head row tells it: the number of its last event. */
export async function chainHeadSeq(db: Sql, chain: string): Promise<number> {
  const { rows } = await db.query<{ seq: string }>(`SELECT seq::text AS seq FROM es_chains WHERE chain = $1`, [chain]);
  return rows[0] ? Number(rows[0].seq) : 0;
}

type StreamEventRow = EventRow & { chain: string; previous: string | null };

/**
 * Every chained event of these streams, in log order, each with its chain, number, hash, encoding and
 * the hash of the event before it in its chain (zeros before the first): what a session's evidence carries.
 */
export async function streamsChainEvents(db: Sql, streams: readonly string[]): Promise<EvidenceEvent[]> {
  if (streams.length === 0) return [];
  const { rows } = await db.query<StreamEventRow>(
    `SELECT e.chain, e.chain_seq::text AS seq, e.position::text AS position, encode(e.chain_hash, 'hex') AS hash,
            CASE WHEN e.chain_seq = 1 THEN $2 ELSE encode(p.chain_hash, 'hex') END AS previous,
            ${ENCODED_SQL('e', 'e.position')} AS encoded
     FROM es_events e LEFT JOIN es_events p ON p.chain = e.chain AND p.chain_seq = e.chain_seq - 1
     WHERE e.stream_id = ANY($1::text[]) AND e.chain IS NOT NULL ORDER BY e.position`,
    [streams, GENESIS],
  );
  return rows.map((r) => ({ chain: r.chain, seq: Number(r.seq), position: r.position, hash: r.hash ?? '', previousHash: r.previous ?? '', encoded: r.encoded }));
}
