import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WrongExpectedRevisionError,
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from './types.js';

/** What a contract run needs from an adapter. */
export interface EventStoreContractSubject {
  store: EventStore;
  /**
   * Appends run in overlapping database transactions (a server behind a pool). The concurrency test then
   * also proves that commits really finished out of position order, i.e. that it tested the hard case.
   */
  concurrentTransactions?: boolean;
  dispose(): Promise<void>;
}

/*
 * The store may be shared with other tests and (for KurrentDB) other runs, so every test writes to its
 * own random categories and types, and looks at the log only through those or after a position it took
 * before it started.
 */

/** Runs the event store contract against the store `factory` opens (once for the whole suite). */
// Long on purpose: a contract suite is one list of cases sharing the subject opened once in its describe block; read top to bottom, each `it` is one clause of the port's contract, and splitting it would only scatter that shared setup.
export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreContractSubject>): void {
  describe(name, () => {
    let subject: EventStoreContractSubject;
    let store: EventStore;

    beforeAll(async () => {
      subject = await factory();
      store = subject.store;
    });

    afterAll(async () => {
      await subject?.dispose();
    });

    it('appends events and reads them back with payload, metadata, version, revision and position', async () => {
      const stream = `order${tag()}-1`;
      const placedId = randomUUID();
      const placed: NewEvent = {
        id: placedId,
        type: 'OrderPlaced',
        version: 2,
        payload: { items: [{ sku: 'a-1', quantity: 2 }], note: 'Grüße, "quoted" \\ slash', empty: null },
        metadata: {
          occurredAt: '2024-05-01T10:00:00.000Z',
          actorId: 7,
          companyId: 3,
          workspaceId: 42,
          correlationId: 'corr-1',
          causationId: 'cause-1',
          extra: { nested: [1, 'two'] },
        },
      };
      const confirmed: NewEvent = {
        type: 'OrderConfirmed',
        payload: { by: 'clerk' },
        metadata: { occurredAt: '2024-05-01T10:00:01.000Z' },
      };

      const result = await store.append(stream, [placed, confirmed], 'no_stream');
      const read = await store.readStream(stream);

      expect(result.nextExpectedRevision).toBe(1);
      expect(read).toHaveLength(2);
      const [first, second] = read as [RecordedEvent, RecordedEvent];
      expect(first).toMatchObject({
        id: placedId,
        streamId: stream,
        revision: 0,
        type: 'OrderPlaced',
        version: 2,
        payload: placed.payload,
        metadata: placed.metadata,
      });
      expect(second).toMatchObject({
        streamId: stream,
        revision: 1,
        type: 'OrderConfirmed',
        version: 1,
        payload: confirmed.payload,
        metadata: confirmed.metadata,
      });
      expect(second.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(typeof first.position).toBe('bigint');
      expect(second.position).toBeGreaterThan(first.position);
      expect(result.position).toBe(second.position);
      for (const event of read) {
        expect(event.recordedAt).toBeInstanceOf(Date);
        expect(Math.abs(event.recordedAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      }
    });

    it('reads an unknown stream as empty and a window of a stream with fromRevision and maxCount', async () => {
      const stream = `window${tag()}-1`;
      await store.append(stream, range(6).map((i) => event('TickRecorded', { i })), 'no_stream');

      expect(await store.readStream(`missing${tag()}-1`)).toEqual([]);
      expect((await store.readStream(stream, { fromRevision: 2, maxCount: 3 })).map((e) => e.revision)).toEqual([2, 3, 4]);
      expect((await store.readStream(stream, { fromRevision: 4 })).map((e) => e.payload)).toEqual([{ i: 4 }, { i: 5 }]);
      expect(await store.readStream(stream, { fromRevision: 6 })).toEqual([]);
    });

    it("'no_stream' creates a stream and refuses one that exists", async () => {
      const stream = `account${tag()}-1`;
      await store.append(stream, [event('AccountOpened')], 'no_stream');

      const error = await refusal(store.append(stream, [event('AccountOpened')], 'no_stream'));

      expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0 });
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it("'stream_exists' refuses a missing stream and appends to an existing one", async () => {
      const stream = `account${tag()}-1`;

      const error = await refusal(store.append(stream, [event('AccountCredited')], 'stream_exists'));
      expect(error).toMatchObject({ streamId: stream, expected: 'stream_exists', actual: 'no_stream' });
      expect(await store.readStream(stream)).toEqual([]);

      await store.append(stream, [event('AccountOpened')], 'any');
      const result = await store.append(stream, [event('AccountCredited'), event('AccountCredited')], 'stream_exists');
      expect(result.nextExpectedRevision).toBe(2);
    });

    it('an exact revision appends only when it is the revision of the last event', async () => {
      const stream = `account${tag()}-1`;

      const onMissing = await refusal(store.append(stream, [event('AccountOpened')], 0));
      expect(onMissing).toMatchObject({ streamId: stream, expected: 0, actual: 'no_stream' });

      await store.append(stream, [event('AccountOpened'), event('AccountCredited')], 'no_stream');
      const stale = await refusal(store.append(stream, [event('AccountDebited')], 0));
      expect(stale).toMatchObject({ streamId: stream, expected: 0, actual: 1 });
      const ahead = await refusal(store.append(stream, [event('AccountDebited')], 5));
      expect(ahead).toMatchObject({ expected: 5, actual: 1 });

      const result = await store.append(stream, [event('AccountDebited')], 1);
      expect(result.nextExpectedRevision).toBe(2);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual([
        'AccountOpened',
        'AccountCredited',
        'AccountDebited',
      ]);
    });

    it("'any' appends whether or not the stream exists", async () => {
      const stream = `note${tag()}-1`;
      expect((await store.append(stream, [event('NoteWritten')], 'any')).nextExpectedRevision).toBe(0);
      expect((await store.append(stream, [event('NoteWritten'), event('NoteWritten')], 'any')).nextExpectedRevision).toBe(2);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
    });

    it('a refused append writes none of its events, and an empty append is refused', async () => {
      const category = `atomic${tag()}`;
      const stream = `${category}-1`;
      await store.append(stream, [event('ItemAdded')], 'no_stream');

      await refusal(store.append(stream, range(3).map(() => event('ItemAdded')), 7));
      await expect(store.append(stream, [], 'any')).rejects.toThrow(RangeError);

      expect(await store.readStream(stream)).toHaveLength(1);
      const marker = await store.append(stream, [event('ItemRemoved')], 0);
      await visible(store, marker.position);
      expect((await store.readAll({ filter: { streamPrefixes: [`${category}-`] } })).map((e) => e.type)).toEqual([
        'ItemAdded',
        'ItemRemoved',
      ]);
    });

    it.each<[string, ExpectedRevision]>([
      ['an exact revision', 0],
      ["'no_stream'", 'no_stream'],
    ])('of 10 concurrent appends expecting %s, exactly one wins and the others get WrongExpectedRevisionError', async (_, expected) => {
      const stream = `race${tag()}-1`;
      if (expected === 0) await store.append(stream, [event('RaceOpened')], 'no_stream');
      const before = (await store.readStream(stream)).length;

      const outcomes = await Promise.allSettled(
        range(10).map((contender) =>
          store.append(stream, [event('RaceWon', { contender }), event('RaceWon', { contender })], expected),
        ),
      );

      const winners = outcomes.flatMap((o, contender) => (o.status === 'fulfilled' ? [contender] : []));
      const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(9);
      for (const loser of losers) expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
      const events = await store.readStream(stream);
      expect(events).toHaveLength(before + 2);
      expect(events.slice(before).map((e) => e.payload)).toEqual([{ contender: winners[0] }, { contender: winners[0] }]);
    });

    it('a live subscriber receives every event exactly once, in increasing positions, while 16 writers append concurrently', async () => {
      const writers = 16;
      const eventsPerWriter = 200;
      const streamsPerWriter = 5;
      const category = `load${tag()}`;
      const prefix = `${category}-`;
      const start = await store.headPosition();
      const everything = new Collector(store.subscribe({ after: start }));
      const filtered = new Collector(store.subscribe({ after: start, filter: { streamPrefixes: [prefix] }, batchSize: 7 }));
      // In the order the appends returned, which is the order their transactions committed.
      const acknowledged: { position: bigint; ids: string[] }[] = [];

      await Promise.all(
        range(writers).map(async (writer) => {
          const revisions = new Map<string, number>();
          let written = 0;
          for (let n = 0; written < eventsPerWriter; n++) {
            const stream = `${prefix}w${writer}s${n % streamsPerWriter}`;
            const size = Math.min(1 + ((writer + n) % 8), eventsPerWriter - written);
            const events = range(size).map((i) => event('LoadApplied', { writer, seq: written + i }));
            const result = await store.append(stream, events, revisions.get(stream) ?? 'no_stream');
            revisions.set(stream, result.nextExpectedRevision);
            acknowledged.push({ position: result.position, ids: events.map((e) => e.id as string) });
            written += size;
          }
        }),
      );
      // Appended last, so seeing it means every earlier event has been offered; anything extra would show.
      const endStream = `${prefix}end`;
      await store.append(endStream, [event('LoadFinished')], 'no_stream');
      const sawEnd = (events: RecordedEvent[]): boolean => events.some((e) => e.streamId === endStream);
      await everything.waitUntil(sawEnd, 30_000, 'the closing event');
      await filtered.waitUntil(sawEnd, 30_000, 'the closing event');
      await everything.subscription.close();
      await filtered.subscription.close();

      const total = writers * eventsPerWriter;
      const acknowledgedIds = new Set(acknowledged.flatMap((a) => a.ids));
      expect(acknowledgedIds.size).toBe(total);
      const fromEverything = everything.events.filter((e) => e.streamId.startsWith(prefix));
      for (const received of [fromEverything, filtered.events]) {
        expect(received).toHaveLength(total + 1);
        expect(received.at(-1)?.streamId).toBe(endStream);
        const ids = received.slice(0, total).map((e) => e.id);
        expect(new Set(ids).size).toBe(total);
        expect(ids.every((id) => acknowledgedIds.has(id))).toBe(true);
      }
      expectStrictlyIncreasing(everything.events.map((e) => e.position));
      expectStrictlyIncreasing(filtered.events.map((e) => e.position));

      const log = await readAllPages(store, { after: start, filter: { streamPrefixes: [prefix] } }, 1_000);
      expect(log.map((e) => [e.id, e.position])).toEqual(fromEverything.map((e) => [e.id, e.position]));
      expect(filtered.events.map((e) => [e.id, e.position])).toEqual(fromEverything.map((e) => [e.id, e.position]));

      if (subject.concurrentTransactions) {
        // An append that returned later yet holds a smaller position committed after a younger one: the
        // situation in which a sequence-ordered reader skips events. It must have happened for this to count.
        const overtaken = acknowledged.filter((a, i) => i > 0 && a.position < (acknowledged[i - 1] as typeof a).position);
        expect(overtaken.length).toBeGreaterThan(0);
      }
    }, 60_000);

    it('a subscription after a checkpoint delivers exactly the events after it, then live ones', async () => {
      const prefix = `checkpoint${tag()}-`;
      await store.append(`${prefix}1`, range(3).map((i) => event('StepDone', { i })), 'no_stream');
      await store.append(`${prefix}2`, range(4).map((i) => event('StepDone', { i: 3 + i })), 'no_stream');
      const last = await store.append(`${prefix}1`, range(3).map((i) => event('StepDone', { i: 7 + i })), 2);
      await visible(store, last.position);
      const stored = await store.readAll({ filter: { streamPrefixes: [prefix] } });
      expect(stored).toHaveLength(10);
      const checkpoint = (stored[3] as RecordedEvent).position;

      const resumed = new Collector(store.subscribe({ after: checkpoint, filter: { streamPrefixes: [prefix] } }));
      const history = await resumed.waitForCount(6);
      await store.append(`${prefix}3`, [event('StepDone', { i: 10 }), event('StepDone', { i: 11 })], 'no_stream');
      const all = await resumed.waitForCount(8);
      await resumed.subscription.close();
      await resumed.done;

      expect(history.map((e) => e.id)).toEqual(stored.slice(4).map((e) => e.id));
      expect(all.slice(6).map((e) => e.payload)).toEqual([{ i: 10 }, { i: 11 }]);
      expect(resumed.events).toHaveLength(8);
      expect(resumed.events.every((e) => e.position > checkpoint)).toBe(true);
      expectStrictlyIncreasing(resumed.events.map((e) => e.position));
    });

    it('filters select by exact event type, by literal stream prefix, and by both at once', async () => {
      const t = tag();
      const alpha = `Alpha${t}Happened`;
      const beta = `Beta${t}Happened`;
      const x = `x_${t}-`;
      const y = `y_${t}-`;
      const start = await store.headPosition();
      await store.append(`${x}1`, [event(alpha, { n: 1 }), event(beta, { n: 2 })], 'no_stream');
      await store.append(`${y}1`, [event(alpha, { n: 3 }), event(beta, { n: 4 })], 'no_stream');
      // Traps: a type that only starts with `alpha`, and a stream the `_` of a LIKE pattern would match.
      await store.append(`x%${t}-1`, [event(`${alpha}Later`, { n: 5 })], 'no_stream');
      const last = await store.append(`xZ${t}-1`, [event(alpha, { n: 6 })], 'no_stream');
      await visible(store, last.position);
      const payloads = async (filter: EventFilter): Promise<unknown[]> =>
        (await store.readAll({ after: start, filter })).map((e) => e.payload);

      expect(await payloads({ eventTypes: [alpha] })).toEqual([{ n: 1 }, { n: 3 }, { n: 6 }]);
      expect(await payloads({ streamPrefixes: [x] })).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await payloads({ streamPrefixes: [x, y] })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
      expect(await payloads({ eventTypes: [beta], streamPrefixes: [x] })).toEqual([{ n: 2 }]);
      expect(await payloads({ eventTypes: [alpha, beta], streamPrefixes: [y] })).toEqual([{ n: 3 }, { n: 4 }]);

      const subscribed = new Collector(store.subscribe({ after: start, filter: { eventTypes: [beta] } }));
      await subscribed.waitForCount(2);
      await store.append(`${x}1`, [event(alpha, { n: 7 }), event(beta, { n: 8 })], 1);
      await subscribed.waitForCount(3);
      await subscribed.subscription.close();
      expect(subscribed.events.map((e) => e.payload)).toEqual([{ n: 2 }, { n: 4 }, { n: 8 }]);
    });

    it('readAll pages through the log in position order with after and maxCount', async () => {
      const prefix = `page${tag()}-`;
      const start = await store.headPosition();
      await store.append(`${prefix}a`, range(3).map((i) => event('PageItemAdded', { i })), 'no_stream');
      await store.append(`${prefix}b`, range(2).map((i) => event('PageItemAdded', { i: 3 + i })), 'no_stream');
      const last = await store.append(`${prefix}a`, range(2).map((i) => event('PageItemAdded', { i: 5 + i })), 2);
      await visible(store, last.position);
      const filter = { streamPrefixes: [prefix] };

      const pages: RecordedEvent[][] = [];
      let after = start;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 3, filter });
        pages.push(page);
        if (page.length === 0) break;
        after = (page.at(-1) as RecordedEvent).position;
      }

      expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
      const paged = pages.flat();
      expect(paged.map((e) => e.payload)).toEqual(range(7).map((i) => ({ i })));
      expectStrictlyIncreasing(paged.map((e) => e.position));
      const unfiltered = (await store.readAll({ after: start })).filter((e) => e.streamId.startsWith(prefix));
      expect(unfiltered.map((e) => e.id)).toEqual(paged.map((e) => e.id));
      expect(await store.readAll({ after: last.position, filter })).toEqual([]);
    });

    it('headPosition reaches the position of the latest append and names an event readAll returns', async () => {
      const stream = `head${tag()}-1`;
      const start = await store.headPosition();
      const result = await store.append(stream, [event('HeadMoved'), event('HeadMoved')], 'no_stream');

      await visible(store, result.position);
      const head = await store.headPosition();

      expect(head).toBeGreaterThanOrEqual(result.position);
      // Only event positions are passed back as `after`: KurrentDB cannot start a read between records.
      const since = await store.readAll({ after: start });
      expect(since.filter((e) => e.position <= head).at(-1)?.position).toBe(head);
    });

    it('a subscription fetching in small batches loses nothing at batch edges', async () => {
      const prefix = `batch${tag()}-`;
      const last = await store.append(`${prefix}1`, range(10).map((i) => event('BatchItemAdded', { i })), 'no_stream');
      await visible(store, last.position);

      const subscribed = new Collector(store.subscribe({ filter: { streamPrefixes: [prefix] }, batchSize: 3 }));
      const events = await subscribed.waitForCount(10);
      await subscribed.subscription.close();

      expect(events.map((e) => e.payload)).toEqual(range(10).map((i) => ({ i })));
      expect(subscribed.events).toHaveLength(10);
    });

    it('close() ends the iteration of a subscription, also while it waits for events', async () => {
      const prefix = `quiet${tag()}-`;
      const idle = new Collector(store.subscribe({ filter: { streamPrefixes: [prefix] } }));
      await idle.subscription.close();
      await withDeadline(idle.done, 5_000, 'iteration did not end after close()');
      expect(idle.error).toBeUndefined();

      const live = store.subscribe({ filter: { streamPrefixes: [prefix] } });
      const iterator = live[Symbol.asyncIterator]();
      await store.append(`${prefix}1`, [event('QuietBroken')], 'no_stream');
      const first = await withDeadline(iterator.next(), 15_000, 'the live event did not arrive');
      expect(first.done).toBe(false);
      const waiting = iterator.next();
      // A round trip to the store gives the subscription time to go quiet; either way close() must end it.
      await store.headPosition();
      await live.close();
      expect(await withDeadline(waiting, 5_000, 'a waiting next() did not end after close()')).toEqual({
        done: true,
        value: undefined,
      });
    });
  });
}

