import { isHeldState, type DeviceHealthRecord, type DeviceMendingRecord } from '#events/df/health.js';
import { AppError } from '#shared/errors.js';

/** What allocation needs to know of a device's health. */
export interface WithHealth {
  id: string;
  name?: string;
  health: DeviceHealthRecord | null;
  /** The mending under way, as the device read model shows it (null or left out: none). */
  mending?: DeviceMendingRecord | null;
}

/** Why a device is held now (its state and reasons), or null when it may be used. */
export function heldReason(device: WithHealth): string | null {
  const h = device.health;
  if (!h || !isHeldState(h.state)) return null;
  return h.reasons.length > 0 ? `${h.state}: ${h.reasons.join('; ')}` : h.state;
}

/** 409 `DEVICE_UNHEALTHY` naming the device and why it is held. */
export function unhealthyError(device: WithHealth, reason: string): AppError {
  return new AppError('DEVICE_UNHEALTHY', `Device ${device.name ?? device.id} is held by its health (${reason})`, {
    details: [{ path: 'deviceId', message: reason, deviceId: device.id, state: device.health?.state ?? null }],
  });
}

/** Refuses a held device with 409 `DEVICE_UNHEALTHY` (the admission check of sessions). */
export function requireUsable(device: WithHealth): void {
  const reason = heldReason(device);
  if (reason) throw unhealthyError(device, reason);
}

/** The mending under way on the device at `now`, or null: one past its `until` is over (the sweep records its end). */
export function mendingOf(device: WithHealth, now = new Date()): DeviceMendingRecord | null {
  const m = device.mending;
  return m && Date.parse(m.until) > now.getTime() ? m : null;
}

/**
 * Refuses a device being mended with 409 `DEVICE_MENDING`, naming the step under way (a session asked for
 * it would wait behind the mending, a reboot among it, in the device's queue): asked again once it ends.
 */
export function requireNotMending(device: WithHealth, now = new Date()): void {
  const m = mendingOf(device, now);
  if (!m) return;
  const step = m.step ? ` (${MENDING_STEP_WORDS[m.step]})` : '';
  throw new AppError('DEVICE_MENDING', `Device ${device.name ?? device.id} is being mended${step}: it is available again once the mending ends, at the latest ${m.until}`, {
    details: [{ path: 'deviceId', message: `being mended${step}`, deviceId: device.id, step: m.step, since: m.since, until: m.until }],
  });
}

/** How a mending step under way is said (`mending — rebooting`). */
export const MENDING_STEP_WORDS = { reconnect: 'reconnecting', 'restart-helpers': 'restarting helpers', 'free-storage': 'freeing storage', reboot: 'rebooting' } as const;

/**
 * The one rule every allocation path shares (sessions, WebDriver, test runs, bookings' sessions): the
 * matching devices that are not held. When devices match but every one of them is held, 409
 * `DEVICE_UNHEALTHY` names the first one's reason instead of "no matching device" or a wait in a queue.
 */
export function usableDevices<T extends WithHealth>(matching: readonly T[]): T[] {
  const usable = matching.filter((d) => heldReason(d) === null);
  if (usable.length === 0 && matching.length > 0) {
    const first = matching[0]!;
    const suffix = matching.length > 1 ? ` and ${matching.length - 1} more matching device(s) are held too` : '';
    throw unhealthyError(first, `${heldReason(first)!}${suffix}`);
  }
  return usable;
}
