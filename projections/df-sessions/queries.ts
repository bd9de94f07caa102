import type { SessionOutcome } from '#events/df/sessions.js';
import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { type Row, isoOrNull as iso, json, numOrNull, textOrNull } from '#shared/db/index.js';
import { Conditions, containing, countOf, oneOrNull, readPage, rowsAndTotal, type WorkspaceScope } from '../queries.js';

/** A session as the API shows it (docs/api-conventions.md, "Device testing"). */
export interface SessionView {
  id: string;
  name: string;
  deviceId: string;
  deviceName: string;
  type: string;
  status: string;
  startedAt: string;
  readyAt: string | null;
  endedAt: string | null;
  endReason: string | null;
  /** The test outcome its runner set (`passed`, `failed`), null while none is set. */
  outcome: SessionOutcome | null;
  /** Why, when the runner said (the first failure's message). */
  outcomeReason: string | null;
  buildName: string | null;
  metadata: Record<string, unknown>;
  ownerId: number;
  workspaceId: number;
  lastActivityAt: string;
  screen: { width: number; height: number; scale: number } | null;
}

/** The service's own view of a session: routing and tenancy facts included. */
export interface SessionRecord extends SessionView {
  hostId: string;
  companyId: number;
  notes: string;
  recording: { recordingId: string | null; startedAt: string | null; frames: number | null; artifactId: string | null };
  /** The session's latest stored video (of the recording `recordingId`), or null; `expiredAt`: removed by the workspace's retention then. */
  video: { recordingId: string; format: 'mp4'; durationMs: number; bytes: number; storedAt: string | null; expiredAt: string | null } | null;
}

export type SessionScope = WorkspaceScope;

export interface SessionFilters {
  status?: string[];
  type?: string[];
  deviceId?: string[];
  ownerId?: number[];
  buildName?: string;
  search?: string;
  outcome?: string[];
}

export const SESSION_SORT_COLUMNS = {
  startedAt: 's.started_at',
  endedAt: 's.ended_at',
  name: 'lower(s.name)',
  status: 's.status',
  lastActivityAt: 's.last_activity_at',
} as const;
export type SessionSort = keyof typeof SESSION_SORT_COLUMNS;


const COLUMNS = `s.session_id, s.name, s.device_id, s.device_name, s.type, s.status, s.started_at, s.ready_at, s.ended_at, s.end_reason,
  s.outcome, s.outcome_reason, s.build_name, s.metadata, s.owner_id, s.workspace_id, s.last_activity_at, s.screen, s.host_id, s.company_id, s.notes,
  s.recording_id, s.recording_started_at, s.recording_frames, s.recording_artifact_id, s.video_recording_id, s.video_format, s.video_duration_ms, s.video_bytes, s.video_stored_at, s.video_expired_at`;

const toRecord = (r: Row): SessionRecord => ({
  id: String(r.session_id),
  name: String(r.name),
  deviceId: String(r.device_id),
  deviceName: String(r.device_name),
  type: String(r.type),
  status: String(r.status),
  startedAt: iso(r.started_at)!,
  readyAt: iso(r.ready_at),
  endedAt: iso(r.ended_at),
  endReason: textOrNull(r.end_reason),
  outcome: textOrNull(r.outcome) as SessionOutcome | null,
  outcomeReason: textOrNull(r.outcome_reason),
  buildName: textOrNull(r.build_name),
  metadata: json<Record<string, unknown>>(r.metadata),
  ownerId: Number(r.owner_id),
  workspaceId: Number(r.workspace_id),
  lastActivityAt: iso(r.last_activity_at)!,
  screen: r.screen ? json<SessionView['screen']>(r.screen) : null,
  hostId: String(r.host_id),
  companyId: Number(r.company_id),
  notes: String(r.notes ?? ''),
  recording: {
    recordingId: textOrNull(r.recording_id),
    startedAt: iso(r.recording_started_at),
    frames: numOrNull(r.recording_frames),
    artifactId: textOrNull(r.recording_artifact_id),
  },
  video: r.video_recording_id
    ? { recordingId: String(r.video_recording_id), format: 'mp4', durationMs: Number(r.video_duration_ms), bytes: Number(r.video_bytes), storedAt: iso(r.video_stored_at), expiredAt: iso(r.video_expired_at) }
    : null,
});

