import type { HealthSample } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import type { IosContext } from './context.js';
import type { Wda } from './wda.js';

/** Lockdown's domain of the battery (what `ideviceinfo -q com.apple.mobile.battery` prints). */
export const BATTERY_DOMAIN = 'com.apple.mobile.battery';
/** Lockdown's domain of the storage (what `ideviceinfo -q com.apple.disk_usage` prints). */
export const DISK_DOMAIN = 'com.apple.disk_usage';

/** The lockdown queries of one reading, asked in one paired session: the battery, the storage, the iOS version. */
export const HEALTH_QUERIES = [{ Domain: BATTERY_DOMAIN }, { Domain: DISK_DOMAIN }, { Key: 'ProductVersion' }];

const MB = 1024 * 1024;

const dict = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : undefined);

/**
 * The battery domain: `BatteryCurrentCapacity` (percent), and whether it charges — `BatteryIsCharging`, or
 * full on the cable (`FullyCharged` with `ExternalConnected`: iOS stops charging a full battery). A cable
 * that does not charge it (a hub short of power) is not charging. Undefined when the answer has no level or
 * the device has no battery (`HasBattery` false).
 */
export function parseIosBattery(values: unknown): HealthSample['battery'] {
  const d = dict(values);
  const level = num(d?.BatteryCurrentCapacity);
  if (!d || level === undefined || d.HasBattery === false) return undefined;
  const full = d.FullyCharged === true && d.ExternalConnected === true;
  return { level: Math.max(0, Math.min(100, Math.round(level))), charging: d.BatteryIsCharging === true || full };
}

/**
 * Free megabytes of the data partition from the disk-usage domain: `AmountDataAvailable` (what apps may
 * still use), else `TotalDataAvailable` less `AmountDataReserved` (iOS keeps that back: the total is the
 * two together), else `TotalDataAvailable`. Undefined when none is there.
 */
export function parseIosStorageFreeMb(values: unknown): number | undefined {
  const d = dict(values);
  if (!d) return undefined;
  const available = num(d.AmountDataAvailable);
  const total = num(d.TotalDataAvailable);
  const reserved = num(d.AmountDataReserved);
  const bytes = available ?? (total !== undefined && reserved !== undefined ? Math.max(0, total - reserved) : total);
  return bytes === undefined || bytes < 0 ? undefined : Math.floor(bytes / MB);
}

/** A reading from the answers to `HEALTH_QUERIES` and WDA's probe, stamped `at`; a signal not given is left out. */
export function iosHealthSample(answers: unknown[], wda: { answering: boolean; reason?: string }, at: Date): HealthSample {
  const [battery, disk, version] = answers;
  const sample: HealthSample = { checkedAt: at.toISOString() };
  const b = parseIosBattery(battery);
  if (b) sample.battery = b;
  const free = parseIosStorageFreeMb(disk);
  if (free !== undefined) sample.storageFreeMb = free;
  if (typeof version === 'string' && version.trim()) sample.osVersion = version.trim().slice(0, 64);
  sample.wda = wda.answering ? { answering: true } : { answering: false, ...(wda.reason ? { reason: wda.reason.slice(0, 500) } : {}) };
  return sample;
}

/**
 * One health reading of an iOS device: the battery, storage and iOS version read in **one** lockdown
 * session (the driver keeps no lockdown connection open between operations, so a reading opens one and
 * closes it), and WebDriverAgent's `/status` through a usbmux Connect to its port, both at once.
 */
export async function readIosHealth(ctx: IosContext, wda: Wda): Promise<HealthSample> {
  const at = new Date();
  // Both settle before the reading answers, so a failed reading leaves nothing running behind it.
  const [answers, status] = await Promise.allSettled([ctx.usbmux.valuesOf(ctx.udid, HEALTH_QUERIES), wda.probe()]);
  if (answers.status === 'rejected') throw new DriverError('DEVICE_ERROR', `The device did not answer lockdown: ${String((answers.reason as Error)?.message ?? answers.reason).slice(0, 300)}`, { cause: answers.reason });
  return iosHealthSample(answers.value, status.status === 'fulfilled' ? status.value : { answering: false, reason: String(status.reason) }, at);
}
