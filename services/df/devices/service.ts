import { handleCommand, type CommandContext } from '#shared/es/decider.js';
import type { EventStore } from '#shared/es/types.js';
import { deviceDecider, type DeviceCommand } from './decide.js';
import { deviceStream } from './events.js';
import { preferencesDecider, type PreferenceCommand } from './preferences.js';

/** Runs device commands; the only writer of device facts. */
export class DeviceCommands {
  constructor(readonly store: EventStore) {}

  /** Applies one command to its device stream; returns the log position written, if any. */
  async run(command: DeviceCommand, context: CommandContext) {
    return handleCommand({
      store: this.store,
      streamId: deviceStream(command.deviceId),
      decider: deviceDecider,
      command,
      context,
      // Concurrent creates on one device conflict at most once each: the winner's append.
      maxAttempts: 10,
    });
  }

  /** Sets or clears a user's alias or favorite mark. */
  async preference(command: PreferenceCommand, context: CommandContext) {
    return handleCommand({ store: this.store, streamId: `device-preferences-${command.userId}`, decider: preferencesDecider, command, context, maxAttempts: 6 });
  }
}
