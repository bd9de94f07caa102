import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewEvent, RecordedEvent } from '../types.js';
import { visible, refusal, event, tag, range } from './helpers.js';
import type { EventStoreContractContext } from './subject.js';

/** Appending and reading a stream back: payloads, metadata, versions, revisions and positions; windows of a stream; a refused append writes nothing. */
export function appendContract(suite: EventStoreContractContext): void {
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

    const result = await suite.store.append(stream, [placed, confirmed], 'no_stream');
    const read = await suite.store.readStream(stream);

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
    await suite.store.append(stream, range(6).map((i) => event('TickRecorded', { i })), 'no_stream');

    expect(await suite.store.readStream(`missing${tag()}-1`)).toEqual([]);
    expect((await suite.store.readStream(stream, { fromRevision: 2, maxCount: 3 })).map((e) => e.revision)).toEqual([2, 3, 4]);
    expect((await suite.store.readStream(stream, { fromRevision: 4 })).map((e) => e.payload)).toEqual([{ i: 4 }, { i: 5 }]);
    expect(await suite.store.readStream(stream, { fromRevision: 6 })).toEqual([]);
  });

  it('a refused append writes none of its events, and an empty append is refused', async () => {
    const category = `atomic${tag()}`;
    const stream = `${category}-1`;
    await suite.store.append(stream, [event('ItemAdded')], 'no_stream');

    await refusal(suite.store.append(stream, range(3).map(() => event('ItemAdded')), 7));
    await expect(suite.store.append(stream, [], 'any')).rejects.toThrow(RangeError);

    expect(await suite.store.readStream(stream)).toHaveLength(1);
    const marker = await suite.store.append(stream, [event('ItemRemoved')], 0);
    await visible(suite.store, marker.position);
    expect((await suite.store.readAll({ filter: { streamPrefixes: [`${category}-`] } })).map((e) => e.type)).toEqual([
      'ItemAdded',
      'ItemRemoved',
    ]);
  });
}
