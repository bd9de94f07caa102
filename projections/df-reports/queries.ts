import type { Database, Sql } from '#shared/db/index.js';
import { textOrNull } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { USAGE_LONGEST } from './projection.js';
import { Conditions, readPage, type WorkspaceScope } from '../queries.js';

/** What every report takes: the caller's workspace, a time range, a zone and a period, and the facets. */
export interface ReportQuery {
  companyId: number;
  workspaceId: number;
  from: Date;
  to: Date;
  /** IANA zone the periods are cut in (`Europe/Berlin`); periods start at local midnight (weeks on Monday). */
  timeZone: string;
  groupBy: 'day' | 'week';
  deviceId?: string[] | undefined;
  userId?: number[] | undefined;
  type?: string[] | undefined;
  buildName?: string[] | undefined;
  /** The instant open sessions and online intervals are counted up to (the platform's clock). */
  now: Date;
}

/** The period an instant falls in: the local start of its day or week (Monday); named (`YYYY-MM-DD`) once grouped. */
const periodOf = (instant: string) => `date_trunc($5, ${instant} AT TIME ZONE $4)`;
const periodName = (local: string) => `to_char(${local}, 'YYYY-MM-DD')`;
/** The local periods an interval `[b, e)` touches (one row each, as local timestamps). */
const periodsOf = (b: string, e: string) =>
  `generate_series(date_trunc($5, ${b} AT TIME ZONE $4), (${e} - interval '1 microsecond') AT TIME ZONE $4, ('1 ' || $5)::interval)`;
/** A period's bounds as instants. */
const periodFrom = (local: string) => `(${local} AT TIME ZONE $4)`;
const periodTo = (local: string) => `((${local} + ('1 ' || $5)::interval) AT TIME ZONE $4)`;
/**
 * Sessions last at most 7 days (the longest maximum length a workspace can set), so one that overlaps
 * the range started at most this long before it: the range scan's lower bound.
 */
const LONGEST_SESSION = `interval '8 days'`;

function facets(q: ReportQuery, params: unknown[], alias: string, userColumn: string): string {
  const where: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.deviceId?.length) add((n) => `${alias}.device_id = ANY(${n}::text[])`, q.deviceId);
  if (q.userId?.length) add((n) => `${alias}.${userColumn} = ANY(${n}::int[])`, q.userId);
  if (alias === 's' && q.type?.length) add((n) => `s.type = ANY(${n}::text[])`, q.type);
  if (alias === 's' && q.buildName?.length) add((n) => `s.build_name = ANY(${n}::text[])`, q.buildName);
  return where.map((w) => ` AND ${w}`).join('');
}
const base = (q: ReportQuery) => [q.from.toISOString(), q.to.toISOString(), q.now.toISOString(), q.timeZone, q.groupBy, q.companyId, q.workspaceId] as unknown[];
const minutes = (expr: string) => `round((extract(epoch FROM ${expr}) / 60)::numeric, 2)::float8`;

export interface DeviceUsageRow {
  period: string;
  deviceId: string;
  deviceName: string;
  sessions: number;
  minutesInSession: number;
  minutesOnline: number;
  /** Minutes in session over minutes online in the period (0–1), null when the device was never online in it. */
  utilisation: number | null;
}

type UsageRow = { period: string; device_id: string; device_name: string; sessions: number; in_session: number; online: number | null };
const usageRows = (rows: UsageRow[]): DeviceUsageRow[] =>
  rows.map((row) => {
    const online = row.online ?? 0;
    return {
      period: row.period,
      deviceId: row.device_id,
      deviceName: row.device_name,
      sessions: row.sessions,
      minutesInSession: Number(row.in_session),
      minutesOnline: online,
      utilisation: online > 0 ? Math.round((Number(row.in_session) / online) * 10_000) / 10_000 : null,
    };
  });

/** Microseconds of an interval, exactly (the read model's unit). */
const micros = (interval: string) => `(extract(epoch FROM ${interval}) * 1000000)::int8`;
/** Microseconds as minutes rounded to two decimals, as `minutes` rounds an interval. */
const microMinutes = (us: string) => `round(${us}::numeric / 60000000, 2)::float8`;
/** The running-total index (1–97) of an instant `t` (epoch seconds on a quarter hour) within UTC day `day`, clamped to the day. */
const quarterIndex = (t: string, day: string) => `(1 + greatest(0, least(96, (${t} - ${day}::int8 * 86400) / 900)))::int`;

