import type { Reservation } from '@qa-platform/client';
import { api, ApiError } from '../api';

/**
 * How bookings are told to the person: instants in their browser's zone, named, so a booking made or
 * refused reads in their own time ("Tue 3 Jun, 11:00 – 12:00, America/New_York time").
 */
const when = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const clockOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The browser's time zone, by its name (`Europe/Berlin`). */
export const zoneName = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A range in the person's zone, the zone named; the end as a time alone when it is the same day. */
export function formatRange(startAt: string | Date, endAt: string | Date): string {
  const start = new Date(startAt);
  const end = new Date(endAt);
  const sameDay = start.toDateString() === end.toDateString();
  return `${when.format(start)} – ${sameDay ? clockOnly.format(end) : when.format(end)} (${zoneName()} time)`;
}

/** `YYYY-MM-DDTHH:mm` in the person's zone, for a datetime-local field. */
export function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const FIELDS: Record<string, string> = { startAt: 'The start', endAt: 'The end', deviceId: 'The device', note: 'The note' };

/**
 * A refused booking in the person's words: an overlap names the bookings in the way in their zone
 * (and their holders when the API tells them), a refused field is named; anything else as the API said it.
 */
export function bookingRefusal(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.code === 'RESERVATION_OVERLAP' && err.details.length > 0) {
    const ways = err.details
      .filter((d) => typeof d.startAt === 'string' && typeof d.endAt === 'string')
      .map((d) => `${formatRange(d.startAt as string, d.endAt as string)}${typeof d.holderName === 'string' ? ` by ${d.holderName}` : ''}`);
    if (ways.length > 0) return new Error(`Not booked: the device is already booked ${ways.join('; and ')}. Choose another time.`);
  }
  if (err.code === 'VALIDATION_FAILED' && err.details.length > 0) {
    return new Error(`Not booked: ${err.details.map((d) => `${FIELDS[d.path] ?? d.path} ${d.message}`).join('; ')}.`);
  }
  return err;
}

/** Books a device; a refusal comes back in the person's words (bookingRefusal). */
export async function bookDevice(body: { deviceId: string; startAt: Date; endAt: Date; note: string | null }): Promise<Reservation> {
  try {
    return await api<Reservation>('/df/api/reservations', {
      method: 'POST',
      body: { deviceId: body.deviceId, startAt: body.startAt.toISOString(), endAt: body.endAt.toISOString(), note: body.note },
    });
  } catch (err) {
    throw bookingRefusal(err);
  }
}

/**
 * The confirmation of a booking made, naming the device and its time; made into a maintenance of the device
 * under way, it says so (the booking stands, with the warning the booking lists show too).
 */
export function bookedText(deviceName: string, booking: Pick<Reservation, 'startAt' | 'endAt' | 'maintenanceConflict'>): string {
  const m = booking.maintenanceConflict;
  const warning = m ? ` The device is in maintenance until ${when.format(new Date(m.until))} (${zoneName()} time; ${m.reason}): the booking stands, but no session opens on it until the maintenance ends.` : '';
  return `Booked ${deviceName} for ${formatRange(booking.startAt, booking.endAt)}.${warning}`;
}
