import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { deviceDecider } from './decide.js';
import type { DeviceEvent, DeviceFacts, DevicePlacement } from '#events/df/devices.js';

const spec = deciderSpec(deviceDecider);
const deviceId = 'd-1';
const facts: DeviceFacts = {
  name: 'Pixel',
  platform: 'web',
  osVersion: 'Chromium',
  model: 'Pixel 7 (emulated)',
  manufacturer: 'Google',
  type: 'phone',
  isRealDevice: false,
  provider: 'browser',
  screen: { width: 720, height: 1280, scale: 2 },
};
const placement: DevicePlacement = { hostId: 'host-a', nodeName: 'node-a', hubId: 'hub', companyId: null };
const connected: DeviceEvent = { type: 'DeviceConnected', payload: { deviceId, facts, placement, status: 'available' } };
const allocate = { type: 'AllocateDevice' as const, deviceId, sessionId: 's-1', sessionType: 'manual' as const, ownerId: 7, companyId: 1, workspaceId: 1 };
const allocated: DeviceEvent = { type: 'DeviceAllocated', payload: { deviceId, sessionId: 's-1', sessionType: 'manual', ownerId: 7, companyId: 1, workspaceId: 1, status: 'in_use' } };

describe('device decider', () => {
  it('connects a new device as available', () => {
    spec.given([]).when({ type: 'ConnectDevice', deviceId, facts, placement }).then([connected]);
  });

  it('does nothing when a connected device is reported again unchanged', () => {
    spec.given([connected]).when({ type: 'ConnectDevice', deviceId, facts, placement }).then([]);
    // As read back from the store, whose JSON may order keys differently.
    const stored = { ...connected, payload: { ...connected.payload, placement: { companyId: null, hubId: 'hub', nodeName: 'node-a', hostId: 'host-a' } } } as DeviceEvent;
    spec.given([stored]).when({ type: 'ConnectDevice', deviceId, facts, placement }).then([]);
  });

  it('reconnects an offline device in its session as in use', () => {
    spec
      .given([connected, allocated, { type: 'DeviceDisconnected', payload: { deviceId, hostId: 'host-a', reason: 'heartbeat', status: 'offline' } }])
      .when({ type: 'ConnectDevice', deviceId, facts, placement })
      .then([{ type: 'DeviceConnected', payload: { deviceId, facts, placement, status: 'in_use' } }]);
  });

  it('takes a device offline only for the host that has it', () => {
    spec.given([connected]).when({ type: 'DisconnectDevice', deviceId, hostId: 'host-b', reason: 'x' }).then([]);
    spec
      .given([connected])
      .when({ type: 'DisconnectDevice', deviceId, hostId: 'host-a', reason: 'heartbeat-missed' })
      .then([{ type: 'DeviceDisconnected', payload: { deviceId, hostId: 'host-a', reason: 'heartbeat-missed', status: 'offline' } }]);
  });

  it('allocates an available device to one session', () => {
    spec.given([connected]).when(allocate).then([allocated]);
  });

  it('refuses a second session on a device in use with DEVICE_BUSY, and repeats nothing for the same session', () => {
    spec.given([connected, allocated]).when({ ...allocate, sessionId: 's-2' }).thenRefused('DEVICE_BUSY');
    spec.given([connected, allocated]).when(allocate).then([]);
  });

  it('refuses offline, broken and unknown devices, and another company\'s device as unknown', () => {
    spec.given([connected, { type: 'DeviceDisconnected', payload: { deviceId, hostId: 'host-a', reason: 'x', status: 'offline' } }]).when(allocate).thenRefused('DEVICE_OFFLINE');
    spec.given([connected, { type: 'DeviceStatusChanged', payload: { deviceId, health: 'broken', reason: 'crash', status: 'maintenance' } }]).when(allocate).thenRefused('DEVICE_UNAVAILABLE');
    spec.given([]).when(allocate).thenRefused('NOT_FOUND');
    const owned: DeviceEvent = { type: 'DeviceConnected', payload: { deviceId, facts, placement: { ...placement, companyId: 2 }, status: 'available' } };
    spec.given([owned]).when(allocate).thenRefused('NOT_FOUND');
  });

  it('releases only the session that holds the device', () => {
    spec.given([connected, allocated]).when({ type: 'ReleaseDevice', deviceId, sessionId: 's-2' }).then([]);
    spec
      .given([connected, allocated])
      .when({ type: 'ReleaseDevice', deviceId, sessionId: 's-1' })
      .then([{ type: 'DeviceReleased', payload: { deviceId, sessionId: 's-1', status: 'available' } }]);
  });

  it('reports health changes with the resulting status', () => {
    spec
      .given([connected])
      .when({ type: 'ReportDeviceHealth', deviceId, hostId: 'host-a', health: 'broken', reason: 'browser exited' })
      .then([{ type: 'DeviceStatusChanged', payload: { deviceId, health: 'broken', reason: 'browser exited', status: 'maintenance' } }]);
    spec.given([connected]).when({ type: 'ReportDeviceHealth', deviceId, hostId: 'host-a', health: 'ok', reason: 'x' }).then([]);
    // Another host cannot say anything of it.
    spec.given([connected]).when({ type: 'ReportDeviceHealth', deviceId, hostId: 'host-b', health: 'broken', reason: 'x' }).then([]);
  });

  it("refuses another host's claim on a device, recording it once per claiming host", () => {
    const claim = { type: 'ConnectDevice' as const, deviceId, facts: { ...facts, name: 'taken' }, placement: { ...placement, hostId: 'host-b', companyId: 2 } };
    const refused: DeviceEvent = { type: 'DeviceClaimRefused', payload: { deviceId, hostId: 'host-a', claimedByHostId: 'host-b', companyId: null, status: 'available' } };
    spec.given([connected]).when(claim).then([refused]);
    spec.given([connected, refused]).when(claim).then([]);
    spec
      .given([connected, refused])
      .when({ ...claim, placement: { ...claim.placement, hostId: 'host-c' } })
      .then([{ type: 'DeviceClaimRefused', payload: { ...refused.payload, claimedByHostId: 'host-c' } as Extract<DeviceEvent, { type: 'DeviceClaimRefused' }>['payload'] }]);
  });

  it("moves a company's idle device to another of its hosts, which alone may speak for it afterwards", () => {
    const own: DeviceEvent = { type: 'DeviceConnected', payload: { deviceId, facts, placement: { ...placement, companyId: 1 }, status: 'available' } };
    const to: DevicePlacement = { hostId: 'host-b', nodeName: 'node-b', hubId: 'hub', companyId: 1, workspaceIds: null };
    const moved: DeviceEvent = { type: 'DeviceMoved', payload: { deviceId, fromHostId: 'host-a', toHostId: 'host-b', placement: to, companyId: 1, status: 'offline' } };
    spec.given([own]).when({ type: 'MoveDevice', deviceId, companyId: 1, placement: to }).then([moved]);
    spec.given([own]).when({ type: 'MoveDevice', deviceId, companyId: 2, placement: { ...to, companyId: 2 } }).thenRefused('NOT_FOUND');
    spec.given([connected]).when({ type: 'MoveDevice', deviceId, companyId: 1, placement: to }).thenRefused('NOT_FOUND');
    spec.given([own, { ...allocated }]).when({ type: 'MoveDevice', deviceId, companyId: 1, placement: to }).thenRefused('DEVICE_BUSY');
    spec.given([own, moved]).when({ type: 'MoveDevice', deviceId, companyId: 1, placement: to }).then([]);
    // The old host is refused from then on; the new one connects it.
    spec.given([own, moved]).when({ type: 'ConnectDevice', deviceId, facts, placement: { ...placement, companyId: 1 } }).then([
      { type: 'DeviceClaimRefused', payload: { deviceId, hostId: 'host-b', claimedByHostId: 'host-a', companyId: 1, status: 'offline' } },
    ]);
    spec.given([own, moved]).when({ type: 'ConnectDevice', deviceId, facts, placement: to }).then([{ type: 'DeviceConnected', payload: { deviceId, facts, placement: to, status: 'available' } }]);
  });
});
