import type { Sql } from '#shared/db/index.js';
import { iso, textOrNull, type Row } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import type { ReservationStatus } from '#events/df/reservations.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

export type ReservationScope = WorkspaceScope;

/** A reservation as the API shows it (docs/modules/device-testing.md, "Reservations"). */
export interface ReservationView {
  id: string;
  deviceId: string;
  userId: number;
  workspaceId: number;
  startAt: string;
  endAt: string;
  status: ReservationStatus;
  note: string | null;
  createdAt: string;
  /** The device goes into maintenance during the booking (it is kept, with this warning); null otherwise. */
  maintenanceConflict: { reason: string; until: string; notedAt: string } | null;
}

/** A reservation with what the service needs besides the view. */
export interface ReservationRecord extends ReservationView {
  companyId: number;
  lastSessionId: string | null;
}

export interface ReservationFilters {
  deviceId?: string[];
  userId?: number[];
  status?: string[];
  /** Reservations whose range overlaps [from, to). */
  from?: Date;
  to?: Date;
}

const toRecord = (r: Row): ReservationRecord => ({
  id: String(r.reservation_id),
  deviceId: String(r.device_id),
  userId: Number(r.user_id),
  workspaceId: Number(r.workspace_id),
  startAt: iso(r.start_at),
  endAt: iso(r.end_at),
  status: String(r.status) as ReservationStatus,
  note: textOrNull(r.note),
  createdAt: iso(r.created_at),
  maintenanceConflict: r.maintenance_until ? { reason: String(r.maintenance_reason), until: iso(r.maintenance_until), notedAt: iso(r.maintenance_noted_at) } : null,
  companyId: Number(r.company_id),
  lastSessionId: textOrNull(r.last_session_id),
});

/** The view of a record (no tenant or session facts). */
export const toReservationView = ({ companyId: _c, lastSessionId: _s, ...view }: ReservationRecord): ReservationView => view;

/** One reservation of the caller's workspace, or null (also for another company's or workspace's id). */
export async function findReservation(db: Sql, scope: ReservationScope, reservationId: string): Promise<ReservationRecord | null> {
  return oneOrNull(db, `SELECT * FROM df_reservations WHERE reservation_id = $1 AND company_id = $2 AND workspace_id = $3`, [reservationId, scope.companyId, scope.workspaceId], toRecord);
}

/** A page of the workspace's reservations, by start (then id). */
export async function listReservations(
  db: Sql,
  scope: ReservationScope,
  filters: ReservationFilters,
  paging: { page: number; size: number; sortDir: 'asc' | 'desc' },
): Promise<Page<ReservationView>> {
  const where = Conditions.inWorkspace(scope);
  if (filters.deviceId?.length) where.add((n) => `device_id = ANY(${n}::text[])`, filters.deviceId);
  if (filters.userId?.length) where.add((n) => `user_id = ANY(${n}::integer[])`, filters.userId);
  if (filters.status?.length) where.add((n) => `status = ANY(${n}::text[])`, filters.status);
  if (filters.from) where.add((n) => `end_at > ${n}`, filters.from.toISOString());
  if (filters.to) where.add((n) => `start_at < ${n}`, filters.to.toISOString());
  const dir = paging.sortDir === 'desc' ? 'DESC' : 'ASC';
  return readPage(db, { from: 'df_reservations', where, orderBy: `start_at ${dir}, reservation_id ${dir}` }, paging, (r) => toReservationView(toRecord(r)));
}

/**
 * Open reservations the ticker has work on at `now`: scheduled ones whose start came, active ones
 * whose end came or that are still unused `graceMs` after their start.
 */
export async function dueReservations(db: Sql, now: Date, graceMs: number): Promise<ReservationRecord[]> {
  const r = await db.query(
    `SELECT * FROM df_reservations
     WHERE (status = 'scheduled' AND start_at <= $1)
        OR (status = 'active' AND (end_at <= $1 OR (last_session_id IS NULL AND start_at <= $2)))
     ORDER BY start_at, reservation_id`,
    [now.toISOString(), new Date(now.getTime() - graceMs).toISOString()],
  );
  return r.rows.map(toRecord);
}

/** Reservations holding their device at `now`: active ones, and scheduled ones whose range holds `now`. */
export async function currentReservations(db: Sql, now: Date, deviceIds?: readonly string[]): Promise<ReservationRecord[]> {
  const params: unknown[] = [now.toISOString()];
  let devices = '';
  if (deviceIds) {
    if (deviceIds.length === 0) return [];
    params.push(deviceIds);
    devices = ` AND device_id = ANY($2::text[])`;
  }
  const r = await db.query(
    `SELECT * FROM df_reservations WHERE (status = 'active' OR (status = 'scheduled' AND start_at <= $1 AND end_at > $1))${devices} ORDER BY start_at`,
    params,
  );
  return r.rows.map(toRecord);
}

/** Scheduled reservations starting after `now` and no later than `until` (the warnings before a start). */
export async function upcomingReservations(db: Sql, now: Date, until: Date): Promise<ReservationRecord[]> {
  const r = await db.query(`SELECT * FROM df_reservations WHERE status = 'scheduled' AND start_at > $1 AND start_at <= $2 ORDER BY start_at`, [now.toISOString(), until.toISOString()]);
  return r.rows.map(toRecord);
}
