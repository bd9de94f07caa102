import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/types.js';

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
  if (projection.applyBatch) {
    await projection.applyBatch(tx, events);
    return;
  }
  for (const e of events) await projection.apply(tx, e);
}
