import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '#shared/db/index.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { migrateSqlEventStore, type EventStore } from './index.js';
import { walkChain } from '#test/helpers/chain.js';

/*
 * The chain's migration on PGlite: events recorded without the chain (the triggers off, as before it
 * existed) are chained by the next migration in position order, after which new appends continue the
 * chains, and every chain verifies.
 */

let db: Database;
let store: EventStore;
let close: () => Promise<void>;

const event = (companyId: number | null, n: number) => ({ type: 'Thing', payload: { n }, metadata: { companyId, occurredAt: '2026-01-01T00:00:00Z' } });


beforeAll(async () => {
  ({ db, store, close } = await openPgliteStore());
});

afterAll(async () => {
  await close();
});

describe('the chain migration', () => {
  it('chains events recorded before the chain in position order, and appends continue the chains', async () => {
    await db.query(`ALTER TABLE es_events DISABLE TRIGGER USER`);
    await store.append('old-a', [event(1, 1), event(2, 2), event(1, 3)], 'no_stream');
    await store.append('old-b', [event(null, 4), event(1, 5)], 'no_stream');
    await db.query(`ALTER TABLE es_events ENABLE TRIGGER USER`);
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM es_events WHERE chain_hash IS NULL`)).rows[0]!.n).toBe(5);

    await migrateSqlEventStore(db);
    await store.append('new-a', [event(1, 6), event(2, 7)], 'no_stream');

    const { rows } = await db.query<{ chain: string; seq: string; n: number }>(
      `SELECT chain, chain_seq::text AS seq, (payload->>'n')::int AS n FROM es_events ORDER BY chain, chain_seq`,
    );
    expect(rows.map((r) => [r.chain, Number(r.seq), r.n])).toEqual([
      ['company:1', 1, 1],
      ['company:1', 2, 3],
      ['company:1', 3, 5],
      ['company:1', 4, 6],
      ['company:2', 1, 2],
      ['company:2', 2, 7],
      ['installation', 1, 4],
    ]);
    for (const chain of ['company:1', 'company:2', 'installation']) expect(await walkChain(db, chain)).toMatchObject({ ok: true });
    const heads = (await db.query<{ chain: string; seq: string }>(`SELECT chain, seq::text AS seq FROM es_chains ORDER BY chain`)).rows;
    expect(heads).toEqual([
      { chain: 'company:1', seq: '4' },
      { chain: 'company:2', seq: '2' },
      { chain: 'installation', seq: '1' },
    ]);
  });

  it('continues a chain across the statements of one transaction, each starting from the head the one before wrote', async () => {
    const insert = (tx: Sql, stream: string, index: number, n: number) =>
      tx.query(
        `INSERT INTO es_events (index_in_append, event_id, stream_id, revision, type, version, payload, metadata)
         VALUES ($1, gen_random_uuid(), $2, 0, 'Thing', 1, $3::jsonb, '{"companyId": 3, "occurredAt": "2026-01-01T00:00:00Z"}'::jsonb)`,
        [index, stream, JSON.stringify({ n })],
      );
    await db.transaction(async (tx) => {
      await insert(tx, 'tx-a', 0, 8);
      await insert(tx, 'tx-b', 1, 9);
      await insert(tx, 'tx-c', 2, 10);
    });
    await store.append('after-tx', [event(3, 11)], 'no_stream');
    const { rows } = await db.query<{ seq: string; n: number }>(`SELECT chain_seq::text AS seq, (payload->>'n')::int AS n FROM es_events WHERE chain = 'company:3' ORDER BY chain_seq`);
    expect(rows.map((r) => [Number(r.seq), r.n])).toEqual([[1, 8], [2, 9], [3, 10], [4, 11]]);
    expect(await walkChain(db, 'company:3')).toMatchObject({ ok: true, events: 4 });
    expect((await db.query<{ seq: string }>(`SELECT seq::text AS seq FROM es_chains WHERE chain = 'company:3'`)).rows[0]!.seq).toBe('4');
  });

  it('notices an event changed after it was chained', async () => {
    await db.query(`UPDATE es_events SET payload = '{"n": 99}' WHERE chain = 'company:1' AND chain_seq = 2`);
    const position = (await db.query<{ p: string }>(`SELECT position::text AS p FROM es_events WHERE chain = 'company:1' AND chain_seq = 2`)).rows[0]!.p;
    expect(await walkChain(db, 'company:1')).toMatchObject({ ok: false, firstBadPosition: position });
  });
});
