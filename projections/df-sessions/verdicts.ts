import type { SessionOutcome } from '#events/df/sessions.js';
import type { Sql } from '#shared/db/index.js';
import { isoOrNull, textOrNull } from '#shared/db/index.js';

/** A closed session of a device as its health judges it (docs/modules/device-health.md, "Failed sessions in a row"). */
export interface ClosedSessionVerdict {
  sessionId: string;
  /** `ended`, or `failed` (it could not be prepared). */
  status: string;
  /** Why it ended (for a `failed` one: what the preparation answered). */
  endReason: string | null;
  outcome: SessionOutcome | null;
  outcomeReason: string | null;
  endedAt: string | null;
}

/**
 * The newest `limit` closed sessions of a device that ended after `since` (null: any) and say something
 * of it — an outcome set, a failed preparation, or an end among `failingEndReasons` — newest first.
 * Removed sessions count too: what happened on the device happened.
 */
export async function closedSessionVerdicts(db: Sql, deviceId: string, since: string | null, limit: number, failingEndReasons: readonly string[]): Promise<ClosedSessionVerdict[]> {
  const r = await db.query(
    `SELECT session_id, status, end_reason, outcome, outcome_reason, ended_at FROM df_sessions
     WHERE device_id = $1 AND status IN ('ended', 'failed') AND ($2::timestamptz IS NULL OR ended_at > $2)
       AND (outcome IS NOT NULL OR status = 'failed' OR end_reason = ANY($3::text[]))
     ORDER BY ended_at DESC, started_at DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
    [deviceId, since, [...failingEndReasons]],
  );
  return r.rows.map((row) => ({
    sessionId: String(row.session_id),
    status: String(row.status),
    endReason: textOrNull(row.end_reason),
    outcome: textOrNull(row.outcome) as SessionOutcome | null,
    outcomeReason: textOrNull(row.outcome_reason),
    endedAt: isoOrNull(row.ended_at),
  }));
}
