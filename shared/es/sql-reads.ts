import type { Sql } from '#shared/db/index.js';
import type { EventFilter, EventMetadata, ReadStreamOptions, RecordedEvent } from './types.js';
import { FRONTIER_SQL } from './sql-schema.js';

const EVENT_COLUMNS = `position, event_id, stream_id, revision, type, version, payload, metadata, recorded_at`;

type EventRow = {
  position: string | bigint;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  version: number;
  payload: unknown;
  metadata: EventMetadata;
  recorded_at: Date | string;
};

/** A stream's events from a revision on, in order. */
export async function readStreamEvents(db: Sql, streamId: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM es_events
     WHERE stream_id = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
    [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
    { prepare: 'es_read_stream' },
  );
  return rows.map(toRecordedEvent);
}

/** One page of the log after a position, as a subscriber reads it. */
export interface LogPage {
  events: RecordedEvent[];
  /** Nothing below it is left unread when the page was not full. */
  frontier: bigint;
  /** Matching events above the frontier were already committed, held back by an older transaction still running. */
  heldBack: boolean;
}

/**
 * One page after `after`, below the frontier. Also tells a subscriber where the frontier was (when the
 * page was not full, nothing below it is left to read) and whether matching events above it were
 * already committed, held back by an older transaction still running.
 */
export async function readLogPage(db: Sql, after: bigint, maxCount: number | null, filter: EventFilter | undefined): Promise<LogPage> {
  const params: unknown[] = [after.toString(), maxCount];
  const conditions: string[] = [];
  const types = filter?.eventTypes ?? [];
  if (types.length > 0) {
    conditions.push(`type IN (${types.map((t) => `$${params.push(t)}`).join(', ')})`);
  }
  const prefixes = filter?.streamPrefixes ?? [];
  if (prefixes.length > 0) {
    conditions.push(`(${prefixes.map((p) => `stream_id LIKE $${params.push(likePrefix(p))}`).join(' OR ')})`);
  }
  // The frontier is applied to the page, not inside the query: as a bound unknown when the query is
  // planned it would make the planner misjudge the position range. Rows at or above the frontier can
  // only form the tail of the ordered page, so cutting them off still leaves a prefix of the log.
  const { rows } = await db.query<EventRow & { frontier: string | bigint }>(
    `SELECT f.frontier, e.* FROM (SELECT ${FRONTIER_SQL} AS frontier) f
     LEFT JOIN LATERAL (
       SELECT ${EVENT_COLUMNS} FROM es_events
       WHERE position > $1::bigint ${conditions.map((c) => `AND ${c}`).join(' ')}
       ORDER BY position LIMIT $2
     ) e ON true
     ORDER BY e.position`,
    params,
  );
  const frontier = BigInt(rows[0]?.frontier ?? 0);
  const page = rows.filter((r) => r.position !== null).map(toRecordedEvent);
  const readable = page.filter((e) => e.position < frontier);
  return { events: readable, frontier, heldBack: readable.length < page.length };
}

/** The position of the last event below the frontier (0 for an empty log). */
export async function readHeadPosition(db: Sql): Promise<bigint> {
  const { rows } = await db.query<{ head: string | bigint }>(
    `SELECT coalesce(max(position), 0) AS head FROM es_events WHERE position < ${FRONTIER_SQL}`,
    [],
    { prepare: 'es_head' },
  );
  return BigInt(rows[0]?.head ?? 0);
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: BigInt(row.position),
    type: row.type,
    version: Number(row.version),
    payload: row.payload,
    metadata: row.metadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  };
}

/** A LIKE pattern matching names that start with `prefix` literally. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
