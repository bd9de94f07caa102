import { randomUUID } from 'node:crypto';
import { openPglite, type Database } from '#shared/db/index.js';
import type { EventMetadata, RecordedEvent } from '#shared/es/index.js';
import { applyAll, type Projection } from './types.js';

// Given-events → then-rows specs for read models (docs/architecture.md, "Read side"). It lives beside
// the projections, not in shared/, because it drives a `Projection` exactly as the runner does.

/** An event as a spec gives it: type and payload, and whatever metadata or stream the test cares about. */
export interface GivenEvent {
  type: string;
  payload: unknown;
  streamId?: string;
  metadata?: Partial<EventMetadata>;
}

export interface ProjectionSpec {
  readonly db: Database;
  /** Applies events in order in one transaction, as the runner does, at increasing positions; returns them as recorded. */
  given(...events: GivenEvent[]): Promise<RecordedEvent[]>;
  /** Applies already recorded events again (a replay after a crash) in one transaction. */
  replay(events: readonly RecordedEvent[]): Promise<void>;
  /** Rows of a query on the read model's tables. */
  rows<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Empties the read model's tables (between tests of one file). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The default metadata of a given event: company 1, workspace 1, user 1, a fixed instant. */
export const SPEC_TIME = '2026-01-02T03:04:05.000Z';

/**
 * One in-memory PGlite with the projection's tables: open it once per spec file (opening takes a
 * moment) and `reset()` between tests.
 */
export async function projectionSpec(projection: Projection): Promise<ProjectionSpec> {
  const db = await openPglite();
  await db.exec(projection.schema);
  let position = 0n;
  const revisions = new Map<string, number>();
  const spec: ProjectionSpec = {
    db,
    async given(...events) {
      const recorded = events.map((e): RecordedEvent => {
        if (!projection.eventTypes.includes(e.type)) throw new Error(`${projection.name} does not handle ${e.type}`);
        const streamId = e.streamId ?? `spec-${e.type}`;
        const revision = (revisions.get(streamId) ?? -1) + 1;
        revisions.set(streamId, revision);
        position += 1n;
        return {
          id: randomUUID(),
          streamId,
          revision,
          position,
          type: e.type,
          version: 1,
          payload: e.payload,
          metadata: { actorId: 1, companyId: 1, workspaceId: 1, occurredAt: SPEC_TIME, ...e.metadata },
          recordedAt: new Date(e.metadata?.occurredAt ?? SPEC_TIME),
        };
      });
      await spec.replay(recorded);
      return recorded;
    },
    async replay(events) {
      await db.transaction((tx) => applyAll(projection, tx, events));
    },
    async rows(sql, params = []) {
      return (await db.query(sql, params)).rows as never;
    },
    async reset() {
      for (const table of projection.tables) await db.query(`DELETE FROM ${table}`);
    },
    close: () => db.close(),
  };
  return spec;
}