/** The public fields of a session record. */
export function toSessionView(r: SessionRecord): SessionView {
  const { hostId: _h, companyId: _c, notes: _n, recording: _r, video: _v, ...view } = r;
  return view;
}

/** A session of the caller's workspace, or null (also for another tenant's: existence is not revealed). */
export async function findSession(db: Sql, scope: SessionScope, sessionId: string): Promise<SessionRecord | null> {
  return oneOrNull(db, `SELECT ${COLUMNS} FROM df_sessions s WHERE s.session_id = $1 AND s.company_id = $2 AND s.workspace_id = $3 AND NOT s.deleted`, [sessionId, scope.companyId, scope.workspaceId], toRecord);
}

/** A session by id, for the service's own use (no tenant check). */
export async function sessionById(db: Sql, sessionId: string): Promise<SessionRecord | null> {
  return oneOrNull(db, `SELECT ${COLUMNS} FROM df_sessions s WHERE s.session_id = $1`, [sessionId], toRecord);
}

/** A session by id in any workspace, unless it was removed (`DELETE ...?purge=true`): what access checks look up. */
export async function undeletedSessionById(db: Sql, sessionId: string): Promise<SessionRecord | null> {
  return oneOrNull(db, `SELECT ${COLUMNS} FROM df_sessions s WHERE s.session_id = $1 AND NOT s.deleted`, [sessionId], toRecord);
}

/** Of the given ids, the sessions not removed, in any workspace (what the access rule looks up, several at once). */
export async function undeletedSessionsByIds(db: Sql, sessionIds: readonly string[]): Promise<SessionRecord[]> {
  if (sessionIds.length === 0) return [];
  const r = await db.query(`SELECT ${COLUMNS} FROM df_sessions s WHERE s.session_id = ANY($1::text[]) AND NOT s.deleted`, [sessionIds]);
  return r.rows.map(toRecord);
}

/** One page of the workspace's sessions. */
export async function listSessions(
  db: Sql,
  scope: SessionScope & { companyWide?: boolean },
  filters: SessionFilters,
  paging: { page: number; size: number; sortBy: SessionSort; sortDir: 'asc' | 'desc' },
): Promise<Page<SessionView>> {
  const where = Conditions.of(['s.company_id = $1', 'NOT s.deleted'], [scope.companyId]);
  if (!scope.companyWide) where.add((n) => `s.workspace_id = ${n}`, scope.workspaceId);
  if (filters.status?.length) where.add((n) => `s.status = ANY(${n}::text[])`, filters.status);
  if (filters.type?.length) where.add((n) => `s.type = ANY(${n}::text[])`, filters.type);
  if (filters.deviceId?.length) where.add((n) => `s.device_id = ANY(${n}::text[])`, filters.deviceId);
  if (filters.ownerId?.length) where.add((n) => `s.owner_id = ANY(${n}::int[])`, filters.ownerId);
  if (filters.buildName !== undefined) where.add((n) => `s.build_name = ${n}`, filters.buildName);
  if (filters.outcome?.length) where.add((n) => `s.outcome = ANY(${n}::text[])`, filters.outcome);
  if (filters.search) where.add((n) => `(s.name ILIKE ${n} OR s.device_name ILIKE ${n})`, containing(filters.search));
  const orderBy = `${SESSION_SORT_COLUMNS[paging.sortBy]} ${paging.sortDir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, s.session_id`;
  return readPage(db, { columns: COLUMNS, from: 'df_sessions s', where, orderBy }, paging, (r) => toSessionView(toRecord(r)));
}

/** Session counts and durations of the workspace. */
export async function sessionStats(db: Sql, scope: SessionScope) {
  const r = await db.query<{ status: string; type: string; n: unknown; seconds: unknown }>(
    `SELECT status, type, count(*) AS n,
            coalesce(sum(EXTRACT(EPOCH FROM (coalesce(ended_at, now()) - coalesce(ready_at, started_at)))), 0) AS seconds
       FROM df_sessions WHERE company_id = $1 AND workspace_id = $2 AND NOT deleted GROUP BY status, type`,
    [scope.companyId, scope.workspaceId],
  );
  const byStatus: Record<string, number> = { starting: 0, active: 0, ended: 0, failed: 0 };
  const byType: Record<string, number> = { manual: 0, automation: 0, debug: 0 };
  let total = 0;
  let endedSeconds = 0;
  let ended = 0;
  for (const row of r.rows) {
    const n = Number(row.n);
    total += n;
    byStatus[row.status] = (byStatus[row.status] ?? 0) + n;
    byType[row.type] = (byType[row.type] ?? 0) + n;
    if (row.status === 'ended') {
      ended += n;
      endedSeconds += Number(row.seconds);
    }
  }
  return {
    total,
    active: (byStatus.active ?? 0) + (byStatus.starting ?? 0),
    byStatus,
    byType,
    totalDurationSeconds: Math.round(endedSeconds),
    averageDurationSeconds: ended > 0 ? Math.round(endedSeconds / ended) : 0,
  };
}

