import { describe, expect, it } from 'vitest';
import { iosHealthSample, parseIosBattery, parseIosStorageFreeMb } from './health.js';

/** Lockdown's answers as a real iPhone gives them (`ideviceinfo -q com.apple.mobile.battery` / `com.apple.disk_usage`). */
const battery = { BatteryCurrentCapacity: 78, BatteryIsCharging: false, ExternalChargeCapable: true, ExternalConnected: false, FullyCharged: false, GasGaugeCapability: true, HasBattery: true };
const disk = {
  AmountDataAvailable: 556_707_840,
  AmountDataReserved: 167_772_160,
  CalculateDiskUsage: 'OkilyDokily',
  TotalDataAvailable: 724_480_000,
  TotalDataCapacity: 15_715_639_296,
  TotalDiskCapacity: 16_239_927_296,
  TotalSystemAvailable: 121_962_496,
  TotalSystemCapacity: 524_288_000,
};
const at = new Date('2025-03-01T10:00:00.000Z');

describe('iOS health readings', () => {
  it('reads the battery level and whether it charges', () => {
    expect(parseIosBattery(battery)).toEqual({ level: 78, charging: false });
    expect(parseIosBattery({ ...battery, BatteryIsCharging: true, ExternalConnected: true })).toEqual({ level: 78, charging: true });
  });

  it('counts a full battery on the cable as charging, and a cable that does not charge it as not charging', () => {
    expect(parseIosBattery({ ...battery, BatteryCurrentCapacity: 100, FullyCharged: true, ExternalConnected: true })).toEqual({ level: 100, charging: true });
    expect(parseIosBattery({ ...battery, BatteryCurrentCapacity: 9, ExternalConnected: true })).toEqual({ level: 9, charging: false });
  });

  it('leaves the battery out when there is no level, or no battery', () => {
    expect(parseIosBattery({})).toBeUndefined();
    expect(parseIosBattery(undefined)).toBeUndefined();
    expect(parseIosBattery({ ...battery, BatteryCurrentCapacity: 'full' })).toBeUndefined();
    expect(parseIosBattery({ ...battery, HasBattery: false })).toBeUndefined();
    expect(parseIosBattery({ ...battery, BatteryCurrentCapacity: 140 })).toEqual({ level: 100, charging: false });
  });

  it('reads the free megabytes apps may still use on the data partition', () => {
    expect(parseIosStorageFreeMb(disk)).toBe(Math.floor(556_707_840 / 1024 / 1024));
    // Without AmountDataAvailable: the total available less what iOS keeps back.
    const { AmountDataAvailable: _a, ...older } = disk;
    expect(parseIosStorageFreeMb(older)).toBe(Math.floor((724_480_000 - 167_772_160) / 1024 / 1024));
    const { AmountDataReserved: _r, ...bare } = older;
    expect(parseIosStorageFreeMb(bare)).toBe(Math.floor(724_480_000 / 1024 / 1024));
    expect(parseIosStorageFreeMb({ TotalDataCapacity: 1 })).toBeUndefined();
    expect(parseIosStorageFreeMb(undefined)).toBeUndefined();
  });

  it('makes one reading of the answers and WebDriverAgent’s probe, leaving out what the device did not give', () => {
    expect(iosHealthSample([battery, disk, '17.5.1'], { answering: true }, at)).toEqual({
      checkedAt: '2025-03-01T10:00:00.000Z',
      battery: { level: 78, charging: false },
      storageFreeMb: 530,
      osVersion: '17.5.1',
      wda: { answering: true },
    });
    expect(iosHealthSample([undefined, undefined, undefined], { answering: false, reason: 'WebDriverAgent does not answer on device port 8100 (refused)' }, at)).toEqual({
      checkedAt: '2025-03-01T10:00:00.000Z',
      wda: { answering: false, reason: 'WebDriverAgent does not answer on device port 8100 (refused)' },
    });
  });
});
