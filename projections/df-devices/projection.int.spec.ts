import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { dfDevicesProjection } from './projection.js';
import { deviceFacets, deviceRow, findDevice, listDevices } from './queries.js';
import { maintenancesOver, mendingsOver } from './health.js';

const facts = (name: string, platform = 'android', osVersion = '14') => ({
  name, platform, osVersion, model: 'Pixel 7', manufacturer: 'Google', type: 'phone', isRealDevice: true, provider: 'adb', screen: { width: 1080, height: 2400, scale: 1 },
});
const connected = (deviceId: string, companyId: number | null, f = facts(deviceId), hostId = 'h1', workspaceIds: number[] | null = null) => ({
  type: 'DeviceConnected',
  payload: { deviceId, facts: f, placement: { hostId, nodeName: 'node-a', hubId: 'hub-1', companyId, workspaceIds }, status: 'available' },
});
const user1 = { companyId: 1, workspaceId: 1, userId: 5 };
const paging = { page: 0, size: 20, sortBy: 'name' as const, sortDir: 'asc' as const };
const NOW = new Date('2026-01-02T03:05:00.000Z');
const groupTotal = async () => Number((await spec.rows<{ n: unknown }>('SELECT coalesce(sum(n), 0) AS n FROM df_device_groups'))[0]!.n);
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfDevicesProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-devices read model', () => {
  it('given devices of two companies connected in one batch, each company sees its own, with facet counts', async () => {
    await spec.given(connected('a', 1), connected('b', 1, facts('b', 'ios', '17')), connected('c', 2));
    const page = await listDevices(spec.db, user1, {}, paging, NOW);
    expect(page.content.map((d) => d.id)).toEqual(['a', 'b']);
    expect(await findDevice(spec.db, user1, 'c', NOW)).toBeNull();
    const facets = await deviceFacets(spec.db, user1, {});
    expect(facets.platform).toEqual(expect.arrayContaining([{ value: 'android', count: 1 }, { value: 'ios', count: 1 }]));
    expect(await groupTotal()).toBe(3);
  });

  it('given an allocation and a release, the device is in use with its session type, then available again', async () => {
    await spec.given(connected('a', 1), {
      type: 'DeviceAllocated',
      payload: { deviceId: 'a', sessionId: 's1', sessionType: 'manual', ownerId: 5, companyId: 1, workspaceId: 1, status: 'in_use' },
    });
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ status: 'in_use', sessionType: 'manual' });
    expect((await listDevices(spec.db, user1, { status: ['in_use'] }, paging, NOW)).totalElements).toBe(1);
    await spec.given({ type: 'DeviceReleased', payload: { deviceId: 'a', sessionId: 's1', status: 'available' } });
    expect(await deviceRow(spec.db, 'a')).toMatchObject({ status: 'available', sessionId: null });
    expect(await groupTotal()).toBe(1);
  });

  it('given a host lost and back, its devices go offline together and return to the status their health and session give', async () => {
    await spec.given(
      connected('a', 1),
      connected('b', 1),
      { type: 'DeviceStatusChanged', payload: { deviceId: 'b', health: 'broken', reason: 'no adb', status: 'maintenance' } },
      { type: 'HostDevicesDisconnected', payload: { hostId: 'h1', deviceIds: ['a', 'b'], reason: 'lost', status: 'offline' } },
    );
    expect((await listDevices(spec.db, user1, { status: ['offline'] }, paging, NOW)).totalElements).toBe(2);
    await spec.given({ type: 'HostDevicesReconnected', payload: { hostId: 'h1', deviceIds: ['a', 'b'] } });
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('available');
    expect((await deviceRow(spec.db, 'b'))?.status).toBe('maintenance');
    expect(await groupTotal()).toBe(2);
  });

  it('given health changes, the device shows the last one, unknown before its first reading, and its groups stay as they were', async () => {
    await spec.given(connected('a', 1));
    expect((await findDevice(spec.db, user1, 'a', NOW))?.health).toBeNull();
    const changed = (state: string, reasons: string[]) => ({
      type: 'DeviceHealthChanged',
      payload: { deviceId: 'a', companyId: 1, workspaceIds: null, from: null, cause: 'sample', health: { state, reasons, battery: { level: 50, charging: false, temperatureC: 47 }, checkedAt: '2026-01-02T03:00:00.000Z' } },
    });
    await spec.given(changed('healthy', []), changed('cooling', ['battery temperature 47.0 °C above 45 °C']));
    expect((await findDevice(spec.db, user1, 'a', NOW))?.health).toEqual({
      state: 'cooling',
      reasons: ['battery temperature 47.0 °C above 45 °C'],
      battery: { level: 50, charging: false, temperatureC: 47 },
      checkedAt: '2026-01-02T03:00:00.000Z',
    });
    expect(await groupTotal()).toBe(1);
    const maintenance = (deviceId: string, until: string) => ({
      type: 'DeviceHealthChanged',
      payload: { deviceId, companyId: 1, workspaceIds: null, from: 'cooling', cause: 'maintenance-started', health: { state: 'maintenance', reasons: ['m'], checkedAt: '2026-01-02T03:00:00.000Z', until } },
    });
    await spec.given(connected('b', 1), maintenance('a', '2026-01-02T03:04:00.000Z'), maintenance('b', '2026-01-02T03:06:00.000Z'));
    expect(await maintenancesOver(spec.db, NOW)).toEqual(['a']);
  });

  it('given a user’s alias and favourite, only that user sees them', async () => {
    await spec.given(
      connected('a', 1),
      { type: 'DeviceAliasSet', payload: { userId: 5, deviceId: 'a', alias: 'My phone' } },
      { type: 'DeviceFavorited', payload: { userId: 5, deviceId: 'a' } },
    );
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ alias: 'My phone', favorite: true });
    expect(await findDevice(spec.db, { companyId: 1, workspaceId: 1, userId: 6 }, 'a', NOW)).toMatchObject({ alias: null, favorite: false });
    await spec.given({ type: 'DeviceAliasRemoved', payload: { userId: 5, deviceId: 'a' } }, { type: 'DeviceUnfavorited', payload: { userId: 5, deviceId: 'a' } });
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ alias: null, favorite: false });
  });

  it('given hosts scoped to workspaces, a device is seen only in its workspaces, and a re-scope moves every device of the host', async () => {
    await spec.given(connected('a', 1, facts('a'), 'h1', [2]), connected('b', 1, facts('b'), 'h2'), connected('c', 1, facts('c'), 'h1', [2]));
    const ws2 = { ...user1, workspaceId: 2 };
    expect((await listDevices(spec.db, user1, {}, paging, NOW)).content.map((d) => d.id)).toEqual(['b']);
    expect((await listDevices(spec.db, ws2, {}, paging, NOW)).content.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(await findDevice(spec.db, user1, 'a', NOW)).toBeNull();
    expect((await deviceFacets(spec.db, user1, {})).status).toEqual([{ value: 'available', count: 1 }]);
    // Totals from the groups agree with the rows after the re-scope.
    await spec.given({ type: 'HostRescoped', payload: { hostId: 'h1', workspaceIds: [1, 3] } });
    expect((await listDevices(spec.db, user1, {}, { ...paging, size: 1 }, NOW)).totalElements).toBe(3);
    expect((await listDevices(spec.db, ws2, {}, paging, NOW)).content.map((d) => d.id)).toEqual(['b']);
    expect(await groupTotal()).toBe(3);
  });

  it('given a device of the shared pool (no company), it is seen by every company only while the pool is on', async () => {
    await spec.given(connected('p', null), connected('a', 1));
    expect((await listDevices(spec.db, user1, {}, paging, NOW)).content.map((d) => d.id)).toEqual(['a']);
    expect(await findDevice(spec.db, { companyId: 2, workspaceId: 9, userId: 7 }, 'p', NOW)).toBeNull();
    expect((await listDevices(spec.db, { ...user1, sharedPool: true }, {}, paging, NOW)).content.map((d) => d.id)).toEqual(['a', 'p']);
    expect(await findDevice(spec.db, { companyId: 2, workspaceId: 9, userId: 7, sharedPool: true }, 'p', NOW)).not.toBeNull();
  });

  it('given a booking, an idle device shows reserved (in the status filter and the facets) from its start to its end, and in use while its holder has a session', async () => {
    const booking = { reservationId: 'r1', deviceId: 'a' };
    await spec.given(connected('a', 1), connected('b', 1), { type: 'DeviceReservationActivated', payload: booking });
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ status: 'reserved' });
    expect((await listDevices(spec.db, user1, { status: ['reserved'] }, paging, NOW)).content.map((d) => d.id)).toEqual(['a']);
    expect((await deviceFacets(spec.db, user1, {})).status).toEqual(expect.arrayContaining([{ value: 'reserved', count: 1 }, { value: 'available', count: 1 }]));
    await spec.given(
      { type: 'DeviceAllocated', payload: { deviceId: 'a', sessionId: 's1', sessionType: 'manual', ownerId: 5, companyId: 1, workspaceId: 1, status: 'in_use' } },
    );
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('in_use');
    await spec.given({ type: 'DeviceReleased', payload: { deviceId: 'a', sessionId: 's1', status: 'available' } });
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('reserved');
    // Another booking's end does not free it; its own does.
    await spec.given({ type: 'DeviceReservationExpired', payload: { reservationId: 'r0', deviceId: 'a' } });
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('reserved');
    await spec.given({ type: 'DeviceReservationEnded', payload: { ...booking, reason: 'time' } });
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('available');
    expect(await groupTotal()).toBe(2);
  });
  it('given a mending under way, an idle device shows mending with the step begun, stays mending through a host lost and back, and is available (or reserved) again at its end', async () => {
    const tenant = { companyId: 1, workspaceIds: null };
    const started = (deviceId: string, until: string) => ({ type: 'DeviceMendingStarted', payload: { deviceId, ...tenant, helpersOnly: false, at: '2026-01-02T03:00:00.000Z', until } });
    await spec.given(connected('a', 1), connected('b', 1), started('a', '2026-01-02T03:06:00.000Z'));
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ status: 'mending', mending: { since: '2026-01-02T03:00:00.000Z', until: '2026-01-02T03:06:00.000Z', step: null } });
    await spec.given({ type: 'DeviceMendingStepBegun', payload: { deviceId: 'a', ...tenant, step: 'reboot', at: '2026-01-02T03:01:00.000Z' } });
    expect((await findDevice(spec.db, user1, 'a', NOW))?.mending?.step).toBe('reboot');
    expect((await listDevices(spec.db, user1, { status: ['mending'] }, paging, NOW)).content.map((d) => d.id)).toEqual(['a']);
    expect((await deviceFacets(spec.db, user1, {})).status).toEqual(expect.arrayContaining([{ value: 'mending', count: 1 }, { value: 'available', count: 1 }]));
    await spec.given(
      { type: 'HostDevicesDisconnected', payload: { hostId: 'h1', deviceIds: ['a'], reason: 'lost', status: 'offline' } },
      { type: 'HostDevicesReconnected', payload: { hostId: 'h1', deviceIds: ['a'] } },
      { type: 'DeviceReservationActivated', payload: { reservationId: 'r1', deviceId: 'a' } },
    );
    expect((await deviceRow(spec.db, 'a'))?.status).toBe('mending');
    // One whose until passed with no end recorded is the sweep's to end; the other is not over yet.
    await spec.given(started('b', '2026-01-02T03:04:00.000Z'));
    expect(await mendingsOver(spec.db, NOW)).toEqual(['b']);
    await spec.given({ type: 'DeviceMendingEnded', payload: { deviceId: 'a', ...tenant, outcome: 'mended', at: '2026-01-02T03:02:00.000Z' } });
    expect(await findDevice(spec.db, user1, 'a', NOW)).toMatchObject({ status: 'reserved', mending: null });
    await spec.given({ type: 'DeviceMendingEnded', payload: { deviceId: 'b', ...tenant, outcome: 'timed-out', at: '2026-01-02T03:04:00.000Z' } });
    expect(await findDevice(spec.db, user1, 'b', NOW)).toMatchObject({ status: 'available', mending: null });
    expect(await groupTotal()).toBe(2);
  });
});