/** Builds of the workspace (sessions grouped by `buildName`), newest first. */
export async function listBuilds(db: Sql, scope: SessionScope, paging: { page: number; size: number }) {
  const params = [scope.companyId, scope.workspaceId];
  const w = `company_id = $1 AND workspace_id = $2 AND NOT deleted AND build_name IS NOT NULL`;
  const [rows, total] = await Promise.all([
    db.query<{ build_name: string; n: unknown; active: unknown; failed: unknown; first_at: unknown; last_at: unknown }>(
      `SELECT build_name, count(*) AS n, count(*) FILTER (WHERE status IN ('starting','active')) AS active,
              count(*) FILTER (WHERE status = 'failed') AS failed, min(started_at) AS first_at, max(started_at) AS last_at
         FROM df_sessions WHERE ${w} GROUP BY build_name ORDER BY max(started_at) DESC, build_name
         LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`,
      params,
    ),
    countOf(db, `SELECT count(DISTINCT build_name) AS n FROM df_sessions WHERE ${w}`, params),
  ]);
  const content = rows.rows.map((r) => ({
    buildName: r.build_name,
    sessions: Number(r.n),
    activeSessions: Number(r.active),
    failedSessions: Number(r.failed),
    firstStartedAt: iso(r.first_at),
    lastStartedAt: iso(r.last_at),
  }));
  return toPage(content, total, paging.page, paging.size);
}

export interface ActivityView {
  id: string;
  kind: string;
  detail: Record<string, unknown>;
  actorId: string | null;
  at: string;
}

/** The session's timeline, oldest first. */
export async function listActivities(db: Sql, sessionId: string, paging: { page: number; size: number }, kinds?: string[]): Promise<Page<ActivityView>> {
  const where = Conditions.of(['session_id = $1'], [sessionId]);
  if (kinds?.length) where.add((n) => `kind = ANY(${n}::text[])`, kinds);
  return readPage(db, { columns: 'activity_id, kind, detail, actor_id, at', from: 'df_session_activities', where, orderBy: 'position' }, paging, (r) => ({
    id: String(r.activity_id),
    kind: String(r.kind),
    detail: json<Record<string, unknown>>(r.detail),
    actorId: textOrNull(r.actor_id),
    at: iso(r.at)!,
  }));
}

export interface ArtifactView {
  id: string;
  type: string;
  name: string;
  contentType: string;
  size: number;
  createdAt: string;
}

/** The session's artifacts, oldest first, optionally of some types. */
export async function listArtifacts(db: Sql, sessionId: string, types?: string[]): Promise<(ArtifactView & { blobKey: string })[]> {
  const params: unknown[] = [sessionId];
  let w = 'session_id = $1';
  if (types?.length) {
    params.push(types);
    w += ' AND type = ANY($2::text[])';
  }
  const r = await db.query(`SELECT artifact_id, type, name, blob_key, content_type, size, created_at FROM df_session_artifacts WHERE ${w} ORDER BY created_at, artifact_id`, params);
  return r.rows.map((row) => ({
    id: String(row.artifact_id),
    type: String(row.type),
    name: String(row.name),
    blobKey: String(row.blob_key),
    contentType: String(row.content_type),
    size: Number(row.size),
    createdAt: iso(row.created_at)!,
  }));
}

/** Bytes the session's artifacts take, in total and per type. */
export async function sessionStorage(db: Sql, sessionId: string) {
  const r = await db.query<{ type: string; n: unknown; bytes: unknown }>(
    `SELECT type, count(*) AS n, coalesce(sum(size), 0) AS bytes FROM df_session_artifacts WHERE session_id = $1 GROUP BY type`,
    [sessionId],
  );
  const byType: Record<string, { artifacts: number; bytes: number }> = {};
  let bytes = 0;
  let artifacts = 0;
  for (const row of r.rows) {
    byType[row.type] = { artifacts: Number(row.n), bytes: Number(row.bytes) };
    bytes += Number(row.bytes);
    artifacts += Number(row.n);
  }
  return { sessionId, bytes, artifacts, byType };
}

