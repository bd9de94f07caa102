import { deviceEvents, deviceHostEvents, type DeviceEvent, type DeviceHostEvent } from '#events/df/devices.js';
import { reservationEvents, type ReservationEvent } from '#events/df/reservations.js';
import { sessionEvents, type SessionEvent } from '#events/df/sessions.js';
import type { SharingEvent } from '#events/df/sharing.js';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { applyByType, type Projection } from '../types.js';

const SESSION_TYPES = ['DeviceSessionRequested', 'DeviceSessionFailed', 'DeviceSessionEnded', 'DeviceSessionDeleted', 'DeviceSessionActivityRecorded'] as const;
const DEVICE_TYPES = ['DeviceConnected', 'DeviceDisconnected', 'DeviceMoved', 'HostDevicesDisconnected', 'HostDevicesReconnected'] as const;
const SHARING_TYPES = ['DeviceSessionInvitationCreated'] as const;
// Checked against the contracts, so a renamed event cannot silently drop out of the reports.
for (const t of SESSION_TYPES) if (!sessionEvents.types.includes(t)) throw new Error(`${t} is not a session event`);
for (const t of DEVICE_TYPES) if (![...deviceEvents.types, ...deviceHostEvents.types].includes(t)) throw new Error(`${t} is not a device event`);

type P = Record<string, unknown>;
type Handled = (typeof SESSION_TYPES)[number] | (typeof DEVICE_TYPES)[number] | (typeof SHARING_TYPES)[number] | ReservationEvent['type'];
/** The events the reports read, typed by their contracts. */
type ReportEvent = Extract<SessionEvent | ReservationEvent | DeviceEvent | DeviceHostEvent | SharingEvent, { type: Handled }>;

/** One row of the company's activity feed (the dashboard's "recent activity"). */
async function activity(tx: Sql, recorded: RecordedEvent, companyId: unknown, workspaceId: unknown, kind: string, facts: { deviceId?: string | null; sessionId?: string | null; reservationId?: string | null; detail?: P }) {
  if (typeof companyId !== 'number') return;
  await tx.query(
    `INSERT INTO df_report_activity (event_id, position, company_id, workspace_id, at, kind, actor_id, device_id, session_id, reservation_id, detail)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (event_id) DO NOTHING`,
    [
      recorded.id,
      recorded.position.toString(),
      companyId,
      typeof workspaceId === 'number' ? workspaceId : null,
      recorded.metadata.occurredAt,
      kind,
      recorded.metadata.actorId === null || recorded.metadata.actorId === undefined ? null : String(recorded.metadata.actorId),
      facts.deviceId ?? null,
      facts.sessionId ?? null,
      facts.reservationId ?? null,
      JSON.stringify(facts.detail ?? {}),
    ],
  );
}

const sessionFacts = (tx: Sql, sessionId: string) =>
  tx.query<{ company_id: number; workspace_id: number; device_id: string }>(`SELECT company_id, workspace_id, device_id FROM df_report_sessions WHERE session_id = $1`, [sessionId]).then((r) => r.rows[0]);
const bookingFacts = (tx: Sql, reservationId: string) =>
  tx.query<{ company_id: number; workspace_id: number; device_id: string }>(`SELECT company_id, workspace_id, device_id FROM df_report_reservations WHERE reservation_id = $1`, [reservationId]).then((r) => r.rows[0]);

/**
 * Running totals of an interval `[s, e)` at each quarter hour of each UTC day it touches: per day,
 * 97 values (00:00, 00:15, … 24:00) of microseconds within `[day, day + k × 15 min)` (rows `day`
 * (days since 1970-01-01), `k`, `us`, and `started`, 1 where `s` falls before that quarter of that day).
 */
const quarters = (s: string, e: string) => `
  SELECT (extract(epoch FROM d0) / 86400)::int AS day, k,
         (extract(epoch FROM greatest(least(${e}, d0 + k * interval '15 minutes') - greatest(${s}, d0), interval '0')) * 1000000)::int8 AS us,
         (${s} >= d0 AND ${s} < d0 + k * interval '15 minutes')::int AS started
  FROM generate_series(date_trunc('day', ${s} AT TIME ZONE 'UTC'), (${e} - interval '1 microsecond') AT TIME ZONE 'UTC', interval '1 day') AS d
  CROSS JOIN LATERAL (SELECT d AT TIME ZONE 'UTC' AS d0) z CROSS JOIN generate_series(0, 96) AS k`;
