import { z } from 'zod';
import { listDevices, type DeviceScope, type DeviceView } from '#projections/df-devices/index.js';
import type { deviceSelectorSchema } from '#events/df/test-runs.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import { usableDevices } from '../core/device-health.js';

export type DeviceSelector = z.output<typeof deviceSelectorSchema>;

/** The most devices one run considers (a page of the device list). */
const MAX_DEVICES = 500;

/** `14` < `14.1` < `15`: dotted numbers compared part by part; a part that is not a number compares as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    const d = Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/**
 * Whether a device passes a selector beyond platform and status: OS version range, models, hosts.
 * Devices carry no tags yet, so a selector naming tags matches no device.
 */
export function matches(d: Pick<DeviceView, 'osVersion' | 'model' | 'hubId'>, s: DeviceSelector): boolean {
  if (s.minOsVersion && compareVersions(d.osVersion, s.minOsVersion) < 0) return false;
  if (s.maxOsVersion && compareVersions(d.osVersion, s.maxOsVersion) > 0) return false;
  if (s.models?.length && !s.models.includes(d.model)) return false;
  if (s.hostIds?.length && !s.hostIds.includes(d.hubId)) return false;
  return !s.tags?.length;
}

/**
 * The devices a run takes: available Android devices the caller may use that match the selector, at
 * most `count` (all of them without), by name, never one its health holds. 409 `NO_MATCHING_DEVICES` when
 * none does, 409 `DEVICE_UNHEALTHY` when every one that does is held; 403
 * `QUOTA_EXCEEDED` when `count` asks for more than the plan's concurrent sessions.
 */
export async function chooseDevices(db: Sql, scope: DeviceScope, selector: DeviceSelector, concurrentLimit: number | null): Promise<string[]> {
  if (selector.count !== undefined && concurrentLimit !== null && selector.count > concurrentLimit) {
    throw new AppError('QUOTA_EXCEEDED', `The run asks for ${selector.count} devices; the plan allows ${concurrentLimit} concurrent sessions`, {
      details: [{ path: 'devices.count', message: `at most ${concurrentLimit}` }],
    });
  }
  if (selector.platform !== 'android') throw new AppError('NO_MATCHING_DEVICES', 'Test runs use Android devices for now');
  const page = await listDevices(db, scope, { platform: ['android'], status: ['available'] }, { page: 0, size: MAX_DEVICES, sortBy: 'name', sortDir: 'asc' });
  // Devices held by their health are never taken; when they are all that match, 409 DEVICE_UNHEALTHY says so.
  const chosen = usableDevices(page.content.filter((d) => matches(d, selector))).map((d) => d.id);
  if (chosen.length === 0) throw new AppError('NO_MATCHING_DEVICES', 'No available Android device you may use matches the run’s device filter');
  const take = Math.min(selector.count ?? chosen.length, concurrentLimit ?? chosen.length);
  return chosen.slice(0, take);
}