/**
 * Minutes in session per device and period (a session across midnight counts in both), and utilisation
 * as a share of online time. Read from the per-device, per-UTC-day running totals at each quarter hour
 * (df_report_usage, df_report_online): every period's part between its first and last quarter hour in
 * the range is a difference of two totals (local midnights fall on quarter hours in every zone). What
 * the totals do not hold is read from the tables as before: the ends of the range off a quarter hour,
 * sessions still running or longer than the totals take, and online intervals still open. A filter on
 * user, type or build (which the totals do not keep) is answered by `deviceUsageFromSessions`.
 */
export async function deviceUsageReport(db: Database, q: ReportQuery): Promise<DeviceUsageRow[]> {
  if (q.userId?.length || q.type?.length || q.buildName?.length) return deviceUsageFromSessions(db, q);
  const params = base(q);
  const f = facets(q, params, 's', 'owner_id');
  const fu = f.replaceAll('s.device_id', 'u.device_id');
  const sql = `WITH periods AS MATERIALIZED (
       SELECT local, ${periodName('local')} AS name, a, b, (ceil(extract(epoch FROM a) / 900) * 900)::int8 AS qa, (floor(extract(epoch FROM b) / 900) * 900)::int8 AS qb
       FROM (SELECT local, greatest(${periodFrom('local')}, $1::timestamptz) AS a, least(${periodTo('local')}, $2::timestamptz) AS b
             FROM generate_series(date_trunc($5, $1::timestamptz AT TIME ZONE $4), ($2::timestamptz - interval '1 microsecond') AT TIME ZONE $4, ('1 ' || $5)::interval) AS local) p
     ),
     -- Each period's part from its first to its last quarter hour in the range, read from the totals.
     mid AS MATERIALIZED (SELECT local, qa, qb FROM periods WHERE qa < qb),
     -- The rest (the ends of the range off a quarter hour; a period shorter than a quarter hour), read from the tables.
     edges AS MATERIALIZED (
       SELECT local, a AS lo, to_timestamp(qa) AS hi FROM periods WHERE qa < qb AND a < to_timestamp(qa)
       UNION ALL SELECT local, to_timestamp(qb), b FROM periods WHERE qa < qb AND to_timestamp(qb) < b
       UNION ALL SELECT local, a, b FROM periods WHERE qa >= qb
     ),
     -- Sessions still running (up to now) or longer than the totals take, over the whole range as before.
     live AS MATERIALIZED (
       SELECT s.device_id, s.device_name, s.started_at, greatest(s.started_at, $1::timestamptz) AS b, least(coalesce(s.ended_at, $3::timestamptz), $2::timestamptz) AS e
       FROM df_report_sessions s
       WHERE s.company_id = $6 AND s.workspace_id = $7 AND s.started_at < $2::timestamptz AND s.started_at >= $1::timestamptz - ${LONGEST_SESSION}
         AND coalesce(s.ended_at, $3::timestamptz) > $1::timestamptz AND (s.ended_at IS NULL OR s.ended_at - s.started_at >= ${USAGE_LONGEST})${f}
     ),
     -- Each such part per UTC day it covers, with the indexes (1–97) of its bounds within the day.
     mid_days AS MATERIALIZED (
       SELECT m.local, d.day, ${quarterIndex('m.qa', 'd.day')} AS lo, ${quarterIndex('m.qb', 'd.day')} AS hi
       FROM mid m CROSS JOIN LATERAL generate_series(floor(m.qa / 86400.0)::int, ceil(m.qb / 86400.0)::int - 1) AS d(day)
     ),
     -- The lateral reads (OFFSET 0 keeps them so) look rows up by their index, whatever the statistics.
     used AS MATERIALIZED (
       SELECT md.local, u.device_id, u.device_name, u.in_session[md.hi] - u.in_session[md.lo] AS us, u.started[md.hi] - u.started[md.lo] AS started
       FROM mid_days md
       CROSS JOIN LATERAL (SELECT * FROM df_report_usage u WHERE u.company_id = $6 AND u.workspace_id = $7 AND u.day = md.day${fu} OFFSET 0) u
       WHERE u.in_session[md.hi] > u.in_session[md.lo]
       UNION ALL
       -- Finished sessions within the totals, over the edges.
       SELECT e.local, s.device_id, s.device_name, ${micros('least(s.ended_at, e.hi) - greatest(s.started_at, e.lo)')}, (s.started_at >= e.lo)::int
       FROM edges e
       CROSS JOIN LATERAL (SELECT * FROM df_report_sessions s WHERE s.company_id = $6 AND s.workspace_id = $7 AND s.started_at < e.hi AND s.started_at >= e.lo - ${USAGE_LONGEST}
         AND s.ended_at > e.lo AND s.ended_at - s.started_at < ${USAGE_LONGEST}${f} OFFSET 0) s
       WHERE least(s.ended_at, e.hi) > greatest(s.started_at, e.lo)
       UNION ALL
       SELECT p.local, l.device_id, l.device_name, ${micros('least(l.e, p.b) - greatest(l.b, p.a)')}, (l.started_at >= p.a AND l.started_at < p.b)::int
       FROM live l JOIN periods p ON p.a < l.e AND p.b > l.b
       WHERE l.e > l.b
     ),
     devices AS (SELECT DISTINCT device_id FROM used),
     online AS (
       SELECT md.local, o.device_id, o.online[md.hi] - o.online[md.lo] AS us
       FROM mid_days md
       CROSS JOIN LATERAL (SELECT * FROM df_report_online o WHERE o.day = md.day AND o.device_id IN (SELECT device_id FROM devices) OFFSET 0) o
       UNION ALL
       SELECT e.local, o.device_id, ${micros('least(o.online_to, e.hi) - greatest(o.online_from, e.lo)')}
       FROM edges e JOIN df_report_presence o ON o.device_id IN (SELECT device_id FROM devices) AND o.online_to IS NOT NULL AND o.online_from < e.hi AND o.online_to > e.lo
       UNION ALL
       -- Online intervals still open, up to now.
       SELECT p.local, o.device_id, ${micros('least($3::timestamptz, p.b) - greatest(o.online_from, p.a)')}
       FROM df_report_presence o JOIN periods p ON p.a < $3::timestamptz AND p.b > o.online_from
       WHERE o.online_to IS NULL AND o.online_from < $3::timestamptz AND o.device_id IN (SELECT device_id FROM devices)
     ),
     grouped AS (
       SELECT local, device_id, max(device_name) AS device_name, sum(started)::int AS sessions, sum(us) AS us, sum(online) AS online
       FROM (SELECT local, device_id, device_name, us, started, 0::int8 AS online FROM used
             UNION ALL SELECT local, device_id, NULL, 0, 0, us FROM online) x
       GROUP BY 1, 2
       HAVING sum(us) > 0
     ),
     -- The names ordered once (a few hundred), the rows then by their rank: the same order as by name.
     names AS (SELECT device_name, row_number() OVER (ORDER BY device_name) AS n FROM (SELECT DISTINCT device_name FROM grouped) d)
     SELECT p.name AS period, g.device_id, g.device_name, g.sessions, ${microMinutes('g.us')} AS in_session, ${microMinutes('g.online')} AS online
     FROM grouped g JOIN periods p ON p.local = g.local JOIN names n ON n.device_name = g.device_name
     ORDER BY g.local, n.n, g.device_id`;
  // The plan's estimates (series of periods) are far above its cost: JIT compilation, when the server
  // has it on, would take longer than the query (docs/performance.md, "Device-testing reports").
  const r = await db.transaction(async (tx) => {
    await tx.query(`SET LOCAL jit = off`);
    return tx.query<UsageRow>(sql, params);
  });
  return usageRows(r.rows);
}

