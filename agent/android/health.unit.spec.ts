import { describe, expect, it } from 'vitest';
import { parseBattery, parseDfFreeMb, parseHealth, parseThermalStatus } from './health.js';

const BATTERY = `Current Battery Service state:
  AC powered: false
  USB powered: true
  Wireless powered: false
  Max charging current: 500000
  status: 2
  health: 2
  present: true
  level: 85
  scale: 100
  voltage: 4200
  temperature: 415
  technology: Li-ion
`;

describe('Android health readings', () => {
  it('reads level, temperature in tenths of a degree, health and charging from dumpsys battery', () => {
    expect(parseBattery(BATTERY)).toEqual({ level: 85, charging: true, temperatureC: 41.5, health: 'good' });
  });

  it('counts a battery on no power with status discharging as not charging, and scales the level', () => {
    const text = BATTERY.replace('USB powered: true', 'USB powered: false').replace('status: 2', 'status: 3').replace('scale: 100', 'scale: 200').replace('health: 2', 'health: 3');
    expect(parseBattery(text)).toEqual({ level: 43, charging: false, temperatureC: 41.5, health: 'overheat' });
  });

  it('answers nothing for a battery section without a level (a device without a battery)', () => {
    expect(parseBattery("Can't find service: battery")).toBeUndefined();
  });

  it('reads free megabytes of /data from toybox df and from the older df with unit suffixes', () => {
    expect(parseDfFreeMb('Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/block/dm-5 5127100 2100000 3072000 42% /data\n')).toBe(3000);
    expect(parseDfFreeMb('Filesystem Size Used Free Blksize\n/data 5.9G 1.2G 4.5G 4096\n')).toBe(4608);
    expect(parseDfFreeMb('df: /data: Permission denied')).toBeUndefined();
  });

  it('reads the thermal status where thermalservice exists', () => {
    expect(parseThermalStatus('IsStatusOverride: false\nThermal Status: 3\n')).toBe(3);
    expect(parseThermalStatus("Can't find service: thermalservice")).toBeUndefined();
  });

  it('puts the four answers of one shell command together into one sample', () => {
    const out = `${BATTERY}__df_health__\nFilesystem 1K-blocks Used Available Use% Mounted on\n/dev/block/dm-5 5127100 2100000 1024000 42% /data\n__df_health__\n1\n__df_health__\nThermal Status: 0\n`;
    expect(parseHealth(out, new Date('2026-01-01T00:00:00Z'))).toEqual({
      checkedAt: '2026-01-01T00:00:00.000Z',
      battery: { level: 85, charging: true, temperatureC: 41.5, health: 'good' },
      storageFreeMb: 1000,
      airplaneMode: true,
      thermalStatus: 0,
    });
  });
});
