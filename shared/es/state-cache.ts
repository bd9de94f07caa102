import type { Decider, DomainEvent } from './decider.js';
import type { Loaded } from './aggregate.js';
import type { EventStore } from './types.js';

/**
 * The `load` and `appended` of an aggregate whose streams grow long (a test session collects many
 * results): the folded state of the `size` most recently used aggregates is kept in memory, so a command
 * reads only the events after the kept revision instead of the whole stream. Spread into the options.
 */
export function cachedStates<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  stream: (id: string) => string,
  size: number,
): {
  load: (id: string, store: EventStore) => Promise<Loaded<State>>;
  appended: (id: string, state: State, revision: number) => void;
} {
  const cache = new Map<string, Loaded<State>>();
  // A Map keeps insertion order: the first key is the least recently used.
  const remember = (id: string, state: State, revision: number): void => {
    cache.delete(id);
    cache.set(id, { state, revision });
    if (cache.size > size) cache.delete(cache.keys().next().value!);
  };
  return {
    async load(id, store) {
      const cached = cache.get(id);
      let state = cached?.state ?? decider.initialState();
      let revision = cached?.revision ?? -1;
      for (const e of await store.readStream(stream(id), { fromRevision: revision + 1 })) {
        state = decider.evolve(state, { type: e.type, payload: e.payload } as Event);
        revision = e.revision;
      }
      if (revision >= 0) remember(id, state, revision);
      return { state, revision };
    },
    appended: remember,
  };
}
