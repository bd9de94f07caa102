import { describe, expect, it } from 'vitest';
import type { DeviceRow, HostDeviceRow } from '#projections/df-devices/index.js';
import type { DeviceInfo, WorkerState } from '#shared/wire/index.js';
import type { DevicePlacement } from '#events/df/devices.js';
import { devicesToAskActive, reconcile, sessionsToAsk, suspectKey, type HostView, type ReconcileAction, type ReconcileActionKind } from './reconcile.js';

const placement: DevicePlacement = { hostId: 'h1', nodeName: 'node-1', hubId: 'hub-1', companyId: 2, workspaceIds: [5] };

function info(deviceId: string, overrides: Partial<DeviceInfo> = {}): DeviceInfo {
  return {
    deviceId,
    name: `Phone ${deviceId}`,
    platform: 'android',
    osVersion: '14',
    model: 'Pixel',
    manufacturer: 'Google',
    type: 'phone',
    isRealDevice: true,
    provider: 'simulated',
    screen: { width: 1080, height: 2400, scale: 3 },
    ...overrides,
  };
}

/** The read model's row of a device as `info` describes it, placed as `placement`. */
function inventoryRow(deviceId: string, overrides: Partial<HostDeviceRow> = {}): HostDeviceRow {
  const { deviceId: _id, ...facts } = info(deviceId);
  return { deviceId, hostId: 'h1', status: 'online', health: 'ok', sessionId: null, companyId: 2, facts, placement: { ...placement, workspaceIds: [5] }, ...overrides };
}

function row(deviceId: string, overrides: Partial<DeviceRow> = {}): DeviceRow {
  return { deviceId, hostId: 'h1', status: 'online', health: 'ok', sessionId: null, companyId: 2, ...overrides };
}

const rowsOf = <R extends DeviceRow>(...rows: R[]) => new Map(rows.map((r) => [r.deviceId, r]));
const state = (deviceId: string, s: WorkerState['state'], sessionId: string | null = null, detail?: string): WorkerState => ({ deviceId, state: s, sessionId, ...(detail ? { detail } : {}) });
const inventory = (view: HostView, devices: DeviceInfo[]) => reconcile(view, { kind: 'inventory', placement, devices });
const states = (view: HostView, list: WorkerState[], options: { reconnect?: boolean; receivedAt?: number } = {}) =>
  reconcile(view, { kind: 'states', states: list, reconnect: options.reconnect ?? false, receivedAt: options.receivedAt ?? 1_000 });

/** Every kind the specs below saw `reconcile` emit; the last spec insists it is every kind there is (`Record` makes the list complete). */
const seen = new Set<ReconcileActionKind>();
const saw = (actions: ReconcileAction[]) => {
  for (const a of actions) seen.add(a.kind);
  return actions;
};

describe('reconcile: a host\'s inventory', () => {
  it('connects a device the platform has never seen, with its facts and the host\'s placement', () => {
    const { deviceId: _id, ...facts } = info('d1');
    expect(saw(inventory({ rows: rowsOf() }, [info('d1')]))).toEqual([{ kind: 'connect', deviceId: 'd1', facts, placement }]);
  });

  it('connects again a known device whose facts, capabilities or placement changed, and nothing for one unchanged', () => {
    const rows = rowsOf(inventoryRow('d1'), inventoryRow('d2'), inventoryRow('d3'), inventoryRow('d4', { placement: { ...placement, hubId: 'hub-0', workspaceIds: [5] } }));
    const actions = saw(inventory({ rows }, [info('d1'), info('d2', { osVersion: '15' }), info('d3', { capabilities: { text: 'ime' } }), info('d4')]));
    expect(actions.map((a) => a.kind === 'connect' && a.deviceId)).toEqual(['d2', 'd3', 'd4']);
  });

  it('compares capabilities and workspaces whatever the order of their keys', () => {
    const rows = rowsOf(inventoryRow('d1', { facts: { ...inventoryRow('d1').facts, capabilities: { reason: 'fallback', text: 'input' } }, placement: { ...placement, workspaceIds: [5, 6] } }));
    const d1 = info('d1', { capabilities: { text: 'input', reason: 'fallback' } });
    expect(reconcile({ rows }, { kind: 'inventory', placement: { ...placement, workspaceIds: [5, 6] }, devices: [d1] })).toEqual([]);
  });

  it('brings known offline devices back in one batch, with those of the host\'s last disconnection the read model does not show yet', () => {
    const rows = rowsOf(inventoryRow('d1', { status: 'offline' }), inventoryRow('d2'), inventoryRow('d3'));
    const actions = saw(inventory({ rows, lastDisconnected: ['d1', 'd2', 'd9'] }, [info('d1'), info('d2'), info('d3')]));
    expect(actions).toEqual([{ kind: 'reconnect', deviceIds: ['d1', 'd2'] }]);
  });

  it('does not bring back a device of the last disconnection whose facts changed: it is connected instead', () => {
    const rows = rowsOf(inventoryRow('d1'));
    expect(inventory({ rows, lastDisconnected: ['d1'] }, [info('d1', { name: 'Renamed' })]).map((a) => a.kind)).toEqual(['connect']);
  });

  it('takes the devices the host no longer has offline in one batch and ends their sessions; offline ones are left alone', () => {
    const rows = rowsOf(inventoryRow('d1'), inventoryRow('d2', { sessionId: 's2' }), inventoryRow('d3', { status: 'offline' }));
    expect(saw(inventory({ rows }, [info('d1')]))).toEqual([
      { kind: 'disconnect', deviceIds: ['d2'], reason: 'removed-from-host' },
      { kind: 'end-sessions-on', deviceIds: ['d2'], reason: 'device-disconnected' },
    ]);
  });

  it('answers nothing when the host reports what the platform holds', () => {
    expect(inventory({ rows: rowsOf(inventoryRow('d1'), inventoryRow('d2')) }, [info('d1'), info('d2')])).toEqual([]);
  });
});

