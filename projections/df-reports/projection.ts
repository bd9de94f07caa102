import { deviceEvents, deviceHostEvents, type DeviceEvent, type DeviceHostEvent } from '#events/df/devices.js';
import { reservationEvents, type ReservationEvent } from '#events/df/reservations.js';
import { sessionEvents, type SessionEvent } from '#events/df/sessions.js';
import type { SharingEvent } from '#events/df/sharing.js';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/types.js';
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

async function sessionClosed(tx: Sql, recorded: RecordedEvent, sessionId: string, status: 'ended' | 'failed', reason: string, at: string) {
  await tx.query(`UPDATE df_report_sessions SET status = $2, ended_at = $3, end_reason = $4 WHERE session_id = $1 AND ended_at IS NULL`, [sessionId, status, at, reason]);
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
const closePresence = (tx: Sql, deviceIds: string[], at: string) =>
  tx.query(`UPDATE df_report_presence SET online_to = greatest(online_from, $2::timestamptz) WHERE device_id = ANY($1::text[]) AND online_to IS NULL`, [deviceIds, at]);

/**
 * The dashboard's and reports' facts (docs/modules/device-testing.md, "Dashboard and reports"): one
 * row per session and per booking with what the reports group and sum, each device's online
 * intervals (the denominator of utilisation), and the company's activity feed. Rebuildable from the
 * log like every read model.
 */
export const dfReportsProjection: Projection = {
  name: 'df-reports',
  version: 1,
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
  tables: ['df_report_sessions', 'df_report_reservations', 'df_report_presence', 'df_report_activity'],
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
    DeviceSessionDeleted: (tx, { payload: p }) => tx.query(`DELETE FROM df_report_sessions WHERE session_id = $1`, [p.sessionId]),
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
