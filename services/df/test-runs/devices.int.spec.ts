import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dfDevicesProjection } from '#projections/df-devices/index.js';
import { projectionSpec, type ProjectionSpec } from '#projections/testing.js';
import { chooseDevices } from './devices.js';

const scope = { companyId: 1, workspaceId: 2, userId: 7 };
const connected = (deviceId: string) => ({
  type: 'DeviceConnected',
  payload: {
    deviceId,
    facts: { name: deviceId, platform: 'android', osVersion: '14', model: 'Pixel 7', manufacturer: 'Google', type: 'phone', isRealDevice: true, provider: 'android', screen: { width: 1080, height: 2400, scale: 1 } },
    placement: { hostId: 'h1', nodeName: 'n', hubId: 'hub', companyId: 1, workspaceIds: null },
    status: 'available',
  },
});
const health = (deviceId: string, state: string, reasons: string[]) => ({
  type: 'DeviceHealthChanged',
  payload: { deviceId, companyId: 1, workspaceIds: null, from: 'healthy', cause: 'sample', health: { state, reasons, checkedAt: '2026-01-01T00:00:00.000Z' } },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfDevicesProjection)));
afterAll(() => spec.close());

describe('the devices a test run takes', () => {
  it('never takes a device its health holds, and says DEVICE_UNHEALTHY with the reason when only held devices match', async () => {
    await spec.given(connected('a-hot'), connected('b-fine'), connected('c-low'), health('a-hot', 'cooling', ['battery temperature 50.0 °C above 45 °C']), health('b-fine', 'degraded', ['airplane mode on']));
    expect(await chooseDevices(spec.db, scope, { platform: 'android' }, null)).toEqual(['b-fine', 'c-low']);
    await spec.given(health('b-fine', 'maintenance', ['maintenance until 2026-01-02T00:00:00.000Z: cable']), health('c-low', 'charging', ['battery 5 % below 15 % and not charging']));
    await expect(chooseDevices(spec.db, scope, { platform: 'android' }, null)).rejects.toMatchObject({
      code: 'DEVICE_UNHEALTHY',
      message: 'Device a-hot is held by its health (cooling: battery temperature 50.0 °C above 45 °C and 2 more matching device(s) are held too)',
    });
    await expect(chooseDevices(spec.db, scope, { platform: 'android', models: ['Galaxy'] }, null)).rejects.toMatchObject({ code: 'NO_MATCHING_DEVICES' });
  });
  it('never takes a device being mended, and takes it again once the mending ended', async () => {
    await spec.reset();
    const tenant = { companyId: 1, workspaceIds: null };
    await spec.given(connected('m-mending'), connected('n-fine'), { type: 'DeviceMendingStarted', payload: { deviceId: 'm-mending', ...tenant, helpersOnly: false, at: '2026-01-01T00:00:00.000Z', until: '2026-01-01T00:05:05.000Z' } });
    expect(await chooseDevices(spec.db, scope, { platform: 'android' }, null)).toEqual(['n-fine']);
    await spec.given({ type: 'DeviceMendingEnded', payload: { deviceId: 'm-mending', ...tenant, outcome: 'mended', at: '2026-01-01T00:01:00.000Z' } });
    expect(await chooseDevices(spec.db, scope, { platform: 'android' }, null)).toEqual(['m-mending', 'n-fine']);
  });
});
