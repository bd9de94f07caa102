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
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') {
        return (streamId: string, events: readonly unknown[], expected: unknown) =>
          inChildSpan(
            `event store append ${categoryOf(streamId)}`,
            { 'db.system.name': target.kind, 'es.stream': streamId, 'es.events': events.length, 'es.expected_revision': String(expected) },
            () => target.append(streamId, events, expected),
            SpanKind.CLIENT,
          );
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
