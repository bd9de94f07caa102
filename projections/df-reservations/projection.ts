import { erasedValue } from '#shared/pii/index.js';
import { reservationEvents, type ReservationEvent } from '#events/df/reservations.js';
import type { Sql } from '#shared/db/index.js';
import { applyByType, type Projection } from '../types.js';

const setStatus = (tx: Sql, reservationId: string, status: string, at: string, reason: string | null = null) =>
  tx.query(`UPDATE df_reservations SET status = $2, updated_at = $3, end_reason = coalesce($4, end_reason) WHERE reservation_id = $1`, [reservationId, status, at, reason]);

/** Device bookings as the reservation endpoints list them, and what the ticker looks for. */
export const dfReservationsProjection: Projection = {
  name: 'df-reservations',
  version: 1,
  eventTypes: reservationEvents.types,
  // An erased person's bookings keep their device and times; their notes go.
  erasePerson: async (tx, userId) => {
    await tx.query(`UPDATE df_reservations SET note = $2 WHERE user_id = $1 AND note IS NOT NULL`, [userId, erasedValue('text', '')]);
  },
  schema: `
    CREATE TABLE IF NOT EXISTS df_reservations (
      reservation_id text PRIMARY KEY,
      device_id text NOT NULL,
      user_id integer NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      start_at timestamptz NOT NULL,
      end_at timestamptz NOT NULL,
      status text NOT NULL,
      note text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_session_id text,
      end_reason text
    );
    -- Added later; no event before them sets them, so an existing table needs no rebuild.
    ALTER TABLE df_reservations ADD COLUMN IF NOT EXISTS maintenance_reason text;
    ALTER TABLE df_reservations ADD COLUMN IF NOT EXISTS maintenance_until timestamptz;
    ALTER TABLE df_reservations ADD COLUMN IF NOT EXISTS maintenance_noted_at timestamptz;
    CREATE INDEX IF NOT EXISTS df_reservations_workspace ON df_reservations (company_id, workspace_id, start_at);
    CREATE INDEX IF NOT EXISTS df_reservations_device ON df_reservations (device_id, start_at);
    CREATE INDEX IF NOT EXISTS df_reservations_open ON df_reservations (status, start_at) WHERE status IN ('scheduled', 'active');`,
  tables: ['df_reservations'],
  apply: applyByType<ReservationEvent>(
    {
      DeviceReservationScheduled: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_reservations (reservation_id, device_id, user_id, company_id, workspace_id, start_at, end_at, status, note, created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,'scheduled',$8,$9,$9) ON CONFLICT (reservation_id) DO NOTHING`,
          [p.reservationId, p.deviceId, p.userId, p.companyId, p.workspaceId, p.startAt, p.endAt, p.note, at],
        );
      },
      DeviceReservationActivated: (tx, e, at) => setStatus(tx, e.payload.reservationId, 'active', at),
      DeviceReservationRescheduled: (tx, { payload: p }, at) =>
        tx.query(`UPDATE df_reservations SET start_at = $2, end_at = $3, note = $4, updated_at = $5 WHERE reservation_id = $1`, [p.reservationId, p.startAt, p.endAt, p.note, at]),
      DeviceReservationSessionOpened: (tx, e, at) =>
        tx.query(`UPDATE df_reservations SET last_session_id = $2, updated_at = $3 WHERE reservation_id = $1`, [e.payload.reservationId, e.payload.sessionId, at]),
      DeviceReservationEnded: (tx, e, at) => setStatus(tx, e.payload.reservationId, 'ended', at, e.payload.reason),
      DeviceReservationCancelled: (tx, e, at) => setStatus(tx, e.payload.reservationId, 'cancelled', at),
      DeviceReservationExpired: (tx, e, at) => setStatus(tx, e.payload.reservationId, 'expired', at),
      DeviceReservationMaintenanceConflict: (tx, { payload: p }, at) =>
        tx.query(`UPDATE df_reservations SET maintenance_reason = $2, maintenance_until = $3, maintenance_noted_at = $4, updated_at = $4 WHERE reservation_id = $1`, [p.reservationId, p.reason, p.until, at]),
      DeviceReservationMaintenanceConflictCleared: (tx, e, at) =>
        tx.query(`UPDATE df_reservations SET maintenance_reason = NULL, maintenance_until = NULL, maintenance_noted_at = NULL, updated_at = $2 WHERE reservation_id = $1`, [e.payload.reservationId, at]),
    },
    reservationEvents,
  ),
};
