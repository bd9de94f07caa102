import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPglite, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore } from '#shared/es/index.js';
import type { EventStore, NewEvent } from '#shared/es/index.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { ProjectionRunner, rebuildProjection, resetProjection } from './runner.js';
import type { Projection } from './types.js';

interface Harness {
  db: Database;
  store: EventStore;
  dispose(): Promise<void>;
}

const meta = () => ({ actorId: 1, companyId: 1, workspaceId: 1, occurredAt: new Date().toISOString() });
const counted = (n: number, prefix = 'Counted'): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({ type: `${prefix}Added`, payload: { by: i + 1 }, metadata: meta() }));

/**
 * A counter per stream. It inserts one row per event without ON CONFLICT, so an event applied twice
 * fails loudly instead of passing silently; `failOn` makes it throw on one payload value.
 */
function counterProjection(name: string, options: { failOn?: { by: number } | null; version?: number } = {}): Projection & { failOn: { by: number } | null } {
  const table = `${name.replaceAll('-', '_')}_rows`;
  const p = {
    name,
    version: options.version ?? 1,
    eventTypes: ['CountedAdded'],
    tables: [table],
    schema: `CREATE TABLE IF NOT EXISTS ${table} (event_id uuid PRIMARY KEY, stream_id text NOT NULL, by integer NOT NULL)`,
    failOn: options.failOn ?? null,
    async apply(tx: import('#shared/db/index.js').Sql, e: import('#shared/es/index.js').RecordedEvent) {
      const by = (e.payload as { by: number }).by;
      if (p.failOn && p.failOn.by === by) throw new Error(`refusing ${by}`);
      await tx.query(`INSERT INTO ${table} (event_id, stream_id, by) VALUES ($1, $2, $3)`, [e.id, e.streamId, by]);
    },
  };
  return p;
}

async function rows(db: Database, name: string): Promise<{ event_id: string; stream_id: string; by: number }[]> {
  const table = `${name.replaceAll('-', '_')}_rows`;
  return (await db.query<{ event_id: string; stream_id: string; by: number }>(`SELECT event_id, stream_id, by FROM ${table} ORDER BY event_id`)).rows;
}

