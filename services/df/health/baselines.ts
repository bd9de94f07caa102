import { randomUUID } from 'node:crypto';
import { requestDevice } from '#shared/wire/index.js';
import { deviceHealthStream } from '#events/df/health.js';
import { placementOfDevice } from '#projections/df-devices/index.js';
import type { Platform } from '../../platform.js';

/** The newest settings baseline an administrator re-took of the device (`DeviceBaselineRetaken`), or null: never. */
export async function recordedBaseline(platform: Platform, deviceId: string): Promise<Record<string, string | null> | null> {
  const events = await platform.store.readStream(deviceHealthStream(deviceId));
  const last = events.findLast((e) => e.type === 'DeviceBaselineRetaken');
  return last ? (last.payload as { settings: Record<string, string | null> }).settings : null;
}

/**
 * Gives the devices that joined their host back the baseline an administrator re-took of each (the
 * baseline is the agent's memory, which an agent's restart or a device's replugging loses): the
 * `setBaseline` operation, which the device keeps instead of a baseline read from itself. A device of
 * another host now, or with no re-taken baseline, is left alone; a failure is logged, never thrown.
 * Answers how many were given theirs.
 */
export async function giveBackBaselines(platform: Platform, hostId: string, deviceIds: readonly string[]): Promise<number> {
  let given = 0;
  for (const deviceId of deviceIds) {
    try {
      if ((await placementOfDevice(platform.db, deviceId))?.hostId !== hostId) continue;
      const settings = await recordedBaseline(platform, deviceId);
      if (!settings) continue;
      const target = { hostId, deviceId, sessionId: `baseline-${randomUUID()}` };
      await requestDevice(platform.bus, target, { op: 'setBaseline', settings }, { timeoutMs: platform.config.DF_COMMAND_TIMEOUT });
      given++;
    } catch (err) {
      platform.logger.warn({ err, deviceId, hostId }, 'giving a device back its re-taken baseline failed');
    }
  }
  return given;
}
