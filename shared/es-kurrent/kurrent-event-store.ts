import {
  ANY,
  BACKWARDS,
  END,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendStreamState,
  type Filter,
  type JSONType,
  type ReadPosition,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { assertAppendable, DEFAULT_BATCH_SIZE, SingleUseSubscription, WrongExpectedRevisionError } from '../es/index.js';
import type { AppendResult, EventFilter, EventMetadata, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from '../es/index.js';
import { qaMetrics } from '../metrics/index.js';

/*
 * Positions: KurrentDB writes every event of an append as its own committed record, so an event's
 * commit position in $all is unique and equals its prepare position. One bigint is therefore a
 * complete checkpoint, and {commit: p, prepare: p} names the event again when resuming.
 */

// KurrentDB has no field for a payload's schema version; it travels in the metadata under this key.
const VERSION_KEY = 'qa.eventVersion';
const READ_PAGE_SIZE = 500;

/** The event store on KurrentDB (or EventStoreDB 22.6+) through its gRPC client. */
export function createKurrentEventStore(connectionString: string): EventStore {
  return new KurrentEventStore(KurrentDBClient.connectionString(connectionString));
}

class KurrentEventStore implements EventStore {
  readonly kind = 'kurrentdb' as const;
  private readonly subscriptions = new Set<KurrentSubscription>();

  constructor(private readonly client: KurrentDBClient) {}

  async append(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    assertAppendable(streamId, events, expectedRevision);
    const data = events.map((e) =>
      jsonEvent({
        ...(e.id ? { id: e.id } : {}),
        type: e.type,
        // The port's payloads are JSON values; the client serialises `data` with JSON.stringify, which
        // also takes numbers, booleans and null although its type names only objects, arrays and strings.
        data: (e.payload ?? null) as JSONType,
        metadata: { ...e.metadata, [VERSION_KEY]: e.version ?? 1 },
      }),
    );
    const started = performance.now();
    const took = (outcome: 'written' | 'conflict' | 'error') =>
      qaMetrics.eventStoreAppendDuration.observe({ store: 'kurrent', outcome }, (performance.now() - started) / 1000);
    try {
      const result = await this.client.appendToStream(streamId, data, { streamState: toStreamState(expectedRevision) });
      // A connection string with throwOnAppendFailure=false reports a conflict instead of throwing it.
      if (!result.success) {
        const actual = result.nextExpectedRevision < 0n ? 'no_stream' : Number(result.nextExpectedRevision);
        throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
      }
      took('written');
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        // The commit position of an append is that of its last event.
        position: result.position?.commit ?? 0n,
      };
    } catch (err) {
      took(err instanceof WrongExpectedVersionError || err instanceof WrongExpectedRevisionError ? 'conflict' : 'error');
      if (err instanceof WrongExpectedVersionError) {
        const actual = err.actualState === NO_STREAM ? 'no_stream' : Number(err.actualState);
        throw new WrongExpectedRevisionError(streamId, expectedRevision, actual, { cause: err });
      }
      throw err;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (options.maxCount === 0) return out;
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      })) {
        const event = toRecordedEvent(resolved);
        if (event) out.push(event);
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
    return out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    const out: RecordedEvent[] = [];
    let cursor = options.after ?? 0n;
    const filter = serverFilter(options.filter);
    while (out.length < maxCount) {
      let seen = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: positionAfter(cursor),
        maxCount: READ_PAGE_SIZE,
        ...(filter ? { filter } : {}),
      })) {
        seen++;
        const event = toRecordedEvent(resolved);
        // Reading from a position includes the event at it; the cursor drops that repeat.
        if (!event || event.position <= cursor) continue;
        cursor = event.position;
        if (!matches(event, options.filter)) continue;
        out.push(event);
        if (out.length >= maxCount) break;
      }
      if (seen < READ_PAGE_SIZE) break;
    }
    return out;
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      return resolved.event?.position.commit ?? 0n;
    }
    return 0n;
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    const subscription = new KurrentSubscription(this.client, options, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }
}

