import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { findDevice } from '#projections/df-devices/index.js';
import { currentReservations, dueReservations, findReservation, toReservationView, upcomingReservations, type ReservationRecord, type ReservationView } from '#projections/df-reservations/index.js';
import { openSessionsOnDevices, type SessionRecord, type SessionView } from '#projections/df-sessions/index.js';
import type { Database } from '#shared/db/index.js';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import { AppError, found } from '#shared/errors.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { ScreenHub } from '../core/screen-hub.js';
import type { Caller } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import type { DeviceMaintenance, ReservationCommand } from './decide.js';
import { bookingActor, type BookingGate } from './gate.js';
import type { SessionEndReason } from '#events/df/sessions.js';

/** Sessions of other users on a booked device are warned this long before the booking starts. */
export const WARN_BEFORE_MS = 5 * 60_000;
/** Ending reasons of sessions the bookings end. */
export const SESSION_END_REASONS = { reserved: 'reserved', bookingOver: 'reservation-ended' } as const satisfies Record<string, SessionEndReason>;

export interface ReservationInput {
  deviceId: string;
  startAt: Date;
  endAt: Date;
  note?: string | null | undefined;
}

/** What bookings ask of plan limits (services/df/fleet plugs in here): reserved hours per month. */
export interface ReservationQuota {
  /** 403 QUOTA_EXCEEDED when the booking (in place of `replacing`, when rescheduled) would pass the month's reserved hours. */
  checkReservation(companyId: number, startAt: Date, endAt: Date, replacing?: { startAt: string; endAt: string }): Promise<void>;
}

/** The maintenance under way on a device, or null (device health plugs in here): a booking made or moved into it is told. */
export interface MaintenanceSource {
  maintenanceOf(deviceId: string): Promise<DeviceMaintenance | null>;
}

export interface ReservationChange {
  startAt?: Date | undefined;
  endAt?: Date | undefined;
  note?: string | null | undefined;
}

/**
 * Device bookings: the commands of the reservation endpoints, and the ticker that activates, expires
 * and ends bookings and ends other users' sessions at a booking's start. Every decision is made on the
 * device's booking stream, through the gate sessions pass (`gate.ts`, built before the sessions
 * service; this service, which ends and opens sessions, is built after it).
 */
