import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { aggregate } from './aggregate.js';
import { defineDecider } from './decider.js';
import { cachedStates } from './state-cache.js';
import { WrongExpectedRevisionError, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent, type RecordedEvent } from './types.js';

type Event = { type: 'Added'; payload: { n: number } };
type Command = { type: 'Add'; n: number } | { type: 'AddUpTo'; limit: number; n: number };

/** A counter: `AddUpTo` is refused once the total would pass its limit. */
const counter = defineDecider<Command, Event, { total: number }>({
  initialState: () => ({ total: 0 }),
  evolve: { Added: (state, event) => ({ total: state.total + event.payload.n }) },
  decide: {
    Add: (command) => [{ type: 'Added', payload: { n: command.n } }],
    AddUpTo: (command, state) => {
      if (state.total + command.n > command.limit) throw new AppError('VALIDATION_FAILED', `over ${command.limit}`);
      return [{ type: 'Added', payload: { n: command.n } }];
    },
  },
});

/** An event store of streams in memory; `before` runs ahead of each append (another writer, a gate). */
class MemoryStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly appends: { streamId: string; expected: ExpectedRevision; types: string[] }[] = [];
  readonly reads: { streamId: string; fromRevision: number }[] = [];
  before: (streamId: string) => Promise<void> | void = () => {};
  private position = 0n;

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    const fromRevision = options.fromRevision ?? 0;
    this.reads.push({ streamId, fromRevision });
    return (this.streams.get(streamId) ?? []).filter((e) => e.revision >= fromRevision);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    await this.before(streamId);
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length - 1;
    if (expected !== 'any' && (expected === 'no_stream' ? actual !== -1 : actual !== expected)) throw new WrongExpectedRevisionError(streamId, expected, actual);
    this.appends.push({ streamId, expected, types: events.map((e) => e.type) });
    for (const e of events) {
      this.position++;
      stream.push({ ...e, version: e.version ?? 1, streamId, revision: stream.length, position: this.position } as RecordedEvent);
    }
    this.streams.set(streamId, stream);
    return { nextExpectedRevision: stream.length - 1, position: this.position };
  }

  /** Another process's write, straight into the stream. */
  intrude(streamId: string, n: number): void {
    const stream = this.streams.get(streamId) ?? [];
    this.position++;
    stream.push({ type: 'Added', payload: { n }, metadata: {}, version: 1, streamId, revision: stream.length, position: this.position } as unknown as RecordedEvent);
    this.streams.set(streamId, stream);
  }

  payloads(streamId: string): unknown[] {
    return (this.streams.get(streamId) ?? []).map((e) => e.payload);
  }
}

function setup(options: Partial<Parameters<typeof aggregate<Command, Event, { total: number }>>[1]> = {}) {
  const store = new MemoryStore();
  const waits: { position: bigint; names: readonly string[] | undefined }[] = [];
  const readModels = { waitFor: async (position: bigint, o?: { names?: readonly string[] }) => void waits.push({ position, names: o?.names }) };
  const counters = aggregate({ store: store as unknown as EventStore, readModels }, { decider: counter, stream: (id) => `counter-${id}`, readModels: ['counters'], ...options });
  return { store, waits, counters };
}

const context = { now: new Date(0) };

/** Holds the store's first append until `release`; counts the appends begun. */
function holdFirstAppend(store: MemoryStore) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let appending = 0;
  store.before = async () => {
    appending++;
    if (appending === 1) await held;
  };
  return { release: () => release(), appends: () => appending };
}

