import { commandContext, fold, handleCommand, type CommandActor, type CommandContext } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { deviceBookingsStream, reservationEvents } from '#events/df/reservations.js';
import type { ReadModelWaiter } from '../../platform.js';
import type { Caller } from '../http.js';
import type { BlockingBooking, ReservationGate } from '../core/session-port.js';
import { bookingAt, bookingFacts, reservationDecider, type ReservationCommand } from './decide.js';

const READ_MODELS = ['df-reservations'];

/** Who a booking command acts for: a user or the ticker (`system`), in the booking's tenant. */
export function bookingActor(actor: number | string, tenant: { companyId: number; workspaceId: number }): CommandActor {
  return { actorId: actor, companyId: tenant.companyId, workspaceId: tenant.workspaceId };
}

/**
 * A device's booking stream and the gate sessions pass (a booked device opens only for its holder).
 * It needs no sessions, so the module builds it before the sessions service and hands it to both
 * that service and the reservation commands and ticker (`service.ts`).
 */
export class BookingGate implements ReservationGate {
  constructor(
    private readonly deps: {
      store: EventStore;
      readModels: ReadModelWaiter;
      /** The platform clock, read on every use (tests move it). */
      now: () => Date;
    },
  ) {}

  run(deviceId: string, command: ReservationCommand, context: CommandContext) {
    return handleCommand({ store: this.deps.store, streamId: deviceBookingsStream(deviceId), decider: { ...reservationDecider, decide: (c: ReservationCommand, s) => reservationEvents.checked(reservationDecider.decide(c, s)) }, command, context, maxAttempts: 25 });
  }

  async bookings(deviceId: string) {
    return fold(reservationDecider, await this.deps.store.readStream(deviceBookingsStream(deviceId)));
  }

  async settle(position: bigint | null): Promise<void> {
    if (position !== null) await this.deps.readModels.waitFor(position, { names: READ_MODELS });
  }

  async admit(caller: Caller, deviceId: string): Promise<string | null> {
    const booking = bookingAt(await this.bookings(deviceId), this.deps.now());
    if (!booking) return null;
    if (booking.userId === caller.userId) return booking.reservationId;
    throw new AppError('DEVICE_RESERVED', `The device is reserved by another user from ${booking.startAt} to ${booking.endAt}`, {
      details: [{ path: 'deviceId', message: 'reserved by another user', ...bookingFacts(booking) }],
    });
  }

  async opened(caller: Caller, deviceId: string, reservationId: string, sessionId: string): Promise<void> {
    const result = await this.run(deviceId, { type: 'RecordSessionOpened', reservationId, sessionId, now: this.deps.now().toISOString() }, commandContext(this.deps, bookingActor(caller.userId, caller)));
    await this.settle(result.position);
  }

  /**
   * An administrator took the device into maintenance until `until` (or changed it): every open booking
   * of the device's company whose range overlaps [now, until] is told (`DeviceReservationMaintenanceConflict`:
   * kept, with the warning); one told before that it no longer touches is cleared. Answers how many were told.
   */
  async maintenanceStarted(deviceId: string, companyId: number, maintenance: { reason: string; until: string }, actor: CommandActor): Promise<number> {
    const command: ReservationCommand = { type: 'NoteMaintenance', deviceId, companyId, reason: maintenance.reason, until: maintenance.until, now: this.deps.now().toISOString() };
    const result = await this.run(deviceId, command, commandContext(this.deps, actor));
    await this.settle(result.position);
    return result.events.filter((e) => e.type === 'DeviceReservationMaintenanceConflict').length;
  }

  /** The device's maintenance ended (by an administrator, its end time, or a quarantine in its place): the warnings it left on open bookings are lifted. */
  async maintenanceEnded(deviceId: string, actor: CommandActor): Promise<void> {
    const result = await this.run(deviceId, { type: 'ClearMaintenance', deviceId }, commandContext(this.deps, actor));
    await this.settle(result.position);
  }

  async blocking(caller: Caller, deviceId: string): Promise<BlockingBooking | null> {
    const booking = bookingAt(await this.bookings(deviceId), this.deps.now());
    return booking && booking.userId !== caller.userId ? bookingFacts(booking) : null;
  }
}
