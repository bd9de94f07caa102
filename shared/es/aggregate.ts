import { timed } from '../request-context.js';
import { batchDecider, handleCommand, unwrittenStream, type CommandContext, type CommandOf, type CommandResult, type Decider, type DomainEvent } from './decider.js';
import type { ReadModelWaiter } from './read-model-waiter.js';
import { KeyedQueue } from '../concurrency.js';
import { CoalescingWriter } from './coalesce.js';
import type { EventStore } from './types.js';

/** An aggregate's state as loaded, and the revision of its stream the append will expect. */
export interface Loaded<State> {
  state: State;
  /** The revision of the aggregate's stream; -1 when it has no events. */
  revision: number;
}

export interface AggregateOptions<Command, Event extends DomainEvent, State> {
  decider: Decider<Command, Event, State>;
  /** The stream of one aggregate, by its id. */
  stream: (id: string) => string;
  /** The read models a write waits for before it answers, so the writer reads its own write. */
  readModels: readonly string[];
  /** Tries of a write that meets a concurrent one (handleCommand's default when absent). */
  maxAttempts?: number;
  /**
   * Loads an aggregate some other way than folding its whole stream: a history merged with another
   * stream's, a cache of folded states (`cachedStates`). The append still expects the revision it
   * returns, so a writer elsewhere is a conflict: loaded again and retried.
   */
  load?: (id: string, store: EventStore) => Promise<Loaded<State>>;
  /** Told the state and the stream's revision after each successful append (a cache keeps them). */
  appended?: (id: string, state: State, revision: number) => void;
  /**
   * The commands of one id run one after another in this process, so writers of one busy stream here
   * never race each other for its revision (a writer in another process is still a conflict).
   */
  oneAtATime?: boolean;
  /**
   * Stronger than `oneAtATime`, for a stream many writers of this process feed at once (a test run's
   * devices): the commands that arrive while an append is in flight are decided one by one on the
   * state the ones before left and appended together; each answers for itself (a refusal rejects only
   * its own command). `created` is not used: the stream is always read (or its cached state).
   */
  coalesce?: boolean;
  /**
   * Whether a run records `append` and `settle` in the answer's `Server-Timing` (default true); false
   * for an aggregate written inside another feature's timed step.
   */
  timed?: boolean;
}

/** How one run goes: see `Aggregate.run`. */
export interface RunOptions {
  created?: boolean;
  settle?: boolean;
}

/** One kind of aggregate: its commands run on its streams, and answer once its read models hold them. */
export interface Aggregate<Command, Event extends DomainEvent, State> {
  /**
   * Runs one command, or a batch: a list of commands each decided on the state the ones before it
   * produced, whose events are all appended at once with one expected revision (all or none: a refusal
   * or a lost conflict of any of them appends nothing), and settled once.
   * `created`: the id was just made, so there is no stream to read first. `settle: false`: answer once
   * appended, the caller settling later (what it does between the two must know the append happened).
   */
  run(id: string, command: CommandOf<Command, State> | readonly CommandOf<Command, State>[], context: CommandContext, options?: RunOptions): Promise<CommandResult<Event, State>>;
  /** Waits for the aggregate's read models to hold a write that `run` answered without settling. */
  settle(result: { position: bigint | null }): Promise<void>;
}

/**
 * The write path of a feature: `run(id, command, context)` loads the aggregate's stream, decides,
 * appends (retrying a concurrent write), and waits for the feature's read models to pass what it wrote;
 * the two are the steps `append` and `settle` of the answer's `Server-Timing`.
 */
export function aggregate<Command, Event extends DomainEvent, State>(
  deps: { store: EventStore; readModels: Pick<ReadModelWaiter, 'waitFor'> },
  options: AggregateOptions<Command, Event, State>,
): Aggregate<Command, Event, State> {
  const step = <T>(name: string, fn: () => Promise<T>): Promise<T> => (options.timed === false ? fn() : timed(name, fn));
  const batches = batchDecider(options.decider);
  const queue = options.oneAtATime ? new KeyedQueue() : null;
  const { load, appended } = options;
  const coalescing = options.coalesce
    ? new CoalescingWriter<Event, State>(deps.store, {
        decider: options.decider,
        stream: options.stream,
        ...(load ? { load } : {}),
        ...(appended ? { appended } : {}),
        ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      })
    : null;
  const decideOn = (command: CommandOf<Command, State> | readonly CommandOf<Command, State>[]) => (state: State): Event[] =>
    Array.isArray(command)
      ? batches.decide(command as readonly CommandOf<Command, State>[], state)
      : options.decider.decide(typeof command === 'function' ? (command as (s: State) => Command)(state) : (command as Command), state);

  const settle = async ({ position }: { position: bigint | null }): Promise<void> => {
    if (position !== null) await step('settle', () => deps.readModels.waitFor(position, { names: options.readModels }));
  };

  const write = (id: string, streamId: string, command: CommandOf<Command, State> | readonly CommandOf<Command, State>[], context: CommandContext, created: boolean) => {
    const common = {
      store: deps.store,
      streamId,
      context,
      ...(created ? { load: unwrittenStream(options.decider) } : load ? { load: () => load(id, deps.store) } : {}),
      ...(appended ? { appended: (state: State, revision: number) => appended(id, state, revision) } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    };
    return Array.isArray(command)
      ? handleCommand({ ...common, decider: batches, command: command as readonly CommandOf<Command, State>[] })
      : handleCommand({ ...common, decider: options.decider, command: command as CommandOf<Command, State> });
  };

  return {
    settle,
    async run(id, command, context, { created = false, settle: settles = true } = {}) {
      const streamId = options.stream(id);
      const once = () => (coalescing ? coalescing.write(id, decideOn(command), context) : write(id, streamId, command, context, created));
      // Waiting behind the id's earlier commands is part of the append's time.
      const result = await step('append', () => (queue ? queue.run(streamId, once) : once()));
      if (settles) await settle(result);
      return result;
    },
  };
}