/** Open sessions whose last activity is older than `before` (idle time-out). */
export async function idleSessions(db: Sql, before: Date): Promise<SessionRecord[]> {
  const r = await db.query(`SELECT ${COLUMNS} FROM df_sessions s WHERE s.status IN ('starting','active') AND s.last_activity_at < $1`, [before.toISOString()]);
  return r.rows.map(toRecord);
}

/** Open sessions on the given devices. */
export async function openSessionsOnDevices(db: Sql, deviceIds: readonly string[]): Promise<SessionRecord[]> {
  if (deviceIds.length === 0) return [];
  const r = await db.query(`SELECT ${COLUMNS} FROM df_sessions s WHERE s.status IN ('starting','active') AND s.device_id = ANY($1::text[])`, [deviceIds]);
  return r.rows.map(toRecord);
}

/** The sessions of the given ids this read model shows (any status). */
export async function sessionsByIds(db: Sql, sessionIds: readonly string[]): Promise<SessionRecord[]> {
  if (sessionIds.length === 0) return [];
  const r = await db.query(`SELECT ${COLUMNS} FROM df_sessions s WHERE s.session_id = ANY($1::text[])`, [sessionIds]);
  return r.rows.map(toRecord);
}

/** The debug protocols a user holds on a session. */
export async function debugGrantsOf(db: Sql, sessionId: string, userId: number): Promise<string[]> {
  const r = await db.query<{ protocol: string }>(`SELECT protocol FROM df_session_debug_grants WHERE session_id = $1 AND user_id = $2 ORDER BY protocol`, [sessionId, userId]);
  return r.rows.map((row) => row.protocol);
}

/** A timeline entry's id, what it records and when it was recorded. */
export interface ActivityDetail {
  activityId: string;
  detail: Record<string, unknown>;
  at: string;
}

const toActivityDetail = (r: Row): ActivityDetail => ({ activityId: String(r.activity_id), detail: json<Record<string, unknown>>(r.detail), at: iso(r.at)! });

/** The entries a test runner reported on a session's timeline: kind `custom`, source `automation`. */
const TEST_EVENTS = [`session_id = $1`, `kind = 'custom'`, `detail->>'source' = 'automation'`];

/** A window of the session's test events in reporting order (`desc`: newest first), optionally of some types, and their number. */
export async function testEventActivities(
  db: Sql,
  sessionId: string,
  paging: { page: number; size: number; sortDir?: 'asc' | 'desc' | undefined },
  types?: string[],
): Promise<{ rows: ActivityDetail[]; total: number }> {
  const where = Conditions.of(TEST_EVENTS, [sessionId]);
  if (types?.length) where.add((n) => `detail->>'type' = ANY(${n}::text[])`, types);
  const orderBy = `position ${paging.sortDir === 'desc' ? 'DESC' : 'ASC'}`;
  const { rows, total } = await rowsAndTotal(db, { columns: 'activity_id, detail, at', from: 'df_session_activities', where, orderBy }, { limit: paging.size, offset: paging.page * paging.size });
  return { rows: rows.map(toActivityDetail), total };
}

/** What every test event of the session recorded, in reporting order. */
export async function testEventDetails(db: Sql, sessionId: string): Promise<Record<string, unknown>[]> {
  const r = await db.query(`SELECT detail FROM df_session_activities WHERE ${TEST_EVENTS.join(' AND ')} ORDER BY position`, [sessionId]);
  return r.rows.map((row) => json<Record<string, unknown>>(row.detail));
}

/** The session's timeline entries a WebDriver relay wrote (source `webdriver`), in timeline order. */
export async function webdriverActivities(db: Sql, sessionId: string): Promise<Omit<ActivityDetail, 'at'>[]> {
  const r = await db.query(`SELECT activity_id, detail FROM df_session_activities WHERE session_id = $1 AND detail->>'source' = 'webdriver' ORDER BY position`, [sessionId]);
  return r.rows.map((row) => ({ activityId: String(row.activity_id), detail: json<Record<string, unknown>>(row.detail) }));
}

