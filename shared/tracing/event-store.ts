import { inChildSpan, SpanKind, tracingActive } from './spans.js';

/** What of the event store port (shared/es, which records the trace in event metadata through this package) a span needs. */
interface Appending {
  readonly kind: string;
  append(streamId: string, events: readonly unknown[], expected: unknown): Promise<unknown>;
}

/** A stream's category, its id without the aggregate's uuid: `device-session-<uuid>` is `device-session`. */
export const categoryOf = (streamId: string): string => /^(.*?)[-:][0-9a-f]{8}-[0-9a-f]{4}-/i.exec(streamId)?.[1] ?? streamId.split(/[-:]/, 1)[0]!;

/**
 * `store` with each append a span of the trace it is made in (a command handler's, inside a request or
 * a traced bus message), named by the stream's category (`df-session`), with the number of events and
 * the revision expected. Appends outside any trace start none. Off, `store` itself is returned.
 */
export function tracedEventStore<S extends Appending>(store: S): S {
  if (!tracingActive()) return store;
  const append = (streamId: string, events: readonly unknown[], expected: unknown) =>
    inChildSpan(
      `event store append ${categoryOf(streamId)}`,
      { 'db.system.name': store.kind, 'es.stream': streamId, 'es.events': events.length, 'es.expected_revision': String(expected) },
      () => store.append(streamId, events, expected),
      SpanKind.CLIENT,
    );
  // The store's other methods, bound once each (not at every access); a property given another function is bound again.
  const bound = new Map<PropertyKey, { fn: unknown; method: unknown }>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const known = bound.get(property);
      if (known?.fn === value) return known.method;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(property, { fn: value, method });
      return method;
    },
  });
}
