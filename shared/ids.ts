import type { Sql } from './db/index.js';

const SEQUENCE = /^[a-z_]+$/;

/**
 * Integer ids (users, roles, teams, workspaces, companies) come from PostgreSQL sequences in the
 * read-model database, so every replica of a service draws from the same counter.
 */
export async function allocateId(db: Sql, kind: string): Promise<number> {
  if (!SEQUENCE.test(kind)) throw new Error(`Bad id kind ${kind}`);
  await db.query(`CREATE SEQUENCE IF NOT EXISTS id_seq_${kind}`);
  const r = await db.query<{ id: unknown }>(`SELECT nextval('id_seq_${kind}') AS id`);
  return Number(r.rows[0]!.id);
}