describe('aggregate: a batch of commands', () => {
  it('decides each command on the state the ones before it left, and appends all their events in order, in one append, settled once', async () => {
    const { store, waits, counters } = setup();
    await counters.run('1', { type: 'Add', n: 1 }, context);
    const result = await counters.run('1', [{ type: 'Add', n: 2 }, (state) => ({ type: 'Add', n: state.total * 10 }), { type: 'AddUpTo', limit: 100, n: 4 }], context);
    expect(result.events.map((e) => e.payload.n)).toEqual([2, 30, 4]);
    expect(result.state).toEqual({ total: 37 });
    expect(result.revision).toBe(3);
    expect(store.payloads('counter-1')).toEqual([{ n: 1 }, { n: 2 }, { n: 30 }, { n: 4 }]);
    expect(store.appends.slice(1)).toEqual([{ streamId: 'counter-1', expected: 0, types: ['Added', 'Added', 'Added'] }]);
    expect(waits).toEqual([
      { position: 1n, names: ['counters'] },
      { position: 4n, names: ['counters'] },
    ]);
  });

  it('appends nothing when any command of the batch is refused, the ones before it included', async () => {
    const { store, waits, counters } = setup();
    const run = counters.run('1', [{ type: 'Add', n: 5 }, { type: 'AddUpTo', limit: 6, n: 2 }], context);
    await expect(run).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(store.appends).toEqual([]);
    expect(waits).toEqual([]);
  });

  it('after a conflict decides the whole batch again on the new state, and still appends it at once', async () => {
    const { store, counters } = setup();
    let intruded = false;
    store.before = (streamId) => {
      if (!intruded) store.intrude(streamId, 50);
      intruded = true;
    };
    // On the second try the second command sees the other writer's 50 and is refused: nothing of the batch lands.
    await expect(counters.run('1', [{ type: 'Add', n: 1 }, { type: 'AddUpTo', limit: 10, n: 1 }], context)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(store.payloads('counter-1')).toEqual([{ n: 50 }]);
    const result = await counters.run('1', [{ type: 'Add', n: 1 }, { type: 'AddUpTo', limit: 100, n: 1 }], context);
    expect(result.revision).toBe(2);
    expect(store.appends).toEqual([{ streamId: 'counter-1', expected: 0, types: ['Added', 'Added'] }]);
  });

  it('answers 409 CONCURRENCY_CONFLICT when every try loses, having appended nothing', async () => {
    const { store, counters } = setup({ maxAttempts: 1 });
    store.before = (streamId) => store.intrude(streamId, 7);
    const error = await counters.run('1', [{ type: 'Add', n: 1 }, { type: 'Add', n: 2 }], context).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONCURRENCY_CONFLICT');
    expect(store.payloads('counter-1')).toEqual([{ n: 7 }]);
    expect(store.appends).toEqual([]);
  });

  it('of no events appends nothing and settles nothing', async () => {
    const { store, waits, counters } = setup();
    const result = await counters.run('1', [], context);
    expect(result).toMatchObject({ events: [], revision: -1, position: null });
    expect(store.appends).toEqual([]);
    expect(waits).toEqual([]);
  });
});

describe('aggregate: load, appended, oneAtATime', () => {
  it('loads with its own loader, expects the revision it returns, and tells `appended` the outcome', async () => {
    const told: unknown[] = [];
    const { store, counters } = setup({
      load: async (id) => ({ state: { total: 90 }, revision: store.payloads(`counter-${id}`).length - 1 }),
      appended: (id, state, revision) => told.push({ id, state, revision }),
    });
    await expect(counters.run('1', { type: 'AddUpTo', limit: 100, n: 20 }, context)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await counters.run('1', { type: 'AddUpTo', limit: 100, n: 5 }, context);
    expect(store.reads).toEqual([]);
    expect(store.appends).toEqual([{ streamId: 'counter-1', expected: 'no_stream', types: ['Added'] }]);
    expect(told).toEqual([{ id: '1', state: { total: 95 }, revision: 0 }]);
  });

  it('a created id is neither read nor loaded, and its append expects no stream', async () => {
    let loads = 0;
    const { store, counters } = setup({ load: async () => (loads++, { state: { total: 0 }, revision: -1 }) });
    await counters.run('new', [{ type: 'Add', n: 1 }], context, { created: true });
    expect(loads).toBe(0);
    expect(store.appends).toEqual([{ streamId: 'counter-new', expected: 'no_stream', types: ['Added'] }]);
  });

  it('cachedStates reads only the events after the revision it keeps', async () => {
    const { store, counters } = setup(cachedStates(counter, (id) => `counter-${id}`, 10));
    await counters.run('1', { type: 'Add', n: 1 }, context);
    await counters.run('1', { type: 'Add', n: 2 }, context);
    store.intrude('counter-1', 4);
    const result = await counters.run('1', { type: 'Add', n: 8 }, context);
    expect(result.state).toEqual({ total: 15 });
    expect(store.reads.map((r) => r.fromRevision)).toEqual([0, 1, 2]);
  });

  it('with oneAtATime runs the commands of one id one after another, so they do not conflict', async () => {
    const { store, counters } = setup({ oneAtATime: true, maxAttempts: 1 });
    const gate = holdFirstAppend(store);
    const first = counters.run('1', { type: 'Add', n: 1 }, context);
    const second = counters.run('1', { type: 'Add', n: 2 }, context);
    const other = counters.run('2', { type: 'Add', n: 3 }, context);
    // The other id's command is not held behind the first id's.
    await other;
    expect(gate.appends()).toBe(2);
    gate.release();
    await Promise.all([first, second]);
    expect(store.payloads('counter-1')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('with coalesce writes the commands that arrive during an append together, each answering for itself', async () => {
    const { store, counters } = setup({ coalesce: true, maxAttempts: 1 });
    const gate = holdFirstAppend(store);
    const first = counters.run('1', { type: 'Add', n: 1 }, context);
    // While the first append is held, three more arrive: one of them is refused on the state the others leave.
    const second = counters.run('1', { type: 'AddUpTo', limit: 10, n: 4 }, context);
    const refused = counters.run('1', { type: 'AddUpTo', limit: 6, n: 2 }, context);
    const fourth = counters.run('1', { type: 'Add', n: 5 }, context);
    gate.release();
    const [a, b, d] = await Promise.all([first, second, fourth]);
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // Two appends: the first command alone, then the three that waited (the refused one writing nothing).
    expect(store.appends.map((x) => x.types.length)).toEqual([1, 2]);
    expect(store.payloads('counter-1')).toEqual([{ n: 1 }, { n: 4 }, { n: 5 }]);
    expect([a.state.total, b.state.total, d.state.total]).toEqual([1, 5, 10]);
    expect(b.position).toBe(d.position);
  });

  it('with coalesce decides a waiting group again after another process wrote the stream', async () => {
    const { store, counters } = setup({ coalesce: true, maxAttempts: 3 });
    let intruded = false;
    store.before = () => {
      if (!intruded) {
        intruded = true;
        store.intrude('counter-1', 100);
      }
    };
    const [x, y] = await Promise.all([counters.run('1', { type: 'Add', n: 1 }, context), counters.run('1', { type: 'AddUpTo', limit: 50, n: 2 }, context).catch((e: unknown) => e)]);
    expect((x as { state: { total: number } }).state.total).toBe(101);
    expect(y).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(store.payloads('counter-1')).toEqual([{ n: 100 }, { n: 1 }]);
  });
});
