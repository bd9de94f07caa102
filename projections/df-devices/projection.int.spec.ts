import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import type { EventStore, NewEvent } from '#shared/es/types.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { rebuildProjection } from '../runner.js';
import { dfDevicesProjection } from './projection.js';

/**
 * The device read model applied in batches (runs of `DeviceConnected` in one upsert) leaves exactly the
 * rows that applying every event one by one leaves: devices, their group counts and preferences.
 */
let db: Database;
let store: EventStore;
let closeStore: () => Promise<void>;

beforeAll(async () => {
  ({ db, store, close: closeStore } = await openPgliteStore());
});

afterAll(async () => {
  await closeStore?.();
});

let clock = Date.parse('2026-11-01T10:00:00Z');
const meta = () => ({ actorId: 'test', occurredAt: new Date((clock += 1_000)).toISOString() });
const facts = (name: string, model: string) => ({
  name,
  platform: 'android',
  osVersion: '14',
  model,
  manufacturer: 'Sim',
  type: 'phone',
  isRealDevice: false,
  provider: 'simulated',
  screen: { width: 1080, height: 2400, scale: 2 },
});
const placement = (hostId: string, companyId: number | null = null) => ({ hostId, nodeName: `node-${hostId}`, hubId: 'hub', companyId });
const connected = (deviceId: string, name: string, model: string, hostId: string): NewEvent => ({
  type: 'DeviceConnected',
  payload: { deviceId, facts: facts(name, model), placement: placement(hostId), status: 'available' },
  metadata: meta(),
});

async function snapshot() {
  const devices = await db.query('SELECT * FROM df_devices ORDER BY device_id');
  const groups = await db.query('SELECT gkey, n FROM df_device_groups WHERE n <> 0 ORDER BY gkey');
  const prefs = await db.query('SELECT * FROM df_device_prefs ORDER BY user_id, device_id');
  return { devices: devices.rows, groups: groups.rows, prefs: prefs.rows };
}

describe('df-devices projection', () => {
  it('leaves the same rows whether runs of connections are applied in one upsert or event by event', async () => {
    // A host announces 30 devices; one is connected twice in the run with other facts (the last wins).
    for (let i = 0; i < 30; i++) await store.append(`device-d${i}`, [connected(`d${i}`, `Device ${i}`, i % 2 ? 'Pixel 7' : 'Galaxy S23', 'h1')], 'any');
    await store.append('device-d3', [connected('d3', 'Device 3, renamed', 'Pixel 8', 'h1')], 'any');
    // A session, a health report, a goodbye of the host, a return, a move to another host.
    await store.append('device-d1', [{ type: 'DeviceAllocated', payload: { deviceId: 'd1', sessionId: 's1', sessionType: 'manual', ownerId: 1, companyId: 1, workspaceId: 1, status: 'in_use' }, metadata: meta() }], 'any');
    await store.append('device-d2', [{ type: 'DeviceStatusChanged', payload: { deviceId: 'd2', health: 'broken', reason: 'test', status: 'maintenance' }, metadata: meta() }], 'any');
    await store.append('device-host-h1', [{ type: 'HostDevicesDisconnected', payload: { hostId: 'h1', deviceIds: ['d0', 'd1', 'd4'], reason: 'test', status: 'offline' }, metadata: meta() }], 'any');
    await store.append('device-host-h1', [{ type: 'HostDevicesReconnected', payload: { hostId: 'h1', deviceIds: ['d0', 'd1'] }, metadata: meta() }], 'any');
    await store.append('device-d1', [{ type: 'DeviceReleased', payload: { deviceId: 'd1', sessionId: 's1', status: 'available' }, metadata: meta() }], 'any');
    for (let i = 25; i < 35; i++) await store.append(`device-d${i}`, [connected(`d${i}`, `Device ${i}`, 'Moto G', 'h2')], 'any');
    await store.append('device-preferences-1', [{ type: 'DeviceAliasSet', payload: { userId: 1, deviceId: 'd5', alias: 'mine' }, metadata: meta() }], 'any');
    await store.append('device-preferences-1', [{ type: 'DeviceFavorited', payload: { userId: 1, deviceId: 'd6' }, metadata: meta() }], 'any');
    await store.append('device-d7', [{ type: 'DeviceDisconnected', payload: { deviceId: 'd7', hostId: 'h1', reason: 'test', status: 'offline' }, metadata: meta() }], 'any');

    const { applyBatch: _batch, ...oneByOne } = dfDevicesProjection;
    await rebuildProjection(store, db, oneByOne, { batchSize: 7 });
    const expected = await snapshot();
    expect(expected.devices).toHaveLength(35);
    expect(expected.devices.find((d) => d.device_id === 'd3')).toMatchObject({ name: 'Device 3, renamed', model: 'Pixel 8' });
    expect(expected.devices.find((d) => d.device_id === 'd4')).toMatchObject({ status: 'offline' });

    for (const batchSize of [7, 1_000]) {
      await rebuildProjection(store, db, dfDevicesProjection, { batchSize });
      expect(await snapshot()).toEqual(expected);
    }
  });
});
