import { AppError } from '../errors.js';
import { eventMetadata, fold, retryDelayMs, type CommandContext, type CommandResult, type Decider, type DomainEvent } from './decider.js';
import { WrongExpectedRevisionError, type EventMetadata, type EventStore, type NewEvent } from './types.js';

/** One command waiting for its stream's next append: how it decides, and who waits for its answer. */
interface Waiting<Event extends DomainEvent, State> {
  decide(state: State): Event[];
  /** Taken when the command was sent, in its caller's request context. */
  metadata: EventMetadata;
  resolve(result: CommandResult<Event, State>): void;
  reject(err: unknown): void;
}

export interface CoalescingOptions<Event extends DomainEvent, State> {
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>;
  stream: (id: string) => string;
  load?: (id: string, store: EventStore) => Promise<{ state: State; revision: number }>;
  appended?: (id: string, state: State, revision: number) => void;
  maxAttempts?: number;
}

/**
 * Group commit for one busy stream: the commands of an id that arrive while its last append is in
 * flight wait, then are decided one after another on the state the ones before left and appended
 * together, with one expected revision. Unlike a batch, each command answers for itself: one that is
 * refused rejects alone and writes nothing, the others are written. A concurrent writer elsewhere
 * (another process) is a conflict: the whole group is decided again on the new state.
 */
export class CoalescingWriter<Event extends DomainEvent, State> {
  private readonly waiting = new Map<string, Waiting<Event, State>[]>();
  private readonly draining = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly options: CoalescingOptions<Event, State>,
  ) {}

  /** Sends one command; answers once it is written (or refused), with the position of its group's append. */
  write(id: string, decide: (state: State) => Event[], context: CommandContext): Promise<CommandResult<Event, State>> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id) ?? [];
      list.push({ decide, metadata: eventMetadata(context), resolve, reject });
      this.waiting.set(id, list);
      if (!this.draining.has(id)) void this.drain(id);
    });
  }

  private async drain(id: string): Promise<void> {
    this.draining.add(id);
    try {
      for (let group = this.take(id); group.length > 0; group = this.take(id)) await this.writeGroup(id, group);
    } finally {
      this.draining.delete(id);
    }
  }

  private take(id: string): Waiting<Event, State>[] {
    const group = this.waiting.get(id) ?? [];
    this.waiting.delete(id);
    return group;
  }

  private async load(id: string): Promise<{ state: State; revision: number }> {
    if (this.options.load) return this.options.load(id, this.store);
    const recorded = await this.store.readStream(this.options.stream(id));
    return { state: fold(this.options.decider, recorded), revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1]!.revision };
  }

  private async writeGroup(id: string, group: Waiting<Event, State>[]): Promise<void> {
    const { decider } = this.options;
    const maxAttempts = this.options.maxAttempts ?? 8;
    for (let attempt = 1; ; attempt++) {
      let loaded: { state: State; revision: number };
      try {
        loaded = await this.load(id);
      } catch (err) {
        for (const w of group) w.reject(err);
        return;
      }
      let state = loaded.state;
      const decided: ({ events: Event[]; state: State } | { error: unknown })[] = [];
      const toAppend: NewEvent[] = [];
      for (const w of group) {
        try {
          const events = w.decide(state);
          for (const e of events) state = decider.evolve(state, e);
          decided.push({ events, state });
          toAppend.push(...events.map((e) => ({ type: e.type, version: 1, payload: e.payload, metadata: w.metadata })));
        } catch (error) {
          decided.push({ error });
        }
      }
      const answer = (revision: number, position: bigint | null) =>
        group.forEach((w, i) => {
          const d = decided[i]!;
          if ('error' in d) w.reject(d.error);
          else w.resolve({ events: d.events, state: d.state, revision, position: d.events.length > 0 ? position : null });
        });
      if (toAppend.length === 0) return answer(loaded.revision, null);
      try {
        const result = await this.store.append(this.options.stream(id), toAppend, loaded.revision === -1 ? 'no_stream' : loaded.revision);
        this.options.appended?.(id, state, result.nextExpectedRevision);
        return answer(result.nextExpectedRevision, result.position);
      } catch (err) {
        const conflict = err instanceof WrongExpectedRevisionError;
        if (!conflict || attempt >= maxAttempts) {
          const failure = conflict ? new AppError('CONCURRENCY_CONFLICT', 'The resource was changed by another request; try again', { cause: err }) : err;
          for (const w of group) w.reject(failure);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt, Math.random)));
      }
    }
  }
}
