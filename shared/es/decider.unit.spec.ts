import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { withRequestContext } from '../request-context.js';
import { commandContext, handleCommand, retryDelayMs, type Backoff, type Decider } from './decider.js';
import { WrongExpectedRevisionError, type AppendResult, type EventStore } from './types.js';

type Event = { type: 'Noted'; payload: { n: number } };
const noter: Decider<{ type: 'Note' }, Event, null> = {
  initialState: () => null,
  evolve: (s) => s,
  decide: () => [{ type: 'Noted', payload: { n: 1 } }],
};

/** A store whose stream is always empty and whose first `conflicts` appends lose to another writer. */
function conflictingStore(conflicts: number): { store: EventStore; appends: () => number } {
  let appends = 0;
  const store = {
    kind: 'pglite',
    readStream: async () => [],
    append: async (streamId: string): Promise<AppendResult> => {
      appends++;
      if (appends <= conflicts) throw new WrongExpectedRevisionError(streamId, 'no_stream', 0);
      return { nextExpectedRevision: 0, position: 1n };
    },
  } as unknown as EventStore;
  return { store, appends: () => appends };
}

/** A backoff that records the waits it is asked for instead of waiting. */
function recordingBackoff(random: () => number): Backoff & { waits: number[] } {
  const waits: number[] = [];
  return { waits, random, sleep: async (ms) => void waits.push(ms) };
}

const run = (store: EventStore, backoff: Backoff, maxAttempts?: number) =>
  handleCommand({ store, streamId: 'note-1', decider: noter, command: { type: 'Note' }, context: { now: new Date(0) }, backoff, ...(maxAttempts ? { maxAttempts } : {}) });

describe('handleCommand retry after a conflict', () => {
  it('waits a growing, capped ceiling times the random draw: 10, 20, 40 … ms, never above 250 ms', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => retryDelayMs(a, () => 0.999_999))).toEqual([9, 19, 39, 79, 159, 249, 249, 249]);
    expect([1, 2, 3, 7].map((a) => retryDelayMs(a, () => 0.5))).toEqual([5, 10, 20, 125]);
    expect(retryDelayMs(30, () => 0)).toBe(0);
  });

  it('retries a lost append after a jittered wait between 0 and its ceiling, and succeeds', async () => {
    const { store, appends } = conflictingStore(3);
    const draws = [0.25, 0.75, 0.5];
    const backoff = recordingBackoff(() => draws.shift()!);
    const result = await run(store, backoff);
    expect(result.position).toBe(1n);
    expect(appends()).toBe(4);
    expect(backoff.waits).toEqual([2, 15, 20]);
  });

  it('gives up after 8 attempts by default, within a second of waiting, with 409 CONCURRENCY_CONFLICT and Retry-After', async () => {
    const { store, appends } = conflictingStore(Infinity);
    const backoff = recordingBackoff(() => 0.999_999);
    const err = await run(store, backoff).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'CONCURRENCY_CONFLICT', statusCode: 409, headers: { 'retry-after': '1' } });
    expect(appends()).toBe(8);
    expect(backoff.waits).toHaveLength(7);
    expect(backoff.waits.reduce((a, b) => a + b, 0)).toBeLessThan(1_000);
  });

  it('keeps to the attempts a caller asks for', async () => {
    const { store, appends } = conflictingStore(Infinity);
    await expect(run(store, recordingBackoff(() => 0), 3)).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    expect(appends()).toBe(3);
  });
});

describe('commandContext', () => {
  const clock = { now: () => new Date('2026-11-29T00:00:00Z') };

  it('takes the correlation id from the request being handled and the time from the clock', () => {
    const context = withRequestContext({ requestId: 'req-7', clientAddress: '127.0.0.1' }, () =>
      commandContext(clock, { actorId: 3, companyId: 1, workspaceId: 2 }),
    );
    expect(context).toEqual({ actorId: 3, companyId: 1, workspaceId: 2, correlationId: 'req-7', now: clock.now() });
  });

  it('outside a request has no correlation id, and absent ids are null', () => {
    expect(commandContext(clock, { causationId: 'evt-1' })).toEqual({ actorId: null, companyId: null, workspaceId: null, causationId: 'evt-1', now: clock.now() });
  });
});