/** The workspaces with an active session (whose limits the sweep of over-long and idle sessions needs). */
export async function workspacesWithActiveSessions(db: Sql): Promise<number[]> {
  const r = await db.query<{ workspace_id: unknown }>(`SELECT DISTINCT workspace_id FROM df_sessions WHERE status = 'active' AND NOT deleted`);
  return r.rows.map((row) => Number(row.workspace_id));
}

/** A workspace's limits on its sessions' length and idle time, in seconds. */
export interface SessionLimits {
  workspaceId: number;
  maxSessionSeconds: number;
  idleTimeoutSeconds: number;
}

/**
 * Active sessions of the given workspaces past their workspace's maximum length (`max-duration`) or idle
 * time-out (`idle-timeout`) at `now`; a workspace without limits in `limits` ends a session at
 * `defaultMaxSeconds` and never for idleness.
 */
export async function activeSessionsPastLimits(
  db: Sql,
  now: Date,
  defaultMaxSeconds: number,
  workspaceIds: readonly number[],
  limits: readonly SessionLimits[],
): Promise<{ sessionId: string; reason: 'max-duration' | 'idle-timeout' }[]> {
  const r = await db.query<{ session_id: string; reason: 'max-duration' | 'idle-timeout' }>(
    `SELECT s.session_id, CASE WHEN s.started_at <= $1::timestamptz - make_interval(secs => coalesce(d.max_session_seconds, $2)) THEN 'max-duration' ELSE 'idle-timeout' END AS reason
     FROM df_sessions s LEFT JOIN unnest($3::integer[], $4::integer[], $5::integer[]) AS d(workspace_id, max_session_seconds, idle_timeout_seconds) ON d.workspace_id = s.workspace_id
     WHERE s.status = 'active' AND NOT s.deleted AND s.workspace_id = ANY($6::integer[])
       AND (s.started_at <= $1::timestamptz - make_interval(secs => coalesce(d.max_session_seconds, $2))
            OR (d.workspace_id IS NOT NULL AND s.last_activity_at <= $1::timestamptz - make_interval(secs => d.idle_timeout_seconds)))`,
    [now.toISOString(), defaultMaxSeconds, limits.map((l) => l.workspaceId), limits.map((l) => l.maxSessionSeconds), limits.map((l) => l.idleTimeoutSeconds), workspaceIds],
  );
  return r.rows.map((row) => ({ sessionId: String(row.session_id), reason: row.reason }));
}

/** Of the given session ids, those the read model shows closed (ended, failed or deleted) and those it shows at all. */
export async function closedAndKnownSessions(db: Sql, sessionIds: readonly string[]): Promise<{ closed: Set<string>; known: Set<string> }> {
  if (sessionIds.length === 0) return { closed: new Set(), known: new Set() };
  const r = await db.query<{ session_id: string; closed: boolean }>(
    `SELECT session_id, (status IN ('ended', 'failed') OR deleted) AS closed FROM df_sessions WHERE session_id = ANY($1::text[])`,
    [sessionIds],
  );
  return { closed: new Set(r.rows.filter((row) => row.closed).map((row) => String(row.session_id))), known: new Set(r.rows.map((row) => String(row.session_id))) };
}

/** Sessions by status, for the `qa_sessions` gauge (deleted ones left out). */
export async function sessionCountsByStatus(db: Sql): Promise<{ status: string; count: number }[]> {
  const { rows } = await db.query<{ status: string; n: unknown }>(`SELECT status, count(*) AS n FROM df_sessions WHERE NOT deleted GROUP BY status`);
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}

/**
 * Sessions of a workspace whose video was stored before `before` and has not expired, oldest first (at
 * most `limit`): what the video retention removes.
 */
export async function sessionsWithVideosBefore(db: Sql, workspaceId: number, before: Date, limit: number): Promise<{ sessionId: string; companyId: number }[]> {
  const r = await db.query<{ session_id: unknown; company_id: unknown }>(
    `SELECT session_id, company_id FROM df_sessions WHERE workspace_id = $1 AND video_stored_at < $2 AND video_expired_at IS NULL ORDER BY video_stored_at LIMIT $3`,
    [workspaceId, before, limit],
  );
  return r.rows.map((row) => ({ sessionId: String(row.session_id), companyId: Number(row.company_id) }));
}
