import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { createTestDatabase, openTestPostgres } from '#test/helpers/postgres.js';
import { testEnv } from '#test/helpers/env.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { createKurrentEventStore } from '../es-kurrent/index.js';
import { MAX_EVENTS_PER_APPEND, createSqlEventStore, migrateSqlEventStore } from './postgres-event-store.js';
import type { EventStore, NewEvent, RecordedEvent } from './types.js';

// PGlite takes seconds to create a database, so each PGlite flavour is opened once for this file.
let memory: Database;

beforeAll(async () => {
  memory = await openPglite();
  await migrateSqlEventStore(memory);
});

afterAll(async () => {
  await memory?.close();
});

describeEventStoreContract('PGlite in memory', async () => {
  const store = createSqlEventStore(memory);
  return { store, dispose: () => store.close() };
});

describeEventStoreContract('PGlite on a data directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'es-pglite-'));
  const db = await openPglite(dir);
  await migrateSqlEventStore(db);
  const store = createSqlEventStore(db);
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeEventStoreContract('PostgreSQL server', async () => {
  const { db, url, dispose } = await openTestPostgres();
  await migrateSqlEventStore(db);
  const store = createSqlEventStore(db, { listenUrl: url });
  return {
    store,
    dispose: async () => {
      await store.close();
      await dispose();
    },
  };
});

// Without group commit every append is a transaction of its own, so commits finishing out of position
// order (the case a sequence-ordered reader gets wrong) come often enough for the contract to insist on.
describeEventStoreContract('PostgreSQL server, group commit off', async () => {
  // openTestPostgres pools 20 connections: the 16 concurrent writers each hold their own transaction.
  const { db, url, dispose } = await openTestPostgres();
  await migrateSqlEventStore(db);
  const store = createSqlEventStore(db, { listenUrl: url, groupCommit: false });
  return {
    store,
    concurrentTransactions: true,
    dispose: async () => {
      await store.close();
      await dispose();
    },
  };
});

const kurrentUrl = testEnv.eventstoreUrl;
describe.skipIf(!kurrentUrl)(kurrentUrl ? 'KurrentDB' : 'KurrentDB (skipped: EVENTSTORE_URL not set)', () => {
  describeEventStoreContract('KurrentDB', async () => {
    const store = createKurrentEventStore(kurrentUrl as string);
    return { store, dispose: () => store.close() };
  });
});

/**
 * Group commit: appends handed in during one turn of the event loop leave as one group, one transaction.
 * A group's events share their transaction id, which is the high bits of their positions.
 */
function describeGroupCommit(name: string, open: () => Database): void {
  describe(`group commit on ${name}`, () => {
    const xid = (position: bigint): bigint => position >> 16n;

    it('a conflicting append fails alone, and the others of its group are written in one transaction', async () => {
      const store = createSqlEventStore(open());
      const t = `grp${Date.now()}`;
      await store.append(`${t}-a`, [newEvent('GroupSeeded')], 'no_stream');
      await store.append(`${t}-b`, [newEvent('GroupSeeded')], 'no_stream');
      const before = { ...store.groupCommitStats! };

      const [a, b, c] = await Promise.allSettled([
        store.append(`${t}-a`, [newEvent('GroupJoined'), newEvent('GroupJoined')], 0),
        store.append(`${t}-b`, [newEvent('GroupJoined')], 5),
        store.append(`${t}-c`, [newEvent('GroupJoined')], 'no_stream'),
      ]);

      expect(store.groupCommitStats!.groups - before.groups).toBe(1);
      expect(store.groupCommitStats!.largestGroup).toBeGreaterThanOrEqual(3);
      expect(b).toMatchObject({ status: 'rejected', reason: { name: 'WrongExpectedRevisionError', actual: 0 } });
      const written = [a, c].map((r) => (r.status === 'fulfilled' ? r.value : undefined));
      expect(written.map((r) => r?.nextExpectedRevision)).toEqual([2, 0]);
      expect(xid(written[0]!.position)).toBe(xid(written[1]!.position));
      // The database agrees: one transaction id for every event the group wrote, and nothing of b's.
      const { rows } = await open().query<{ stream_id: string; transaction_id: string }>(
        `SELECT stream_id, transaction_id::text FROM es_events WHERE stream_id LIKE $1 AND type = 'GroupJoined'`,
        [`${t}-%`],
      );
      expect(rows.map((r) => r.stream_id).sort()).toEqual([`${t}-a`, `${t}-a`, `${t}-c`]);
      expect(new Set(rows.map((r) => r.transaction_id)).size).toBe(1);
      expect((await store.readStream(`${t}-b`)).map((e) => e.type)).toEqual(['GroupSeeded']);
      await store.close();
    });

    it('an append the database refuses fails alone: its group is retried one append at a time', async () => {
      const store = createSqlEventStore(open());
      const t = `grpbad${Date.now()}`;
      const refused = { payload: {}, metadata: { occurredAt: new Date().toISOString() } } as unknown as NewEvent;

      const [good, bad] = await Promise.allSettled([
        store.append(`${t}-good`, [newEvent('GroupKept')], 'no_stream'),
        store.append(`${t}-bad`, [refused], 'no_stream'),
      ]);

      expect(store.groupCommitStats!.retriedAlone).toBe(1);
      expect(good.status).toBe('fulfilled');
      expect(bad).toMatchObject({ status: 'rejected', reason: { code: '23502' } });
      expect(await store.readStream(`${t}-good`)).toHaveLength(1);
      expect(await store.readStream(`${t}-bad`)).toEqual([]);
      await store.close();
    });

    it('two appends to one stream handed in together go in two groups, in the order they were made', async () => {
      const store = createSqlEventStore(open());
      const stream = `grpsame${Date.now()}-1`;
      const before = store.groupCommitStats!.groups;

      const [first, second] = await Promise.all([
        store.append(stream, [newEvent('GroupFirst')], 'no_stream'),
        store.append(stream, [newEvent('GroupSecond')], 'stream_exists'),
      ]);

      expect([first.nextExpectedRevision, second.nextExpectedRevision]).toEqual([0, 1]);
      expect(store.groupCommitStats!.groups - before).toBe(2);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['GroupFirst', 'GroupSecond']);
      await store.close();
    });
  });
}

