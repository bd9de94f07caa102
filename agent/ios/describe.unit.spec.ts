import { describe, expect, it } from 'vitest';
import { describeIosDevice } from './device.js';
import { parseSyslogLine } from './syslog.js';
import { parseUsbmuxAddress } from './usbmux.js';

describe('parseUsbmuxAddress', () => {
  it('reads host:port, socket paths and the unix: prefix, and refuses the rest', () => {
    expect(parseUsbmuxAddress('127.0.0.1:27015')).toEqual({ socketHost: '127.0.0.1', socketPort: 27015 });
    expect(parseUsbmuxAddress('/var/run/usbmuxd')).toEqual({ socketPath: '/var/run/usbmuxd' });
    expect(parseUsbmuxAddress('UNIX:/tmp/mux')).toEqual({ socketPath: '/tmp/mux' });
    expect(() => parseUsbmuxAddress('relative/path')).toThrow(/neither host:port/);
    expect(() => parseUsbmuxAddress('host:99999')).toThrow();
  });
});

describe('parseSyslogLine', () => {
  it('takes the process, pid and level of a syslog_relay line', () => {
    expect(parseSyslogLine('Nov 24 12:00:01 My-iPhone SpringBoard(FrontBoard)[58] <Error>: it broke')).toEqual({ level: 'error', source: 'SpringBoard', text: '[58] it broke' });
    expect(parseSyslogLine('Nov  4 09:10:11 iPhone kernel <Notice>: booted')).toEqual({ level: 'info', source: 'kernel', text: 'booted' });
    expect(parseSyslogLine('Nov 24 12:00:01 iPhone mDNSResponder[200] <Warning>: slow')).toMatchObject({ level: 'warn', source: 'mDNSResponder' });
    expect(parseSyslogLine('--- last message repeated 2 times ---')).toEqual({ level: 'info', source: 'syslog', text: '--- last message repeated 2 times ---' });
  });
});

describe('describeIosDevice', () => {
  it('names the model from its product type and the type from the device class', () => {
    const info = describeIosDevice({ DeviceName: 'Lab 7', ProductType: 'iPad14,1', ProductVersion: '17.2', DeviceClass: 'iPad' }, 'udid-1', '5b1f8a52-0000-5000-8000-000000000001');
    expect(info).toEqual({
      deviceId: '5b1f8a52-0000-5000-8000-000000000001',
      name: 'Lab 7',
      platform: 'ios',
      osVersion: '17.2',
      model: 'iPad mini (6th generation)',
      manufacturer: 'Apple',
      type: 'tablet',
      isRealDevice: true,
      provider: 'ios',
      screen: { width: 1488, height: 2266, scale: 2 },
    });
    expect(describeIosDevice({ ProductType: 'iPhone99,9', DeviceClass: 'iPhone' }, '00008110-000A1B2C3D4E5F60', 'x')).toMatchObject({ name: 'iPhone99,9 (00008110)', model: 'iPhone99,9', type: 'phone', osVersion: 'unknown' });
  });
});
