import { expect, it } from 'vitest';
import type { EventFilter, RecordedEvent } from '../types.js';
import { Collector, visible, expectStrictlyIncreasing, event, tag, range } from './helpers.js';
import type { EventStoreContractContext } from './subject.js';

/** Reading the log: filters by type and stream prefix, paging with after and maxCount, the head position. */
export function readContract(suite: EventStoreContractContext): void {
  it('filters select by exact event type, by literal stream prefix, and by both at once', async () => {
    const t = tag();
    const alpha = `Alpha${t}Happened`;
    const beta = `Beta${t}Happened`;
    const x = `x_${t}-`;
    const y = `y_${t}-`;
    const start = await suite.store.headPosition();
    await suite.store.append(`${x}1`, [event(alpha, { n: 1 }), event(beta, { n: 2 })], 'no_stream');
    await suite.store.append(`${y}1`, [event(alpha, { n: 3 }), event(beta, { n: 4 })], 'no_stream');
    // Traps: a type that only starts with `alpha`, and a stream the `_` of a LIKE pattern would match.
    await suite.store.append(`x%${t}-1`, [event(`${alpha}Later`, { n: 5 })], 'no_stream');
    const last = await suite.store.append(`xZ${t}-1`, [event(alpha, { n: 6 })], 'no_stream');
    await visible(suite.store, last.position);
    const payloads = async (filter: EventFilter): Promise<unknown[]> =>
      (await suite.store.readAll({ after: start, filter })).map((e) => e.payload);

    expect(await payloads({ eventTypes: [alpha] })).toEqual([{ n: 1 }, { n: 3 }, { n: 6 }]);
    expect(await payloads({ streamPrefixes: [x] })).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await payloads({ streamPrefixes: [x, y] })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(await payloads({ eventTypes: [beta], streamPrefixes: [x] })).toEqual([{ n: 2 }]);
    expect(await payloads({ eventTypes: [alpha, beta], streamPrefixes: [y] })).toEqual([{ n: 3 }, { n: 4 }]);

    const subscribed = new Collector(suite.store.subscribe({ after: start, filter: { eventTypes: [beta] } }));
    await subscribed.waitForCount(2);
    await suite.store.append(`${x}1`, [event(alpha, { n: 7 }), event(beta, { n: 8 })], 1);
    await subscribed.waitForCount(3);
    await subscribed.subscription.close();
    expect(subscribed.events.map((e) => e.payload)).toEqual([{ n: 2 }, { n: 4 }, { n: 8 }]);
  });

  it('readAll pages through the log in position order with after and maxCount', async () => {
    const prefix = `page${tag()}-`;
    const start = await suite.store.headPosition();
    await suite.store.append(`${prefix}a`, range(3).map((i) => event('PageItemAdded', { i })), 'no_stream');
    await suite.store.append(`${prefix}b`, range(2).map((i) => event('PageItemAdded', { i: 3 + i })), 'no_stream');
    const last = await suite.store.append(`${prefix}a`, range(2).map((i) => event('PageItemAdded', { i: 5 + i })), 2);
    await visible(suite.store, last.position);
    const filter = { streamPrefixes: [prefix] };

    const pages: RecordedEvent[][] = [];
    let after = start;
    for (;;) {
      const page = await suite.store.readAll({ after, maxCount: 3, filter });
      pages.push(page);
      if (page.length === 0) break;
      after = (page.at(-1) as RecordedEvent).position;
    }

    expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
    const paged = pages.flat();
    expect(paged.map((e) => e.payload)).toEqual(range(7).map((i) => ({ i })));
    expectStrictlyIncreasing(paged.map((e) => e.position));
    const unfiltered = (await suite.store.readAll({ after: start })).filter((e) => e.streamId.startsWith(prefix));
    expect(unfiltered.map((e) => e.id)).toEqual(paged.map((e) => e.id));
    expect(await suite.store.readAll({ after: last.position, filter })).toEqual([]);
  });

  it('headPosition reaches the position of the latest append and names an event readAll returns', async () => {
    const stream = `head${tag()}-1`;
    const start = await suite.store.headPosition();
    const result = await suite.store.append(stream, [event('HeadMoved'), event('HeadMoved')], 'no_stream');

    await visible(suite.store, result.position);
    const head = await suite.store.headPosition();

    expect(head).toBeGreaterThanOrEqual(result.position);
    // Only event positions are passed back as `after`: KurrentDB cannot start a read between records.
    const since = await suite.store.readAll({ after: start });
    expect(since.filter((e) => e.position <= head).at(-1)?.position).toBe(head);
  });
}