export class ReservationService {
  private readonly ticker = new PeriodicJob(
    'reservations',
    (tick) => this.step(tick),
    (err) => this.deps.logger.warn({ err }, 'reservation tick failed'),
  );
  private ticking: Promise<void> = Promise.resolve();
  /** Sessions whose viewers on this replica were already warned of a booking (`reservationId:sessionId`). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly deps: {
      db: Database;
      logger: Logger;
      /** The device's booking stream (the same gate sessions pass). */
      gate: BookingGate;
      sessions: SessionPort;
      /** Plan limits, when the module has them. */
      quota: ReservationQuota | null;
      /** The device's maintenance under way, read as a booking is made or moved (the warning its start gives). */
      maintenance: MaintenanceSource;
      hub: ScreenHub;
      /** Shared by the replicas: which of them writes a warning on a session's timeline (once for all). */
      kv: KeyValueStore;
      /** The platform clock, read on every use (tests move it). */
      now: () => Date;
      graceMs: number;
      tickMs: number;
    },
  ) {}

  /** Starts the ticker. */
  start(): void {
    this.ticker.start(this.deps.tickMs);
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
    await this.ticking.catch(() => undefined);
  }

  /**
   * One step of the ticker at `now()`: activates bookings whose start came, ends those whose end came,
   * expires those unused after the grace, ends other users' sessions on held devices (reason
   * `reserved`) and warns sessions a booking is about to take the device from. Steps run one at a time;
   * the ticker calls it, and so can tests and operators.
   */
  step(tick: Tick = UNTRACED): Promise<void> {
    const run = this.ticking.catch(() => undefined).then(() => this.tick(tick));
    this.ticking = run;
    return run;
  }

  private run(deviceId: string, command: ReservationCommand, context: CommandContext) {
    return this.deps.gate.run(deviceId, command, context);
  }

  private bookings(deviceId: string) {
    return this.deps.gate.bookings(deviceId);
  }

  private settle(position: bigint | null): Promise<void> {
    return this.deps.gate.settle(position);
  }

  private async view(caller: Pick<Caller, 'companyId' | 'workspaceId'>, reservationId: string): Promise<ReservationView> {
    return toReservationView(found(await findReservation(this.deps.db, caller, reservationId), 'Reservation not found'));
  }

  /** A reservation of the caller's workspace, or 404. */
  async get(caller: Pick<Caller, 'companyId' | 'workspaceId'>, reservationId: string): Promise<ReservationRecord> {
    return found(await findReservation(this.deps.db, caller, reservationId), 'Reservation not found');
  }

  /**
   * Books a device; 409 RESERVATION_OVERLAP naming the booking in the way. One starting within the minute
   * starts at once. One made into the device's maintenance under way is kept and told, as the maintenance's
   * start tells the bookings already there.
   */
  async create(caller: Caller, input: ReservationInput): Promise<ReservationView> {
    const device = found(await findDevice(this.deps.db, caller, input.deviceId), 'Device not found');
    const now = this.deps.now();
    // A start a moment ago (clocks, the request's way) is now.
    const startAt = input.startAt.getTime() < now.getTime() ? now : input.startAt;
    const reservationId = randomUUID();
    await this.deps.quota?.checkReservation(caller.companyId, startAt, input.endAt);
    const maintenance = await this.deps.maintenance.maintenanceOf(device.id);
    const result = await this.run(
      device.id,
      {
        type: 'Reserve',
        reservationId,
        deviceId: device.id,
        userId: caller.userId,
        companyId: caller.companyId,
        workspaceId: caller.workspaceId,
        startAt: startAt.toISOString(),
        endAt: input.endAt.toISOString(),
        note: input.note ?? null,
        now: now.toISOString(),
        maintenance,
      },
      commandContext(this.deps, bookingActor(caller.userId, caller)),
    );
    await this.settle(result.position);
    if (result.events.some((e) => e.type === 'DeviceReservationActivated')) await this.enforce(await this.get(caller, reservationId));
    return this.view(caller, reservationId);
  }

  /** Changes the range or note (the overlap rule applies again); moved into the device's maintenance under way it is told, moved out its warning is lifted. */
  async update(caller: Caller, reservation: ReservationRecord, change: ReservationChange): Promise<ReservationView> {
    if (change.startAt || change.endAt) {
      await this.deps.quota?.checkReservation(caller.companyId, change.startAt ?? new Date(reservation.startAt), change.endAt ?? new Date(reservation.endAt), reservation);
    }
    const maintenance = await this.deps.maintenance.maintenanceOf(reservation.deviceId);
    const result = await this.run(
      reservation.deviceId,
      {
        type: 'Reschedule',
        reservationId: reservation.id,
        ...(change.startAt ? { startAt: change.startAt.toISOString() } : {}),
        ...(change.endAt ? { endAt: change.endAt.toISOString() } : {}),
        ...(change.note !== undefined ? { note: change.note } : {}),
        now: this.deps.now().toISOString(),
        maintenance,
      },
      commandContext(this.deps, bookingActor(caller.userId, reservation)),
    );
    await this.settle(result.position);
    if (result.events.some((e) => e.type === 'DeviceReservationActivated')) await this.enforce(await this.get(caller, reservation.id));
    return this.view(caller, reservation.id);
  }

  /** Cancels a scheduled booking; an active one is ended (the device is free at once). */
  async cancel(caller: Caller, reservation: ReservationRecord): Promise<ReservationView> {
    const result = await this.run(reservation.deviceId, { type: 'Cancel', reservationId: reservation.id }, commandContext(this.deps, bookingActor(caller.userId, reservation)));
    await this.settle(result.position);
    if (result.events.some((e) => e.type === 'DeviceReservationEnded')) await this.release(reservation);
    return this.view(caller, reservation.id);
  }

  /** Ends an active booking (409 RESERVATION_NOT_ACTIVE otherwise); the holder's sessions on the device end with it. */
  async end(caller: Caller, reservation: ReservationRecord): Promise<ReservationView> {
    const result = await this.run(reservation.deviceId, { type: 'End', reservationId: reservation.id }, commandContext(this.deps, bookingActor(caller.userId, reservation)));
    await this.settle(result.position);
    await this.release(reservation);
    return this.view(caller, reservation.id);
  }

  /** A new session of the holder on the booked device (after leaving one); 409 RESERVATION_NOT_ACTIVE when the booking does not hold the device now. */
  async rejoin(caller: Caller, reservation: ReservationRecord, input: { name?: string | undefined } = {}): Promise<SessionView> {
    if (caller.userId !== reservation.userId) throw new AppError('FORBIDDEN', 'Only the holder of a reservation rejoins it');
    const now = this.deps.now();
    let booking = (await this.bookings(reservation.deviceId)).bookings[reservation.id];
    if (booking?.status === 'scheduled' && Date.parse(booking.startAt) <= now.getTime()) {
      // Its start came before the ticker noticed.
      const result = await this.run(reservation.deviceId, { type: 'Advance', reservationId: reservation.id, now: now.toISOString(), graceMs: this.deps.graceMs }, commandContext(this.deps, bookingActor('system', reservation)));
      await this.settle(result.position);
      booking = result.state.bookings[reservation.id];
    }
    if (!booking || booking.status !== 'active' || now.getTime() >= Date.parse(booking.endAt)) {
      throw new AppError('RESERVATION_NOT_ACTIVE', `The reservation is ${booking?.status ?? 'unknown'}`);
    }
    return this.deps.sessions.create(caller, { deviceId: reservation.deviceId, ...(input.name ? { name: input.name } : {}) });
  }

  // The ticker.

  private async tick(tick: Tick): Promise<void> {
    const now = this.deps.now();
    let position: bigint | null = null;
    // A holder already on the device when the booking began (a session opened before its start) uses it.
    for (const r of await currentReservations(this.deps.db, now)) {
      if (r.lastSessionId) continue;
      const own = (await openSessionsOnDevices(this.deps.db, [r.deviceId])).find((s) => s.ownerId === r.userId);
      if (!own) continue;
      tick.count('reservations.opened');
      const result = await tick.work(() => this.run(r.deviceId, { type: 'RecordSessionOpened', reservationId: r.id, sessionId: own.id, now: now.toISOString() }, commandContext(this.deps, bookingActor('system', r)))).catch((err: unknown) => {
        this.deps.logger.warn({ err, reservationId: r.id }, 'recording the holder\'s session failed');
        return null;
      });
      position = result?.position ?? position;
    }
    await this.settle(position);
    const over: ReservationRecord[] = [];
    for (const r of await dueReservations(this.deps.db, now, this.deps.graceMs)) {
      try {
        tick.count('reservations.advanced');
        const result = await tick.work(() => this.run(r.deviceId, { type: 'Advance', reservationId: r.id, now: now.toISOString(), graceMs: this.deps.graceMs }, commandContext(this.deps, bookingActor('system', r))));
        position = result.position ?? position;
        if (result.events.some((e) => e.type === 'DeviceReservationEnded')) over.push(r);
      } catch (err) {
        this.deps.logger.warn({ err, reservationId: r.id }, 'advancing a reservation failed');
      }
    }
    await this.settle(position);
    for (const r of over) await this.release(r, tick);
    for (const r of await currentReservations(this.deps.db, now)) await this.enforce(r, tick);
    await this.warn(now, tick);
  }

  /** Ends other users' sessions on a device a booking holds (reason `reserved`). */
  private async enforce(reservation: ReservationRecord, tick: Tick = UNTRACED): Promise<void> {
    await this.endSessions(reservation, (s) => s.ownerId !== reservation.userId, SESSION_END_REASONS.reserved, tick);
  }

  /** Ends the holder's sessions on the device when the booking is over, so the device is free at once. */
  private async release(reservation: ReservationRecord, tick: Tick = UNTRACED): Promise<void> {
    await this.endSessions(reservation, (s) => s.ownerId === reservation.userId, SESSION_END_REASONS.bookingOver, tick);
  }

  private async endSessions(reservation: ReservationRecord, which: (s: SessionRecord) => boolean, reason: SessionEndReason, tick: Tick): Promise<void> {
    for (const session of (await openSessionsOnDevices(this.deps.db, [reservation.deviceId])).filter(which)) {
      tick.count('sessions.ended');
      await tick.work(async () => {
        this.deps.logger.info({ sessionId: session.id, reservationId: reservation.id, reason }, 'ending a session for a reservation');
        await this.deps.sessions.end(session, reason, 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'ending a session for a reservation failed'));
      });
    }
  }

  /**
   * Tells other users' sessions on a device booked soon. Every replica runs the ticker and tells the
   * viewers connected to it, once each; the timeline entry is written once for all replicas (and
   * across their restarts): the replica that first claims `df:reservation-warned:<booking>:<session>`
   * in the key-value store writes it.
   */
  private async warn(now: Date, tick: Tick): Promise<void> {
    if (this.warned.size > 10_000) this.warned.clear();
    for (const r of await upcomingReservations(this.deps.db, now, new Date(now.getTime() + WARN_BEFORE_MS))) {
      for (const session of await openSessionsOnDevices(this.deps.db, [r.deviceId])) {
        const key = `${r.id}:${session.id}`;
        if (session.ownerId === r.userId || session.status !== 'active' || this.warned.has(key)) continue;
        this.warned.add(key);
        tick.count('sessions.warned');
        await tick.work(() => this.warnSession(r, session, key, now));
      }
    }
  }

  /** Tells `session` of booking `r` (its viewers here; its timeline once for all replicas). */
  private async warnSession(r: ReservationRecord, session: SessionRecord, key: string, now: Date): Promise<void> {
    const message = `The device is reserved from ${r.startAt} to ${r.endAt}; this session ends at ${r.startAt}`;
    const detail = { event: 'reservation-upcoming', reservationId: r.id, startAt: r.startAt, endAt: r.endAt, message };
    // Kept until a while after the booking's start, when the session has ended (reason `reserved`).
    const ttlMs = Math.max(60_000, new Date(r.startAt).getTime() - now.getTime() + WARN_BEFORE_MS);
    const first = await this.deps.kv.setIfAbsent(`df:reservation-warned:${key}`, '1', { ttlMs }).catch((err: unknown) => {
      this.deps.logger.warn({ err, sessionId: session.id }, 'claiming the reservation warning failed; this replica writes it');
      return true;
    });
    if (first)
      await this.deps.sessions
        .recordActivity(session, { actor: 'system', companyId: session.companyId, workspaceId: session.workspaceId }, 'lifecycle', detail)
        .catch((err: unknown) => this.deps.logger.debug({ err, sessionId: session.id }, 'recording the reservation warning failed'));
    this.deps.hub.notify(session.id, { type: 'reservation', ...detail });
  }
}
