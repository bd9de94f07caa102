import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ReservationEvent, ReservationStatus } from '#events/df/reservations.js';

/** A booking as the device's booking stream knows it. */
export interface Booking {
  reservationId: string;
  deviceId: string;
  userId: number;
  companyId: number;
  workspaceId: number;
  startAt: string;
  endAt: string;
  note: string | null;
  status: ReservationStatus;
  /** Whether the holder opened a session during it (then it does not expire). */
  used: boolean;
  /** A maintenance of its device that falls in its range (kept, with this warning), or null. */
  maintenance: { reason: string; until: string } | null;
}

/** A maintenance under way on a device: its company (only that company's bookings are told), why, and until when. */
export interface DeviceMaintenance {
  companyId: number;
  reason: string;
  until: string;
}

/** Every booking of one device, by id. */
export interface BookingsState {
  bookings: Record<string, Booking>;
}

const ms = (iso: string) => Date.parse(iso);

/** A booking starting this close to now starts at once. */
export const START_AT_ONCE_MS = 60_000;
/** The longest booking. */
export const MAX_RESERVATION_MS = 7 * 86_400_000;

function checkRange(startAt: string, endAt: string): void {
  if (ms(endAt) <= ms(startAt)) throw new AppError('VALIDATION_FAILED', 'endAt must be after startAt', { details: [{ path: 'endAt', message: 'must be after startAt' }] });
  if (ms(endAt) - ms(startAt) > MAX_RESERVATION_MS) throw new AppError('VALIDATION_FAILED', 'A reservation lasts at most 7 days', { details: [{ path: 'endAt', message: 'at most 7 days after startAt' }] });
}

export type ReservationCommand =
  /** `maintenance`: the device's maintenance under way (absent or null: none); a booking made into it is told at once. */
  | ({ type: 'Reserve'; now: string; maintenance?: DeviceMaintenance | null } & Omit<Booking, 'status' | 'used' | 'maintenance'>)
  /** `maintenance` as in Reserve: a booking moved into it is told, one moved out of it (or told of one no longer under way) has its warning lifted. */
  | { type: 'Reschedule'; reservationId: string; startAt?: string; endAt?: string; note?: string | null; now: string; maintenance?: DeviceMaintenance | null }
  /** DELETE: a scheduled booking is cancelled, an active one ended. */
  | { type: 'Cancel'; reservationId: string }
  | { type: 'End'; reservationId: string }
  | { type: 'RecordSessionOpened'; reservationId: string; sessionId: string; now: string }
  /** The ticker's step for one booking: activate, end at its end, expire without a session after the grace. */
  | { type: 'Advance'; reservationId: string; now: string; graceMs: number }
  /**
   * The device went into maintenance (or its maintenance changed) until `until`: every open booking of
   * the device's company whose range overlaps [now, until] is warned; one warned before that no longer
   * overlaps is cleared. Another company's bookings (a shared device) are left alone.
   */
  | { type: 'NoteMaintenance'; deviceId: string; companyId: number; reason: string; until: string; now: string }
  /** The device's maintenance ended: the open bookings it warned are cleared. */
  | { type: 'ClearMaintenance'; deviceId: string };

export const isOpen = (b: Pick<Booking, 'status'>) => b.status === 'scheduled' || b.status === 'active';
const overlaps = (a: { startAt: string; endAt: string }, b: { startAt: string; endAt: string }) => ms(a.startAt) < ms(b.endAt) && ms(b.startAt) < ms(a.endAt);

/** The open booking whose range holds `now` (an active one until it is ended), or null. */
export function bookingAt(state: BookingsState, now: Date): Booking | null {
  const t = now.getTime();
  for (const b of Object.values(state.bookings)) {
    if (b.status === 'active' && t < ms(b.endAt)) return b;
    if (b.status === 'scheduled' && ms(b.startAt) <= t && t < ms(b.endAt)) return b;
  }
  return null;
}

/** What a client needs to offer another slot: the booking's id, range and holder. */
export const bookingFacts = (b: Booking) => ({ reservationId: b.reservationId, startAt: b.startAt, endAt: b.endAt, userId: b.userId });

/** 409 RESERVATION_OVERLAP naming the earliest open booking the range overlaps, if any. */
function refuseOverlap(state: BookingsState, range: { startAt: string; endAt: string }, except?: string): void {
  const conflicts = Object.values(state.bookings)
    .filter((b) => b.reservationId !== except && isOpen(b) && overlaps(b, range))
    .sort((a, b) => ms(a.startAt) - ms(b.startAt));
  const first = conflicts[0];
  if (!first) return;
  throw new AppError('RESERVATION_OVERLAP', `The device is booked from ${first.startAt} to ${first.endAt}`, {
    details: conflicts.map((b) => ({ path: 'startAt', message: `overlaps the booking from ${b.startAt} to ${b.endAt}`, ...bookingFacts(b) })),
  });
}

