import { randomUUID } from 'node:crypto';
import type { Sql } from '#shared/db/index.js';
import type { ExpectedRevision, NewEvent } from './types.js';
import type { GroupMember, MemberOutcome } from './group-commit.js';

/** Per expected revision: moves the stream's revision on by $2 events and returns the new last revision. */
const STREAM_ADVANCE = {
  no_stream: `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
              ON CONFLICT (stream_id) DO NOTHING RETURNING revision`,
  stream_exists: `UPDATE es_streams SET revision = revision + $2 WHERE stream_id = $1 RETURNING revision`,
  any: `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2 - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + $2 RETURNING revision`,
  exact: `UPDATE es_streams SET revision = revision + $2 WHERE stream_id = $1 AND revision = $4 RETURNING revision`,
} as const;

function expectedKind(expected: ExpectedRevision): keyof typeof STREAM_ADVANCE {
  return typeof expected === 'number' ? 'exact' : expected;
}

/** An append as group commit carries it: its events serialised once, ids given to those without. */
export function groupMember(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): GroupMember {
  return {
    streamId,
    expected,
    count: events.length,
    types: [...new Set(events.map((e) => e.type))],
    events: JSON.stringify(
      events.map((e) => ({
        id: e.id ?? randomUUID(),
        type: e.type,
        version: e.version ?? 1,
        payload: e.payload ?? null,
        metadata: e.metadata,
      })),
    ),
  };
}

/** One append in a statement of its own. */
export async function appendAlone(db: Sql, member: GroupMember): Promise<MemberOutcome> {
  const { streamId, expected, count, events } = member;
  let inserted: { position: string | bigint; revision: number }[];
  try {
    // One statement, hence one implicit transaction and one round trip: the streams row moves on (under
    // its row lock, so concurrent writers of a stream queue and each re-checks what the previous one
    // left), and the events are inserted only if it did.
    ({ rows: inserted } = await db.query<{ position: string | bigint; revision: number }>(
      `WITH stream AS (${STREAM_ADVANCE[expectedKind(expected)]})
       INSERT INTO es_events (index_in_append, event_id, stream_id, revision, type, version, payload, metadata)
       SELECT e.ordinality - 1, (e.value->>'id')::uuid, $1, stream.revision - $2 + e.ordinality::integer,
              e.value->>'type', (e.value->>'version')::integer, e.value->'payload', e.value->'metadata'
       FROM stream CROSS JOIN jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e
       RETURNING position, revision`,
      [streamId, count, events, ...(typeof expected === 'number' ? [expected] : [])],
      // Parsed and planned once per connection: appends are the hottest statement of the platform.
      { prepare: `es_append_${expectedKind(expected)}` },
    ));
  } catch (err) {
    // The streams row serialises writers, so this is a second line of defence, not the usual path.
    if (isUniqueViolation(err)) return { conflict: true };
    throw err;
  }
  if (inserted.length === 0) return { conflict: true };
  const last = inserted.reduce((a, b) => (b.revision > a.revision ? b : a));
  return { written: { nextExpectedRevision: Number(last.revision), position: BigInt(last.position) } };
}

/** A stream's revision now, as a conflicting append reports it. */
export async function currentRevision(db: Sql, streamId: string): Promise<number | 'no_stream'> {
  const { rows } = await db.query<{ revision: number }>(`SELECT revision FROM es_streams WHERE stream_id = $1`, [streamId]);
  return rows[0] ? Number(rows[0].revision) : 'no_stream';
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
