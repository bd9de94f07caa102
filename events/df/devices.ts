import type { DomainEvent } from '#shared/es/decider.js';
import type { DevicePlatform, DeviceType, Screen } from '#shared/wire/index.js';

/** `available | in_use | reserved | offline | maintenance` (decisions.md, "Device testing"). */
export type DeviceStatus = 'available' | 'in_use' | 'reserved' | 'offline' | 'maintenance';
export type SessionType = 'manual' | 'automation' | 'debug';

/** What a device is, as its host reported it. */
export interface DeviceFacts {
  name: string;
  platform: DevicePlatform;
  osVersion: string;
  model: string;
  manufacturer: string;
  type: DeviceType;
  isRealDevice: boolean;
  provider: string;
  screen: Screen;
}

/** Where a device is attached. */
export interface DevicePlacement {
  hostId: string;
  nodeName: string;
  hubId: string;
  /** The company the host serves; `null` for a shared pool. */
  companyId: number | null;
}

/** Every event carries the status the device has after it, so read models never re-derive it. */
export type DeviceEvent =
  | DomainEvent<'DeviceConnected', { deviceId: string; facts: DeviceFacts; placement: DevicePlacement; status: DeviceStatus }>
  | DomainEvent<'DeviceDisconnected', { deviceId: string; hostId: string; reason: string; status: DeviceStatus }>
  | DomainEvent<'DeviceStatusChanged', { deviceId: string; health: 'ok' | 'broken'; reason: string; status: DeviceStatus }>
  | DomainEvent<
      'DeviceAllocated',
      { deviceId: string; sessionId: string; sessionType: SessionType; ownerId: number; companyId: number; workspaceId: number; status: DeviceStatus }
    >
  | DomainEvent<'DeviceReleased', { deviceId: string; sessionId: string; status: DeviceStatus }>;

export const DEVICE_EVENT_TYPES = ['DeviceConnected', 'DeviceDisconnected', 'DeviceStatusChanged', 'DeviceAllocated', 'DeviceReleased'] as const satisfies readonly DeviceEvent['type'][];

/** Stream of one device. */
export const deviceStream = (deviceId: string) => `device-${deviceId}`;

/**
 * Facts about many devices of one host at once, on the host's stream: a goodbye, a lost host or a
 * returning host changes every device in one append instead of one append per device. A device's
 * state is its own stream's events merged by log position with the host events that name it.
 * `HostDevicesReconnected` brings devices back with the facts and placement their streams already
 * hold; each device's resulting status follows from its health and session (`statusOf`).
 */
export type DeviceHostEvent =
  | DomainEvent<'HostDevicesDisconnected', { hostId: string; deviceIds: string[]; reason: string; status: 'offline' }>
  | DomainEvent<'HostDevicesReconnected', { hostId: string; deviceIds: string[] }>;

export const DEVICE_HOST_EVENT_TYPES = ['HostDevicesDisconnected', 'HostDevicesReconnected'] as const satisfies readonly DeviceHostEvent['type'][];

/** Stream of one host's device batches. */
export const deviceHostStream = (hostId: string) => `device-host-${hostId}`;

/** One user's alias and favorite marks on devices. */
export type DevicePreferenceEvent =
  | DomainEvent<'DeviceAliasSet', { userId: number; deviceId: string; alias: string }>
  | DomainEvent<'DeviceAliasRemoved', { userId: number; deviceId: string }>
  | DomainEvent<'DeviceFavorited', { userId: number; deviceId: string }>
  | DomainEvent<'DeviceUnfavorited', { userId: number; deviceId: string }>;

export const DEVICE_PREFERENCE_EVENT_TYPES = ['DeviceAliasSet', 'DeviceAliasRemoved', 'DeviceFavorited', 'DeviceUnfavorited'] as const satisfies readonly DevicePreferenceEvent['type'][];

/** Stream of one user's device preferences. */
export const devicePreferencesStream = (userId: number) => `device-preferences-${userId}`;
