import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { openPostgres } from './postgres.js';
import type { Database } from './types.js';

describe('PostgreSQL adapter', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection, so the session that prepares is the one asked afterwards.
    db = openPostgres(database.url, { max: 1 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('prepares a named statement once per connection and runs it with each call’s parameters', async () => {
    const text = 'SELECT $1::int * 2 AS doubled';
    for (const n of [1, 2, 3]) {
      expect((await db.query<{ doubled: number }>(text, [n], { prepare: 'test_double' })).rows).toEqual([{ doubled: n * 2 }]);
    }
    const inTransaction = await db.transaction((tx) => tx.query<{ doubled: number }>(text, [21], { prepare: 'test_double' }));
    expect(inTransaction.rows).toEqual([{ doubled: 42 }]);
    const prepared = await db.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE name = 'test_double'`);
    expect(prepared.rows).toEqual([{ name: 'test_double', statement: text }]);
    // Without a name nothing stays prepared.
    await db.query('SELECT $1::int AS one', [1]);
    expect((await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements')).rows[0]!.n).toBe('1');
  });
});