async function checkpoint(db: Database, name: string): Promise<bigint> {
  const r = await db.query<{ position: unknown }>('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
  return BigInt(String(r.rows[0]?.position ?? 0));
}

const adapters: [string, () => Promise<Harness>][] = [
  [
    'PGlite',
    async () => {
      const db = await openPglite();
      await migrateSqlEventStore(db);
      const store = createSqlEventStore(db);
      return { db, store, dispose: async () => (await store.close(), await db.close()) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const pg = await openTestPostgres();
      await migrateSqlEventStore(pg.db);
      const store = createSqlEventStore(pg.db, { listenUrl: pg.url });
      return { db: pg.db, store, dispose: async () => (await store.close(), await pg.dispose()) };
    },
  ],
];

describe.each(adapters)('projection runner on %s', (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it('applies each event once, and a failing batch moves neither rows nor checkpoint', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const projection = counterProjection(name, { failOn: { by: 3 } });
    const runner = new ProjectionRunner({ store: h.store, db: h.db, projections: [projection], batchSize: 10, idlePollMs: 50 });
    const stream = `counter-${randomUUID()}`;
    const appended = await h.store.append(stream, counted(5), 'no_stream');
    await runner.start();
    try {
      await expect(runner.waitFor(appended.position, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      // The batch has been tried (on a busy machine, perhaps only after the wait above gave up) and failed…
      await expect.poll(() => runner.status()[0]!.lastError, { timeout: 10_000 }).toContain('refusing 3');
      // …as a whole: events 1 and 2 are not half-applied.
      expect(await rows(h.db, name)).toEqual([]);
      expect(await checkpoint(h.db, name)).toBe(0n);

      projection.failOn = null;
      await runner.waitFor(appended.position, { timeoutMs: 10_000 });
      const applied = await rows(h.db, name);
      expect(applied.map((r) => r.by).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await checkpoint(h.db, name)).toBeGreaterThanOrEqual(appended.position);
    } finally {
      await runner.stop();
    }
  });

  it('read-your-writes: waitFor resolves once the row of a just-appended event is readable', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const runner = new ProjectionRunner({ store: h.store, db: h.db, projections: [counterProjection(name)], idlePollMs: 60_000 });
    await runner.start();
    try {
      for (let i = 0; i < 20; i++) {
        const stream = `counter-${randomUUID()}`;
        const r = await h.store.append(stream, counted(1), 'no_stream');
        runner.notify();
        await runner.waitFor(r.position, { timeoutMs: 5000 });
        const found = await h.db.query(`SELECT 1 FROM ${name.replaceAll('-', '_')}_rows WHERE stream_id = $1`, [stream]);
        expect(found.rows).toHaveLength(1);
      }
      // A position of an event the projection does not handle is reached too.
      const other = await h.store.append(`other-${randomUUID()}`, counted(1, 'Unrelated'), 'no_stream');
      await runner.waitFor(other.position, { timeoutMs: 5000 });
    } finally {
      await runner.stop();
    }
  });

  it('one subscription rings for every loop, and an append wakes only the loops that handle its type', async () => {
    const a = counterProjection(`p-${randomUUID().slice(0, 8)}`);
    const b: Projection = { ...counterProjection(`p-${randomUUID().slice(0, 8)}`), eventTypes: ['OtherAdded'] };
    const subscribed: (readonly string[] | undefined)[] = [];
    const reads: string[] = [];
    // The same store, counting live subscriptions and the batch reads each loop makes.
    const store = new Proxy(h.store, {
      get(target, key, receiver) {
        if (key === 'subscribe') {
          return (options: Parameters<EventStore['subscribe']>[0]) => {
            subscribed.push(options?.filter?.eventTypes);
            return target.subscribe(options);
          };
        }
        if (key === 'readAll') {
          return (options: Parameters<EventStore['readAll']>[0]) => {
            reads.push((options?.filter?.eventTypes ?? []).join(','));
            return target.readAll(options);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    // No idle polling within the test: only the doorbell can wake a loop.
    const runner = new ProjectionRunner({ store, db: h.db, projections: [a, b], idlePollMs: 600_000 });
    await runner.start();
    try {
      await vi.waitFor(() => expect(subscribed).toHaveLength(1), { timeout: 5_000 });
      expect([...(subscribed[0] ?? [])].sort()).toEqual(['CountedAdded', 'OtherAdded']);
      reads.length = 0;
      const stream = `counter-${randomUUID()}`;
      await h.store.append(stream, counted(3), 'no_stream');
      await vi.waitFor(async () => expect((await rows(h.db, a.name)).filter((r) => r.stream_id === stream)).toHaveLength(3), { timeout: 5_000, interval: 20 });
      expect(reads.filter((r) => r === 'CountedAdded').length).toBeGreaterThan(0);
      expect(reads.filter((r) => r === 'OtherAdded')).toEqual([]);
      expect(subscribed).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });

  it('reads no events while the log stands still: the idle poll looks at the head and the checkpoints only', async () => {
    const projections = Array.from({ length: 4 }, () => counterProjection(`p-${randomUUID().slice(0, 8)}`));
    let heads = 0;
    const reads: string[] = [];
    const store = new Proxy(h.store, {
      get(target, key, receiver) {
        if (key === 'headPosition') {
          return () => {
            heads++;
            return target.headPosition();
          };
        }
        if (key === 'readAll') {
          return (options: Parameters<EventStore['readAll']>[0]) => {
            reads.push((options?.filter?.eventTypes ?? []).join(','));
            return target.readAll(options);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const runner = new ProjectionRunner({ store, db: h.db, projections, idlePollMs: 20 });
    await runner.start();
    try {
      // Caught up, and every loop asleep (a loop that applied a batch looks once more before it sleeps).
      // The waits are for conditions, however long a loaded machine takes to reach them.
      await runner.waitFor(await h.store.headPosition(), { timeoutMs: 60_000 });
      await vi.waitFor(() => expect(runner.status().every((s) => s.running && s.asleep)).toBe(true), { timeout: 60_000, interval: 10 });
      reads.length = 0;
      const from = heads;
      // Ten polls later the loops have read nothing (an idle loop reads only when woken).
      await vi.waitFor(() => expect(heads - from).toBeGreaterThanOrEqual(10), { timeout: 60_000, interval: 10 });
      expect(reads).toEqual([]);
      // And an append is still picked up.
      const stream = `counter-${randomUUID()}`;
      await h.store.append(stream, counted(1), 'no_stream');
      for (const p of projections) {
        await vi.waitFor(async () => expect((await rows(h.db, p.name)).filter((r) => r.stream_id === stream)).toHaveLength(1), { timeout: 60_000, interval: 20 });
      }
    } finally {
      await runner.stop();
    }
  }, 240_000);

  it('rebuilds from zero to the same rows', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const projection = counterProjection(name);
    const runner = new ProjectionRunner({ store: h.store, db: h.db, projections: [projection], idlePollMs: 50 });
    const streams = Array.from({ length: 5 }, () => `counter-${randomUUID()}`);
    let last = 0n;
    for (const s of streams) last = (await h.store.append(s, counted(40), 'no_stream')).position;
    await runner.start();
    await runner.waitFor(last, { timeoutMs: 20_000 });
    await runner.stop();
    const before = await rows(h.db, name);
    expect(before.length).toBeGreaterThanOrEqual(200);

    const progress: number[] = [];
    const result = await rebuildProjection(h.store, h.db, projection, { batchSize: 64, onProgress: (n) => progress.push(n) });
    expect(result.handedOver).toBe(false);
    expect(result.applied).toBe(before.length);
    expect(progress.length).toBeGreaterThan(1);
    expect(await rows(h.db, name)).toEqual(before);
  });

  it('a projection with applyBatch leaves the same rows as one applying event by event', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const single = counterProjection(name);
    const table = `${name.replaceAll('-', '_')}_rows`;
    let batches = 0;
    const batched: Projection = {
      ...single,
      async applyBatch(tx, events) {
        batches++;
        await tx.query(`INSERT INTO ${table} (event_id, stream_id, by) SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[])`, [
          events.map((e) => e.id),
          events.map((e) => e.streamId),
          events.map((e) => (e.payload as { by: number }).by),
        ]);
      },
    };
    await h.store.append(`counter-${randomUUID()}`, counted(90), 'no_stream');
    await rebuildProjection(h.store, h.db, single, { batchSize: 32 });
    const expected = await rows(h.db, name);
    await rebuildProjection(h.store, h.db, batched, { batchSize: 32 });
    expect(batches).toBeGreaterThanOrEqual(3);
    expect(await rows(h.db, name)).toEqual(expected);
  });

  it('a running loop notices a reset made elsewhere and replays from zero', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const projection = counterProjection(name);
    const runner = new ProjectionRunner({ store: h.store, db: h.db, projections: [projection], idlePollMs: 20 });
    const r = await h.store.append(`counter-${randomUUID()}`, counted(30), 'no_stream');
    await runner.start();
    try {
      await runner.waitFor(r.position, { timeoutMs: 10_000 });
      const before = await rows(h.db, name);
      // Spoil every row: only a replay from zero writes them again. (The running loop may begin that replay
      // the moment the reset commits, so the emptied table itself cannot be observed from here.)
      await h.db.query(`UPDATE ${name.replaceAll('-', '_')}_rows SET by = -1`);
      await resetProjection(h.db, projection);
      // The loop finds the checkpoint moved, starts again from 0 and applies every event exactly once
      // (a second apply of one event would break the table's key and show as lastError).
      const replayed = async () => {
        const now = await rows(h.db, name);
        return now.length === before.length && now.every((x) => x.by !== -1);
      };
      const deadline = Date.now() + 10_000;
      while (!(await replayed()) && Date.now() < deadline) {
        runner.notify();
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(runner.status()[0]!.lastError).toBeNull();
      expect(await rows(h.db, name)).toEqual(before);
    } finally {
      await runner.stop();
    }
  });

  it('rebuilds on start when the projection version changes', async () => {
    const name = `p-${randomUUID().slice(0, 8)}`;
    const r = await h.store.append(`counter-${randomUUID()}`, counted(3), 'no_stream');
    const v1 = new ProjectionRunner({ store: h.store, db: h.db, projections: [counterProjection(name, { version: 1 })], idlePollMs: 50 });
    await v1.start();
    await v1.waitFor(r.position, { timeoutMs: 10_000 });
    await v1.stop();
    // Rows written by an older meaning of the projection are replaced, not kept.
    await h.db.query(`UPDATE ${name.replaceAll('-', '_')}_rows SET by = by * 100`);
    const v2 = new ProjectionRunner({ store: h.store, db: h.db, projections: [counterProjection(name, { version: 2 })], idlePollMs: 50 });
    await v2.start();
    await v2.waitFor(r.position, { timeoutMs: 10_000 });
    await v2.stop();
    const bys = (await rows(h.db, name)).map((x) => x.by).sort();
    expect(bys.filter((b) => b >= 100)).toEqual([]);
  });
});
