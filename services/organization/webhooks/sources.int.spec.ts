import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore, type EventStore, type RecordedEvent } from '#shared/es/index.js';
import { consequenceOf, RESERVATION_STARTING_LEAD_MS } from './sources.js';

/**
 * Which webhook message each domain event becomes, and for which workspace, on a real event store:
 * given a resource's own stream, when its event happens, then the message and its addressees.
 */
let db: Database;
let store: EventStore;
const at = '2026-03-01T10:00:00.000Z';
const meta = { occurredAt: at, companyId: 1 };

beforeAll(async () => {
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
});
afterAll(async () => {
  await store?.close();
  await db?.close();
});

/** Appends events to a stream and returns the last one as recorded. */
async function given(streamId: string, ...events: { type: string; payload: Record<string, unknown> }[]): Promise<RecordedEvent> {
  await store.append(streamId, events.map((e) => ({ ...e, metadata: meta })), 'any');
  return (await store.readStream(streamId)).at(-1)!;
}

describe('webhook sources', () => {
  it('a device session ended: session.ended to the workspace it was opened in, with what is known of it when it ended', async () => {
    await given('device-d1', { type: 'DeviceConnected', payload: { deviceId: 'd1', facts: { name: 'Pixel', platform: 'android' }, placement: {}, status: 'available' } });
    await store.append('device-session-s1', [
      { type: 'DeviceSessionRequested', payload: { sessionId: 's1', deviceId: 'd1', hostId: 'h1', deviceName: 'Pixel', name: 'Checkout', type: 'automation', buildName: 'app-1.4.2', metadata: {}, ownerId: 7, companyId: 1, workspaceId: 4 }, metadata: meta },
      { type: 'DeviceSessionStarted', payload: { sessionId: 's1', screen: {} }, metadata: { ...meta, occurredAt: '2026-03-01T10:00:05.000Z' } },
      { type: 'DeviceSessionRenamed', payload: { sessionId: 's1', name: 'Checkout flow' }, metadata: meta },
      { type: 'DeviceSessionOutcomeSet', payload: { sessionId: 's1', outcome: 'failed', reason: 'button missing' }, metadata: meta },
      { type: 'DeviceSessionEnded', payload: { sessionId: 's1', reason: 'user' }, metadata: { ...meta, occurredAt: '2026-03-01T10:01:05.500Z' } },
    ], 'any');
    const ended = (await store.readStream('device-session-s1')).at(-1)!;
    // Set after the end: not what the message of the end says.
    await given('device-session-s1', { type: 'DeviceSessionOutcomeSet', payload: { sessionId: 's1', outcome: 'passed', reason: null } });
    const { deliver } = await consequenceOf(store, ended);
    expect(deliver).toEqual([
      {
        event: 'session.ended',
        companyId: 1,
        workspaceIds: [4],
        key: ended.id,
        dueAt: new Date('2026-03-01T10:01:05.500Z'),
        subject: null,
        data: {
          sessionId: 's1', name: 'Checkout flow', deviceId: 'd1', deviceName: 'Pixel', devicePlatform: 'android', ownerId: 7, buildName: 'app-1.4.2', reason: 'user',
          outcome: 'failed', outcomeReason: 'button missing', startedAt: '2026-03-01T10:00:05.000Z', endedAt: '2026-03-01T10:01:05.500Z', durationMs: 60_500, workspaceId: 4,
        },
      },
    ]);
  });

  it('a device session that ended before it started, with no outcome: nulls, not guesses', async () => {
    const ended = await given(
      'device-session-s2',
      { type: 'DeviceSessionRequested', payload: { sessionId: 's2', deviceId: 'd9', hostId: 'h1', deviceName: 'iPhone', name: 'Login', type: 'manual', buildName: null, metadata: {}, ownerId: 7, companyId: 1, workspaceId: 4 } },
      { type: 'DeviceSessionEnded', payload: { sessionId: 's2', reason: 'user' } },
    );
    expect((await consequenceOf(store, ended)).deliver[0]!.data).toMatchObject({ devicePlatform: null, buildName: null, outcome: null, outcomeReason: null, startedAt: null, endedAt: at, durationMs: null });
  });

  it('a booking: reservation.starting ten minutes ahead, moved with the booking, withdrawn when it is over; reservation.ended', async () => {
    const booking = { reservationId: 'r1', deviceId: 'd2', userId: 7, companyId: 1, workspaceId: 5, startAt: '2026-03-01T12:00:00.000Z', endAt: '2026-03-01T13:00:00.000Z', note: null };
    const scheduled = await given('device-bookings-d2', { type: 'DeviceReservationScheduled', payload: booking });
    const first = await consequenceOf(store, scheduled);
    expect(first.withdraw).toBeNull();
    expect(first.deliver).toMatchObject([{ event: 'reservation.starting', workspaceIds: [5], subject: 'r1', dueAt: new Date(Date.parse(booking.startAt) - RESERVATION_STARTING_LEAD_MS) }]);
    const moved = await given('device-bookings-d2', { type: 'DeviceReservationRescheduled', payload: { reservationId: 'r1', deviceId: 'd2', startAt: '2026-03-01T15:00:00.000Z', endAt: '2026-03-01T16:00:00.000Z', note: null } });
    const second = await consequenceOf(store, moved);
    expect(second.withdraw).toBe('r1');
    expect(second.deliver).toMatchObject([{ event: 'reservation.starting', data: { startAt: '2026-03-01T15:00:00.000Z' } }]);
    expect(second.deliver[0]!.key).not.toBe(first.deliver[0]!.key);
    const ended = await given('device-bookings-d2', { type: 'DeviceReservationEnded', payload: { reservationId: 'r1', deviceId: 'd2', reason: 'released' } });
    const third = await consequenceOf(store, ended);
    expect(third.withdraw).toBe('r1');
    expect(third.deliver).toMatchObject([{ event: 'reservation.ended', workspaceIds: [5], data: { reservationId: 'r1', reason: 'released', startAt: '2026-03-01T15:00:00.000Z', workspaceId: 5 } }]);
    const cancelled = await consequenceOf(store, await given('device-bookings-d2', { type: 'DeviceReservationCancelled', payload: { reservationId: 'r1', deviceId: 'd2' } }));
    expect(cancelled).toEqual({ deliver: [], withdraw: 'r1' });
  });

  it('a maintenance in a booking: reservation.maintenance_conflict to its workspace, naming the booker, its range as moved, the reason and the end', async () => {
    const booking = { reservationId: 'r5', deviceId: 'd5', userId: 9, companyId: 1, workspaceId: 3, startAt: '2026-03-02T12:00:00.000Z', endAt: '2026-03-02T13:00:00.000Z', note: null };
    await given('device-bookings-d5', { type: 'DeviceReservationScheduled', payload: booking }, { type: 'DeviceReservationRescheduled', payload: { reservationId: 'r5', deviceId: 'd5', startAt: '2026-03-02T12:00:00.000Z', endAt: '2026-03-02T14:00:00.000Z', note: null } });
    const told = await given('device-bookings-d5', { type: 'DeviceReservationMaintenanceConflict', payload: { reservationId: 'r5', deviceId: 'd5', reason: 'battery swap', until: '2026-03-02T12:30:00.000Z' } });
    const consequence = await consequenceOf(store, told);
    expect(consequence.withdraw).toBeNull();
    expect(consequence.deliver).toMatchObject([
      { event: 'reservation.maintenance_conflict', companyId: 1, workspaceIds: [3], data: { reservationId: 'r5', deviceId: 'd5', userId: 9, startAt: '2026-03-02T12:00:00.000Z', endAt: '2026-03-02T14:00:00.000Z', reason: 'battery swap', until: '2026-03-02T12:30:00.000Z', workspaceId: 3 } },
    ]);
    // Lifting the warning sends nothing.
    expect(await consequenceOf(store, await given('device-bookings-d5', { type: 'DeviceReservationMaintenanceConflictCleared', payload: { reservationId: 'r5', deviceId: 'd5' } }))).toEqual({ deliver: [], withdraw: null });
  });

  it('a health check down and recovered, named as it is called by then', async () => {
    const created = { checkId: 'c1', name: 'Nightly', description: '', intervalSeconds: 60, graceSeconds: 0, tags: [], tokenHash: 'h', tokenPrefix: 'p', createdBy: 7, companyId: 1, workspaceId: 6 };
    await given('hc-check-c1', { type: 'HealthCheckCreated', payload: created }, { type: 'HealthCheckUpdated', payload: { checkId: 'c1', name: 'Nightly build', description: '', intervalSeconds: 60, graceSeconds: 0, tags: [] } });
    const down = await given('hc-check-c1', { type: 'HealthCheckWentDown', payload: { checkId: 'c1', reason: 'overdue', lastHeartbeatAt: null, deadline: at, message: null } });
    expect((await consequenceOf(store, down)).deliver).toMatchObject([{ event: 'healthcheck.down', workspaceIds: [6], data: { checkId: 'c1', name: 'Nightly build', reason: 'overdue', workspaceId: 6 } }]);
    const up = await given('hc-check-c1', { type: 'HealthCheckRecovered', payload: { checkId: 'c1', heartbeatAt: at, downSince: at } });
    expect((await consequenceOf(store, up)).deliver).toMatchObject([{ event: 'healthcheck.recovered', data: { name: 'Nightly build' } }]);
  });

  it("a lost host: host.lost to the workspaces it serves; a host stopped on purpose is not lost", async () => {
    await given('df-host-h9', { type: 'HostEnrolled', payload: { hostId: 'h9', name: 'Rack 1', companyId: 1, workspaceIds: [2, 3], tokenHash: 'x', tokenPrefix: 'y' } });
    const lost = await given('device-host-h9', { type: 'HostDevicesDisconnected', payload: { hostId: 'h9', deviceIds: ['d1'], reason: 'heartbeat-missed', status: 'offline' } });
    expect((await consequenceOf(store, lost)).deliver).toMatchObject([{ event: 'host.lost', companyId: 1, workspaceIds: [2, 3], data: { hostId: 'h9', name: 'Rack 1', deviceIds: ['d1'] } }]);
    const stopped = await given('device-host-h9', { type: 'HostDevicesDisconnected', payload: { hostId: 'h9', deviceIds: ['d1'], reason: 'host-stopped', status: 'offline' } });
    expect((await consequenceOf(store, stopped)).deliver).toEqual([]);
  });

  it("a device's health changed: device.health_changed always, device.quarantined or device.recovered beside it, to the workspaces it serves", async () => {
    const changed = (from: string | null, state: string, companyId: number | null = 1) =>
      given('device-health-d1', {
        type: 'DeviceHealthChanged',
        payload: { deviceId: 'd1', companyId, workspaceIds: [2], from, cause: 'sample', health: { state, reasons: state === 'healthy' ? [] : ['why'], checkedAt: '2026-01-01T00:00:00.000Z' } },
      });
    const names = async (e: Awaited<ReturnType<typeof changed>>) => (await consequenceOf(store, e)).deliver.map((d) => d.event);
    const hot = await changed('healthy', 'cooling');
    expect((await consequenceOf(store, hot)).deliver).toMatchObject([{ event: 'device.health_changed', companyId: 1, workspaceIds: [2], data: { deviceId: 'd1', from: 'healthy', state: 'cooling', reasons: ['why'] } }]);
    expect(await names(await changed('cooling', 'quarantined'))).toEqual(['device.health_changed', 'device.quarantined']);
    expect(await names(await changed('quarantined', 'healthy'))).toEqual(['device.health_changed', 'device.recovered']);
    expect(await names(await changed(null, 'healthy'))).toEqual(['device.health_changed']);
    // A device of the operator's shared pool belongs to no company's webhooks.
    expect(await names(await changed('healthy', 'cooling', null))).toEqual([]);
  });

  it('an accessibility export finished and a test session completed: to their workspaces', async () => {
    await given('accessibility-audit-a1', { type: 'AccessibilityAuditStarted', payload: { auditId: 'a1', name: 'Home', sessionId: null, deviceId: 'd1', platform: 'browser', companyId: 1, workspaceId: 8, createdBy: 7 } });
    const exported = await given('accessibility-audit-a1', { type: 'AccessibilityExportFinished', payload: { auditId: 'a1', exportId: 'e1', state: 'succeeded', blobKey: 'secret/key', size: 10, error: null } });
    const ready = (await consequenceOf(store, exported)).deliver;
    expect(ready).toMatchObject([{ event: 'accessibility.export.ready', workspaceIds: [8], data: { auditId: 'a1', exportId: 'e1', state: 'succeeded' } }]);
    expect(JSON.stringify(ready)).not.toContain('secret/key');
    const result = (testCaseId: string, status: string) => ({ testCaseId, status, notes: null, durationMs: null });
    await given(
      'tmt-test-session-t1',
      { type: 'TestSessionStarted', payload: { sessionId: 't1', companyId: 1, workspaceId: 9, projectId: 'p1', name: 'Nightly', testCaseIds: [] } },
      { type: 'TestResultsRecorded', payload: { sessionId: 't1', results: [result('c1', 'failed'), result('c2', 'passed'), result('c3', 'skipped'), result('c4', 'blocked')], recordedBy: { userId: 7 } } },
      // c1 run again and passed: its newest result counts, once.
      { type: 'TestResultsRecorded', payload: { sessionId: 't1', results: [result('c1', 'passed'), result('c5', 'failed')], recordedBy: { engineId: 'ci' } } },
    );
    const completed = await given('tmt-test-session-t1', { type: 'TestSessionCompleted', payload: { sessionId: 't1' } });
    await given('tmt-test-session-t1', { type: 'TestResultsRecorded', payload: { sessionId: 't1', results: [result('c6', 'failed')], recordedBy: { userId: 7 } } });
    expect((await consequenceOf(store, completed)).deliver).toMatchObject([
      {
        event: 'test_session.finished',
        workspaceIds: [9],
        data: { testSessionId: 't1', projectId: 'p1', name: 'Nightly', workspaceId: 9, results: { passed: 2, failed: 1, blocked: 1, skipped: 1, retest: 0, total: 5 } },
      },
    ]);
  });

  it('a test run finished: to the workspace that queued it, with its state and counts', async () => {
    await given('test-run-r1', {
      type: 'TestRunQueued',
      payload: { runId: 'r1', companyId: 1, workspaceId: 6, userId: 7, name: 'Nightly suite', appVersionId: 'v-app', testVersionId: 'v-test' },
    });
    const counts = { total: 3, passed: 1, failed: 1, flaky: 1, skipped: 0, notRun: 0 };
    const finished = await given('test-run-r1', { type: 'TestRunFinished', payload: { runId: 'r1', state: 'failed', reason: null, counts, endedAt: '2026-11-29T05:00:00.000Z' } });
    expect((await consequenceOf(store, finished)).deliver).toMatchObject([
      { event: 'test_run.finished', companyId: 1, workspaceIds: [6], data: { runId: 'r1', name: 'Nightly suite', state: 'failed', counts, appVersionId: 'v-app', testVersionId: 'v-test', workspaceId: 6 } },
    ]);
  });
});
