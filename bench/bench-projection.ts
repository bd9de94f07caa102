import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import type { Projection } from '#projections/types.js';

/** The event every benchmark writer appends. */
export const BENCH_EVENT_TYPE = 'BenchSampleRecorded';

/** Payload of a benchmark event: which writer appended it and its sequence number there. */
export interface BenchSamplePayload {
  writer: number;
  sequence: number;
}

/**
 * The smallest real read model: one table, one idempotent insert per event. `onApplied` sees each
 * event inside the runner's transaction, so the lag measurement can stamp it when that transaction
 * commits.
 */
export function createBenchProjection(onApplied?: (tx: Sql, event: RecordedEvent) => void): Projection {
  return {
    name: 'bench-samples',
    version: 1,
    eventTypes: [BENCH_EVENT_TYPE],
    schema: `CREATE TABLE IF NOT EXISTS bench_samples (
      event_id uuid PRIMARY KEY,
      stream_id text NOT NULL,
      position bigint NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    tables: ['bench_samples'],
    async apply(tx, event) {
      await tx.query(
        'INSERT INTO bench_samples (event_id, stream_id, position) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING',
        [event.id, event.streamId, event.position.toString()],
      );
      onApplied?.(tx, event);
    },
    // One multi-row insert per batch: what a rebuild at tens of thousands of events a second needs.
    async applyBatch(tx, events) {
      await tx.query(
        `INSERT INTO bench_samples (event_id, stream_id, position)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[]) ON CONFLICT (event_id) DO NOTHING`,
        [events.map((e) => e.id), events.map((e) => e.streamId), events.map((e) => e.position.toString())],
      );
      for (const e of events) onApplied?.(tx, e);
    },
  };
}
