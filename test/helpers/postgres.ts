import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type Database } from '#shared/db/index.js';
import { testEnv } from './env.js';

/**
 * Creates a new, empty PostgreSQL database on the test server and returns its URL and a drop function.
 * Each test file gets its own database, so files can run in parallel.
 */
export async function createTestDatabase(prefix = 'qa_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testEnv.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testEnv.postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: testEnv.postgresUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A `Database` on a fresh PostgreSQL database, dropped by `dispose`. */
export async function openTestPostgres(): Promise<{ db: Database; url: string; dispose: () => Promise<void> }> {
  const { url, drop } = await createTestDatabase();
  const db = openPostgres(url, { max: 20 });
  return {
    db,
    url,
    dispose: async () => {
      await db.close();
      await drop();
    },
  };
}
