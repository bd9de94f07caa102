import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { DeviceCapabilities, DevicePlatform, DeviceType, Screen } from '#shared/wire/index.js';
import { tenantScope } from '../fields.js';

/** `available | in_use | reserved | offline | maintenance` (docs/api-conventions.md, "Device testing"). */
const deviceStatus = z.enum(['available', 'in_use', 'reserved', 'offline', 'maintenance']);
export type DeviceStatus = z.output<typeof deviceStatus>;
const sessionType = z.enum(['manual', 'automation', 'debug']);
export type SessionType = z.output<typeof sessionType>;

/** What a device is, as its host reported it. */
const deviceFacts = z.object({
  name: z.string(),
  platform: DevicePlatform,
  osVersion: z.string(),
  model: z.string(),
  manufacturer: z.string(),
  type: DeviceType,
  isRealDevice: z.boolean(),
  provider: z.string(),
  screen: Screen,
  /** How the host shows the screen and takes input (absent in events from before it was reported). */
  capabilities: DeviceCapabilities.optional(),
});
export type DeviceFacts = z.output<typeof deviceFacts>;

/** Where a device is attached. */
const devicePlacement = z.object({
  hostId: z.string(),
  nodeName: z.string(),
  hubId: z.string(),
  /** The company of the host's enrolment; `null` for the operator's shared pool. */
  companyId: z.number().int().nullable(),
  /** The workspaces the host's devices serve; `null` (or absent, in events before enrolment) for all. */
  workspaceIds: z.array(z.number().int()).nullable().optional(),
});
export type DevicePlacement = z.output<typeof devicePlacement>;

/** Every event carries the status the device has after it, so read models never re-derive it. */
export const deviceEvents = defineEvents({
  DeviceConnected: z.object({ deviceId: z.string(), facts: deviceFacts, placement: devicePlacement, status: deviceStatus }),
  DeviceDisconnected: z.object({ deviceId: z.string(), hostId: z.string(), reason: z.string(), status: deviceStatus }),
  DeviceStatusChanged: z.object({ deviceId: z.string(), health: z.enum(['ok', 'broken']), reason: z.string(), status: deviceStatus }),
  DeviceAllocated: z.object({
    deviceId: z.string(),
    sessionId: z.string(),
    sessionType,
    ownerId: z.number().int(),
    ...tenantScope,
    status: deviceStatus,
  }),
  DeviceReleased: z.object({ deviceId: z.string(), sessionId: z.string(), status: deviceStatus }),
  /**
   * A host announced a device that belongs to another host (the one that registered it first, or the
   * one it was moved to): refused, the device left as it was. Recorded once per claiming host.
   */
  DeviceClaimRefused: z.object({ deviceId: z.string(), hostId: z.string(), claimedByHostId: z.string(), companyId: z.number().int().nullable(), status: deviceStatus }),
  /**
   * An administrator moved the device to another host of its company: it is offline until that host
   * reports it, and from then on only that host may speak for it.
   */
  DeviceMoved: z.object({ deviceId: z.string(), fromHostId: z.string(), toHostId: z.string(), placement: devicePlacement, companyId: z.number().int(), status: z.literal('offline') }),
});
export type DeviceEvent = EventOf<typeof deviceEvents>;
export const DEVICE_EVENT_TYPES = deviceEvents.types;
/** Stream of one device. */
export const deviceStream = (deviceId: string) => `device-${deviceId}`;

/**
 * Facts about many devices of one host at once, on the host's stream: a goodbye, a lost host or a
 * returning host changes every device in one append instead of one append per device. A device's
 * state is its own stream's events merged by log position with the host events that name it.
 * `HostDevicesReconnected` brings devices back with the facts and placement their streams already
 * hold; each device's resulting status follows from its health and session (`statusOf`).
 */
export const deviceHostEvents = defineEvents({
  HostDevicesDisconnected: z.object({ hostId: z.string(), deviceIds: z.array(z.string()), reason: z.string(), status: z.literal('offline') }),
  HostDevicesReconnected: z.object({ hostId: z.string(), deviceIds: z.array(z.string()) }),
});
export type DeviceHostEvent = EventOf<typeof deviceHostEvents>;
export const DEVICE_HOST_EVENT_TYPES = deviceHostEvents.types;
/** Stream of one host's device batches. */
export const deviceHostStream = (hostId: string) => `device-host-${hostId}`;

const preference = z.object({ userId: z.number().int(), deviceId: z.string() });

/** One user's alias and favorite marks on devices. */
export const devicePreferenceEvents = defineEvents({
  DeviceAliasSet: preference.extend({ alias: z.string() }),
  DeviceAliasRemoved: preference,
  DeviceFavorited: preference,
  DeviceUnfavorited: preference,
});
export type DevicePreferenceEvent = EventOf<typeof devicePreferenceEvents>;
export const DEVICE_PREFERENCE_EVENT_TYPES = devicePreferenceEvents.types;
/** Stream of one user's device preferences. */
export const devicePreferencesStream = (userId: number) => `device-preferences-${userId}`;
