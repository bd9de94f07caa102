import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import type { ReservationEvent } from '#events/df/reservations.js';
import { bookingAt, reservationDecider } from './decide.js';

const spec = deciderSpec(reservationDecider);
const NOW = '2026-05-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
const GRACE = 10 * 60_000;
const who = { deviceId: 'd-1', userId: 7, companyId: 1, workspaceId: 2 };
const ref = (id: string) => ({ reservationId: id, deviceId: 'd-1' });
const scheduled = (id: string, from: number, to: number, userId = 7): ReservationEvent => ({
  type: 'DeviceReservationScheduled',
  payload: { reservationId: id, ...who, userId, startAt: at(from), endAt: at(to), note: null },
});
const activated = (id: string): ReservationEvent => ({ type: 'DeviceReservationActivated', payload: ref(id) });
const reserve = (id: string, from: number, to: number, userId = 7) => ({ type: 'Reserve' as const, reservationId: id, ...who, userId, startAt: at(from), endAt: at(to), note: null, now: NOW });

describe('reservation decider', () => {
  it('schedules a booking in the future, and starts one that begins within the minute at once', () => {
    spec.given([]).when(reserve('r-1', 60, 120)).then([scheduled('r-1', 60, 120)]);
    spec.given([]).when(reserve('r-1', 0.5, 120)).then([scheduled('r-1', 0.5, 120), activated('r-1')]);
    spec.given([scheduled('r-1', 60, 120)]).when(reserve('r-1', 200, 300)).thenRefused('ALREADY_EXISTS');
    spec.given([]).when(reserve('r-1', 120, 60)).thenRefused('VALIDATION_FAILED');
  });

  it('refuses an overlap with an open booking and names its range and holder; touching ranges and closed bookings do not overlap', () => {
    const given = [scheduled('r-1', 60, 120, 8)];
    let error: unknown;
    try {
      reservationDecider.decide(reserve('r-2', 90, 150), given.reduce(reservationDecider.evolve, reservationDecider.initialState()));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RESERVATION_OVERLAP');
    expect((error as AppError).details).toEqual([expect.objectContaining({ reservationId: 'r-1', startAt: at(60), endAt: at(120), userId: 8 })]);
    spec.given(given).when(reserve('r-2', 30, 61)).thenRefused('RESERVATION_OVERLAP');
    spec.given(given).when(reserve('r-2', 120, 180)).then([scheduled('r-2', 120, 180)]);
    spec.given(given).when(reserve('r-2', 0, 60)).then([scheduled('r-2', 0, 60), activated('r-2')]);
    spec.given([...given, { type: 'DeviceReservationCancelled', payload: ref('r-1') }]).when(reserve('r-2', 90, 150)).then([scheduled('r-2', 90, 150)]);
    spec.given([scheduled('r-1', 0, 30), activated('r-1'), { type: 'DeviceReservationExpired', payload: ref('r-1') }]).when(reserve('r-2', 0, 60)).then([scheduled('r-2', 0, 60), activated('r-2')]);
  });

  it('reschedules an open booking under the same overlap rule; an active one keeps its start', () => {
    const two = [scheduled('r-1', 60, 120), scheduled('r-2', 180, 240, 8)];
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', endAt: at(150), now: NOW }).then([{ type: 'DeviceReservationRescheduled', payload: { ...ref('r-1'), userId: 7, startAt: at(60), endAt: at(150), note: null } }]);
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', endAt: at(200), now: NOW }).thenRefused('RESERVATION_OVERLAP');
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(130), now: NOW }).thenRefused('VALIDATION_FAILED');
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', note: 'x', now: NOW }).then([{ type: 'DeviceReservationRescheduled', payload: { ...ref('r-1'), userId: 7, startAt: at(60), endAt: at(120), note: 'x' } }]);
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(60), now: NOW }).then([]);
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(-5), now: NOW }).thenRefused('VALIDATION_FAILED');
    // A booking that has begun may be sent back with its own start (in the past by now).
    spec.given([scheduled('r-1', -30, 60), activated('r-1')]).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(-30), note: 'n', now: NOW }).then([
      { type: 'DeviceReservationRescheduled', payload: { ...ref('r-1'), userId: 7, startAt: at(-30), endAt: at(60), note: 'n' } },
    ]);
    spec.given(two).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(0), now: NOW }).then([
      { type: 'DeviceReservationRescheduled', payload: { ...ref('r-1'), userId: 7, startAt: at(0), endAt: at(120), note: null } },
      activated('r-1'),
    ]);
    spec.given([scheduled('r-1', 0, 60), activated('r-1')]).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(5), now: NOW }).thenRefused('INVALID_TRANSITION');
    spec.given([scheduled('r-1', 0, 60), { type: 'DeviceReservationCancelled', payload: ref('r-1') }]).when({ type: 'Reschedule', reservationId: 'r-1', note: 'x', now: NOW }).thenRefused('INVALID_TRANSITION');
    spec.given([]).when({ type: 'Reschedule', reservationId: 'r-1', note: 'x', now: NOW }).thenRefused('NOT_FOUND');
  });

  it('cancels a scheduled booking, ends an active one, and leaves a closed one as it is', () => {
    spec.given([scheduled('r-1', 60, 120)]).when({ type: 'Cancel', reservationId: 'r-1' }).then([{ type: 'DeviceReservationCancelled', payload: ref('r-1') }]);
    spec.given([scheduled('r-1', 0, 120), activated('r-1')]).when({ type: 'Cancel', reservationId: 'r-1' }).then([{ type: 'DeviceReservationEnded', payload: { ...ref('r-1'), reason: 'user' } }]);
    spec.given([scheduled('r-1', 60, 120), { type: 'DeviceReservationCancelled', payload: ref('r-1') }]).when({ type: 'Cancel', reservationId: 'r-1' }).then([]);
  });

  it('ends only an active booking', () => {
    spec.given([scheduled('r-1', 0, 120), activated('r-1')]).when({ type: 'End', reservationId: 'r-1' }).then([{ type: 'DeviceReservationEnded', payload: { ...ref('r-1'), reason: 'user' } }]);
    spec.given([scheduled('r-1', 60, 120)]).when({ type: 'End', reservationId: 'r-1' }).thenRefused('RESERVATION_NOT_ACTIVE');
  });

  it('records the holder opening a session, activating a booking whose range has begun', () => {
    const opened = { type: 'DeviceReservationSessionOpened' as const, payload: { ...ref('r-1'), sessionId: 's-1' } };
    spec.given([scheduled('r-1', 0, 120), activated('r-1')]).when({ type: 'RecordSessionOpened', reservationId: 'r-1', sessionId: 's-1', now: NOW }).then([opened]);
    spec.given([scheduled('r-1', -5, 120)]).when({ type: 'RecordSessionOpened', reservationId: 'r-1', sessionId: 's-1', now: NOW }).then([activated('r-1'), opened]);
    spec.given([scheduled('r-1', 60, 120)]).when({ type: 'RecordSessionOpened', reservationId: 'r-1', sessionId: 's-1', now: NOW }).then([]);
  });

  it('advances with time: activates at the start, expires an unused booking after the grace, ends at the end', () => {
    const advance = (now: number) => ({ type: 'Advance' as const, reservationId: 'r-1', now: at(now), graceMs: GRACE });
    const active = [scheduled('r-1', 60, 120), activated('r-1')];
    spec.given([scheduled('r-1', 60, 120)]).when(advance(59)).then([]);
    spec.given([scheduled('r-1', 60, 120)]).when(advance(60)).then([activated('r-1')]);
    spec.given([scheduled('r-1', 60, 120)]).when(advance(75)).then([activated('r-1'), { type: 'DeviceReservationExpired', payload: ref('r-1') }]);
    spec.given([scheduled('r-1', 60, 120)]).when(advance(130)).then([{ type: 'DeviceReservationExpired', payload: ref('r-1') }]);
    spec.given(active).when(advance(69)).then([]);
    spec.given(active).when(advance(70)).then([{ type: 'DeviceReservationExpired', payload: ref('r-1') }]);
    const used = [...active, { type: 'DeviceReservationSessionOpened' as const, payload: { ...ref('r-1'), sessionId: 's-1' } }];
    spec.given(used).when(advance(100)).then([]);
    spec.given(used).when(advance(120)).then([{ type: 'DeviceReservationEnded', payload: { ...ref('r-1'), reason: 'time' } }]);
    spec.given([...used, { type: 'DeviceReservationEnded', payload: { ...ref('r-1'), reason: 'time' } }]).when(advance(130)).then([]);
  });

  it('finds the booking that holds the device at an instant', () => {
    const state = [scheduled('r-1', 60, 120), scheduled('r-2', 0, 30, 8), activated('r-2')].reduce(reservationDecider.evolve, reservationDecider.initialState());
    expect(bookingAt(state, new Date(at(10)))?.reservationId).toBe('r-2');
    expect(bookingAt(state, new Date(at(45)))).toBeNull();
    expect(bookingAt(state, new Date(at(60)))?.reservationId).toBe('r-1');
    expect(bookingAt(state, new Date(at(120)))).toBeNull();
  });

  describe('a maintenance of the device', () => {
    const note = (untilMinutes: number, reason = 'battery swap', companyId = 1) => ({ type: 'NoteMaintenance' as const, deviceId: 'd-1', companyId, reason, until: at(untilMinutes), now: NOW });
    const conflict = (id: string, untilMinutes: number, reason = 'battery swap'): ReservationEvent => ({ type: 'DeviceReservationMaintenanceConflict', payload: { ...ref(id), reason, until: at(untilMinutes) } });
    const cleared = (id: string): ReservationEvent => ({ type: 'DeviceReservationMaintenanceConflictCleared', payload: ref(id) });
    const other = (id: string, from: number, to: number): ReservationEvent => ({ type: 'DeviceReservationScheduled', payload: { reservationId: id, ...who, companyId: 2, workspaceId: 9, startAt: at(from), endAt: at(to), note: null } });
    const bookings = [scheduled('r-now', -30, 30), activated('r-now'), scheduled('r-in', 60, 120), scheduled('r-after', 240, 300), scheduled('r-closed', 130, 140), { type: 'DeviceReservationCancelled', payload: ref('r-closed') } as ReservationEvent];

    it('warns every open booking of the company whose range overlaps [now, until], keeping it; not one after it, not a closed one, not another company’s', () => {
      spec.given(bookings).when(note(180)).then([conflict('r-now', 180), conflict('r-in', 180)]);
      spec.given([...bookings, other('r-theirs', 60, 120)]).when(note(180)).then([conflict('r-now', 180), conflict('r-in', 180)]);
      spec.given([...bookings, other('r-theirs', 60, 120)]).when(note(180, 'battery swap', 2)).then([conflict('r-theirs', 180)]);
      // A booking that starts when the maintenance ends is not in it.
      spec.given([scheduled('r-1', 180, 240)]).when(note(180)).then([]);
    });

    it('says it again only when the maintenance changes, lifts the warning of a booking it no longer touches, and lifts them all when it ends', () => {
      const told = [...bookings, conflict('r-now', 180), conflict('r-in', 180)];
      spec.given(told).when(note(180)).then([]);
      spec.given(told).when(note(180, 'new cable')).then([conflict('r-now', 180, 'new cable'), conflict('r-in', 180, 'new cable')]);
      // Ending sooner: the booking from 60 to 120 is no longer in it.
      spec.given(told).when(note(45)).then([conflict('r-now', 45), cleared('r-in')]);
      spec.given(told).when({ type: 'ClearMaintenance', deviceId: 'd-1' }).then([cleared('r-now'), cleared('r-in')]);
      spec.given(bookings).when({ type: 'ClearMaintenance', deviceId: 'd-1' }).then([]);
      const state = told.reduce(reservationDecider.evolve, reservationDecider.initialState());
      expect(state.bookings['r-in']).toMatchObject({ status: 'scheduled', maintenance: { reason: 'battery swap', until: at(180) } });
      expect(state.bookings['r-after']!.maintenance).toBeNull();
    });

    describe('under way when a booking is made or moved', () => {
      const running = (untilMinutes: number, companyId = 1) => ({ companyId, reason: 'battery swap', until: at(untilMinutes) });
      const rescheduled = (id: string, from: number, to: number): ReservationEvent => ({ type: 'DeviceReservationRescheduled', payload: { ...ref(id), userId: 7, startAt: at(from), endAt: at(to), note: null } });

      it('tells a booking made into it, kept, as its start told the bookings already there; not one after it, nor one of another company', () => {
        spec.given([]).when({ ...reserve('r-1', 60, 120), maintenance: running(180) }).then([scheduled('r-1', 60, 120), conflict('r-1', 180)]);
        spec.given([]).when({ ...reserve('r-1', 0, 30), maintenance: running(180) }).then([scheduled('r-1', 0, 30), activated('r-1'), conflict('r-1', 180)]);
        spec.given([]).when({ ...reserve('r-1', 180, 240), maintenance: running(180) }).then([scheduled('r-1', 180, 240)]);
        spec.given([]).when({ ...reserve('r-1', 60, 120), maintenance: running(180, 2) }).then([scheduled('r-1', 60, 120)]);
        // An end already passed (the sweep not there yet) is no maintenance under way.
        spec.given([]).when({ ...reserve('r-1', 0, 30), maintenance: running(-1) }).then([scheduled('r-1', 0, 30), activated('r-1')]);
        spec.given([]).when({ ...reserve('r-1', 60, 120), maintenance: null }).then([scheduled('r-1', 60, 120)]);
      });

      it('tells a booking moved into it, lifts the warning of one moved out of it (or of a maintenance no longer under way), and says nothing again of one still in it', () => {
        const later = [scheduled('r-1', 240, 300)];
        spec.given(later).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(60), endAt: at(120), now: NOW, maintenance: running(180) }).then([rescheduled('r-1', 60, 120), conflict('r-1', 180)]);
        const told = [scheduled('r-1', 60, 120), conflict('r-1', 180)];
        spec.given(told).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(240), endAt: at(300), now: NOW, maintenance: running(180) }).then([rescheduled('r-1', 240, 300), cleared('r-1')]);
        spec.given(told).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(90), endAt: at(150), now: NOW, maintenance: running(180) }).then([rescheduled('r-1', 90, 150)]);
        spec.given(told).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(90), endAt: at(150), now: NOW, maintenance: null }).then([rescheduled('r-1', 90, 150), cleared('r-1')]);
        spec.given(later).when({ type: 'Reschedule', reservationId: 'r-1', startAt: at(60), endAt: at(120), now: NOW }).then([rescheduled('r-1', 60, 120)]);
      });
    });
  });
});
