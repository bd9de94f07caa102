import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import type { SignInMethod } from '#events/organization/users.js';

/** One sign-in session as its user sees it. */
export interface SignInSessionView {
  id: string;
  userId: number;
  startedAt: string;
  expiresAt: string;
  address: string | null;
  userAgent: string | null;
  lastUsedAt: string;
  lastAddress: string | null;
  endedAt: string | null;
  endReason: string | null;
  /** How it began: a password (or sign-up) or an identity provider. */
  method: SignInMethod;
}

type Row = {
  id: string;
  userId: number;
  startedAt: Date | string;
  expiresAt: Date | string;
  address: string | null;
  userAgent: string | null;
  lastUsedAt: Date | string | null;
  lastAddress: string | null;
  endedAt: Date | string | null;
  endReason: string | null;
  method: SignInMethod;
};

const iso = (v: Date | string) => new Date(v).toISOString();

function view(row: Row): SignInSessionView {
  const started = iso(row.startedAt);
  const used = row.lastUsedAt === null ? started : iso(row.lastUsedAt);
  return {
    id: row.id,
    userId: Number(row.userId),
    startedAt: started,
    expiresAt: iso(row.expiresAt),
    address: row.address,
    userAgent: row.userAgent,
    // A session is used when it begins; the usage table only moves it on.
    lastUsedAt: used < started ? started : used,
    lastAddress: row.lastAddress ?? row.address,
    endedAt: row.endedAt === null ? null : iso(row.endedAt),
    endReason: row.endReason,
    method: row.method,
  };
}

const SELECT = `SELECT s.session_id AS id, s.user_id AS "userId", s.started_at AS "startedAt", s.expires_at AS "expiresAt",
    s.address, s.user_agent AS "userAgent", u.last_used_at AS "lastUsedAt", u.last_address AS "lastAddress",
    s.ended_at AS "endedAt", s.end_reason AS "endReason", s.method
  FROM org_sign_in_sessions s LEFT JOIN org_sign_in_session_usage u ON u.session_id = s.session_id`;
const ACTIVE = `s.user_id = $1 AND s.ended_at IS NULL AND s.expires_at > $2`;

/** A user's sessions that have neither ended nor expired at `now`, the latest used first. */
export async function listActiveSignInSessions(db: Sql, userId: number, now: Date, page: number, size: number): Promise<Page<SignInSessionView>> {
  const total = Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM org_sign_in_sessions s WHERE ${ACTIVE}`, [userId, now])).rows[0]?.n ?? 0);
  const r = await db.query<Row>(
    `${SELECT} WHERE ${ACTIVE} ORDER BY greatest(s.started_at, coalesce(u.last_used_at, s.started_at)) DESC, s.position DESC LIMIT $3 OFFSET $4`,
    [userId, now, size, page * size],
  );
  return toPage(r.rows.map(view), total, page, size);
}

/** One session of a user, ended or not; null for another user's or an unknown one. */
export async function findSignInSession(db: Sql, userId: number, sessionId: string): Promise<SignInSessionView | null> {
  const r = await db.query<Row>(`${SELECT} WHERE s.user_id = $1 AND s.session_id = $2`, [userId, sessionId]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

/** Records a use of a session (monotonic: an older use never moves it back). Not an event. */
export async function recordSignInSessionUse(db: Sql, sessionId: string, at: Date, address: string | null): Promise<void> {
  await db.query(
    `INSERT INTO org_sign_in_session_usage (session_id, last_used_at, last_address) VALUES ($1, $2, $3)
     ON CONFLICT (session_id) DO UPDATE SET last_used_at = EXCLUDED.last_used_at, last_address = EXCLUDED.last_address
     WHERE org_sign_in_session_usage.last_used_at < EXCLUDED.last_used_at`,
    [sessionId, at, address],
  );
}

/** Whether a sign-in session has ended (for the revocation check when its cache cannot answer). */
export async function signInSessionEnded(db: Sql, sessionId: string): Promise<boolean> {
  const r = await db.query<{ ended: boolean }>(`SELECT ended_at IS NOT NULL AS ended FROM org_sign_in_sessions WHERE session_id = $1`, [sessionId]);
  return r.rows[0]?.ended === true;
}

/** The sessions that ended at or after `since`, and when (to reload the revocation cache). */
export async function signInSessionsEndedSince(db: Sql, since: Date): Promise<{ sid: string; endedAt: Date }[]> {
  const r = await db.query<{ sid: string; endedAt: Date | string }>(
    `SELECT session_id AS sid, ended_at AS "endedAt" FROM org_sign_in_sessions WHERE ended_at >= $1`,
    [since],
  );
  return r.rows.map((row) => ({ sid: row.sid, endedAt: new Date(row.endedAt) }));
}

/** The sessions of these users that began with a password and have neither ended nor expired at `now`. */
export async function activePasswordSessions(db: Sql, userIds: readonly number[], now: Date): Promise<{ sid: string; userId: number }[]> {
  if (userIds.length === 0) return [];
  const r = await db.query<{ sid: string; userId: unknown }>(
    `SELECT session_id AS sid, user_id AS "userId" FROM org_sign_in_sessions
     WHERE user_id = ANY($1::int[]) AND method = 'password' AND ended_at IS NULL AND expires_at > $2 ORDER BY user_id, started_at`,
    [userIds, now],
  );
  return r.rows.map((row) => ({ sid: row.sid, userId: Number(row.userId) }));
}