/**
 * The device-usage report computed from every session and online interval of the range (spread over
 * the periods as the query runs): the answer for a filter on user, type or build, and the reference
 * the read model's answer is checked against.
 */
export async function deviceUsageFromSessions(db: Sql, q: ReportQuery): Promise<DeviceUsageRow[]> {
  const params = base(q);
  const f = facets(q, params, 's', 'owner_id');
  const r = await db.query<UsageRow>(
    `WITH spans AS (
       SELECT s.device_id, s.device_name, s.started_at, s.b, s.e, ${periodOf('s.b')} AS first_local
       FROM (SELECT s.device_id, s.device_name, s.started_at, greatest(s.started_at, $1::timestamptz) AS b, least(coalesce(s.ended_at, $3::timestamptz), $2::timestamptz) AS e
             FROM df_report_sessions s
             WHERE s.company_id = $6 AND s.workspace_id = $7 AND s.started_at < $2::timestamptz AND s.started_at >= $1::timestamptz - ${LONGEST_SESSION}
               AND coalesce(s.ended_at, $3::timestamptz) > $1::timestamptz${f}) s
       WHERE s.e > s.b
     ),
     -- Most sessions lie within one period: their share is computed without a series; only the rest
     -- of those running past their first period is spread over the following ones.
     pieces AS (
       SELECT first_local AS local, device_id, max(device_name) AS device_name,
              count(*) FILTER (WHERE started_at >= $1::timestamptz)::int AS sessions,
              sum(least(e, ${periodTo('first_local')}) - b) AS in_session
       FROM spans GROUP BY 1, 2
       UNION ALL
       SELECT local, device_id, max(device_name), 0, sum(least(e, ${periodTo('local')}) - ${periodFrom('local')})
       FROM spans CROSS JOIN LATERAL generate_series(first_local + ('1 ' || $5)::interval, (e - interval '1 microsecond') AT TIME ZONE $4, ('1 ' || $5)::interval) AS local
       WHERE e > ${periodTo('first_local')}
       GROUP BY 1, 2
     ),
     used AS (
       SELECT local, device_id, max(device_name) AS device_name, sum(sessions)::int AS sessions, sum(in_session) AS in_session FROM pieces GROUP BY 1, 2
     ),
     online AS (
       SELECT local, o.device_id, sum(least(o.e, ${periodTo('local')}) - greatest(o.b, ${periodFrom('local')})) AS online
       FROM (SELECT o.device_id, greatest(o.online_from, $1::timestamptz) AS b, least(coalesce(o.online_to, $3::timestamptz), $2::timestamptz) AS e
             FROM df_report_presence o
             WHERE o.device_id IN (SELECT DISTINCT device_id FROM used) AND o.online_from < $2::timestamptz AND coalesce(o.online_to, $3::timestamptz) > $1::timestamptz) o
       CROSS JOIN LATERAL ${periodsOf('o.b', 'o.e')} AS local
       WHERE o.e > o.b
       GROUP BY 1, 2
     )
     SELECT ${periodName('u.local')} AS period, u.device_id, u.device_name, u.sessions, ${minutes('u.in_session')} AS in_session, ${minutes('o.online')} AS online
     FROM used u LEFT JOIN online o ON o.local = u.local AND o.device_id = u.device_id
     ORDER BY u.local, u.device_name, u.device_id`,
    params,
  );
  return usageRows(r.rows);
}

