import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { dfReservationsProjection } from './projection.js';
import { currentReservations, dueReservations, findReservation, listReservations, upcomingReservations } from './queries.js';

const R1 = '00000000-0000-4000-8000-0000000000a1';
const R2 = '00000000-0000-4000-8000-0000000000a2';
const scope = { companyId: 1, workspaceId: 2 };
const paging: { page: number; size: number; sortDir: 'asc' | 'desc' } = { page: 0, size: 20, sortDir: 'asc' };
const scheduled = (reservationId: string, startAt: string, endAt: string, userId = 7, deviceId = 'd-1') => ({
  type: 'DeviceReservationScheduled',
  payload: { reservationId, deviceId, userId, companyId: 1, workspaceId: 2, startAt, endAt, note: 'regression run' },
  streamId: `device-bookings-${deviceId}`,
});
const ref = (reservationId: string, deviceId = 'd-1') => ({ reservationId, deviceId });
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfReservationsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-reservations read model', () => {
  it('given a booking, shows it in its workspace only, with its range, holder and creation time', async () => {
    await spec.given(scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z'));
    expect(await findReservation(spec.db, scope, R1)).toMatchObject({
      id: R1, deviceId: 'd-1', userId: 7, workspaceId: 2, startAt: '2026-02-01T10:00:00.000Z', endAt: '2026-02-01T11:00:00.000Z',
      status: 'scheduled', note: 'regression run', createdAt: SPEC_TIME, companyId: 1, lastSessionId: null,
    });
    expect(await findReservation(spec.db, { companyId: 1, workspaceId: 3 }, R1)).toBeNull();
    expect(await findReservation(spec.db, { companyId: 9, workspaceId: 2 }, R1)).toBeNull();
  });

  it('given its life (activated, a session, rescheduled, ended), keeps status, range and the session', async () => {
    await spec.given(
      scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z'),
      { type: 'DeviceReservationActivated', payload: ref(R1) },
      { type: 'DeviceReservationSessionOpened', payload: { ...ref(R1), sessionId: 's-1' } },
      { type: 'DeviceReservationRescheduled', payload: { ...ref(R1), startAt: '2026-02-01T10:00:00.000Z', endAt: '2026-02-01T12:00:00.000Z', note: null } },
    );
    expect(await findReservation(spec.db, scope, R1)).toMatchObject({ status: 'active', endAt: '2026-02-01T12:00:00.000Z', note: null, lastSessionId: 's-1' });
    await spec.given({ type: 'DeviceReservationEnded', payload: { ...ref(R1), reason: 'time' } });
    expect((await findReservation(spec.db, scope, R1))?.status).toBe('ended');
  });

  it('given a maintenance warning, shows it with its reason, end and time, in the list too, and shows none once it is lifted', async () => {
    await spec.given(scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z'), scheduled(R2, '2026-02-01T12:00:00.000Z', '2026-02-01T13:00:00.000Z'));
    expect((await findReservation(spec.db, scope, R1))?.maintenanceConflict).toBeNull();
    await spec.given({ type: 'DeviceReservationMaintenanceConflict', payload: { ...ref(R1), reason: 'battery swap', until: '2026-02-01T10:30:00.000Z' } });
    const warned = { reason: 'battery swap', until: '2026-02-01T10:30:00.000Z', notedAt: SPEC_TIME };
    expect(await findReservation(spec.db, scope, R1)).toMatchObject({ status: 'scheduled', maintenanceConflict: warned });
    expect((await listReservations(spec.db, scope, {}, paging)).content.map((r) => r.maintenanceConflict)).toEqual([warned, null]);
    await spec.given({ type: 'DeviceReservationMaintenanceConflictCleared', payload: ref(R1) });
    expect((await findReservation(spec.db, scope, R1))?.maintenanceConflict).toBeNull();
  });

  it('given cancelled and expired bookings, shows those states', async () => {
    await spec.given(
      scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z'),
      scheduled(R2, '2026-02-01T12:00:00.000Z', '2026-02-01T13:00:00.000Z'),
      { type: 'DeviceReservationCancelled', payload: ref(R1) },
      { type: 'DeviceReservationActivated', payload: ref(R2) },
      { type: 'DeviceReservationExpired', payload: ref(R2) },
    );
    expect((await findReservation(spec.db, scope, R1))?.status).toBe('cancelled');
    expect((await findReservation(spec.db, scope, R2))?.status).toBe('expired');
  });

  it('lists by device, holder, status and time range overlap, paged by start', async () => {
    await spec.given(
      scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z', 7, 'd-1'),
      scheduled(R2, '2026-02-01T12:00:00.000Z', '2026-02-01T13:00:00.000Z', 8, 'd-2'),
      { type: 'DeviceReservationActivated', payload: ref(R1) },
    );
    const ids = async (filters: Parameters<typeof listReservations>[2], p: Partial<typeof paging> = {}) => (await listReservations(spec.db, scope, filters, { ...paging, ...p })).content.map((r) => r.id);
    expect(await ids({})).toEqual([R1, R2]);
    expect(await ids({}, { sortDir: 'desc' })).toEqual([R2, R1]);
    expect(await ids({ deviceId: ['d-2'] })).toEqual([R2]);
    expect(await ids({ userId: [7] })).toEqual([R1]);
    expect(await ids({ status: ['scheduled', 'ended'] })).toEqual([R2]);
    expect(await ids({ from: new Date('2026-02-01T11:00:00.000Z') })).toEqual([R2]);
    expect(await ids({ to: new Date('2026-02-01T12:00:00.000Z') })).toEqual([R1]);
    expect(await ids({ from: new Date('2026-02-01T10:30:00.000Z'), to: new Date('2026-02-01T12:30:00.000Z') })).toEqual([R1, R2]);
    const page = await listReservations(spec.db, scope, {}, { page: 1, size: 1, sortDir: 'asc' });
    expect(page).toMatchObject({ page: 1, size: 1, totalElements: 2, totalPages: 2 });
    expect(page.content.map((r) => r.id)).toEqual([R2]);
    expect(Object.keys(page.content[0]!).sort()).toEqual(['createdAt', 'deviceId', 'endAt', 'id', 'maintenanceConflict', 'note', 'startAt', 'status', 'userId', 'workspaceId']);
  });

  it('answers the ticker: due, current and upcoming bookings', async () => {
    await spec.given(
      scheduled(R1, '2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z', 7, 'd-1'),
      scheduled(R2, '2026-02-01T12:00:00.000Z', '2026-02-01T13:00:00.000Z', 8, 'd-2'),
    );
    const grace = 10 * 60_000;
    const at = (t: string) => new Date(t);
    expect((await dueReservations(spec.db, at('2026-02-01T09:59:00.000Z'), grace)).map((r) => r.id)).toEqual([]);
    expect((await dueReservations(spec.db, at('2026-02-01T10:00:00.000Z'), grace)).map((r) => r.id)).toEqual([R1]);
    expect((await currentReservations(spec.db, at('2026-02-01T10:30:00.000Z'))).map((r) => r.id)).toEqual([R1]);
    expect((await currentReservations(spec.db, at('2026-02-01T10:30:00.000Z'), ['d-2'])).map((r) => r.id)).toEqual([]);
    expect((await upcomingReservations(spec.db, at('2026-02-01T11:56:00.000Z'), at('2026-02-01T12:01:00.000Z'))).map((r) => r.id)).toEqual([R2]);
    await spec.given({ type: 'DeviceReservationActivated', payload: ref(R1) });
    // Active and unused: due once the grace has passed, not before.
    expect((await dueReservations(spec.db, at('2026-02-01T10:05:00.000Z'), grace)).map((r) => r.id)).toEqual([]);
    expect((await dueReservations(spec.db, at('2026-02-01T10:10:00.000Z'), grace)).map((r) => r.id)).toEqual([R1]);
    await spec.given({ type: 'DeviceReservationSessionOpened', payload: { ...ref(R1), sessionId: 's-1' } });
    expect((await dueReservations(spec.db, at('2026-02-01T10:30:00.000Z'), grace)).map((r) => r.id)).toEqual([]);
    expect((await dueReservations(spec.db, at('2026-02-01T11:00:00.000Z'), grace)).map((r) => r.id)).toEqual([R1]);
  });
});
