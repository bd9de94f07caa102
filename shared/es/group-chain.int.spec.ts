import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '#shared/db/index.js';
import { walkChain } from '#test/helpers/chain.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { createSqlEventStore, migrateSqlEventStore } from './postgres-event-store.js';

/*
 * A group commit chains its own events (sql-chain.ts, group-commit.ts): in one statement it locks the
 * heads of the chains its events belong to, numbers and hashes each chain's events in the group's order,
 * and moves the heads; an event of a chain with no head yet goes through the row trigger. Whichever way
 * an event was chained, every chain verifies and every head is its chain's last event.
 */

const event = (companyId: number | null, n: number) => ({ type: 'Chained', payload: { n, text: 'é ✓ "quoted"' }, metadata: { companyId, occurredAt: '2026-01-01T00:00:00Z' } });


/** Each chain's head row against its last event: the same number and hash. */
async function headsMatch(db: Database, chains: string[]): Promise<void> {
  const { rows } = await db.query<{ chain: string; seq: string; head: string; last_seq: string; last_hash: string }>(
    `SELECT h.chain, h.seq::text AS seq, encode(h.head, 'hex') AS head, l.chain_seq::text AS last_seq, encode(l.chain_hash, 'hex') AS last_hash
     FROM es_chains h JOIN LATERAL (SELECT chain_seq, chain_hash FROM es_events WHERE chain = h.chain ORDER BY chain_seq DESC LIMIT 1) l ON true
     WHERE h.chain = ANY($1::text[]) ORDER BY h.chain`,
    [chains],
  );
  expect(rows.map((r) => r.chain)).toEqual([...chains].sort());
  for (const r of rows) expect([r.seq, r.head]).toEqual([r.last_seq, r.last_hash]);
}

function describeGroupChain(name: string, open: () => Database): void {
  describe(`a group's chain on ${name}`, () => {
    it("numbers and hashes a group's events of chains that have a head, in the group's order, even with the row trigger off", async () => {
      const db = open();
      const store = createSqlEventStore(db);
      const [a, b] = [randomInt(1e6, 1e9), randomInt(1e6, 1e9)];
      // Seeded one by one: the chains and their heads exist.
      await store.append(`seed-${a}`, [event(a, 0)], 'no_stream');
      await store.append(`seed-${b}`, [event(b, 0)], 'no_stream');
      // Only the group's own chaining is left: an event the statement did not hash would have none.
      await db.query(`ALTER TABLE es_events DISABLE TRIGGER es_events_chain`);
      try {
        const groups = store.groupCommitStats!.groups;
        await Promise.all([
          store.append(`g-${a}-1`, [event(a, 1), event(b, 2), event(a, 3)], 'no_stream'),
          store.append(`g-${b}-1`, [event(b, 4)], 'no_stream'),
          store.append(`g-${a}-2`, [event(a, 5)], 'no_stream'),
        ]);
        expect(store.groupCommitStats!.groups - groups).toBe(1);
      } finally {
        await db.query(`ALTER TABLE es_events ENABLE TRIGGER es_events_chain`);
      }
      const { rows } = await db.query<{ chain: string; seq: string; n: number }>(
        `SELECT chain, chain_seq::text AS seq, (payload->>'n')::int AS n FROM es_events WHERE chain = ANY($1::text[]) ORDER BY chain, chain_seq`,
        [[`company:${a}`, `company:${b}`]],
      );
      const of = (c: number) => rows.filter((r) => r.chain === `company:${c}`).map((r) => [Number(r.seq), r.n]);
      expect(of(a)).toEqual([[1, 0], [2, 1], [3, 3], [4, 5]]);
      expect(of(b)).toEqual([[1, 0], [2, 2], [3, 4]]);
      for (const c of [a, b]) expect(await walkChain(db, `company:${c}`)).toMatchObject({ ok: true, events: c === a ? 4 : 3 });
      await headsMatch(db, [`company:${a}`, `company:${b}`]);
      await store.close();
    });

    it('chains the events of a new chain through the row trigger in the same group, and the chains go on from there', async () => {
      const db = open();
      const store = createSqlEventStore(db);
      const [known, fresh] = [randomInt(1e6, 1e9), randomInt(1e6, 1e9)];
      await store.append(`known-${known}`, [event(known, 0)], 'no_stream');
      await Promise.all([
        store.append(`mixed-${known}`, [event(known, 1), event(fresh, 2)], 'no_stream'),
        store.append(`mixed-${fresh}`, [event(fresh, 3), event(null, 4)], 'no_stream'),
      ]);
      await Promise.all([store.append(`after-${fresh}`, [event(fresh, 5)], 'no_stream'), store.append(`after-${known}`, [event(known, 6)], 'no_stream')]);
      for (const chain of [`company:${known}`, `company:${fresh}`, 'installation']) expect(await walkChain(db, chain)).toMatchObject({ ok: true });
      const { rows } = await db.query<{ n: number }>(`SELECT (payload->>'n')::int AS n FROM es_events WHERE chain = $1 ORDER BY chain_seq`, [`company:${fresh}`]);
      expect(rows.map((r) => r.n)).toEqual([2, 3, 5]);
      await headsMatch(db, [`company:${known}`, `company:${fresh}`, 'installation']);
      await store.close();
    });

    it('keeps every chain whole under many writers of few companies at once', async () => {
      const db = open();
      const store = createSqlEventStore(db);
      const companies = [randomInt(1e6, 1e9), randomInt(1e6, 1e9), randomInt(1e6, 1e9)];
      await Promise.all(
        Array.from({ length: 8 }, (_, w) =>
          (async () => {
            for (let i = 0; i < 25; i++) await store.append(`many-${companies[0]}-${w}-${i}`, [event(companies[(w + i) % 3]!, i), event(companies[i % 3]!, i)], 'no_stream');
          })(),
        ),
      );
      for (const c of companies) expect(await walkChain(db, `company:${c}`)).toMatchObject({ ok: true });
      const counted = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM es_events WHERE chain = ANY($1::text[])`, [companies.map((c) => `company:${c}`)]);
      expect(Number(counted.rows[0]!.n)).toBe(8 * 25 * 2);
      await headsMatch(db, companies.map((c) => `company:${c}`));
      await store.close();
    });
  });
}

let memory: Database;
let server: Awaited<ReturnType<typeof openTestPostgres>>;

beforeAll(async () => {
  memory = await openPglite();
  await migrateSqlEventStore(memory);
  server = await openTestPostgres();
  await migrateSqlEventStore(server.db);
}, 60_000);

afterAll(async () => {
  await memory?.close();
  await server?.dispose();
});

describeGroupChain('PGlite', () => memory);
describeGroupChain('the PostgreSQL server', () => server.db);
