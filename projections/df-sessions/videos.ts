import type { Sql } from '#shared/db/index.js';
import { isoOrNull as iso } from '#shared/db/index.js';

/** One recording's video of a session: from when the recording started, as stored, and when the retention removed it. */
export interface SessionVideo {
  recordingId: string;
  startedAt: string;
  format: 'mp4';
  durationMs: number;
  bytes: number;
  storedAt: string;
  /** Removed by the workspace's video retention then; null while it is stored. */
  expiredAt: string | null;
}

/** The session's videos, one per recording that produced one, oldest first (the last is the session's `video`). */
export async function sessionVideos(db: Sql, sessionId: string): Promise<SessionVideo[]> {
  const r = await db.query(
    `SELECT recording_id, started_at, duration_ms, bytes, stored_at, expired_at FROM df_session_videos WHERE session_id = $1 ORDER BY started_at, stored_at, recording_id`,
    [sessionId],
  );
  return r.rows.map((row) => ({
    recordingId: String(row.recording_id),
    startedAt: iso(row.started_at)!,
    format: 'mp4',
    durationMs: Number(row.duration_ms),
    bytes: Number(row.bytes),
    storedAt: iso(row.stored_at)!,
    expiredAt: iso(row.expired_at),
  }));
}
