import type { MendingReport } from '#shared/wire/index.js';
import type { AdbClient } from './adb.js';

/** The pause before each reconnect attempt of a lost link: three attempts, each waiting longer. */
export const RECONNECT_BACKOFF_MS = [500, 1_000, 2_000] as const;
/** How long a reconnected device has to be listed by the adb server as `device` again. */
const LISTED_WITHIN_MS = 5_000;

/** The host and port of a device adb reaches over the network (`adb connect host:port`); null for a USB serial. */
export function networkSerial(serial: string): { host: string; port: number } | null {
  const m = /^(.+):(\d{1,5})$/.exec(serial);
  return m ? { host: m[1]!, port: Number(m[2]) } : null;
}

export interface ReconnectOptions {
  client: AdbClient;
  serial: string;
  /** False once the device is back by itself or the provider stops: the mending ends, nothing more is tried. */
  stillLost: () => boolean;
  /** Each attempt's result, as it ends. */
  report: (step: MendingReport) => void;
  backoffMs?: readonly number[];
}

/**
 * The first mending step of a device whose network link was lost: `adb connect host:port` again, after
 * a growing pause, until the adb server lists it as `device` again or every attempt failed. Each
 * attempt is reported (`reconnect`, its number, ok or failed with adb's answer); answers whether it came back.
 */
export async function reconnect(options: ReconnectOptions): Promise<boolean> {
  const target = networkSerial(options.serial);
  if (!target) return false;
  const pauses = options.backoffMs ?? RECONNECT_BACKOFF_MS;
  for (let i = 0; i < pauses.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, pauses[i]).unref());
    if (!options.stillLost()) return true;
    const attempt = i + 1;
    try {
      await options.client.connect(target.host, target.port);
      await listedAsDevice(options.client, options.serial);
      options.report({ step: 'reconnect', attempt, result: 'ok', at: new Date().toISOString() });
      return true;
    } catch (err) {
      if (!options.stillLost()) return true;
      options.report({ step: 'reconnect', attempt, result: 'failed', error: String((err as Error).message ?? err).slice(0, 500), at: new Date().toISOString() });
    }
  }
  return false;
}

/** Waits until the adb server lists `serial` in the `device` state; throws past `LISTED_WITHIN_MS`. */
async function listedAsDevice(client: AdbClient, serial: string): Promise<void> {
  const deadline = Date.now() + LISTED_WITHIN_MS;
  for (;;) {
    const state = (await client.listDevices()).find((d: { id: string; type: string }) => d.id === serial)?.type;
    if (state === 'device') return;
    if (Date.now() > deadline) throw new Error(`adb lists ${serial} as ${state ?? 'absent'} after connecting`);
    await new Promise((resolve) => setTimeout(resolve, 200).unref());
  }
}
