import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { testEnv } from '#test/helpers/env.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { eventually, kvContract } from './kv.contract.js';
import { connectRedisKv, createMemoryKv, createSqlKv, type KeyValueStore } from './index.js';

kvContract('memory', { open: async () => createMemoryKv() });

describe('redis', () => {
  const prefix = `kvtest:${randomBytes(5).toString('hex')}:`;
  const admin = new Redis(testEnv.redisUrl, { lazyConnect: true });

  async function keysUnder(p: string): Promise<string[]> {
    const found: string[] = [];
    for await (const batch of admin.scanStream({ match: `${p}*`, count: 500 })) found.push(...(batch as string[]));
    return found;
  }

  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    const left = await keysUnder('kvtest:');
    const ours = left.filter((k) => k.startsWith(prefix));
    if (ours.length > 0) await admin.del(...ours);
    expect(await keysUnder(prefix)).toEqual([]);
    await admin.quit();
  });

  kvContract('redis', { open: () => connectRedisKv(testEnv.redisUrl, { keyPrefix: prefix }) });

  it('stores keys under its prefix, so stores with different prefixes do not see each other', async () => {
    const a = await connectRedisKv(testEnv.redisUrl, { keyPrefix: `${prefix}a:` });
    const b = await connectRedisKv(testEnv.redisUrl, { keyPrefix: `${prefix}b:` });
    try {
      await a.set('shared-name', 'from-a');
      expect(await b.get('shared-name')).toBeNull();
      expect(await admin.get(`${prefix}a:shared-name`)).toBe('from-a');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('stays atomic across separate connections (as separate service replicas would hold)', async () => {
    const stores = await Promise.all([1, 2, 3, 4].map(() => connectRedisKv(testEnv.redisUrl, { keyPrefix: prefix })));
    try {
      const lock = `lock:${randomBytes(4).toString('hex')}`;
      const locked = await Promise.all(stores.flatMap((kv) => [1, 2, 3, 4, 5].map(() => kv.setIfAbsent(lock, 'x'))));
      expect(locked.filter(Boolean)).toHaveLength(1);

      const token = `token:${randomBytes(4).toString('hex')}`;
      await stores[0]!.set(token, 'secret');
      const taken = await Promise.all(stores.flatMap((kv) => [1, 2, 3, 4, 5].map(() => kv.take(token))));
      expect(taken.filter((t) => t !== null)).toEqual(['secret']);

      const counter = `counter:${randomBytes(4).toString('hex')}`;
      await Promise.all(stores.flatMap((kv) => [1, 2, 3, 4, 5].map(() => kv.increment(counter, { ttlMs: 60_000 }))));
      expect(await stores[1]!.get(counter)).toBe('20');
    } finally {
      await Promise.all(stores.map((kv) => kv.close()));
    }
  });

  it('refuses to start when Redis cannot be reached', async () => {
    // Port 1 on loopback is never a Redis server; the connection is refused at once.
    await expect(connectRedisKv('redis://127.0.0.1:1')).rejects.toThrow();
  });
});

/** Where a SQL key-value store lives, and how its process restarts. */
interface SqlHome {
  open(): Promise<Database>;
  /** Stands for a process restart: returns the database the new process works on. */
  restart(db: Database): Promise<Database>;
  /** Lets go of a database `open` or `restart` returned. */
  release(db: Database): Promise<void>;
}

/** What only the SQL store promises: durability across a restart, and expired rows swept from the table. */
function sqlDurabilitySuite(name: string, home: () => SqlHome): void {
  describe(`sql on ${name}: durability`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await home().open();
    });
    afterAll(async () => {
      await home().release(db);
    });

    it('has the row in SQL as soon as a write resolves, and keeps a restart from losing or resurrecting keys', async () => {
      const run = randomBytes(4).toString('hex');
      const k = (label: string): string => `durable:${run}:${label}`;
      const kv = await createSqlKv(db);
      await kv.set(k('keep'), 'kept');
      const { rows } = await db.query<{ value: string }>('SELECT value FROM kv_entries WHERE key = $1', [k('keep')]);
      expect(rows.map((r) => r.value)).toEqual(['kept']);
      await kv.set(k('long'), 'long-lived', { ttlMs: 60_000 });
      await kv.set(k('short'), 'short-lived', { ttlMs: 100 });
      expect(await kv.get(k('short'))).toBe('short-lived');
      const shortGoneAt = Date.now() + ((await kv.ttl(k('short'))) ?? 0);
      expect(await kv.increment(k('hits'), { by: 3, ttlMs: 60_000 })).toBe(3);
      await kv.set(k('used'), 'single-use');
      expect(await kv.take(k('used'))).toBe('single-use');
      await kv.close();

      // The restart: the process stops, time passes beyond the short key's ttl, it starts again.
      await eventually(async () => Date.now() > shortGoneAt);
      db = await home().restart(db);
      // The expired row is still in the table (no sweep ran), so only loading can keep it out.
      const stale = await db.query('SELECT 1 FROM kv_entries WHERE key = $1', [k('short')]);
      expect(stale.rows).toHaveLength(1);
      const reopened = await createSqlKv(db);
      try {
        expect(await reopened.get(k('keep'))).toBe('kept');
        expect(await reopened.get(k('long'))).toBe('long-lived');
        const left = await reopened.ttl(k('long'));
        expect(left).toBeGreaterThan(50_000);
        expect(left).toBeLessThanOrEqual(60_000);
        expect(await reopened.get(k('hits'))).toBe('3');
        expect(await reopened.increment(k('hits'))).toBe(4);
        expect(await reopened.get(k('used'))).toBeNull();
        expect(await reopened.get(k('short'))).toBeNull();
        expect(await reopened.setIfAbsent(k('short'), 'new-owner')).toBe(true);
      } finally {
        await reopened.close();
      }
    });

    it('deletes expired rows from the table in the background sweep, and only those', async () => {
      const run = randomBytes(4).toString('hex');
      const short = `swept:${run}:short`;
      const long = `swept:${run}:long`;
      const kv: KeyValueStore = await createSqlKv(db, { sweepIntervalMs: 20 });
      const rowsFor = async (k: string): Promise<number> =>
        (await db.query('SELECT 1 FROM kv_entries WHERE key = $1', [k])).rows.length;
      try {
        await kv.set(long, 'stays', { ttlMs: 60_000 });
        await kv.set(short, 'goes', { ttlMs: 100 });
        expect(await rowsFor(short)).toBe(1);
        await eventually(async () => (await rowsFor(short)) === 0);
        expect(await kv.get(short)).toBeNull();
        expect(await rowsFor(long)).toBe(1);
        expect(await kv.get(long)).toBe('stays');
      } finally {
        await kv.close();
      }
    });
  });
}

