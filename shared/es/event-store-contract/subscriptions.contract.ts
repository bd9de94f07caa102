import { expect, it } from 'vitest';
import type { RecordedEvent } from '../types.js';
import { Collector, visible, readAllPages, withDeadline, expectStrictlyIncreasing, event, tag, range } from './helpers.js';
import type { EventStoreContractContext } from './subject.js';

/** Subscriptions: every event exactly once under concurrent writers, resuming after a checkpoint, small batches, and close(). */
export function subscriptionContract(suite: EventStoreContractContext): void {
  it('a live subscriber receives every event exactly once, in increasing positions, while 16 writers append concurrently', async () => {
    const writers = 16;
    const eventsPerWriter = 200;
    const streamsPerWriter = 5;
    const category = `load${tag()}`;
    const prefix = `${category}-`;
    const start = await suite.store.headPosition();
    const everything = new Collector(suite.store.subscribe({ after: start }));
    const filtered = new Collector(suite.store.subscribe({ after: start, filter: { streamPrefixes: [prefix] }, batchSize: 7 }));
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
          const result = await suite.store.append(stream, events, revisions.get(stream) ?? 'no_stream');
          revisions.set(stream, result.nextExpectedRevision);
          acknowledged.push({ position: result.position, ids: events.map((e) => e.id as string) });
          written += size;
        }
      }),
    );
    // Appended last, so seeing it means every earlier event has been offered; anything extra would show.
    const endStream = `${prefix}end`;
    await suite.store.append(endStream, [event('LoadFinished')], 'no_stream');
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

    const log = await readAllPages(suite.store, { after: start, filter: { streamPrefixes: [prefix] } }, 1_000);
    expect(log.map((e) => [e.id, e.position])).toEqual(fromEverything.map((e) => [e.id, e.position]));
    expect(filtered.events.map((e) => [e.id, e.position])).toEqual(fromEverything.map((e) => [e.id, e.position]));

    if (suite.subject.concurrentTransactions) {
      // An append that returned later yet holds a smaller position committed after a younger one: the
      // situation in which a sequence-ordered reader skips events. It must have happened for this to count.
      const overtaken = acknowledged.filter((a, i) => i > 0 && a.position < (acknowledged[i - 1] as typeof a).position);
      expect(overtaken.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it('a subscription after a checkpoint delivers exactly the events after it, then live ones', async () => {
    const prefix = `checkpoint${tag()}-`;
    await suite.store.append(`${prefix}1`, range(3).map((i) => event('StepDone', { i })), 'no_stream');
    await suite.store.append(`${prefix}2`, range(4).map((i) => event('StepDone', { i: 3 + i })), 'no_stream');
    const last = await suite.store.append(`${prefix}1`, range(3).map((i) => event('StepDone', { i: 7 + i })), 2);
    await visible(suite.store, last.position);
    const stored = await suite.store.readAll({ filter: { streamPrefixes: [prefix] } });
    expect(stored).toHaveLength(10);
    const checkpoint = (stored[3] as RecordedEvent).position;

    const resumed = new Collector(suite.store.subscribe({ after: checkpoint, filter: { streamPrefixes: [prefix] } }));
    const history = await resumed.waitForCount(6);
    await suite.store.append(`${prefix}3`, [event('StepDone', { i: 10 }), event('StepDone', { i: 11 })], 'no_stream');
    const all = await resumed.waitForCount(8);
    await resumed.subscription.close();
    await resumed.done;

    expect(history.map((e) => e.id)).toEqual(stored.slice(4).map((e) => e.id));
    expect(all.slice(6).map((e) => e.payload)).toEqual([{ i: 10 }, { i: 11 }]);
    expect(resumed.events).toHaveLength(8);
    expect(resumed.events.every((e) => e.position > checkpoint)).toBe(true);
    expectStrictlyIncreasing(resumed.events.map((e) => e.position));
  });

  it('a subscription fetching in small batches loses nothing at batch edges', async () => {
    const prefix = `batch${tag()}-`;
    const last = await suite.store.append(`${prefix}1`, range(10).map((i) => event('BatchItemAdded', { i })), 'no_stream');
    await visible(suite.store, last.position);

    const subscribed = new Collector(suite.store.subscribe({ filter: { streamPrefixes: [prefix] }, batchSize: 3 }));
    const events = await subscribed.waitForCount(10);
    await subscribed.subscription.close();

    expect(events.map((e) => e.payload)).toEqual(range(10).map((i) => ({ i })));
    expect(subscribed.events).toHaveLength(10);
  });

  it('close() ends the iteration of a subscription, also while it waits for events', async () => {
    const prefix = `quiet${tag()}-`;
    const idle = new Collector(suite.store.subscribe({ filter: { streamPrefixes: [prefix] } }));
    await idle.subscription.close();
    await withDeadline(idle.done, 5_000, 'iteration did not end after close()');
    expect(idle.error).toBeUndefined();

    const live = suite.store.subscribe({ filter: { streamPrefixes: [prefix] } });
    const iterator = live[Symbol.asyncIterator]();
    await suite.store.append(`${prefix}1`, [event('QuietBroken')], 'no_stream');
    const first = await withDeadline(iterator.next(), 15_000, 'the live event did not arrive');
    expect(first.done).toBe(false);
    const waiting = iterator.next();
    // A round trip to the suite.store gives the subscription time to go quiet; either way close() must end it.
    await suite.store.headPosition();
    await live.close();
    expect(await withDeadline(waiting, 5_000, 'a waiting next() did not end after close()')).toEqual({
      done: true,
      value: undefined,
    });
  });
}