describeGroupCommit('PGlite', () => memory);

describe('SQL event store on PGlite', () => {
  it('an append of this process wakes only the subscribers its streams and types may concern', async () => {
    const store = createSqlEventStore(memory, { pollIntervalMs: 60_000 });
    let reads = 0;
    const pages = store as unknown as { readPage(...args: unknown[]): Promise<unknown> };
    const readPage = pages.readPage.bind(store);
    pages.readPage = (...args) => ((reads += 1), readPage(...args));
    const prefix = `typed${Date.now()}-`;
    const subscription = store.subscribe({ after: await store.headPosition(), filter: { eventTypes: ['Wanted'], streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const first = iterator.next();
      await store.append(`${prefix}1`, [newEvent('Wanted', { n: 1 })], 'no_stream');
      expect(((await deadline(first, 10_000)).value as RecordedEvent).payload).toEqual({ n: 1 });
      const afterFirst = reads;
      const second = iterator.next();
      // Neither another type on its streams, nor its type on another stream, is worth a read.
      await store.append(`${prefix}1`, [newEvent('Unwanted')], 0);
      await store.append(`other${Date.now()}`, [newEvent('Wanted')], 'no_stream');
      await store.append(`${prefix}2`, [newEvent('Unwanted'), newEvent('Wanted', { n: 2 })], 'no_stream');
      expect(((await deadline(second, 10_000)).value as RecordedEvent).payload).toEqual({ n: 2 });
      // One read: the page holding the second event, after the one append that could concern it.
      expect(reads - afterFirst).toBe(1);
    } finally {
      await subscription.close();
      await store.close();
    }
  });

  it('refuses an append of more than 65,535 events with an error that says so', async () => {
    const store = createSqlEventStore(memory);
    const events = Array.from({ length: MAX_EVENTS_PER_APPEND + 1 }, () => newEvent('BulkLoaded'));

    await expect(store.append(`bulk-${Date.now()}`, events, 'any')).rejects.toThrow(/at most 65535/);
    await store.close();
  });

  it('a subscriber reads one batch of batchSize per request for more, never ahead of its consumer', async () => {
    const reads: { limit: unknown }[] = [];
    // The same database, with its queries of the global log recorded.
    const counted: Database = {
      ...memory,
      query: (text, params) => {
        if (text.includes('pg_current_snapshot') && text.includes('LIMIT')) reads.push({ limit: params?.[1] });
        return memory.query(text, params);
      },
    };
    const prefix = `lazy${Date.now()}-`;
    const store = createSqlEventStore(counted);
    for (let i = 0; i < 3; i++) {
      await store.append(`${prefix}${i}`, Array.from({ length: 400 }, () => newEvent('LazyItemAdded')), 'no_stream');
    }
    const subscription = store.subscribe({ filter: { streamPrefixes: [prefix] }, batchSize: 500 });
    const iterator = subscription[Symbol.asyncIterator]();

    for (let i = 0; i < 500; i++) expect((await iterator.next()).done).toBe(false);
    expect(reads).toEqual([{ limit: 500 }]);
    await iterator.next();
    expect(reads).toEqual([{ limit: 500 }, { limit: 500 }]);

    await subscription.close();
    await store.close();
  });

  it('close() ends a waiting subscription at once, not at its next poll', async () => {
    const store = createSqlEventStore(memory, { pollIntervalMs: 60_000 });
    const prefix = `sleepy${Date.now()}-`;
    const subscription = store.subscribe({ filter: { streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    await store.append(`${prefix}1`, [newEvent('SleepyWoken')], 'no_stream');
    expect((await iterator.next()).done).toBe(false);
    const waiting = iterator.next();
    await store.headPosition();

    const closedAt = Date.now();
    await subscription.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(Date.now() - closedAt).toBeLessThan(2_000);
    await store.close();
  });
});

describe('SQL event store on the PostgreSQL server', () => {
  let db: Database;
  let url: string;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ db, url, dispose } = await openTestPostgres());
    await migrateSqlEventStore(db);
  });

  afterAll(async () => {
    await dispose?.();
  });

  describeGroupCommit('the PostgreSQL server', () => db);

  it('migrates idempotently, also when several processes migrate at once, to an empty store', async () => {
    const { url: freshUrl, drop } = await createTestDatabase();
    const fresh = openPostgres(freshUrl, { max: 4 });
    try {
      await Promise.all([migrateSqlEventStore(fresh), migrateSqlEventStore(fresh), migrateSqlEventStore(fresh)]);
      await migrateSqlEventStore(fresh);
      const store = createSqlEventStore(fresh);

      expect(await store.headPosition()).toBe(0n);
      expect(await store.readAll()).toEqual([]);
      await store.close();
    } finally {
      await fresh.close();
      await drop();
    }
  });

  it('holds back events while an older transaction is still open, and releases them when it ends', async () => {
    // No poll would come within the test: only the store's own retry while events are held back can help.
    const store = createSqlEventStore(db, { pollIntervalMs: 60_000 });
    const prefix = `held${Date.now()}-`;
    const before = await store.headPosition();
    const subscription = store.subscribe({ after: before, filter: { streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    const delivered = iterator.next();
    const older = new pg.Client({ connectionString: url });
    await older.connect();
    try {
      await older.query('BEGIN');
      // Takes a transaction id now: whatever it could still write would sort before the append below.
      await older.query('SELECT pg_current_xact_id()');

      const appended = await store.append(`${prefix}1`, [newEvent('HeldBack')], 'no_stream');

      expect(await store.readAll({ after: before, filter: { streamPrefixes: [prefix] } })).toEqual([]);
      expect(await store.headPosition()).toBeLessThan(appended.position);
      expect(await store.readStream(`${prefix}1`)).toHaveLength(1);

      // The older transaction is no append: its end sends no signal, yet the subscriber must notice it.
      await older.query('COMMIT');
      expect(((await deadline(delivered, 5_000)).value as RecordedEvent).position).toBe(appended.position);
      // Other sessions of this shared server may briefly hold the frontier too; wait for it, bounded.
      await untilHead(store, appended.position);
      const released = await store.readAll({ after: before, filter: { streamPrefixes: [prefix] } });
      expect(released.map((e) => e.position)).toEqual([appended.position]);
    } finally {
      await older.end();
      await subscription.close();
      await store.close();
    }
  });

  it('keeps a subscription through an outage of the database: it reads again from where it was, and delivers what came meanwhile', async () => {
    // The subscriber reaches PostgreSQL through a TCP relay the test can cut: a real outage of its
    // connections (reset, then refused) while the writer, on its own pool, keeps appending.
    const target = new URL(url);
    const sockets = new Set<Socket>();
    let cut = false;
    let refused = 0;
    let refusedOnce: () => void = () => undefined;
    const refusedSeen = new Promise<void>((resolve) => (refusedOnce = resolve));
    const relay = createServer((client) => {
      if (cut) {
        refused++;
        refusedOnce();
        client.destroy();
        return;
      }
      const server = connect(Number(target.port || 5432), target.hostname);
      for (const [a, b] of [[client, server], [server, client]] as const) {
        sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => (sockets.delete(a), b.destroy()));
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as AddressInfo).port);
    const subscriberDb = openPostgres(relayed.toString(), { max: 2 });
    const reader = createSqlEventStore(subscriberDb, { pollIntervalMs: 100 });
    const writer = createSqlEventStore(db);
    const prefix = `outage${Date.now()}-`;
    const subscription = reader.subscribe({ after: await writer.headPosition(), filter: { streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const first = iterator.next();
      await writer.append(`${prefix}1`, [newEvent('BeforeOutage')], 'no_stream');
      expect(((await deadline(first, 10_000)).value as RecordedEvent).type).toBe('BeforeOutage');

      const second = iterator.next();
      cut = true;
      for (const socket of sockets) socket.destroy();
      await deadline(refusedSeen, 10_000); // the subscriber has tried and been refused
      await writer.append(`${prefix}1`, [newEvent('DuringOutage')], 0);
      cut = false;
      expect(refused).toBeGreaterThan(0);
      expect(((await deadline(second, 15_000)).value as RecordedEvent).type).toBe('DuringOutage');
    } finally {
      await subscription.close();
      await reader.close();
      await writer.close();
      await subscriberDb.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('wakes a subscriber through LISTEN/NOTIFY when another store instance appends', async () => {
    // A second pool stands in for another process: its appends reach this store only through NOTIFY.
    const other = openPostgres(url, { max: 2 });
    const writer = createSqlEventStore(other);
    const reader = createSqlEventStore(db, { listenUrl: url, pollIntervalMs: 60_000 });
    const prefix = `notified${Date.now()}-`;
    const subscription = reader.subscribe({ filter: { streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const first = iterator.next();
      // The first append may land before LISTEN is in place; the listener checks once it is connected.
      await writer.append(`${prefix}1`, [newEvent('NotifySent', { n: 1 })], 'no_stream');
      expect(((await deadline(first, 10_000)).value as RecordedEvent).payload).toEqual({ n: 1 });

      await untilListening(db);
      const second = iterator.next();
      await writer.append(`${prefix}1`, [newEvent('NotifySent', { n: 2 })], 0);
      expect(((await deadline(second, 10_000)).value as RecordedEvent).payload).toEqual({ n: 2 });
    } finally {
      await subscription.close();
      await reader.close();
      await writer.close();
      await other.close();
    }
  });

  it('hearing its own NOTIFY back is no second wake-up: one read per append of its own, one per another store’s', async () => {
    const other = openPostgres(url, { max: 2 });
    const writer = createSqlEventStore(other);
    const own = createSqlEventStore(db, { listenUrl: url, pollIntervalMs: 60_000 });
    // Counts the pages its subscriber reads, but for a page held back by an older transaction still
    // running: transaction ids are the cluster's, so a transaction of another database (another test
    // file's) can hold a page back, and the subscriber reads it again until it is not — a re-read, not a
    // wake-up.
    let reads = 0;
    const pages = own as unknown as { readPage(...args: unknown[]): Promise<{ heldBack: boolean }> };
    const readPage = pages.readPage.bind(own);
    pages.readPage = async (...args) => {
      const page = await readPage(...args);
      if (!page.heldBack) reads += 1;
      return page;
    };
    const prefix = `echo${Date.now()}-`;
    const subscription = own.subscribe({ after: await own.headPosition(), filter: { streamPrefixes: [prefix] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      await untilListening(db);
      const first = iterator.next();
      await own.append(`${prefix}1`, [newEvent('OwnAppend')], 'no_stream');
      expect(((await deadline(first, 10_000)).value as RecordedEvent).type).toBe('OwnAppend');
      const afterOwn = reads;
      // Notifications arrive in order: by the time the other store's has woken the subscriber, the echo
      // of its own has been heard (and, before this store knew its own, read the log once more for nothing).
      const second = iterator.next();
      await writer.append(`${prefix}2`, [newEvent('OtherAppend')], 'no_stream');
      expect(((await deadline(second, 10_000)).value as RecordedEvent).type).toBe('OtherAppend');
      expect(reads - afterOwn).toBe(1);
    } finally {
      await subscription.close();
      await own.close();
      await writer.close();
      await other.close();
    }
  });

  it('without a listener, a subscriber still sees other processes appends at its next poll', async () => {
    const { url: otherUrl, drop } = await createTestDatabase();
    const first = openPostgres(otherUrl, { max: 2 });
    const second = openPostgres(otherUrl, { max: 2 });
    await migrateSqlEventStore(first);
    const reader: EventStore = createSqlEventStore(first, { pollIntervalMs: 50 });
    const writer = createSqlEventStore(second);
    const subscription = reader.subscribe();
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const next = iterator.next();
      await writer.append('polled-1', [newEvent('PollSeen')], 'no_stream');
      expect(((await deadline(next, 10_000)).value as RecordedEvent).type).toBe('PollSeen');
    } finally {
      await subscription.close();
      await reader.close();
      await writer.close();
      await first.close();
      await second.close();
      await drop();
    }
  });
});

async function untilHead(store: EventStore, position: bigint): Promise<void> {
  const deadlineAt = Date.now() + 10_000;
  while ((await store.headPosition()) < position) {
    if (Date.now() > deadlineAt) throw new Error(`Position ${position} not visible within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until this database has a session LISTENing, so a NOTIFY from now on reaches it. */
async function untilListening(db: Database): Promise<void> {
  const deadlineAt = Date.now() + 10_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    if (Date.now() > deadlineAt) throw new Error('No LISTEN session appeared within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function newEvent(type: string, payload: unknown = {}): NewEvent {
  return { type, payload, metadata: { occurredAt: new Date().toISOString() } };
}

async function deadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`No result within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
