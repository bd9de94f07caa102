import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import { applySchema } from './schema.js';
import type { Database } from './types.js';

// Each application of the block leaves one row in schema_runs, so the test sees whether it ran.
const block = (extra = '') => `
  CREATE TABLE IF NOT EXISTS schema_runs (n serial PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS widgets (id int PRIMARY KEY, name text);
  CREATE INDEX IF NOT EXISTS widgets_name ON widgets (name);
  ${extra}
  INSERT INTO schema_runs DEFAULT VALUES;`;

const runs = async (db: Database) => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM schema_runs')).rows[0]!.n);
const columns = async (db: Database) =>
  (await db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'widgets' ORDER BY column_name`)).rows.map((r) => r.column_name);

async function runsOnceAndOnChange(db: Database): Promise<void> {
    await applySchema(db, 'widgets', block());
    await applySchema(db, 'widgets', block());
    expect(await runs(db)).toBe(1);
    await applySchema(db, 'widgets', block('ALTER TABLE widgets ADD COLUMN IF NOT EXISTS colour text;'));
    expect(await runs(db)).toBe(2);
    expect(await columns(db)).toEqual(['colour', 'id', 'name']);
}

describe('applySchema on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPostgres(database.url, { max: 3 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('runs a block once, and runs it again only when its text changed', () => runsOnceAndOnChange(db));

  it('takes no lock on the tables when the text is the same, so a writer in flight does not hold it up', async () => {
    const writer = new pg.Client({ connectionString: database.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO widgets (id, name) VALUES (1, 'held')`);
      // The same DDL run as such waits for the writer: CREATE INDEX IF NOT EXISTS wants a share lock first.
      const plain = new pg.Client({ connectionString: database.url });
      await plain.connect();
      try {
        await plain.query(`SET lock_timeout = '200ms'`);
        await expect(plain.query('CREATE INDEX IF NOT EXISTS widgets_name ON widgets (name)')).rejects.toMatchObject({ code: '55P03' });
      } finally {
        await plain.end();
      }
      // Through applySchema it returns while the writer's transaction is still open.
      await applySchema(db, 'widgets', block('ALTER TABLE widgets ADD COLUMN IF NOT EXISTS colour text;'));
      expect(await runs(db)).toBe(2);
    } finally {
      await writer.query('ROLLBACK').catch(() => {});
      await writer.end();
    }
  });

  it('applies a new text once when several processes start with it together', async () => {
    const pools = [openPostgres(database.url, { max: 2 }), openPostgres(database.url, { max: 2 }), openPostgres(database.url, { max: 2 })];
    try {
      const next = block('ALTER TABLE widgets ADD COLUMN IF NOT EXISTS size int; CREATE INDEX IF NOT EXISTS widgets_size ON widgets (size);');
      await Promise.all(pools.map((p) => applySchema(p, 'widgets', next)));
      expect(await runs(db)).toBe(3);
      expect(await columns(db)).toEqual(['colour', 'id', 'name', 'size']);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});

describe('applySchema on PGlite', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('runs a block once, and again only when its text changed', () => runsOnceAndOnChange(db));
});
