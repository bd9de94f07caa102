import { expect, it } from 'vitest';
import { WrongExpectedRevisionError, type ExpectedRevision } from '../types.js';
import { refusal, event, tag, range } from './helpers.js';
import type { EventStoreContractContext } from './subject.js';

/** Expected revisions: 'no_stream', 'stream_exists', an exact revision and 'any'; of concurrent appends expecting the same, exactly one wins. */
export function revisionContract(suite: EventStoreContractContext): void {
  it("'no_stream' creates a stream and refuses one that exists", async () => {
    const stream = `account${tag()}-1`;
    await suite.store.append(stream, [event('AccountOpened')], 'no_stream');

    const error = await refusal(suite.store.append(stream, [event('AccountOpened')], 'no_stream'));

    expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0 });
    expect(await suite.store.readStream(stream)).toHaveLength(1);
  });

  it("'stream_exists' refuses a missing stream and appends to an existing one", async () => {
    const stream = `account${tag()}-1`;

    const error = await refusal(suite.store.append(stream, [event('AccountCredited')], 'stream_exists'));
    expect(error).toMatchObject({ streamId: stream, expected: 'stream_exists', actual: 'no_stream' });
    expect(await suite.store.readStream(stream)).toEqual([]);

    await suite.store.append(stream, [event('AccountOpened')], 'any');
    const result = await suite.store.append(stream, [event('AccountCredited'), event('AccountCredited')], 'stream_exists');
    expect(result.nextExpectedRevision).toBe(2);
  });

  it('an exact revision appends only when it is the revision of the last event', async () => {
    const stream = `account${tag()}-1`;

    const onMissing = await refusal(suite.store.append(stream, [event('AccountOpened')], 0));
    expect(onMissing).toMatchObject({ streamId: stream, expected: 0, actual: 'no_stream' });

    await suite.store.append(stream, [event('AccountOpened'), event('AccountCredited')], 'no_stream');
    const stale = await refusal(suite.store.append(stream, [event('AccountDebited')], 0));
    expect(stale).toMatchObject({ streamId: stream, expected: 0, actual: 1 });
    const ahead = await refusal(suite.store.append(stream, [event('AccountDebited')], 5));
    expect(ahead).toMatchObject({ expected: 5, actual: 1 });

    const result = await suite.store.append(stream, [event('AccountDebited')], 1);
    expect(result.nextExpectedRevision).toBe(2);
    expect((await suite.store.readStream(stream)).map((e) => e.type)).toEqual([
      'AccountOpened',
      'AccountCredited',
      'AccountDebited',
    ]);
  });

  it("'any' appends whether or not the stream exists", async () => {
    const stream = `note${tag()}-1`;
    expect((await suite.store.append(stream, [event('NoteWritten')], 'any')).nextExpectedRevision).toBe(0);
    expect((await suite.store.append(stream, [event('NoteWritten'), event('NoteWritten')], 'any')).nextExpectedRevision).toBe(2);
    expect((await suite.store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
  });

  it.each<[string, ExpectedRevision]>([
    ['an exact revision', 0],
    ["'no_stream'", 'no_stream'],
  ])('of 10 concurrent appends expecting %s, exactly one wins and the others get WrongExpectedRevisionError', async (_, expected) => {
    const stream = `race${tag()}-1`;
    if (expected === 0) await suite.store.append(stream, [event('RaceOpened')], 'no_stream');
    const before = (await suite.store.readStream(stream)).length;

    const outcomes = await Promise.allSettled(
      range(10).map((contender) =>
        suite.store.append(stream, [event('RaceWon', { contender }), event('RaceWon', { contender })], expected),
      ),
    );

    const winners = outcomes.flatMap((o, contender) => (o.status === 'fulfilled' ? [contender] : []));
    const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(9);
    for (const loser of losers) expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
    const events = await suite.store.readStream(stream);
    expect(events).toHaveLength(before + 2);
    expect(events.slice(before).map((e) => e.payload)).toEqual([{ contender: winners[0] }, { contender: winners[0] }]);
  });
}
