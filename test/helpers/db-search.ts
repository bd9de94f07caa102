import type { Sql } from '#shared/db/index.js';

/**
 * Every table of the database (every schema but the system's) whose rows, read as text, hold `needle`
 * (case-insensitive), with how many rows: where a person's data could still be read.
 */
export async function tablesHolding(db: Sql, needle: string): Promise<Record<string, number>> {
  const { rows: tables } = await db.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  if (tables.length < 40) throw new Error(`only ${tables.length} tables: not the platform's database`);
  const found: Record<string, number> = {};
  for (const { s, t } of tables) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${s}"."${t}" x WHERE x::text ILIKE $1`, [`%${needle}%`]);
    if (rows[0]!.n > 0) found[`${s}.${t}`] = rows[0]!.n;
  }
  return found;
}
