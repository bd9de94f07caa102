import type { Sql } from '#shared/db/index.js';
import type { DomainEvent } from '#shared/es/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { inLinkedSpan, tracingActive } from '#shared/tracing/index.js';

/**
 * A read model: the events it handles, the SQL tables it owns, and how one event changes its rows.
 * `apply` must be idempotent per event and must not read other projections' tables.
 */
export interface Projection {
  /** Stable name, also the checkpoint key (`users`, `workspaces`). */
  name: string;
  /** Event types it handles; the runner reads only these. */
  eventTypes: readonly string[];
  /** Idempotent DDL creating its tables (`CREATE TABLE IF NOT EXISTS ...`). */
  schema: string;
  /** Its tables, emptied on rebuild. */
  tables: readonly string[];
  /**
   * Whether its rows keep personal data read from events' metadata (a client's address). Those that
   * handle event types with personal fields (events/personal-data.ts) keep it anyway; both kinds are
   * rebuilt when a person is erased.
   */
  keepsPersonalData?: boolean;
  /**
   * Rewrites in place what its rows keep of a person just erased, instead of the rebuild an erasure
   * otherwise gives a read model that keeps personal data (so it keeps answering meanwhile). Called once
   * the read model has applied every event read before the person's key was destroyed, in a transaction
   * holding its checkpoint row.
   */
  erasePerson?(tx: Sql, userId: number): Promise<void>;
  /** Bump when `apply` or `schema` changes meaning: the runner then rebuilds from zero on start. */
  version: number;
  apply(tx: Sql, event: RecordedEvent): Promise<void>;
  /**
   * Optional: applies a batch of consecutive events in a few statements (multi-row writes). When
   * present the runner and rebuilds use it instead of `apply`; it must leave the same rows.
   */
  applyBatch?(tx: Sql, events: readonly RecordedEvent[]): Promise<void>;
}

/** Applies events in order, through `applyBatch` when the projection has one. */
export async function applyAll(projection: Projection, tx: Sql, events: readonly RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Each batch applied is a span when tracing is on (shared/tracing), a trace of its own linked to the
  // traces its events were appended in (at most MAX_SPAN_LINKS); off, only the apply runs.
  if (tracingActive()) {
    const attributes = { 'projection.name': projection.name, 'projection.events': events.length, 'es.position.first': String(events[0]!.position), 'es.position.last': String(events.at(-1)!.position) };
    return inLinkedSpan(`projection apply ${projection.name}`, attributes, traceparentsOf(events), () => applyEvents(projection, tx, events));
  }
  return applyEvents(projection, tx, events);
}

/** Each event's recorded `traceparent` (none on events of before and of untraced work), in log order. */
function* traceparentsOf(events: readonly RecordedEvent[]): Generator<unknown> {
  for (const e of events) yield e.metadata.traceparent;
}

async function applyEvents(projection: Projection, tx: Sql, events: readonly RecordedEvent[]): Promise<void> {
  if (projection.applyBatch) {
    await projection.applyBatch(tx, events);
    return;
  }
  for (const e of events) await projection.apply(tx, e);
}

/** How a read model applies each event type it handles: one handler per type, so a missing one does not compile. */
export type ApplyHandlers<Event extends DomainEvent> = {
  [Type in Event['type']]: (tx: Sql, event: Extract<Event, { type: Type }>, at: string, recorded: RecordedEvent) => Promise<unknown>;
};

/**
 * A projection's `apply` from handlers keyed by event type; `at` is the event's `occurredAt`. With the
 * events' contract, each payload is checked against its schema before it reaches a handler.
 */
export function applyByType<Event extends DomainEvent>(handlers: ApplyHandlers<Event>, contract?: { parse(event: { type: string; payload: unknown }): unknown }): Projection['apply'] {
  // Keyed by type: the handler found under `recorded.type` takes exactly that event.
  const byType = handlers as unknown as Record<string, (tx: Sql, event: Event, at: string, recorded: RecordedEvent) => Promise<unknown>>;
  return async (tx, recorded) => {
    const handler = Object.hasOwn(byType, recorded.type) ? byType[recorded.type] : undefined;
    if (!handler) throw new Error(`Unhandled event ${recorded.type}`);
    const event = (contract ? contract.parse(recorded) : { type: recorded.type, payload: recorded.payload }) as Event;
    await handler(tx, event, recorded.metadata.occurredAt, recorded);
  };
}

/** The name a projection's tables are applied under (see applySchema); whoever else creates them uses it too. */
export function projectionSchemaName(projection: Pick<Projection, 'name'>): string {
  return `projection:${projection.name}`;
}
