import { z } from 'zod';
import type { DomainEvent } from './decider.js';

/** Payload schemas by event type: the one way a feature declares its events (`events/<module>/<feature>.ts`). */
export type EventSchemas = Record<string, z.ZodType>;

/** The union of domain events a contract declares, payloads as their schemas output them. */
export type EventsOf<S extends EventSchemas> = {
  [K in keyof S & string]: DomainEvent<K, z.output<S[K]>>;
}[keyof S & string];

/** A feature's event contract: its payload schemas, the list of its type names, and a checked parse. */
export interface EventContract<S extends EventSchemas> {
  readonly schemas: S;
  /** Every type name of the contract, in declaration order (what projections subscribe to). */
  readonly types: readonly (keyof S & string)[];
  /** Whether a type name belongs to this contract. */
  has(type: string): type is keyof S & string;
  /** Checks a payload against its type's schema; throws a `ZodError` naming the field that is off. */
  parse(event: { type: string; payload: unknown }): EventsOf<S>;
  /** Checks the payloads of events about to be appended against their schemas and returns them as they are. */
  checked<E extends EventsOf<S>>(events: E[]): E[];
}

/** Declares a feature's events from their payload schemas. */
export function defineEvents<const S extends EventSchemas>(schemas: S): EventContract<S> {
  const types = Object.keys(schemas) as (keyof S & string)[];
  const known = new Set<string>(types);
  return {
    schemas,
    types,
    has: (type): type is keyof S & string => known.has(type),
    parse(event) {
      if (!known.has(event.type)) throw new Error(`Unknown event type ${event.type}`);
      const payload = schemas[event.type]!.parse(event.payload);
      return { type: event.type, payload } as EventsOf<S>;
    },
    checked(events) {
      for (const e of events) schemas[e.type]!.parse(e.payload);
      return events;
    },
  };
}

/** The event union of a contract: `type ProjectEvent = EventOf<typeof projectEvents>`. */
export type EventOf<C> = C extends EventContract<infer S> ? EventsOf<S> : never;
