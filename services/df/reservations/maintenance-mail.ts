import { getUser } from '#projections/org-directory/index.js';
import { labelOfDevice } from '#projections/df-devices/index.js';
import { fold, type RecordedEvent } from '#shared/es/index.js';
import { deviceBookingsStream } from '#events/df/reservations.js';
import type { Platform } from '../../platform.js';
import { EventMailer, type EventMail } from '../core/event-mail.js';
import { reservationDecider, type Booking } from './decide.js';

interface Conflict {
  reservationId: string;
  deviceId: string;
  reason: string;
  until: string;
}

/** The mail that tells a booker a maintenance of the device falls in their booking: the device, the booking's range, why, until when, and where to see it. */
export function maintenanceConflictMail(c: Conflict, booking: Pick<Booking, 'startAt' | 'endAt'>, label: { name: string; model: string } | null, link: string): { subject: string; text: string } {
  const name = label ? `${label.name}${label.model && label.model !== label.name ? ` (${label.model})` : ''}` : c.deviceId;
  return {
    subject: `Maintenance in your booking of ${name}`,
    text:
      `The device ${name} (${c.deviceId}) is in maintenance until ${c.until}, which falls in your booking ` +
      `${c.reservationId} from ${booking.startAt} to ${booking.endAt}.\n\n` +
      `Why: ${c.reason}\n\n` +
      `Your booking stands (the maintenance may end early), but no session opens on the device until the ` +
      `maintenance ends. Move or cancel the booking, or keep it: ${link}\n`,
  };
}

/** The booking as its device's stream knew it when it was told (its range then, its holder). */
async function bookingAt(platform: Platform, event: RecordedEvent, reservationId: string): Promise<Booking | null> {
  const { deviceId } = event.payload as Conflict;
  const events = (await platform.store.readStream(deviceBookingsStream(deviceId))).filter((e) => e.position <= event.position);
  return fold(reservationDecider, events).bookings[reservationId] ?? null;
}

/** One mail to the booking's holder, while their account is active; how many were mailed (0 or 1). */
async function send(platform: Platform, event: RecordedEvent): Promise<number> {
  const c = event.payload as Conflict;
  const booking = await bookingAt(platform, event, c.reservationId);
  if (!booking) return 0;
  const holder = await getUser(platform.db, booking.companyId, booking.userId);
  if (!holder || holder.status !== 'active') return 0;
  const link = platform.publicAddress.link(`/reservations?deviceId=${encodeURIComponent(c.deviceId)}`);
  await platform.mailer.send({ to: holder.email, ...maintenanceConflictMail(c, booking, await labelOfDevice(platform.db, c.deviceId), link) });
  platform.logger.info({ reservationId: c.reservationId, deviceId: c.deviceId }, 'maintenance in a booking mailed to its holder');
  return 1;
}

/**
 * Mails the holder of a booking that a maintenance of its device falls in (`DeviceReservationMaintenanceConflict`:
 * the maintenance's start, its change, or a booking made or moved into it), once per event — the event is
 * recorded once per maintenance and booking, so the same maintenance is not mailed twice. It follows the
 * event log from its own stored position and claims each event by its id (`EventMailer`): a replay, a
 * restart or a second replica mails nothing twice, a refused mail is tried again.
 */
export class MaintenanceConflictMailer extends EventMailer {
  constructor(platform: Platform) {
    const mail: EventMail = {
      what: 'the maintenance-in-a-booking mail',
      schemaName: 'df_reservation_mails',
      tables: { position: 'df_reservation_mail_position', positionName: 'maintenance-conflict', claims: 'df_reservation_mails', subjectColumn: 'reservation_id' },
      eventTypes: ['DeviceReservationMaintenanceConflict'],
      subjectOf: (event) => (event.payload as Conflict).reservationId,
      send: (event) => send(platform, event),
    };
    super(platform, mail);
  }
}