export type SessionGrouping = 'user' | 'build' | 'device' | 'type';
const GROUP_COLUMN: Record<SessionGrouping, string> = { user: 's.owner_id::text', build: 's.build_name', device: 's.device_id', type: 's.type' };

export interface SessionReportRow {
  period: string;
  /** The value of the `by` dimension (user id, build name, device id, session type); null without `by`. */
  group: string | null;
  sessions: number;
  completed: number;
  failed: number;
  running: number;
  totalMinutes: number;
  averageMinutes: number;
}

/** Sessions by the period they started in: count, outcome and duration, optionally by user, build, device or type. */
export async function sessionReport(db: Sql, q: ReportQuery, by?: SessionGrouping): Promise<SessionReportRow[]> {
  const params = base(q);
  const f = facets(q, params, 's', 'owner_id');
  const group = by ? GROUP_COLUMN[by] : 'NULL::text';
  const r = await db.query<{ period: string; grp: string | null; sessions: number; completed: number; failed: number; running: number; total: number }>(
    `SELECT ${periodName('p.local')} AS period, p.grp, p.sessions, p.completed, p.failed, p.running, p.total FROM (
     SELECT ${periodOf('s.started_at')} AS local, ${group} AS grp, count(*)::int AS sessions,
            count(*) FILTER (WHERE s.status = 'ended')::int AS completed,
            count(*) FILTER (WHERE s.status = 'failed')::int AS failed,
            count(*) FILTER (WHERE s.status IN ('starting', 'active'))::int AS running,
            ${minutes(`sum(coalesce(s.ended_at, $3::timestamptz) - s.started_at)`)} AS total
     FROM df_report_sessions s
     WHERE s.company_id = $6 AND s.workspace_id = $7 AND s.started_at >= $1::timestamptz AND s.started_at < $2::timestamptz${f}
     GROUP BY 1, 2) p
     ORDER BY p.local, p.grp NULLS FIRST`,
    params,
  );
  return r.rows.map((row) => ({
    period: row.period,
    group: row.grp,
    sessions: row.sessions,
    completed: row.completed,
    failed: row.failed,
    running: row.running,
    totalMinutes: Number(row.total),
    averageMinutes: row.sessions > 0 ? Math.round((Number(row.total) / row.sessions) * 100) / 100 : 0,
  }));
}

