import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { IdempotencyStore } from './idempotency-store.js';

// The claim on PostgreSQL, from many connections of a pool at once: exactly one request holds a key,
// the others see it running, then its kept answer; another process (a second store) sees the same.
let pg: Awaited<ReturnType<typeof openTestPostgres>>;
let db: Database;

beforeAll(async () => {
  pg = await openTestPostgres();
  db = pg.db;
});

afterAll(async () => {
  await pg?.dispose();
});

describe('idempotency keys on PostgreSQL', () => {
  it('gives a key to exactly one of 20 concurrent claims, and its answer to every claim after', async () => {
    const stores = [new IdempotencyStore(db, { ttlMs: 60_000, inFlightMs: 30_000 }), new IdempotencyStore(db, { ttlMs: 60_000, inFlightMs: 30_000 })];
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.claim('c1/w1/u1/user', 'race', 'f1', now)));
    const held = claims.filter((c) => c.kind === 'claimed');
    expect(held).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'running')).toHaveLength(19);
    await stores[0]!.complete({ scope: 'c1/w1/u1/user', key: 'race', createdAt: (held[0] as { createdAt: Date }).createdAt }, { status: 201, headers: { 'content-type': 'application/json' }, body: 'sealed' });
    const after = await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]!.claim('c1/w1/u1/user', 'race', 'f1', now)));
    expect(after.map((c) => c.kind)).toEqual(Array(6).fill('done'));
    expect(after[0]).toMatchObject({ status: 201, body: 'sealed', headers: { 'content-type': 'application/json' } });
    // Past the time to live the key is free again, and the sweep deletes what is past it.
    expect((await stores[1]!.claim('c1/w1/u1/user', 'race', 'f2', new Date(now.getTime() + 60_001))).kind).toBe('claimed');
    await stores[1]!.claim('c1/w1/u1/user', 'old', 'f1', now);
    expect(await stores[0]!.sweep(new Date(now.getTime() + 60_000))).toBe(1);
  });
});