/** Adds two arrays element by element (the upsert of a day's running totals). */
const plus = (a: string, b: string) => `(SELECT array_agg(x + y ORDER BY i) FROM unnest(${a}, ${b}) WITH ORDINALITY AS t(x, y, i))`;
/**
 * Sessions that end within this long of their start are in the per-day totals; the others (and those
 * still running) are read from df_report_sessions when a report is asked.
 */
export const USAGE_LONGEST = `interval '168 hours'`;

/** Adds (`sign` 1) or removes (-1) a finished session's time and start in the device's per-day totals. */
async function sessionUsage(tx: Sql, sessionId: string, sign: 1 | -1) {
  await tx.query(
    `INSERT INTO df_report_usage (company_id, workspace_id, device_id, device_name, day, in_session, started)
     SELECT company_id, workspace_id, device_id, device_name, day, array_agg($2 * us ORDER BY k), array_agg($2 * started ORDER BY k)
     FROM (SELECT s.company_id, s.workspace_id, s.device_id, s.device_name, q.* FROM df_report_sessions s
           CROSS JOIN LATERAL (${quarters('s.started_at', 's.ended_at')}) q
           WHERE s.session_id = $1 AND s.ended_at > s.started_at AND s.ended_at - s.started_at < ${USAGE_LONGEST}) x
     GROUP BY company_id, workspace_id, device_id, device_name, day
     ON CONFLICT (company_id, workspace_id, day, device_id, device_name) DO UPDATE SET
       in_session = ${plus('df_report_usage.in_session', 'excluded.in_session')}, started = ${plus('df_report_usage.started', 'excluded.started')}`,
    [sessionId, sign],
  );
  if (sign < 0) await tx.query(`DELETE FROM df_report_usage WHERE in_session[97] = 0 AND started[97] = 0 AND (company_id, workspace_id, device_id) IN (SELECT company_id, workspace_id, device_id FROM df_report_sessions WHERE session_id = $1)`, [sessionId]);
}

async function sessionClosed(tx: Sql, recorded: RecordedEvent, sessionId: string, status: 'ended' | 'failed', reason: string, at: string) {
  const closed = await tx.query(`UPDATE df_report_sessions SET status = $2, ended_at = $3, end_reason = $4 WHERE session_id = $1 AND ended_at IS NULL`, [sessionId, status, at, reason]);
  if (closed.rowCount > 0) await sessionUsage(tx, sessionId, 1);
  const s = await sessionFacts(tx, sessionId);
  if (s) await activity(tx, recorded, s.company_id, s.workspace_id, `session.${status}`, { deviceId: s.device_id, sessionId, detail: { reason } });
}

async function bookingClosed(tx: Sql, recorded: RecordedEvent, reservationId: string, status: 'ended' | 'cancelled' | 'expired', detail: P = {}) {
  await tx.query(`UPDATE df_report_reservations SET status = $2 WHERE reservation_id = $1`, [reservationId, status]);
  const b = await bookingFacts(tx, reservationId);
  if (b) await activity(tx, recorded, b.company_id, b.workspace_id, `reservation.${status}`, { deviceId: b.device_id, reservationId, detail });
}

const openPresence = (tx: Sql, deviceId: string, at: string) =>
  tx.query(
    `INSERT INTO df_report_presence (device_id, online_from) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM df_report_presence WHERE device_id = $1 AND online_to IS NULL)`,
    [deviceId, at],
  );
