import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '#shared/auth/index.js';
import { forgetAnswersNaming } from './idempotency.js';
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

describe('forgetting the answers that name an erased person', () => {
  it('forgets the company\'s answers that hold their address or name and those to their own requests, and nothing else', async () => {
    const box = new SecretBox(randomBytes(32));
    const store = new IdempotencyStore(db, { ttlMs: 60_000, inFlightMs: 30_000 });
    const now = new Date();
    const keep = async (scope: string, key: string, answer: unknown) => {
      const claim = await store.claim(scope, key, 'f', now);
      if (claim.kind !== 'claimed') throw new Error(`${scope} ${key} not claimed`);
      const body = box.seal(Buffer.from(JSON.stringify(answer)).toString('base64'), `idempotency:${scope}:${key}`);
      await store.complete({ scope, key, createdAt: claim.createdAt }, { status: 201, headers: {}, body });
    };
    await keep('c41/w1/u1/user', 'invite', { email: 'Ida.Erased@example.test', name: 'someone' });
    await keep('c41/w1/u1/user', 'review', { people: [{ name: 'Ida "the" Erased' }] });
    await keep('c41/w-/u9/user', 'own', { id: 5 });
    await keep('c41/w1/u1/user', 'team', { name: 'Ops' });
    await keep('c42/w1/u1/user', 'other-company', { email: 'ida.erased@example.test' });
    await keep('c411/w1/u9/user', 'prefix-company', { id: 6 });

    expect(await forgetAnswersNaming(db, box, { companyId: 41, userId: 9, texts: ['ida.erased@example.test', 'Ida "the" Erased'] })).toBe(3);
    const state = async (scope: string, key: string) => {
      const claim = await store.claim(scope, key, 'f', now);
      return claim.kind === 'not-kept' ? `not kept${claim.erased ? ', erased' : ''}` : claim.kind;
    };
    expect(await state('c41/w1/u1/user', 'invite')).toBe('not kept, erased');
    expect(await state('c41/w1/u1/user', 'review')).toBe('not kept, erased');
    expect(await state('c41/w-/u9/user', 'own')).toBe('not kept, erased');
    expect(await state('c41/w1/u1/user', 'team')).toBe('done');
    expect(await state('c42/w1/u1/user', 'other-company')).toBe('done');
    expect(await state('c411/w1/u9/user', 'prefix-company')).toBe('done');
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_keys WHERE state = 'erased' AND (body IS NOT NULL OR headers IS NOT NULL)`);
    expect(rows[0]!.n).toBe(0);
  });

  it('reads a company\'s kept answers page by page, each once, while the ones read are being forgotten', async () => {
    const store = new IdempotencyStore(db, { ttlMs: 60_000, inFlightMs: 30_000 });
    const now = new Date();
    const keys = ['a', 'b', 'c', 'd', 'e'];
    for (const key of keys) {
      const claim = await store.claim('c77/w1/u1/user', key, 'f', now);
      if (claim.kind !== 'claimed') throw new Error(`${key} not claimed`);
      await store.complete({ scope: 'c77/w1/u1/user', key, createdAt: claim.createdAt }, { status: 201, headers: {}, body: `sealed ${key}` });
    }
    const read: string[] = [];
    for await (const answer of store.keptAnswersOf(77, 2)) {
      read.push(`${answer.key}:${answer.body}`);
      if (answer.key !== 'c') await store.forgetErased(answer);
    }
    expect(read).toEqual(keys.map((k) => `${k}:sealed ${k}`));
    const left: string[] = [];
    for await (const answer of store.keptAnswersOf(77, 2)) left.push(answer.key);
    expect(left).toEqual(['c']);
  });
});
