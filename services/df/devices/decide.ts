import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { DeviceEvent, DeviceFacts, DeviceHostEvent, DevicePlacement, DeviceStatus, SessionType } from '#events/df/devices.js';
import { sameJson } from '#shared/canonical.js';

export interface DeviceState {
  known: boolean;
  facts: DeviceFacts | null;
  placement: DevicePlacement | null;
  online: boolean;
  health: 'ok' | 'broken';
  sessionId: string | null;
  /** Hosts whose claim on this device was refused since it was last placed (each is recorded once). */
  refusedClaims: string[];
}

export type DeviceCommand =
  | { type: 'ConnectDevice'; deviceId: string; facts: DeviceFacts; placement: DevicePlacement }
  | { type: 'DisconnectDevice'; deviceId: string; hostId: string; reason: string }
  /** What the host `hostId` reports of the device's health: heard only from the host the device is placed on. */
  | { type: 'ReportDeviceHealth'; deviceId: string; hostId: string; health: 'ok' | 'broken'; reason: string }
  | {
      type: 'AllocateDevice';
      deviceId: string;
      sessionId: string;
      sessionType: SessionType;
      ownerId: number;
      companyId: number;
      workspaceId: number;
    }
  | { type: 'ReleaseDevice'; deviceId: string; sessionId: string }
  /** An administrator's move to another host of the device's company (`placement` is that host's). */
  | { type: 'MoveDevice'; deviceId: string; companyId: number; placement: DevicePlacement };

/** The status a device state shows: offline beats maintenance beats in use. */
export function statusOf(state: Pick<DeviceState, 'online' | 'health' | 'sessionId'>): DeviceStatus {
  if (!state.online) return 'offline';
  if (state.health === 'broken') return 'maintenance';
  return state.sessionId ? 'in_use' : 'available';
}

/**
 * One device: what it is, where it is attached, whether it is up, and the session holding it. Its
 * state folds the device's own events and, merged by log position, the host events naming it
 * (`loadDevice`, `service.ts`, does the merge); a host event counts only for the host the device is placed on.
 */
export const deviceDecider = defineDecider<DeviceCommand, DeviceEvent | DeviceHostEvent, DeviceState>({
  initialState: () => ({ known: false, facts: null, placement: null, online: false, health: 'ok', sessionId: null, refusedClaims: [] }),

  evolve: {
    DeviceConnected: (state, event) => ({ ...state, known: true, facts: event.payload.facts, placement: event.payload.placement, online: true }),
    DeviceDisconnected: (state, event) => ({ ...state, online: false }),
    DeviceStatusChanged: (state, event) => ({ ...state, health: event.payload.health }),
    DeviceAllocated: (state, event) => ({ ...state, sessionId: event.payload.sessionId }),
    DeviceReleased: (state, event) => ({ ...state, sessionId: null }),
    DeviceClaimRefused: (state, event) => ({ ...state, refusedClaims: [...state.refusedClaims, event.payload.claimedByHostId] }),
    DeviceMoved: (state, event) => ({ ...state, placement: event.payload.placement, online: false, refusedClaims: [] }),
    HostDevicesDisconnected: (state, event) => state.placement?.hostId === event.payload.hostId ? { ...state, online: false } : state,
    HostDevicesReconnected: (state, event) => state.known && state.placement?.hostId === event.payload.hostId ? { ...state, online: true } : state,
  },

  decide: {
    ConnectDevice: (command, state) => {
      // A device belongs to the host that registered it first (or that it was moved to): another host
      // naming it is refused, and the refusal recorded once per claiming host.
      const owner = state.known ? state.placement?.hostId : undefined;
      if (owner !== undefined && owner !== command.placement.hostId) {
        const claimedByHostId = command.placement.hostId;
        if (state.refusedClaims.includes(claimedByHostId)) return [];
        return [{ type: 'DeviceClaimRefused', payload: { deviceId: command.deviceId, hostId: owner, claimedByHostId, companyId: state.placement?.companyId ?? null, status: statusOf(state) } }];
      }
      if (state.known && state.online && sameJson(state.facts, command.facts) && sameJson(state.placement, command.placement)) return [];
      const next = { ...state, online: true };
      return [{ type: 'DeviceConnected', payload: { deviceId: command.deviceId, facts: command.facts, placement: command.placement, status: statusOf(next) } }];
    },
    DisconnectDevice: (command, state) => {
      // A device that moved to another host is not taken offline by its old host's silence.
      if (!state.online || state.placement?.hostId !== command.hostId) return [];
      return [{ type: 'DeviceDisconnected', payload: { deviceId: command.deviceId, hostId: command.hostId, reason: command.reason, status: 'offline' } }];
    },
    ReportDeviceHealth: (command, state) => {
      if (!state.known || state.placement?.hostId !== command.hostId || state.health === command.health) return [];
      const next = { ...state, health: command.health };
      return [{ type: 'DeviceStatusChanged', payload: { deviceId: command.deviceId, health: command.health, reason: command.reason, status: statusOf(next) } }];
    },
    AllocateDevice: (command, state) => {
      const placement = state.placement;
      if (!state.known || (placement?.companyId !== null && placement?.companyId !== command.companyId)) {
        throw new AppError('NOT_FOUND', 'Device not found');
      }
      if (state.sessionId === command.sessionId) return [];
      // Offline first: a device whose host left is offline even while the release of the session it
      // was in is still on its way (ending the session and releasing the device are two appends).
      if (!state.online) throw new AppError('DEVICE_OFFLINE', 'The device is offline');
      if (state.sessionId) throw new AppError('DEVICE_BUSY', 'The device is already in a session');
      if (state.health === 'broken') throw new AppError('DEVICE_UNAVAILABLE', 'The device is in maintenance');
      const { type: _type, ...payload } = command;
      return [{ type: 'DeviceAllocated', payload: { ...payload, status: 'in_use' } }];
    },
    ReleaseDevice: (command, state) => {
      if (state.sessionId !== command.sessionId) return [];
      const next = { ...state, sessionId: null };
      return [{ type: 'DeviceReleased', payload: { deviceId: command.deviceId, sessionId: command.sessionId, status: statusOf(next) } }];
    },
    MoveDevice: (command, state) => {
      const from = state.placement;
      if (!state.known || !from || from.companyId !== command.companyId) throw new AppError('NOT_FOUND', 'Device not found');
      if (from.hostId === command.placement.hostId) return [];
      if (state.sessionId) throw new AppError('DEVICE_BUSY', 'The device is in a session; end it before moving the device');
      return [{ type: 'DeviceMoved', payload: { deviceId: command.deviceId, fromHostId: from.hostId, toHostId: command.placement.hostId, placement: command.placement, companyId: command.companyId, status: 'offline' } }];
    },
  },
});
