import { describe, expect, it } from 'vitest';
import { parseDevices } from '../../cli/dfctl/commands/run.js';

describe('dfctl run --devices', () => {
  it('reads a platform and an optional OS version range', () => {
    expect(parseDevices('android')).toEqual({ platform: 'android' });
    expect(parseDevices('android>=12')).toEqual({ platform: 'android', minOsVersion: '12' });
    expect(parseDevices('Android >= 12 <= 14.1')).toEqual({ platform: 'android', minOsVersion: '12', maxOsVersion: '14.1' });
  });

  it('refuses what is not a pool, as a usage error', () => {
    for (const bad of ['', '>=12', 'android>12', 'android>=twelve', 'android;rm']) expect(() => parseDevices(bad), bad).toThrow(/--devices/);
  });
});