/** Closes the devices' open online intervals and adds them to the devices' per-day online totals. */
const closePresence = (tx: Sql, deviceIds: string[], at: string) =>
  tx.query(
    `WITH closed AS (
       UPDATE df_report_presence SET online_to = greatest(online_from, $2::timestamptz) WHERE device_id = ANY($1::text[]) AND online_to IS NULL RETURNING device_id, online_from, online_to
     )
     INSERT INTO df_report_online (device_id, day, online)
     SELECT device_id, day, array_agg(us ORDER BY k) FROM (
       SELECT c.device_id, q.day, q.k, sum(q.us)::int8 AS us FROM closed c CROSS JOIN LATERAL (${quarters('c.online_from', 'c.online_to')}) q
       WHERE c.online_to > c.online_from GROUP BY 1, 2, 3) x
     GROUP BY device_id, day
     ON CONFLICT (day, device_id) DO UPDATE SET online = ${plus('df_report_online.online', 'excluded.online')}`,
    [deviceIds, at],
  );

/**
 * The dashboard's and reports' facts (docs/modules/device-testing.md, "Dashboard and reports"): one
 * row per session and per booking with what the reports group and sum, each device's online
 * intervals (the denominator of utilisation), and the company's activity feed. Rebuildable from the
 * log like every read model.
 */
