import { eventMetadata, handleCommand, type CommandContext, type CommandResult } from '#shared/es/index.js';
import type { EventStore, RecordedEvent } from '#shared/es/index.js';
import { deviceDecider, type DeviceCommand, type DeviceState } from './decide.js';
import { deviceHostStream, deviceStream, type DeviceEvent, type DeviceHostEvent } from '#events/df/devices.js';
import { preferencesDecider, type PreferenceCommand } from './preferences.js';

// Concurrent creates on one device conflict at most once each: the winner's append.
const MAX_ATTEMPTS = 10;

/** A device's own events merged by log position with the events of its host's stream that name it. */
export function mergeDeviceHistory(deviceId: string, own: readonly RecordedEvent[], host: readonly RecordedEvent[]): RecordedEvent[] {
  const naming = host.filter((e) => (e.payload as { deviceIds?: string[] }).deviceIds?.includes(deviceId));
  if (naming.length === 0) return [...own];
  return [...own, ...naming].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/** Runs device commands; the only writer of device facts. */
export class DeviceCommands {
  constructor(readonly store: EventStore) {}

  /** The state of one device and the revision of its own stream. */
  async load(deviceId: string): Promise<{ state: DeviceState; revision: number }> {
    const own = await this.store.readStream(deviceStream(deviceId));
    let state = deviceDecider.initialState();
    for (const e of own) state = deviceDecider.evolve(state, e as unknown as DeviceEvent);
    // Host batches matter only for the host the device is placed on now (an older host's are superseded).
    if (state.placement) {
      const host = await this.store.readStream(deviceHostStream(state.placement.hostId));
      const merged = mergeDeviceHistory(deviceId, own, host);
      if (merged.length !== own.length) {
        state = deviceDecider.initialState();
        for (const e of merged) state = deviceDecider.evolve(state, e as unknown as DeviceEvent | DeviceHostEvent);
      }
    }
    return { state, revision: own.length === 0 ? -1 : own[own.length - 1]!.revision };
  }

  /** Applies one command to its device stream; returns the log position written, if any. */
  run(command: DeviceCommand, context: CommandContext): Promise<CommandResult<DeviceEvent | DeviceHostEvent, DeviceState>> {
    return handleCommand({
      store: this.store,
      streamId: deviceStream(command.deviceId),
      decider: deviceDecider,
      command,
      context,
      load: () => this.load(command.deviceId),
      maxAttempts: MAX_ATTEMPTS,
    });
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
  async preference(command: PreferenceCommand, context: CommandContext) {
    return handleCommand({ store: this.store, streamId: `device-preferences-${command.userId}`, decider: preferencesDecider, command, context, maxAttempts: 6 });
  }
}
