import { aggregate, type Loaded } from '#shared/es/index.js';
import { eventMetadata, fold, type CommandContext, type CommandResult } from '#shared/es/index.js';
import type { EventStore, RecordedEvent } from '#shared/es/index.js';
import { deviceDecider, type DeviceCommand, type DeviceState } from './decide.js';
import { devicePreferencesStream, deviceHostStream, deviceStream, type DeviceEvent, type DeviceHostEvent } from '#events/df/devices.js';
import { preferencesDecider, type PreferenceCommand } from './preferences.js';

// Concurrent creates on one device conflict at most once each: the winner's append.
const MAX_ATTEMPTS = 10;

/** A device's own events merged by log position with the events of its host's stream that name it. */
export function mergeDeviceHistory(deviceId: string, own: readonly RecordedEvent[], host: readonly RecordedEvent[]): RecordedEvent[] {
  const naming = host.filter((e) => (e.payload as { deviceIds?: string[] }).deviceIds?.includes(deviceId));
  if (naming.length === 0) return [...own];
  return [...own, ...naming].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/**
 * A device's state and the revision of its own stream: its own events folded, merged by log position
 * with the batches of the host it is placed on now that name it (an older host's are superseded).
 */
export async function loadDevice(store: EventStore, deviceId: string): Promise<Loaded<DeviceState>> {
  const own = await store.readStream(deviceStream(deviceId));
  let state = fold(deviceDecider, own);
  if (state.placement) {
    const host = await store.readStream(deviceHostStream(state.placement.hostId));
    const merged = mergeDeviceHistory(deviceId, own, host);
    if (merged.length !== own.length) state = fold(deviceDecider, merged);
  }
  return { state, revision: own.length === 0 ? -1 : own[own.length - 1]!.revision };
}

/**
 * The devices' callers wait for the read models they need themselves (a session for its own), so the
 * aggregates here answer once appended and never settle.
 */
const UNSETTLED = { waitFor: () => Promise.resolve() };

/** Runs device commands; the only writer of device facts. */
export class DeviceCommands {
  private readonly devices;
  private readonly preferences;

  constructor(readonly store: EventStore) {
    // Written inside other features' timed steps (a session's `allocate`), so they time nothing themselves.
    this.devices = aggregate(
      { store, readModels: UNSETTLED },
      { decider: deviceDecider, stream: deviceStream, readModels: [], load: (deviceId, from) => loadDevice(from, deviceId), maxAttempts: MAX_ATTEMPTS, timed: false },
    );
    this.preferences = aggregate(
      { store, readModels: UNSETTLED },
      { decider: preferencesDecider, stream: (userId) => devicePreferencesStream(Number(userId)), readModels: [], maxAttempts: 6, timed: false },
    );
  }

  /** The state of one device and the revision of its own stream. */
  load(deviceId: string): Promise<Loaded<DeviceState>> {
    return loadDevice(this.store, deviceId);
  }

  /** Applies one command to its device stream; returns the log position written, if any. */
  run(command: DeviceCommand, context: CommandContext): Promise<CommandResult<DeviceEvent | DeviceHostEvent, DeviceState>> {
    return this.devices.run(command.deviceId, command, context, { settle: false });
  }

  /**
   * Takes many devices of one host offline, or brings them back, in one append to the host's stream
   * (one transaction, one log position). Devices placed on another host by then are not affected.
   */
  async hostBatch(
    batch: { type: 'disconnect'; hostId: string; deviceIds: readonly string[]; reason: string } | { type: 'reconnect'; hostId: string; deviceIds: readonly string[] },
    context: CommandContext,
  ): Promise<bigint | null> {
    if (batch.deviceIds.length === 0) return null;
    const deviceIds = [...new Set(batch.deviceIds)];
    const event: DeviceHostEvent =
      batch.type === 'disconnect'
        ? { type: 'HostDevicesDisconnected', payload: { hostId: batch.hostId, deviceIds, reason: batch.reason, status: 'offline' } }
        : { type: 'HostDevicesReconnected', payload: { hostId: batch.hostId, deviceIds } };
    // A fact about the host at this moment: it needs no expected revision (order is the log's).
    const result = await this.store.append(deviceHostStream(batch.hostId), [{ type: event.type, payload: event.payload, metadata: eventMetadata(context) }], 'any');
    return result.position;
  }

  /** Sets or clears a user's alias or favorite mark. */
  preference(command: PreferenceCommand, context: CommandContext) {
    return this.preferences.run(String(command.userId), command, context, { settle: false });
  }
}