export const dfReportsProjection: Projection = {
  name: 'df-reports',
  version: 2,
  eventTypes: [...SESSION_TYPES, ...reservationEvents.types, ...DEVICE_TYPES, ...SHARING_TYPES],
  schema: `
    CREATE TABLE IF NOT EXISTS df_report_sessions (
      session_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      device_id text NOT NULL,
      device_name text NOT NULL,
      owner_id integer NOT NULL,
      type text NOT NULL,
      build_name text,
      status text NOT NULL,
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      end_reason text
    );
    CREATE INDEX IF NOT EXISTS df_report_sessions_range ON df_report_sessions (company_id, workspace_id, started_at);
    CREATE INDEX IF NOT EXISTS df_report_sessions_open ON df_report_sessions (company_id, status) WHERE status IN ('starting', 'active');
    CREATE TABLE IF NOT EXISTS df_report_reservations (
      reservation_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      device_id text NOT NULL,
      user_id integer NOT NULL,
      start_at timestamptz NOT NULL,
      end_at timestamptz NOT NULL,
      status text NOT NULL,
      used boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_report_reservations_range ON df_report_reservations (company_id, workspace_id, start_at);
    CREATE TABLE IF NOT EXISTS df_report_presence (
      device_id text NOT NULL,
      online_from timestamptz NOT NULL,
      online_to timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_report_presence_device ON df_report_presence (device_id, online_from);
    CREATE INDEX IF NOT EXISTS df_report_presence_open ON df_report_presence (device_id) WHERE online_to IS NULL;
    CREATE INDEX IF NOT EXISTS df_report_sessions_long ON df_report_sessions (company_id, workspace_id, started_at)
      WHERE ended_at IS NULL OR ended_at - started_at >= interval '168 hours';
    CREATE TABLE IF NOT EXISTS df_report_usage (
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      day integer NOT NULL,
      device_id text NOT NULL,
      device_name text NOT NULL,
      in_session bigint[] NOT NULL,
      started integer[] NOT NULL,
      PRIMARY KEY (company_id, workspace_id, day, device_id, device_name)
    );
    CREATE TABLE IF NOT EXISTS df_report_online (
      device_id text NOT NULL,
      day integer NOT NULL,
      online bigint[] NOT NULL,
      PRIMARY KEY (day, device_id)
    );
    CREATE TABLE IF NOT EXISTS df_report_activity (
      event_id uuid PRIMARY KEY,
      position bigint NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer,
      at timestamptz NOT NULL,
      kind text NOT NULL,
      actor_id text,
      device_id text,
      session_id text,
      reservation_id text,
      detail jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_report_activity_company ON df_report_activity (company_id, position DESC);`,
  tables: ['df_report_sessions', 'df_report_reservations', 'df_report_presence', 'df_report_activity', 'df_report_usage', 'df_report_online'],
  apply: applyByType<ReportEvent>({
    DeviceSessionRequested: async (tx, { payload: p }, at, recorded) => {
      await tx.query(
        `INSERT INTO df_report_sessions (session_id, company_id, workspace_id, device_id, device_name, owner_id, type, build_name, status, started_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'active',$9) ON CONFLICT (session_id) DO NOTHING`,
        [p.sessionId, p.companyId, p.workspaceId, p.deviceId, p.deviceName, p.ownerId, p.type, p.buildName, at],
      );
      await activity(tx, recorded, p.companyId, p.workspaceId, 'session.started', { deviceId: p.deviceId, sessionId: p.sessionId, detail: { name: p.name, type: p.type, deviceName: p.deviceName } });
    },
    DeviceSessionFailed: (tx, { payload: p }, at, recorded) => sessionClosed(tx, recorded, p.sessionId, 'failed', p.reason, at),
    DeviceSessionEnded: (tx, { payload: p }, at, recorded) => sessionClosed(tx, recorded, p.sessionId, 'ended', p.reason, at),
    // A purged session leaves the reports as it leaves every list.
    DeviceSessionDeleted: async (tx, { payload: p }) => {
      await sessionUsage(tx, p.sessionId, -1);
      await tx.query(`DELETE FROM df_report_sessions WHERE session_id = $1`, [p.sessionId]);
    },
    DeviceSessionActivityRecorded: async (tx, { payload: p }, _at, recorded) => {
      if (p.detail.action !== 'installApp') return;
      const s = await sessionFacts(tx, p.sessionId);
      if (s) await activity(tx, recorded, s.company_id, s.workspace_id, 'app.installed', { deviceId: s.device_id, sessionId: p.sessionId, detail: { fileName: p.detail.fileName, packageNames: p.detail.packageNames } });
    },
    DeviceSessionInvitationCreated: (tx, { payload: p }, _at, recorded) =>
      activity(tx, recorded, p.companyId, p.workspaceId, 'session.shared', { sessionId: p.sessionId, detail: { type: p.type, access: p.access } }),
    DeviceReservationScheduled: async (tx, { payload: p }, at, recorded) => {
      await tx.query(
        `INSERT INTO df_report_reservations (reservation_id, company_id, workspace_id, device_id, user_id, start_at, end_at, status, created_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,'scheduled',$8) ON CONFLICT (reservation_id) DO NOTHING`,
        [p.reservationId, p.companyId, p.workspaceId, p.deviceId, p.userId, p.startAt, p.endAt, at],
      );
      await activity(tx, recorded, p.companyId, p.workspaceId, 'reservation.booked', { deviceId: p.deviceId, reservationId: p.reservationId, detail: { startAt: p.startAt, endAt: p.endAt } });
    },
    DeviceReservationRescheduled: (tx, { payload: p }) => tx.query(`UPDATE df_report_reservations SET start_at = $2, end_at = $3 WHERE reservation_id = $1`, [p.reservationId, p.startAt, p.endAt]),
    DeviceReservationActivated: (tx, { payload: p }) => tx.query(`UPDATE df_report_reservations SET status = 'active' WHERE reservation_id = $1`, [p.reservationId]),
    DeviceReservationSessionOpened: (tx, { payload: p }) => tx.query(`UPDATE df_report_reservations SET used = true WHERE reservation_id = $1`, [p.reservationId]),
    DeviceReservationEnded: (tx, { payload: p }, _at, recorded) => bookingClosed(tx, recorded, p.reservationId, 'ended', { reason: p.reason }),
    DeviceReservationCancelled: (tx, { payload: p }, _at, recorded) => bookingClosed(tx, recorded, p.reservationId, 'cancelled'),
    DeviceReservationExpired: (tx, { payload: p }, _at, recorded) => bookingClosed(tx, recorded, p.reservationId, 'expired'),
    // A maintenance's warning changes nothing the reports count (the booking stands as it was).
    DeviceReservationMaintenanceConflict: async () => undefined,
    DeviceReservationMaintenanceConflictCleared: async () => undefined,
    DeviceConnected: async (tx, { payload: p }, at) => {
      if (p.status !== 'offline') await openPresence(tx, p.deviceId, at);
    },
    DeviceDisconnected: (tx, { payload: p }, at) => closePresence(tx, [p.deviceId], at),
    DeviceMoved: (tx, { payload: p }, at) => closePresence(tx, [p.deviceId], at),
    HostDevicesDisconnected: (tx, { payload: p }, at) => closePresence(tx, p.deviceIds, at),
    HostDevicesReconnected: async (tx, { payload: p }, at) => {
      for (const id of p.deviceIds) await openPresence(tx, id, at);
    },
  }),
};
