import { timed } from '../request-context.js';
import { handleCommand, unwrittenStream, type CommandContext, type CommandResult, type Decider, type DomainEvent } from './decider.js';
import type { ReadModelWaiter } from './read-model-waiter.js';
import type { EventStore } from './types.js';


export interface AggregateOptions<Command, Event extends DomainEvent, State> {
  decider: Decider<Command, Event, State>;
  /** The stream of one aggregate, by its id. */
  stream: (id: string) => string;
  /** The read models a write waits for before it answers, so the writer reads its own write. */
  readModels: readonly string[];
  /** Tries of a write that meets a concurrent one (handleCommand's default when absent). */
  maxAttempts?: number;
}

/** One kind of aggregate: its commands run on its streams, and answer once its read models hold them. */
export interface Aggregate<Command, Event extends DomainEvent, State> {
  /**
   * `created`: the id was just made, so there is no stream to read first. `settle: false`: answer once
   * appended, the caller settling later (what it does between the two must know the append happened).
   */
  run(id: string, command: Command | ((state: State) => Command), context: CommandContext, options?: { created?: boolean; settle?: boolean }): Promise<CommandResult<Event, State>>;
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
  const settle = async ({ position }: { position: bigint | null }): Promise<void> => {
    if (position !== null) await timed('settle', () => deps.readModels.waitFor(position, { names: options.readModels }));
  };
  return {
    settle,
    async run(id, command, context, { created = false, settle: settles = true } = {}) {
      const result = await timed('append', () =>
        handleCommand({
          store: deps.store,
          streamId: options.stream(id),
          decider: options.decider,
          command,
          context,
          ...(created ? { load: unwrittenStream(options.decider) } : {}),
          ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
        }),
      );
      if (settles) await settle(result);
      return result;
    },
  };
}
