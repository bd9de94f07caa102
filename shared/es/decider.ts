import { currentRequest, noteCommitted } from '../request-context.js';
import { traceHeaders } from '../tracing/index.js';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from './types.js';
import { WrongExpectedRevisionError } from './types.js';

/** A domain event as a decider sees it: a type and a payload. */
export interface DomainEvent<Type extends string = string, Payload = unknown> {
  type: Type;
  payload: Payload;
}

/**
 * An aggregate's behaviour as three pure functions. `decide` returns the new events or throws an
 * `AppError` for a command the state does not allow; it never reads a clock or makes ids itself.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

/** How each event type changes the state: one handler per type, so a missing one does not compile. */
export type EvolveHandlers<Event extends DomainEvent, State> = {
  [Type in Event['type']]: (state: State, event: Extract<Event, { type: Type }>) => State;
};

/** What each command decides: one handler per command type, returning the new events or throwing an `AppError`. */
export type DecideHandlers<Command extends { type: string }, Event extends DomainEvent, State> = {
  [Type in Command['type']]: (command: Extract<Command, { type: Type }>, state: State) => Event[];
};

/**
 * A decider from handler maps keyed by event and command type, the form every aggregate of the
 * platform is written in: exhaustive by construction, without a `switch` to repeat in each.
 */
export function defineDecider<Command extends { type: string }, Event extends DomainEvent, State>(spec: {
  initialState: () => State;
  evolve: EvolveHandlers<Event, State>;
  decide: DecideHandlers<Command, Event, State>;
}): Decider<Command, Event, State> {
  // Keyed by type: the handler found under `event.type` takes exactly that event (likewise commands).
  const evolvers = spec.evolve as unknown as Record<string, (state: State, event: Event) => State>;
  const deciders = spec.decide as unknown as Record<string, (command: Command, state: State) => Event[]>;
  return {
    initialState: spec.initialState,
    evolve(state, event) {
      const handler = Object.hasOwn(evolvers, event.type) ? evolvers[event.type] : undefined;
      if (!handler) throw new Error(`Unhandled event ${event.type}`);
      return handler(state, event);
    },
    decide(command, state) {
      const handler = Object.hasOwn(deciders, command.type) ? deciders[command.type] : undefined;
      if (!handler) throw new Error(`Unhandled command ${command.type}`);
      return handler(command, state);
    },
  };
}

/** A command, or the command to run made from the state the aggregate is in when it runs. */
export type CommandOf<Command, State> = Command | ((state: State) => Command);

/**
 * A decider of command lists: each command (or command made from the state) is decided on the state the
 * events of those before it produced; the events of all of them, in order, are the list's.
 */
export function batchDecider<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>): Decider<readonly CommandOf<Command, State>[], Event, State> {
  return {
    initialState: decider.initialState,
    evolve: decider.evolve,
    decide(commands, state) {
      const events: Event[] = [];
      let current = state;
      for (const item of commands) {
        const command = typeof item === 'function' ? (item as (s: State) => Command)(current) : item;
        for (const event of decider.decide(command, current)) {
          events.push(event);
          current = decider.evolve(current, event);
        }
      }
      return events;
    },
  };
}

/**
 * The event that creates an aggregate from its create command: the command's own fields as the payload,
 * once; 409 `ALREADY_EXISTS` when `exists` (the state's record of it) is set.
 */
export function firstEvent<Type extends string, Command extends { type: string }>(
  exists: unknown,
  what: string,
  type: Type,
  command: Command,
): DomainEvent<Type, Omit<Command, 'type'>> {
  if (exists) throw new AppError('ALREADY_EXISTS', `${what} already exists`);
  const { type: _type, ...payload } = command;
  return { type, payload };
}

/** Folds recorded events into a state. */
export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent[],
): State {
  let state = decider.initialState();
  for (const e of events) state = decider.evolve(state, { type: e.type, payload: e.payload } as Event);
  return state;
}

/** Who issues a command and in which tenant; becomes the metadata of every event it causes. */
export interface CommandContext {
  actorId?: number | string | null;
  companyId?: number | null;
  workspaceId?: number | null;
  correlationId?: string;
  causationId?: string;
  /** The command's time; every event it causes carries it. */
  now: Date;
}

/** Who a command acts for: the caller's ids, and the event that caused it, if any. */
export interface CommandActor {
  actorId?: number | string | null;
  companyId?: number | null;
  workspaceId?: number | null;
  causationId?: string;
}

/** The actor of a signed-in caller: their user id, company and workspace (none for a company-wide caller). */
export function callerActor(caller: { userId: number; companyId: number; workspaceId?: number | null }): CommandActor {
  return { actorId: caller.userId, companyId: caller.companyId, workspaceId: caller.workspaceId ?? null };
}

/**
 * The one way to build a command's context: the actor's ids, the platform's clock, and — while handling
 * a request — the request's id as the correlation id (the client's address is added to every event's
 * metadata by `eventMetadata`). Background work (sweepers, agents' reports) passes its own actor.
 */
export function commandContext(clock: { now(): Date }, actor: CommandActor = {}): CommandContext {
  const requestId = currentRequest()?.requestId;
  return {
    actorId: actor.actorId ?? null,
    companyId: actor.companyId ?? null,
    workspaceId: actor.workspaceId ?? null,
    ...(requestId ? { correlationId: requestId } : {}),
    ...(actor.causationId ? { causationId: actor.causationId } : {}),
    now: clock.now(),
  };
}

