import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore } from '#shared/es/index.js';
import type { EventStore, NewEvent, RecordedEvent } from '#shared/es/index.js';
import { eventually } from '#test/helpers/df-farm.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { ProjectionLeases } from './leases.js';
import { ProjectionRunner } from './runner.js';
import type { Projection } from './types.js';

/** Leases on PostgreSQL (the database several runners share in production), one database for the file. */
let pg: Awaited<ReturnType<typeof openTestPostgres>>;
let db: Database;
let store: EventStore;

beforeAll(async () => {
  pg = await openTestPostgres();
  db = pg.db;
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
  await new ProjectionLeases(db, 'migrator', 1).migrate();
});
afterAll(async () => {
  await store.close();
  await pg.dispose();
});

/** Retries `attempt` until `done` accepts what it answers (the shared poll of the tests), or fails after `ms`. */
const until = <T>(attempt: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> =>
  eventually(async () => {
    const v = await attempt();
    return done(v) ? v : undefined;
  }, { timeoutMs: ms, what: 'the lease condition' });

describe('projection leases', () => {
  it('gives each projection to one holder, and to another with a new epoch only once the first lease expired', async () => {
    const a = new ProjectionLeases(db, 'runner-a', 400);
    const b = new ProjectionLeases(db, 'runner-b', 400);
    const names = ['lease-one', 'lease-two'];
    const heldByA = await a.renew(names);
    expect([...heldByA.keys()].sort()).toEqual(names);
    expect((await b.renew(names)).size).toBe(0);
    // A renews: same epoch, still its own.
    expect((await a.renew(names)).get('lease-one')).toBe(heldByA.get('lease-one'));

    // A stops renewing; B gets both once they expire, each with the next epoch.
    const heldByB = await until(() => b.renew(names), (held) => held.size === 2);
    expect(heldByB.get('lease-one')).toBe(heldByA.get('lease-one')! + 1n);
    expect((await a.renew(names)).size).toBe(0);
    const rows = await a.all();
    expect(rows.filter((r) => names.includes(r.name)).map((r) => r.holder)).toEqual(['runner-b', 'runner-b']);
  });

  it('fences a holder that lost its lease: its batch transaction is refused', async () => {
    const a = new ProjectionLeases(db, 'fence-a', 300);
    const b = new ProjectionLeases(db, 'fence-b', 300);
    const epoch = (await a.renew(['fenced']))!.get('fenced')!;
    expect(await db.transaction((tx) => a.fence(tx, 'fenced', epoch))).toBe(true);
    await until(() => b.renew(['fenced']), (held) => held.has('fenced'));
    // A paused past its lease, then comes back with its old epoch: refused.
    expect(await db.transaction((tx) => a.fence(tx, 'fenced', epoch))).toBe(false);
  });

  it('keeps a taker out while the holder has a batch in flight, then lets it in', async () => {
    const a = new ProjectionLeases(db, 'flight-a', 300);
    const b = new ProjectionLeases(db, 'flight-b', 300);
    const epoch = (await a.renew(['in-flight'])).get('in-flight')!;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let fenced!: () => void;
    const inside = new Promise<void>((r) => (fenced = r));
    const batch = db.transaction(async (tx) => {
      expect(await a.fence(tx, 'in-flight', epoch)).toBe(true);
      fenced();
      await held;
      await tx.query("SELECT pg_sleep(0)");
    });
    await inside;
    // The lease expires while the batch is still open: the taker's renewal waits for the batch's commit.
    let takenBeforeCommit = false;
    let committed = false;
    const taking = until(() => b.renew(['in-flight']), (h) => h.has('in-flight')).then(() => (takenBeforeCommit = !committed));
    // Give the lease time to expire by the database's clock, then end the batch.
    await until(async () => (await db.query<{ expired: boolean }>("SELECT expires_at <= now() AS expired FROM projection_leases WHERE name = 'in-flight'")).rows[0]!.expired, (e) => e);
    // The taker's renewal is now waiting on the batch's lock (without the fence's lock it would have taken the lease).
    await until(
      async () =>
        Number(
          (
            await db.query<{ n: unknown }>(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%UPDATE projection_leases%'`,
            )
          ).rows[0]!.n,
        ),
      (n) => n >= 1,
    );
    committed = true;
    release();
    await batch;
    await taking;
    expect(takenBeforeCommit).toBe(false);
  });

  it('releases on a clean stop, so another holder takes over at its next renewal', async () => {
    const a = new ProjectionLeases(db, 'release-a', 60_000);
    const b = new ProjectionLeases(db, 'release-b', 60_000);
    await a.renew(['released']);
    expect((await b.renew(['released'])).size).toBe(0);
    await a.release();
    expect((await b.renew(['released'])).has('released')).toBe(true);
  });
});

describe('two runners with leases', () => {
  const table = 'leased_counter_rows';
  const projection: Projection = {
    name: 'leased-counter',
    version: 1,
    eventTypes: ['LeasedCounted'],
    tables: [table],
    // No ON CONFLICT: an event applied twice (two runners writing) fails loudly.
    schema: `CREATE TABLE IF NOT EXISTS ${table} (event_id uuid PRIMARY KEY, by integer NOT NULL)`,
    async apply(tx, e: RecordedEvent) {
      await tx.query(`INSERT INTO ${table} (event_id, by) VALUES ($1, $2)`, [e.id, (e.payload as { by: number }).by]);
    },
  };
  const events = (from: number, n: number): NewEvent[] =>
    Array.from({ length: n }, (_, i) => ({ type: 'LeasedCounted', payload: { by: from + i }, metadata: { actorId: 1, companyId: 1, workspaceId: 1, occurredAt: new Date().toISOString() } }));
  const count = async () => Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

  it('applies each event once, the follower answers read-your-writes, and takes over when the holder stops', async () => {
    const runnerA = new ProjectionRunner({ store, db, projections: [projection], leases: new ProjectionLeases(db, 'counter-a', 1_000), idlePollMs: 50 });
    const runnerB = new ProjectionRunner({ store, db, projections: [projection], leases: new ProjectionLeases(db, 'counter-b', 1_000), idlePollMs: 50 });
    await runnerA.start();
    await runnerB.start();
    try {
      expect(runnerA.status()[0]!.held).toBe(true);
      expect(runnerB.status()[0]!.held).toBe(false);
      const first = await store.append('leased-1', events(1, 20), 'no_stream');
      // The follower's wait resolves once the holder has applied the events.
      await runnerB.waitFor(first.position, { timeoutMs: 10_000 });
      expect(await count()).toBe(20);

      await runnerA.stop();
      const second = await store.append('leased-1', events(21, 20), first.nextExpectedRevision);
      await runnerB.waitFor(second.position, { timeoutMs: 10_000 });
      expect(runnerB.status()[0]!.held).toBe(true);
      expect(await count()).toBe(40);
      const holders = await runnerB.leaseHolders();
      expect(holders.find((l) => l.name === 'leased-counter')?.holder).toBe('counter-b');
    } finally {
      await runnerA.stop();
      await runnerB.stop();
    }
  });
});