export interface ReservationReportRow {
  period: string;
  bookings: number;
  /** Hours booked (cancelled bookings excluded). */
  bookedHours: number;
  /** Bookings whose holder opened a session on the device. */
  used: number;
  /** Bookings that expired with no session (the grace passed). */
  noShows: number;
  cancelled: number;
}

/** Bookings by the period they start in: booked vs used vs no-show. */
export async function reservationReport(db: Sql, q: ReportQuery): Promise<ReservationReportRow[]> {
  const params = base(q);
  const f = facets(q, params, 'b', 'user_id');
  const r = await db.query<{ period: string; bookings: number; hours: number; used: number; no_shows: number; cancelled: number }>(
    `SELECT ${periodName('p.local')} AS period, p.bookings, p.hours, p.used, p.no_shows, p.cancelled FROM (
     SELECT ${periodOf('b.start_at')} AS local, count(*)::int AS bookings,
            coalesce(round((sum(extract(epoch FROM b.end_at - b.start_at)) FILTER (WHERE b.status <> 'cancelled') / 3600)::numeric, 2), 0)::float8 AS hours,
            count(*) FILTER (WHERE b.used)::int AS used,
            count(*) FILTER (WHERE b.status = 'expired' AND NOT b.used)::int AS no_shows,
            count(*) FILTER (WHERE b.status = 'cancelled')::int AS cancelled
     FROM df_report_reservations b
     WHERE b.company_id = $6 AND b.workspace_id = $7 AND b.created_at <= $3::timestamptz AND b.start_at >= $1::timestamptz AND b.start_at < $2::timestamptz${f}
     GROUP BY 1) p
     ORDER BY p.local`,
    params,
  );
  return r.rows.map((row) => ({ period: row.period, bookings: row.bookings, bookedHours: Number(row.hours), used: row.used, noShows: row.no_shows, cancelled: row.cancelled }));
}

export interface MostUsedDevice {
  deviceId: string;
  deviceName: string;
  sessions: number;
  minutesInSession: number;
}

/** The devices with the most minutes in session over `[from, to)`. */
export async function mostUsedDevices(db: Sql, scope: { companyId: number; workspaceId: number }, from: Date, to: Date, now: Date, limit: number): Promise<MostUsedDevice[]> {
  const r = await db.query<{ device_id: string; device_name: string; sessions: number; used: number }>(
    `SELECT s.device_id, max(s.device_name) AS device_name, count(*)::int AS sessions,
            ${minutes(`sum(least(coalesce(s.ended_at, $3::timestamptz), $2::timestamptz) - greatest(s.started_at, $1::timestamptz))`)} AS used
     FROM df_report_sessions s
     WHERE s.company_id = $4 AND s.workspace_id = $5 AND s.started_at < $2::timestamptz AND s.started_at >= $1::timestamptz - ${LONGEST_SESSION}
       AND coalesce(s.ended_at, $3::timestamptz) > $1::timestamptz
     GROUP BY s.device_id ORDER BY used DESC, s.device_id LIMIT $6`,
    [from.toISOString(), to.toISOString(), now.toISOString(), scope.companyId, scope.workspaceId, limit],
  );
  return r.rows.map((row) => ({ deviceId: row.device_id, deviceName: row.device_name, sessions: row.sessions, minutesInSession: Number(row.used) }));
}