const CLOSED = Symbol('closed');

class KurrentSubscription extends SingleUseSubscription {
  private closed = false;
  private source: AllStreamSubscription | undefined;
  private signalClosed!: () => void;
  private readonly whenClosed = new Promise<typeof CLOSED>((resolve) => {
    this.signalClosed = () => resolve(CLOSED);
  });

  constructor(
    private readonly client: KurrentDBClient,
    private readonly options: SubscribeOptions,
    private readonly onClose: (s: KurrentSubscription) => void,
  ) {
    super();
  }

  protected async *run(): AsyncGenerator<RecordedEvent> {
    if (this.closed) return;
    let cursor = this.options.after ?? 0n;
    const filter = serverFilter(this.options.filter) ?? excludeSystemEvents();
    // The stream buffers at most one batch ahead of the consumer; the server waits for the rest.
    const source = this.client.subscribeToAll(
      { fromPosition: positionAfter(cursor), filter },
      { highWaterMark: this.options.batchSize ?? DEFAULT_BATCH_SIZE },
    );
    this.source = source;
    const iterator = source[Symbol.asyncIterator]();
    try {
      while (!this.closed) {
        const pending = iterator.next();
        // Cancelling the gRPC call can leave this read unsettled or make it reject; neither matters then.
        pending.catch(() => {});
        const next = await Promise.race([pending, this.whenClosed]);
        if (next === CLOSED || next.done) return;
        const event = toRecordedEvent(next.value);
        if (!event || event.position <= cursor || !matches(event, this.options.filter)) continue;
        cursor = event.position;
        yield event;
      }
    } catch (err) {
      if (this.closed) return;
      throw err;
    } finally {
      await this.stop();
    }
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private async stop(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.signalClosed();
      this.onClose(this);
    }
    const source = this.source;
    this.source = undefined;
    if (source) {
      await source.unsubscribe().catch(() => {});
      source.destroy();
    }
  }
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return BigInt(expected);
  }
}

/** Resumes strictly after `position`; 0 means the start of the log. */
function positionAfter(position: bigint): ReadPosition {
  return position > 0n ? { commit: position, prepare: position } : START;
}

/**
 * A server-side filter narrowing what crosses the wire. Event types are matched exactly through a
 * regex (the server's prefix filter would let `Added` match `AddedLater`); when both lists are given,
 * the server filters by stream and `matches` checks the types.
 */
function serverFilter(filter: EventFilter | undefined): Filter | undefined {
  const prefixes = filter?.streamPrefixes ?? [];
  if (prefixes.length > 0) return streamNameFilter({ prefixes: [...prefixes] });
  const types = filter?.eventTypes ?? [];
  if (types.length > 0) return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$` });
  return undefined;
}

/** Whether an event passes the port's filter: every given list must match (types and prefixes). */
function matches(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  const types = filter?.eventTypes ?? [];
  if (types.length > 0 && !types.includes(event.type)) return false;
  const prefixes = filter?.streamPrefixes ?? [];
  if (prefixes.length > 0 && !prefixes.some((p) => event.streamId.startsWith(p))) return false;
  return true;
}

/** Maps a KurrentDB event; system events (`$` types or streams) and unresolved links are left out. */
function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const e = resolved.event;
  if (!e || e.type.startsWith('$') || e.streamId.startsWith('$')) return undefined;
  const { [VERSION_KEY]: version, ...metadata } = isRecord(e.metadata) ? e.metadata : {};
  return {
    id: e.id,
    streamId: e.streamId,
    revision: Number(e.revision),
    // Servers before 22.6 leave the position out of stream reads; $all reads always carry it.
    position: e.position?.commit ?? 0n,
    type: e.type,
    version: typeof version === 'number' ? version : 1,
    payload: e.data,
    metadata: metadata as EventMetadata,
    recordedAt: e.created,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
