import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { handleCommand, unwrittenStream, type Decider } from './decider.js';
import type { EventStore } from './types.js';
import { openPgliteStore } from '#test/helpers/pglite.js';

type Event = { type: 'Incremented'; payload: { by: number } };
type Command = { type: 'Increment'; by: number; max: number };
type State = { total: number };

const counter: Decider<Command, Event, State> = {
  initialState: () => ({ total: 0 }),
  evolve: (s, e) => ({ total: s.total + e.payload.by }),
  decide(c, s) {
    if (s.total + c.by > c.max) throw new AppError('CONFLICT', 'over the maximum');
    return [{ type: 'Incremented', payload: { by: c.by } }];
  },
};

let store: EventStore;
let closeStore: () => Promise<void>;

beforeAll(async () => {
  ({ store, close: closeStore } = await openPgliteStore());
});
afterAll(async () => {
  await closeStore();
});

const now = new Date('2026-01-02T03:04:05.000Z');

describe('handleCommand', () => {
  it('loads, decides, appends with metadata from the command context, and returns the position', async () => {
    const streamId = `counter-${randomUUID()}`;
    const r = await handleCommand({
      store,
      streamId,
      decider: counter,
      command: { type: 'Increment', by: 2, max: 10 },
      context: { actorId: 5, companyId: 1, workspaceId: 9, correlationId: 'corr-1', now },
      versions: { Incremented: 2 },
    });
    expect(r.state).toEqual({ total: 2 });
    expect(r.revision).toBe(0);
    const [stored] = await store.readStream(streamId);
    expect(stored!.position).toBe(r.position);
    expect(stored!.version).toBe(2);
    expect(stored!.metadata).toMatchObject({ actorId: 5, companyId: 1, workspaceId: 9, correlationId: 'corr-1', occurredAt: now.toISOString() });
  });

  it('unwrittenStream: a command on a new id appends without reading, and never overwrites a stream that exists', async () => {
    const streamId = `counter-${randomUUID()}`;
    let reads = 0;
    const counting: EventStore = { ...store, kind: store.kind, readStream: (...args) => (reads++, store.readStream(...args)), append: (...args) => store.append(...args) };
    const first = await handleCommand({ store: counting, streamId, decider: counter, load: unwrittenStream(counter), command: { type: 'Increment', by: 3, max: 10 }, context: { now } });
    expect(first.revision).toBe(0);
    expect(reads).toBe(0);

    const again = handleCommand({ store: counting, streamId, decider: counter, load: unwrittenStream(counter), command: { type: 'Increment', by: 1, max: 10 }, context: { now } });
    await expect(again).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    expect((await store.readStream(streamId)).map((e) => e.payload)).toEqual([{ by: 3 }]);
  });

  it('retries on concurrent writers so every increment lands once, and never breaks the invariant', async () => {
    const streamId = `counter-${randomUUID()}`;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        handleCommand({ store, streamId, decider: counter, command: { type: 'Increment', by: 1, max: 100 }, context: { now }, maxAttempts: 20 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
    expect((await store.readStream(streamId)).length).toBe(8);
  });

  it('answers 409 CONCURRENCY_CONFLICT when the stream keeps changing under it', async () => {
    const streamId = `counter-${randomUUID()}`;
    await store.append(streamId, [{ type: 'Incremented', payload: { by: 1 }, metadata: { occurredAt: now.toISOString() } }], 'no_stream');
    // A writer that always slips in between load and append: the command can never win.
    const racing: EventStore = {
      ...store,
      kind: store.kind,
      readStream: async (id, o) => {
        const events = await store.readStream(id, o);
        await store.append(id, [{ type: 'Incremented', payload: { by: 1 }, metadata: { occurredAt: now.toISOString() } }], 'any');
        return events;
      },
      append: (id, e, rev) => store.append(id, e, rev),
    };
    const err = await handleCommand({
      store: racing,
      streamId,
      decider: counter,
      command: { type: 'Increment', by: 1, max: 100 },
      context: { now },
      maxAttempts: 3,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CONCURRENCY_CONFLICT');
    expect((err as AppError).statusCode).toBe(409);
  });

  it('passes a refusal of the decider through and appends nothing', async () => {
    const streamId = `counter-${randomUUID()}`;
    const err = await handleCommand({ store, streamId, decider: counter, command: { type: 'Increment', by: 5, max: 3 }, context: { now } }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('CONFLICT');
    expect(await store.readStream(streamId)).toEqual([]);
  });

  it('given a custom load, decides on its state and appends at its revision; a stale revision is a conflict, loaded again', async () => {
    const streamId = `counter-${randomUUID()}`;
    await handleCommand({ store, streamId, decider: counter, command: { type: 'Increment', by: 1, max: 100 }, context: { now } });
    // A cache that is one event behind: the first append at its revision conflicts, the second load is fresh.
    const loads: number[] = [];
    let remembered: { state: State; revision: number } | null = null;
    const r = await handleCommand({
      store,
      streamId,
      decider: counter,
      command: { type: 'Increment', by: 5, max: 100 },
      context: { now },
      load: async (s, id) => {
        const stale = loads.length === 0;
        const events = await s.readStream(id);
        const used = stale ? events.slice(0, -1) : events;
        loads.push(used.length);
        return { state: { total: used.reduce((t, e) => t + (e.payload as { by: number }).by, 0) }, revision: used.length - 1 };
      },
      appended: (state, revision) => (remembered = { state, revision }),
    });
    expect(loads).toEqual([0, 1]);
    expect(r.state).toEqual({ total: 6 });
    expect(remembered).toEqual({ state: { total: 6 }, revision: 1 });
    expect((await store.readStream(streamId)).map((e) => (e.payload as { by: number }).by)).toEqual([1, 5]);
  });
});