// One PGlite for the contract and the durability tests: creating one costs seconds. It lives in memory,
// so its "restart" keeps the database and starts a new store on it, which must load what the old one wrote.
let pglite: Database;
beforeAll(async () => {
  pglite = await openPglite();
});
afterAll(async () => {
  await pglite.close();
});
kvContract('sql on PGlite in memory', { open: () => createSqlKv(pglite) });
sqlDurabilitySuite('PGlite in memory', () => ({
  open: async () => pglite,
  restart: async (db) => db,
  release: async () => {},
}));

// A fresh PostgreSQL database for this file, dropped at the end; a restart closes the pool and opens another.
let postgres: { url: string; drop: () => Promise<void> };
let postgresDb: Database;
beforeAll(async () => {
  postgres = await createTestDatabase('qa_kv');
  postgresDb = openPostgres(postgres.url, { max: 20 });
});
afterAll(async () => {
  await postgresDb.close();
  await postgres.drop();
});
kvContract('sql on PostgreSQL', { open: () => createSqlKv(postgresDb) });
sqlDurabilitySuite('PostgreSQL', () => ({
  open: async () => openPostgres(postgres.url),
  restart: async (db) => {
    await db.close();
    return openPostgres(postgres.url);
  },
  release: (db) => db.close(),
}));