export interface CommandResult<Event extends DomainEvent, State> {
  events: Event[];
  state: State;
  /** Revision of the stream after the append (or before, when nothing was appended). */
  revision: number;
  /** Global position of the last appended event; `null` when the command changed nothing. */
  position: bigint | null;
}

export interface HandleCommandOptions<Command, Event extends DomainEvent, State> {
  store: EventStore;
  streamId: string;
  decider: Decider<Command, Event, State>;
  command: CommandOf<Command, State>;
  context: CommandContext;
  /** Schema versions by event type; 1 when absent. */
  versions?: Partial<Record<Event['type'], number>>;
  /** Attempts before a concurrency conflict is reported as 409. Default 8. */
  maxAttempts?: number;
  /** How a conflict waits before the next attempt; the default sleeps `retryDelayMs` with `Math.random`. */
  backoff?: Backoff;
  /**
   * Loads the state and the stream's revision some other way than folding the whole stream (a history
   * merged with another stream's, a cache of folded states). The append still carries that revision,
   * so a writer elsewhere is a conflict: loaded again and retried.
   */
  load?: (store: EventStore, streamId: string) => Promise<{ state: State; revision: number }>;
  /** Told the state and the stream's revision after a successful append (a cache keeps them). */
  appended?: (state: State, revision: number) => void;
}

/** The wait between attempts after a conflict: a random source and a sleep, so that tests need neither. */
export interface Backoff {
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** The first retry waits up to this long; each further one up to twice as long as the one before. */
const RETRY_BASE_MS = 10;
/** No single wait is longer: eight attempts wait at most about 0.8 s in all. */
const RETRY_CAP_MS = 250;
/** The 409 after the last attempt asks the caller to come back after this many seconds. */
const CONFLICT_RETRY_AFTER_S = 1;

/**
 * The wait before attempt `attempt + 1`, after `attempt` failed ones: "full jitter" over an exponential
 * ceiling, so writers that collided once do not collide again at the same instant.
 */
export function retryDelayMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

const realBackoff: Backoff = { random: Math.random, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** Folds the whole stream: the default load of `handleCommand`. */
async function loadStream<Event extends DomainEvent, State>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
): Promise<{ state: State; revision: number }> {
  const recorded = await store.readStream(streamId);
  return { state: fold(decider, recorded), revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1]!.revision };
}

/**
 * The `load` of a command on a stream named after an id the caller has just generated (a random UUID):
 * such a stream cannot have events yet, so there is nothing to read. The append still expects
 * `no_stream`, so were the stream there after all, the command would fail (409) rather than overwrite it.
 */
export function unwrittenStream<State>(decider: { initialState(): State }): () => Promise<{ state: State; revision: number }> {
  return async () => ({ state: decider.initialState(), revision: -1 });
}

/**
 * Builds the metadata every event of a command carries: the one place every append path (`handleCommand`,
 * the coalescing writer, the direct appends of records without a decider) takes it from, so the one place
 * an event's trace is recorded.
 */
export function eventMetadata(context: CommandContext): EventMetadata {
  // A command run while handling a request records where it came from (the audit shows it).
  const request = currentRequest();
  // And, when this process traces, the trace it was made in (the active span's; flagged off in a trace
  // not sampled): what the event causes later (a webhook delivery, a reaction: `inTraceOf`) continues that
  // trace. Events of before, or made outside any span, have none.
  const { traceparent } = traceHeaders();
  return {
    actorId: context.actorId ?? null,
    companyId: context.companyId ?? null,
    workspaceId: context.workspaceId ?? null,
    correlationId: context.correlationId ?? request?.requestId ?? randomUUID(),
    ...(request ? { clientAddress: request.clientAddress } : {}),
    ...(context.causationId ? { causationId: context.causationId } : {}),
    ...(traceparent ? { traceparent } : {}),
    occurredAt: context.now.toISOString(),
  };
}

/**
 * Load, fold, decide, append with the expected revision; on a conflict wait a jittered, growing moment
 * and start again from load, a few times, then answer 409 CONCURRENCY_CONFLICT with `Retry-After`. The
 * one write path of every aggregate.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  options: HandleCommandOptions<Command, Event, State>,
): Promise<CommandResult<Event, State>> {
  const { store, streamId, decider, context } = options;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoff = options.backoff ?? realBackoff;
  for (let attempt = 1; ; attempt++) {
    const loaded = options.load ? await options.load(store, streamId) : await loadStream(store, streamId, decider);
    let state = loaded.state;
    const revision = loaded.revision;
    const command = typeof options.command === 'function' ? (options.command as (s: State) => Command)(state) : options.command;
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, revision, position: null };
    const metadata = eventMetadata(context);
    const toAppend: NewEvent[] = events.map((e) => ({
      type: e.type,
      version: options.versions?.[e.type as Event['type']] ?? 1,
      payload: e.payload,
      metadata,
    }));
    try {
      const result = await store.append(streamId, toAppend, revision === -1 ? 'no_stream' : revision);
      noteCommitted();
      for (const e of events) state = decider.evolve(state, e);
      options.appended?.(state, result.nextExpectedRevision);
      return { events, state, revision: result.nextExpectedRevision, position: result.position };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError)) throw err;
      if (attempt >= maxAttempts) {
        throw new AppError('CONCURRENCY_CONFLICT', 'The resource was changed by another request; try again', {
          cause: err,
          headers: { 'retry-after': String(CONFLICT_RETRY_AFTER_S) },
        });
      }
      await backoff.sleep(retryDelayMs(attempt, backoff.random));
    }
  }
}
