import { ChainWalk, GENESIS } from '#shared/audit/verify-chain.js';
import type { Database } from '#shared/db/index.js';
import { ENCODED_SQL } from '#shared/es/index.js';

/** Walks one chain of the database's log from its start, as a verifier does: the result says whether it holds and where it breaks. */
export async function walkChain(db: Database, chain: string): Promise<ReturnType<ChainWalk['finish']>> {
  const { rows } = await db.query<{ seq: string; position: string; hash: string; encoded: string }>(
    `SELECT chain_seq::text AS seq, position::text AS position, encode(chain_hash, 'hex') AS hash, ${ENCODED_SQL('e', 'e.position')} AS encoded
     FROM es_events e WHERE chain = $1 ORDER BY chain_seq`,
    [chain],
  );
  const w = new ChainWalk(chain, { seq: 0, hash: GENESIS }, []);
  for (const r of rows) w.event({ seq: Number(r.seq), position: r.position, hash: r.hash, encoded: r.encoded });
  return w.finish();
}
