import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { dfReportsProjection } from './projection.js';
import { deviceUsageReport, listActivity, mostUsedDevices, reservationReport, sessionReport, sessionStats, type ReportQuery } from './queries.js';

const scope = { companyId: 1, workspaceId: 2 };
const day = '2026-03-10';
const at = (hhmm: string, d = day) => `${d}T${hhmm}:00.000Z`;
const m = (occurredAt: string) => ({ metadata: { occurredAt } });
const requested = (sessionId: string, deviceId: string, when: string, extra: Record<string, unknown> = {}) => ({
  type: 'DeviceSessionRequested',
  payload: { sessionId, deviceId, hostId: 'h', deviceName: `Device ${deviceId}`, name: 's', type: 'manual', buildName: null, metadata: {}, ownerId: 7, companyId: 1, workspaceId: 2, ...extra },
  ...m(when),
});
const ended = (sessionId: string, when: string, reason = 'user') => ({ type: 'DeviceSessionEnded', payload: { sessionId, reason }, ...m(when) });
const query = (over: Partial<ReportQuery> = {}): ReportQuery => ({
  ...scope,
  from: new Date(at('00:00')),
  to: new Date(at('00:00', '2026-03-12')),
  now: new Date(at('12:00', '2026-03-12')),
  timeZone: 'UTC',
  groupBy: 'day',
  ...over,
});

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfReportsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-reports read model', () => {
  it('given sessions, reports count, outcome and minutes per day, a session across midnight split by the device usage', async () => {
    await spec.given(
      { type: 'DeviceConnected', payload: { deviceId: 'd1', status: 'available' }, ...m(at('00:00')) },
      requested('s1', 'd1', at('09:00'), { buildName: 'b1' }),
      ended('s1', at('09:30')),
      requested('s2', 'd1', at('23:30')),
      ended('s2', at('00:30', '2026-03-11')),
      requested('s3', 'd2', at('10:00'), { ownerId: 8 }),
      { type: 'DeviceSessionFailed', payload: { sessionId: 's3', code: 'X', reason: 'broken' }, ...m(at('10:01')) },
      // Another workspace's session is not in this workspace's reports.
      requested('s4', 'd1', at('11:00'), { workspaceId: 3 }),
    );
    expect(await sessionReport(spec.db, query())).toEqual([{ period: day, group: null, sessions: 3, completed: 2, failed: 1, running: 0, totalMinutes: 91, averageMinutes: 30.33 }]);
    expect((await sessionReport(spec.db, query({ userId: [8] })))[0]).toMatchObject({ sessions: 1, failed: 1 });
    expect((await sessionReport(spec.db, query(), 'build')).map((r) => [r.group, r.sessions])).toEqual([[null, 2], ['b1', 1]]);
    const usage = await deviceUsageReport(spec.db, query());
    expect(usage.map((r) => [r.period, r.deviceId, r.sessions, r.minutesInSession, r.minutesOnline])).toEqual([
      [day, 'd1', 2, 60, 1440],
      [day, 'd2', 1, 1, 0],
      ['2026-03-11', 'd1', 0, 30, 1440],
    ]);
    expect(usage[0]!.utilisation).toBeCloseTo(60 / 1440, 4);
    expect(usage[1]!.utilisation).toBeNull();
    expect((await mostUsedDevices(spec.db, scope, query().from, query().to, query().now, 5)).map((d) => [d.deviceId, d.minutesInSession])).toEqual([['d1', 90], ['d2', 1]]);
  });

  it('given a device offline for an hour, counts only its online time', async () => {
    await spec.given(
      { type: 'DeviceConnected', payload: { deviceId: 'd1', status: 'available' }, ...m(at('00:00')) },
      { type: 'HostDevicesDisconnected', payload: { hostId: 'h', deviceIds: ['d1'], reason: 'lost', status: 'offline' }, ...m(at('10:00')) },
      { type: 'HostDevicesReconnected', payload: { hostId: 'h', deviceIds: ['d1'] }, ...m(at('11:00')) },
      requested('s1', 'd1', at('12:00')),
      ended('s1', at('13:00')),
    );
    const [row] = await deviceUsageReport(spec.db, query({ to: new Date(at('00:00', '2026-03-11')) }));
    expect(row).toMatchObject({ minutesInSession: 60, minutesOnline: 1380, utilisation: Math.round((60 / 1380) * 10_000) / 10_000 });
  });

  it('given bookings, reports booked vs used vs no-show, and today’s bookings', async () => {
    const booked = (reservationId: string, startAt: string, endAt: string) => ({
      type: 'DeviceReservationScheduled',
      payload: { reservationId, deviceId: 'd1', userId: 7, companyId: 1, workspaceId: 2, startAt, endAt, note: null },
      ...m(at('08:00')),
    });
    await spec.given(
      booked('r1', at('09:00'), at('10:00')),
      booked('r2', at('11:00'), at('13:00')),
      booked('r3', at('14:00'), at('15:00')),
      { type: 'DeviceReservationActivated', payload: { reservationId: 'r1', deviceId: 'd1' }, ...m(at('09:00')) },
      { type: 'DeviceReservationSessionOpened', payload: { reservationId: 'r1', deviceId: 'd1', sessionId: 's' }, ...m(at('09:01')) },
      { type: 'DeviceReservationEnded', payload: { reservationId: 'r1', deviceId: 'd1', reason: 'time' }, ...m(at('10:00')) },
      { type: 'DeviceReservationExpired', payload: { reservationId: 'r2', deviceId: 'd1' }, ...m(at('11:10')) },
      { type: 'DeviceReservationCancelled', payload: { reservationId: 'r3', deviceId: 'd1' }, ...m(at('12:00')) },
    );
    expect(await reservationReport(spec.db, query())).toEqual([{ period: day, bookings: 3, bookedHours: 3, used: 1, noShows: 1, cancelled: 1 }]);
    expect((await sessionStats(spec.db, scope, new Date(at('12:00')), 'UTC')).bookings).toBe(2);
    const feed = await listActivity(spec.db, scope, { page: 0, size: 10 });
    expect(feed.content.map((e) => e.kind)).toEqual(['reservation.cancelled', 'reservation.expired', 'reservation.ended', 'reservation.booked', 'reservation.booked', 'reservation.booked']);
  });

  it('given a purged session, drops it from the reports; a replay changes nothing', async () => {
    const events = await spec.given(requested('s1', 'd1', at('09:00')), ended('s1', at('09:10')));
    await spec.replay(events);
    expect((await sessionReport(spec.db, query()))[0]).toMatchObject({ sessions: 1, totalMinutes: 10 });
    await spec.given({ type: 'DeviceSessionDeleted', payload: { sessionId: 's1' } });
    expect(await sessionReport(spec.db, query())).toEqual([]);
  });
});
