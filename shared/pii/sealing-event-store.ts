import type { EventStore, NewEvent, ReadAllOptions, ReadStreamOptions, RecordedEvent, SubscribeOptions, Subscription } from '#shared/es/index.js';
import type { PersonalData } from './personal-data.js';

/**
 * The event store with personal data sealed on the way in and opened on the way out: every reader
 * (deciders, projections, reactions) sees values, or placeholders of erased persons; the store (and so
 * the history's chain) holds only ciphertext. Anything else the store has passes through.
 */
export function sealingEventStore<S extends EventStore>(store: S, data: PersonalData): S {
  return new Proxy(store, {
    get(target, property) {
      switch (property) {
        case 'append':
          return async (streamId: string, events: readonly NewEvent[], expected: Parameters<EventStore['append']>[2]) =>
            target.append(streamId, await data.seal(events), expected);
        case 'readStream':
          return async (streamId: string, options?: ReadStreamOptions) => data.open(await target.readStream(streamId, options));
        case 'readAll':
          return async (options?: ReadAllOptions) => data.open(await target.readAll(options));
        case 'subscribe':
          return (options?: SubscribeOptions) => openedSubscription(target.subscribe(options), data);
        case 'personalData':
          return data;
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The personal data a store seals with, when it is a sealing store. */
export function personalDataOf(store: EventStore): PersonalData | undefined {
  return (store as EventStore & { personalData?: PersonalData }).personalData;
}

function openedSubscription(inner: Subscription, data: PersonalData): Subscription {
  return {
    close: () => inner.close(),
    async *[Symbol.asyncIterator](): AsyncGenerator<RecordedEvent> {
      for await (const e of inner) {
        const [opened] = await data.open([e]);
        yield opened!;
      }
    },
  };
}