function existing(state: BookingsState, reservationId: string): Booking {
  const b = state.bookings[reservationId];
  if (!b) throw new AppError('NOT_FOUND', 'Reservation not found');
  return b;
}

const ref = (b: Booking) => ({ reservationId: b.reservationId, deviceId: b.deviceId });

/**
 * What a maintenance under way (or none) says of one open booking at `now` — the one rule for a maintenance's
 * start and change and for a booking made or moved: told (kept, with the warning) when its range overlaps
 * [now, until]; its warning lifted when it no longer does or none is under way; nothing when it was told of
 * this very maintenance already. Another company's booking (a shared device) is left alone.
 */
function maintenanceNotice(b: Booking, m: DeviceMaintenance | null, now: string): ReservationEvent[] {
  if (m && m.companyId !== b.companyId) return [];
  if (!m || ms(m.until) <= ms(now) || !overlaps(b, { startAt: now, endAt: m.until })) return b.maintenance ? [{ type: 'DeviceReservationMaintenanceConflictCleared', payload: ref(b) }] : [];
  if (b.maintenance?.reason === m.reason && b.maintenance.until === m.until) return [];
  return [{ type: 'DeviceReservationMaintenanceConflict', payload: { ...ref(b), reason: m.reason, until: m.until } }];
}
const update = (state: BookingsState, id: string, change: Partial<Booking>): BookingsState => {
  const b = state.bookings[id];
  return b ? { bookings: { ...state.bookings, [id]: { ...b, ...change } } } : state;
};

/**
 * The bookings of one device (`device-bookings-<deviceId>`): open bookings (scheduled or active) never
 * overlap. States `scheduled → active → ended | cancelled | expired`; time comes in the commands.
 */