/** Sessions running now, bookings overlapping the local day, failures of the last 24 hours. */
export async function sessionStats(db: Sql, scope: { companyId: number; workspaceId: number }, now: Date, timeZone: string) {
  const r = await db.query<{ running: number; failures: number; bookings: number }>(
    `SELECT
       (SELECT count(*)::int FROM df_report_sessions WHERE company_id = $1 AND workspace_id = $2 AND status IN ('starting', 'active')) AS running,
       (SELECT count(*)::int FROM df_report_sessions WHERE company_id = $1 AND workspace_id = $2 AND status = 'failed' AND ended_at > $3::timestamptz - interval '1 day') AS failures,
       (SELECT count(*)::int FROM df_report_reservations WHERE company_id = $1 AND workspace_id = $2 AND status <> 'cancelled'
          AND start_at < ((date_trunc('day', $3::timestamptz AT TIME ZONE $4) + interval '1 day') AT TIME ZONE $4)
          AND end_at > (date_trunc('day', $3::timestamptz AT TIME ZONE $4) AT TIME ZONE $4)) AS bookings`,
    [scope.companyId, scope.workspaceId, now.toISOString(), timeZone],
  );
  return r.rows[0]!;
}

export interface ActivityItem {
  id: string;
  kind: string;
  at: string;
  actorId: string | null;
  deviceId: string | null;
  sessionId: string | null;
  reservationId: string | null;
  detail: Record<string, unknown>;
}

/** The workspace's activity, newest first. */
export function listActivity(db: Sql, scope: WorkspaceScope, paging: { page: number; size: number }, kinds?: string[]): Promise<Page<ActivityItem>> {
  const where = Conditions.inWorkspace(scope);
  if (kinds?.length) where.add((n) => `kind = ANY(${n}::text[])`, kinds);
  return readPage(db, { columns: 'event_id, kind, at, actor_id, device_id, session_id, reservation_id, detail', from: 'df_report_activity', where, orderBy: 'position DESC' }, paging, (r) => ({
    id: String(r.event_id),
    kind: String(r.kind),
    at: new Date(r.at as Date | string).toISOString(),
    actorId: textOrNull(r.actor_id),
    deviceId: textOrNull(r.device_id),
    sessionId: textOrNull(r.session_id),
    reservationId: textOrNull(r.reservation_id),
    detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
  }));
}

/** The start of the calendar month (UTC) of the instant `$2`, in SQL. */
const MONTH_START = `date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** Minutes the company's sessions spent in session in the calendar month (UTC) of `now`, running sessions up to `now`. */
export async function sessionMinutesThisMonth(db: Sql, companyId: number, now: Date): Promise<number> {
  const r = await db.query<{ m: number | null }>(
    `SELECT floor(extract(epoch FROM sum(least(coalesce(ended_at, $2::timestamptz), $2::timestamptz) - greatest(started_at, ${MONTH_START}))) / 60)::float8 AS m
     FROM df_report_sessions WHERE company_id = $1 AND coalesce(ended_at, $2::timestamptz) > ${MONTH_START} AND started_at <= $2::timestamptz`,
    [companyId, now.toISOString()],
  );
  return Number(r.rows[0]?.m ?? 0);
}

/** Hours the company booked (cancelled bookings excluded) in bookings starting in the calendar month (UTC) of `at`, unrounded. */
export async function reservationHoursInMonth(db: Sql, companyId: number, at: Date): Promise<number> {
  const r = await db.query<{ h: number | null }>(
    `SELECT (sum(extract(epoch FROM end_at - start_at)) / 3600)::float8 AS h FROM df_report_reservations
     WHERE company_id = $1 AND status <> 'cancelled'
       AND start_at >= ${MONTH_START}
       AND start_at < (date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'`,
    [companyId, at.toISOString()],
  );
  return Number(r.rows[0]?.h ?? 0);
}