describe('reconcile: the states of a host\'s workers', () => {
  it('ignores states of devices the read model does not have', () => {
    expect(states({ rows: rowsOf() }, [state('d9', 'broken', 's1')], { reconnect: true })).toEqual([]);
  });

  it('brings devices the read model shows offline back in one batch on a heartbeat, not on a hello', () => {
    const rows = rowsOf(row('d1', { status: 'offline' }), row('d2'), row('d3', { status: 'offline' }));
    const reported = [state('d1', 'ready'), state('d2', 'ready'), state('d3', 'ready')];
    expect(saw(states({ rows }, reported, { reconnect: true }))).toEqual([{ kind: 'reconnect', deviceIds: ['d1', 'd3'] }]);
    expect(states({ rows }, reported, { reconnect: false })).toEqual([]);
  });

  it('settles a device the host was refused once it reports it as its own', () => {
    const rows = rowsOf(row('d1'));
    expect(saw(states({ rows, refused: new Set(['d1', 'd2']) }, [state('d1', 'ready')]))).toEqual([{ kind: 'accept-device', deviceId: 'd1' }]);
  });

  it('reports a device broken with the worker\'s detail, and ends its session', () => {
    const rows = rowsOf(row('d1', { sessionId: 's1' }));
    expect(saw(states({ rows }, [state('d1', 'broken', 's1', 'adb gone')]))).toEqual([
      { kind: 'report-health', deviceId: 'd1', health: 'broken', reason: 'adb gone' },
      { kind: 'end-session', sessionId: 's1', reason: 'device-error' },
    ]);
  });

  it('reports a broken device healthy again, with its state as the reason', () => {
    expect(states({ rows: rowsOf(row('d1', { health: 'broken' })) }, [state('d1', 'ready')])).toEqual([{ kind: 'report-health', deviceId: 'd1', health: 'ok', reason: 'ready' }]);
  });

  it('tells a device to drop a session the platform has closed, and not one still open', () => {
    const rows = rowsOf(row('d1'), row('d2'));
    const reported = [state('d1', 'in_session', 's-closed'), state('d2', 'in_session', 's-open')];
    expect(saw(states({ rows, openSessions: new Set(['s-open']) }, reported))).toEqual([{ kind: 'release-stale', deviceId: 'd1', sessionId: 's-closed' }]);
  });

  it('suspects a reset when a ready device holds no session while its session is open and active', () => {
    const rows = rowsOf(row('d1', { sessionId: 's1' }));
    const view = { rows, openSessions: new Set(['s1']), activeSessions: new Set(['s1']) };
    expect(saw(states(view, [state('d1', 'ready')]))).toEqual([{ kind: 'suspect-reset', deviceId: 'd1', sessionId: 's1' }]);
  });

  it('suspects nothing when the session is closed in the store or not active in the read model', () => {
    const rows = rowsOf(row('d1', { sessionId: 's1' }));
    expect(states({ rows, openSessions: new Set(), activeSessions: new Set(['s1']) }, [state('d1', 'ready')])).toEqual([]);
    expect(states({ rows, openSessions: new Set(['s1']), activeSessions: new Set() }, [state('d1', 'ready')])).toEqual([]);
  });

  it('confirms the reset only on a beat received after the suspicion', () => {
    const rows = rowsOf(row('d1', { sessionId: 's1' }));
    const view = { rows, openSessions: new Set(['s1']), activeSessions: new Set(['s1']), resetSuspects: new Map([[suspectKey('d1', 's1'), 1_000]]) };
    expect(states(view, [state('d1', 'ready')], { receivedAt: 1_000 })).toEqual([{ kind: 'suspect-reset', deviceId: 'd1', sessionId: 's1' }]);
    expect(saw(states(view, [state('d1', 'ready')], { receivedAt: 1_001 }))).toEqual([{ kind: 'confirm-reset', deviceId: 'd1', sessionId: 's1' }]);
  });
});

describe('reconcile: what must be asked first', () => {
  const rows = rowsOf(row('d1', { sessionId: 's1' }), row('d2', { sessionId: 's2' }), row('d3'));

  it('asks the store about sessions a device holds that its row does not, and about rows\' sessions a ready device dropped', () => {
    expect(sessionsToAsk(rows, [state('d1', 'ready'), state('d2', 'in_session', 's2'), state('d3', 'in_session', 's3'), state('d9', 'ready', 's9')])).toEqual(['s1', 's3']);
  });

  it('asks the read model about the devices whose dropped session is open', () => {
    expect(devicesToAskActive(rows, [state('d1', 'ready'), state('d2', 'ready')], new Set(['s2']))).toEqual(['d2']);
  });
});

describe('reconcile', () => {
  const everyKind: Record<ReconcileActionKind, true> = {
    connect: true,
    reconnect: true,
    disconnect: true,
    'end-sessions-on': true,
    'accept-device': true,
    'report-health': true,
    'end-session': true,
    'release-stale': true,
    'suspect-reset': true,
    'confirm-reset': true,
  };

  // The specs above run first (a file's tests run in order); each kind must have been emitted by one of them.
  it('has a spec above for every kind of action it can emit', () => {
    expect([...seen].sort()).toEqual(Object.keys(everyKind).sort());
  });
});
