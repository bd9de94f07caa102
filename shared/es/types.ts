/**
 * The event store port. Streams are named `<category>-<id>`; every event also has a position in one
 * global log. Positions only grow in the order a subscriber sees events, so a checkpoint is one number.
 */

/** Who and what caused an event. Times and ids come from the command, never from the clock of a decider. */
export interface EventMetadata {
  actorId?: number | string | null;
  companyId?: number | null;
  workspaceId?: number | null;
  correlationId?: string;
  causationId?: string;
  /** ISO 8601 instant the command was accepted. */
  occurredAt: string;
  /**
   * The W3C `traceparent` of the trace the command ran in, when the process traced (docs/operations.md,
   * "Tracing"); absent otherwise and on older events.
   */
  traceparent?: string;
  [key: string]: unknown;
}

/** An event to append. */
export interface NewEvent<Type extends string = string, Payload = unknown> {
  /** UUID; generated when absent. */
  id?: string;
  type: Type;
  /** Schema version of the payload. Defaults to 1. */
  version?: number;
  payload: Payload;
  metadata: EventMetadata;
}

/** An event as stored. */
export interface RecordedEvent<Type extends string = string, Payload = unknown> {
  id: string;
  streamId: string;
  /** 0-based revision of the event within its stream. */
  revision: number;
  /** Position in the global log; grows strictly in subscription order. */
  position: bigint;
  type: Type;
  version: number;
  payload: Payload;
  metadata: EventMetadata;
  recordedAt: Date;
}

/**
 * What the writer believes about the stream:
 * - `'no_stream'`: it must not exist yet;
 * - `'stream_exists'`: it must have at least one event;
 * - `'any'`: no check;
 * - a number: the revision of its last event must be exactly this.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

/**
 * Refuses what no adapter appends, before it touches its store: no event, more than `maxEvents`, or
 * an expected revision that is no revision.
 */
export function assertAppendable(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision, maxEvents = Infinity): void {
  if (events.length === 0) throw new RangeError(`Append to ${streamId}: at least one event is needed`);
  if (events.length > maxEvents) throw new RangeError(`Append to ${streamId}: ${events.length} events, but one append holds at most ${maxEvents}`);
  if (typeof expectedRevision === 'number' && !(Number.isInteger(expectedRevision) && expectedRevision >= 0)) {
    throw new RangeError(`Append to ${streamId}: expected revision ${expectedRevision} is not a revision`);
  }
}

export interface AppendResult {
  /** Revision of the last appended event. */
  nextExpectedRevision: number;
  /** Global position of the last appended event (for read-your-writes). */
  position: bigint;
}

export interface ReadStreamOptions {
  /** First revision to return (inclusive). Default 0. */
  fromRevision?: number;
  maxCount?: number;
}

/** Selects events of the global log. Both lists empty or absent means every event. */
export interface EventFilter {
  eventTypes?: readonly string[];
  /** Stream name prefixes such as `workspace-` or `device-session-`. */
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Return events strictly after this position. Absent or `0n`-before-start means from the beginning. */
  after?: bigint | null;
  maxCount?: number;
  filter?: EventFilter;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position (a checkpoint). Absent: from the beginning. */
  after?: bigint | null;
  filter?: EventFilter;
  /** Largest batch fetched at once while catching up; `DEFAULT_BATCH_SIZE` when absent. */
  batchSize?: number;
}

export const DEFAULT_BATCH_SIZE = 500;

/**
 * A catch-up subscription: first the stored history after the checkpoint, then live events, in log
 * order, never skipping one. Iterate it with `for await`; `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/** An adapter's subscription: iterated once (a second `for await` throws), its events coming from `run`. */
export abstract class SingleUseSubscription implements Subscription {
  private iterated = false;

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterated) throw new Error('A subscription can be iterated only once');
    this.iterated = true;
    return this.run();
  }

  /** The events after the checkpoint, stored then live, until the subscription is closed. */
  protected abstract run(): AsyncGenerator<RecordedEvent>;

  abstract close(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'pglite' | 'kurrentdb';
  /** Appends atomically: all events or none. Throws `WrongExpectedRevisionError` on a revision mismatch. */
  append(streamId: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in revision order; an unknown stream is an empty list. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** One page of the global log in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the newest event a subscriber can see now (`0n` when empty). */
  headPosition(): Promise<bigint>;
  subscribe(options?: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

/** The stream's revision was not what the writer expected. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
    options?: { cause?: unknown },
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`, options);
    this.name = 'WrongExpectedRevisionError';
  }
}
