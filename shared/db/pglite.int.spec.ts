import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import type { Database } from './types.js';

describe('PGlite adapter', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite();
  });
  afterAll(async () => {
    await db.close();
  });

  // PGlite answers through promise callbacks only; without turns a run of queries would hold timers and
  // sockets back until it ends (a registration storm left heartbeats unanswered for half a minute).
  it('lets timers run during a long run of queries, inside and outside transactions', async () => {
    for (const inTransaction of [false, true]) {
      let fired = false;
      setTimeout(() => (fired = true), 0);
      const run = async (q: Database['query']) => {
        const started = performance.now();
        let queries = 0;
        // Long enough for several turns; ends as soon as the timer has run.
        while (!fired && performance.now() - started < 2_000) {
          await q('SELECT 1');
          queries++;
        }
        return queries;
      };
      const queries = inTransaction ? await db.transaction((tx) => run(tx.query.bind(tx))) : await run(db.query.bind(db));
      expect(fired, `${inTransaction ? 'in a transaction' : 'outside transactions'} after ${queries} queries`).toBe(true);
    }
  });
});

describe('PGlite data directory', () => {
  it('is created, opened with the shared_buffers given, and its postgresql.conf is left as initdb wrote it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pglite-dir-')), 'pglite');
    const db = await openPglite(dir, { sharedBuffers: '8MB' });
    try {
      expect((await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe('8MB');
      await db.exec('CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)');
    } finally {
      await db.close();
    }
    expect(readFileSync(join(dir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 128MB/m);
    // Opened again (an existing directory: no initdb), with the default.
    const again = await openPglite(dir);
    try {
      expect((await again.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe('16MB');
      expect((await again.query<{ v: number }>('SELECT v FROM kept')).rows).toEqual([{ v: 7 }]);
    } finally {
      await again.close();
    }
  });
});