/** Consumes a subscription in the background and lets a test wait for what it has received. */
class Collector {
  readonly events: RecordedEvent[] = [];
  error: unknown;
  readonly done: Promise<void>;
  private ended = false;
  private readonly listeners = new Set<() => void>();

  constructor(readonly subscription: Subscription) {
    this.done = (async () => {
      try {
        for await (const e of subscription) {
          this.events.push(e);
          this.changed();
        }
      } catch (err) {
        this.error = err;
      } finally {
        this.ended = true;
        this.changed();
      }
    })();
  }

  /** The first `count` events, once received; fails after `timeoutMs`. */
  async waitForCount(count: number, timeoutMs = 15_000): Promise<RecordedEvent[]> {
    await this.waitUntil((events) => events.length >= count, timeoutMs, `${count} events`);
    return this.events.slice(0, count);
  }

  /** Resolves once `check` holds for the events received so far; fails after `timeoutMs`. */
  async waitUntil(check: (events: RecordedEvent[]) => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.events)) {
      if (this.error) throw this.error;
      if (this.ended) throw new Error(`The subscription ended with ${this.events.length} events, before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what}; received ${this.events.length} events`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.listeners.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.listeners.add(wake);
      });
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Waits until the store shows `position` to readers; a server's other transactions can hold it back briefly. */
async function visible(store: EventStore, position: bigint, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let head = await store.headPosition();
  while (head < position) {
    if (Date.now() > deadline) throw new Error(`Position ${position} not visible after ${timeoutMs} ms (head ${head})`);
    // Polling the condition itself: there is no event to wait on for another session's commit.
    await new Promise((resolve) => setTimeout(resolve, 10));
    head = await store.headPosition();
  }
}

async function readAllPages(
  store: EventStore,
  options: { after: bigint; filter: EventFilter },
  pageSize: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after = options.after;
  for (;;) {
    const page = await store.readAll({ after, maxCount: pageSize, filter: options.filter });
    out.push(...page);
    if (page.length < pageSize) return out;
    after = (page.at(-1) as RecordedEvent).position;
  }
}

async function refusal(append: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await append.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
}

async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function expectStrictlyIncreasing(positions: bigint[]): void {
  const firstBreak = positions.findIndex((p, i) => i > 0 && p <= (positions[i - 1] as bigint));
  expect(firstBreak, `position ${positions[firstBreak]} does not follow ${positions[firstBreak - 1]}`).toBe(-1);
}

function event(type: string, payload: unknown = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    payload,
    metadata: { occurredAt: new Date().toISOString(), actorId: 'contract-test', correlationId: randomUUID() },
  };
}

function tag(): string {
  return randomBytes(5).toString('hex');
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
