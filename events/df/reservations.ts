import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** `scheduled → active → ended | cancelled | expired` (docs/modules/device-testing.md, "Reservations"). */
const reservationStatus = z.enum(['scheduled', 'active', 'ended', 'cancelled', 'expired']);
export type ReservationStatus = z.output<typeof reservationStatus>;
export const RESERVATION_STATUSES = reservationStatus.options;

const booking = { reservationId: z.string(), deviceId: z.string() };
/** An instant as ISO 8601 with its zone (`2026-01-02T03:04:05.000Z`). */
const instant = z.iso.datetime({ offset: true });

/**
 * Bookings of one device, all on the device's booking stream (`device-bookings-<deviceId>`): one
 * stream per device is what makes overlapping bookings exclusive (an append carries the revision the
 * overlap check was made against).
 */
export const reservationEvents = defineEvents({
  DeviceReservationScheduled: z.object({
    ...booking,
    userId: z.number().int(),
    ...tenantScope,
    startAt: instant,
    endAt: instant,
    note: z.string().nullable(),
  }),
  /** Its range began (or it was booked to start at once): the device is the holder's. */
  DeviceReservationActivated: z.object(booking),
  /** `userId`: the booking's holder, whose its note is whoever moved it (absent in events recorded before it was kept). */
  DeviceReservationRescheduled: z.object({ ...booking, userId: z.number().int().optional(), startAt: instant, endAt: instant, note: z.string().nullable() }),
  /** The holder opened a session on the device during the booking (it no longer expires). */
  DeviceReservationSessionOpened: z.object({ ...booking, sessionId: z.string() }),
  /** `reason`: `user` (ended or cancelled while active), `time` (its end came). */
  DeviceReservationEnded: z.object({ ...booking, reason: z.string() }),
  DeviceReservationCancelled: z.object(booking),
  /** The holder opened no session within the grace (`DF_RESERVATION_GRACE`), or its range passed unused. */
  DeviceReservationExpired: z.object(booking),
  /**
   * An administrator took the booking's device into maintenance for part of its range (until `until`,
   * for `reason`): the booking is kept — the maintenance may end early — and carries this warning.
   * Recorded again when the maintenance changes.
   */
  DeviceReservationMaintenanceConflict: z.object({ ...booking, reason: z.string(), until: instant }),
  /** The maintenance that warned the booking ended, or no longer falls in its range: the warning is lifted. */
  DeviceReservationMaintenanceConflictCleared: z.object(booking),
});
export type ReservationEvent = EventOf<typeof reservationEvents>;
export const RESERVATION_EVENT_TYPES = reservationEvents.types;

/** Stream of one device's bookings. */
export const deviceBookingsStream = (deviceId: string) => `device-bookings-${deviceId}`;