export const reservationDecider = defineDecider<ReservationCommand, ReservationEvent, BookingsState>({
  initialState: () => ({ bookings: {} }),

  evolve: {
    DeviceReservationScheduled: (state, { payload: p }) => ({
      bookings: {
        ...state.bookings,
        [p.reservationId]: {
          reservationId: p.reservationId,
          deviceId: p.deviceId,
          userId: p.userId,
          companyId: p.companyId,
          workspaceId: p.workspaceId,
          startAt: p.startAt,
          endAt: p.endAt,
          note: p.note,
          status: 'scheduled',
          used: false,
          maintenance: null,
        },
      },
    }),
    DeviceReservationActivated: (state, e) => update(state, e.payload.reservationId, { status: 'active' }),
    DeviceReservationRescheduled: (state, { payload: p }) => update(state, p.reservationId, { startAt: p.startAt, endAt: p.endAt, note: p.note }),
    DeviceReservationSessionOpened: (state, e) => update(state, e.payload.reservationId, { used: true }),
    DeviceReservationEnded: (state, e) => update(state, e.payload.reservationId, { status: 'ended' }),
    DeviceReservationCancelled: (state, e) => update(state, e.payload.reservationId, { status: 'cancelled' }),
    DeviceReservationExpired: (state, e) => update(state, e.payload.reservationId, { status: 'expired' }),
    DeviceReservationMaintenanceConflict: (state, { payload: p }) => update(state, p.reservationId, { maintenance: { reason: p.reason, until: p.until } }),
    DeviceReservationMaintenanceConflictCleared: (state, e) => update(state, e.payload.reservationId, { maintenance: null }),
  },

  decide: {
    Reserve: (c, state) => {
      if (state.bookings[c.reservationId]) throw new AppError('ALREADY_EXISTS', 'Reservation already exists');
      checkRange(c.startAt, c.endAt);
      refuseOverlap(state, c);
      const { type: _type, now, maintenance, ...payload } = c;
      const events: ReservationEvent[] = [{ type: 'DeviceReservationScheduled', payload }];
      if (ms(c.startAt) <= ms(now) + START_AT_ONCE_MS) events.push({ type: 'DeviceReservationActivated', payload: { reservationId: c.reservationId, deviceId: c.deviceId } });
      events.push(...maintenanceNotice({ ...payload, status: 'scheduled', used: false, maintenance: null }, maintenance ?? null, now));
      return events;
    },
    Reschedule: (c, state) => {
      const b = existing(state, c.reservationId);
      if (!isOpen(b)) throw new AppError('INVALID_TRANSITION', `The reservation is ${b.status}`);
      const startAt = c.startAt ?? b.startAt;
      const endAt = c.endAt ?? b.endAt;
      const note = c.note === undefined ? b.note : c.note;
      if (b.status === 'active' && ms(startAt) !== ms(b.startAt)) throw new AppError('INVALID_TRANSITION', 'The reservation has started; only its end and note can change');
      if (ms(startAt) !== ms(b.startAt) && ms(startAt) < ms(c.now) - START_AT_ONCE_MS) {
        throw new AppError('VALIDATION_FAILED', 'startAt must not be in the past', { details: [{ path: 'startAt', message: 'must not be in the past' }] });
      }
      checkRange(startAt, endAt);
      if (ms(endAt) <= ms(c.now)) throw new AppError('VALIDATION_FAILED', 'endAt must be in the future', { details: [{ path: 'endAt', message: 'must be in the future' }] });
      if (startAt === b.startAt && endAt === b.endAt && note === b.note) return [];
      refuseOverlap(state, { startAt, endAt }, b.reservationId);
      const events: ReservationEvent[] = [{ type: 'DeviceReservationRescheduled', payload: { ...ref(b), userId: b.userId, startAt, endAt, note } }];
      if (b.status === 'scheduled' && ms(startAt) <= ms(c.now) + START_AT_ONCE_MS) events.push({ type: 'DeviceReservationActivated', payload: ref(b) });
      events.push(...maintenanceNotice({ ...b, startAt, endAt }, c.maintenance ?? null, c.now));
      return events;
    },
    Cancel: (c, state) => {
      const b = existing(state, c.reservationId);
      if (b.status === 'scheduled') return [{ type: 'DeviceReservationCancelled', payload: ref(b) }];
      if (b.status === 'active') return [{ type: 'DeviceReservationEnded', payload: { ...ref(b), reason: 'user' } }];
      return [];
    },
    End: (c, state) => {
      const b = existing(state, c.reservationId);
      if (b.status !== 'active') throw new AppError('RESERVATION_NOT_ACTIVE', `The reservation is ${b.status}`);
      return [{ type: 'DeviceReservationEnded', payload: { ...ref(b), reason: 'user' } }];
    },
    RecordSessionOpened: (c, state) => {
      const b = existing(state, c.reservationId);
      const now = ms(c.now);
      if (b.status === 'scheduled' && ms(b.startAt) <= now && now < ms(b.endAt)) {
        return [
          { type: 'DeviceReservationActivated', payload: ref(b) },
          { type: 'DeviceReservationSessionOpened', payload: { ...ref(b), sessionId: c.sessionId } },
        ];
      }
      if (b.status !== 'active') return [];
      return [{ type: 'DeviceReservationSessionOpened', payload: { ...ref(b), sessionId: c.sessionId } }];
    },
    Advance: (c, state) => {
      const b = existing(state, c.reservationId);
      const now = ms(c.now);
      if (b.status === 'scheduled') {
        if (now < ms(b.startAt)) return [];
        // Its whole range passed before anyone activated it (the service was down): it went unused.
        if (now >= ms(b.endAt)) return [{ type: 'DeviceReservationExpired', payload: ref(b) }];
        if (now >= ms(b.startAt) + c.graceMs) return [{ type: 'DeviceReservationActivated', payload: ref(b) }, { type: 'DeviceReservationExpired', payload: ref(b) }];
        return [{ type: 'DeviceReservationActivated', payload: ref(b) }];
      }
      if (b.status !== 'active') return [];
      if (now >= ms(b.endAt)) return [{ type: 'DeviceReservationEnded', payload: { ...ref(b), reason: 'time' } }];
      if (!b.used && now >= ms(b.startAt) + c.graceMs) return [{ type: 'DeviceReservationExpired', payload: ref(b) }];
      return [];
    },
    NoteMaintenance: (c, state) => {
      const maintenance = { companyId: c.companyId, reason: c.reason, until: c.until };
      return Object.values(state.bookings)
        .filter((b) => isOpen(b) && b.companyId === c.companyId)
        .flatMap((b) => maintenanceNotice(b, maintenance, c.now));
    },
    ClearMaintenance: (_c, state) =>
      Object.values(state.bookings)
        .filter((b) => isOpen(b) && b.maintenance)
        .map((b): ReservationEvent => ({ type: 'DeviceReservationMaintenanceConflictCleared', payload: ref(b) })),
  },
});
