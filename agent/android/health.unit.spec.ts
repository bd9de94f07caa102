import { describe, expect, it } from 'vitest';
import { HEALTH_COMMAND, parseBattery, parseDfFreeMb, parseHealth, parseThermalStatus, readAndroidHealth } from './health.js';
import { parseMemory, parseScreenLocked, parseUptime, parseWifi } from './health-signals.js';

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

  it('leaves out every signal an older device does not answer (only the first four parts)', () => {
    const out = `${BATTERY}__df_health__\nFilesystem 1K-blocks Used Available Use% Mounted on\n/dev/block/dm-5 5127100 2100000 1024000 42% /data\n__df_health__\n1\n__df_health__\nThermal Status: 0\n`;
    expect(parseHealth(out, new Date('2026-01-01T00:00:00Z'))).toEqual({
      checkedAt: '2026-01-01T00:00:00.000Z',
      battery: { level: 85, charging: true, temperatureC: 41.5, health: 'good' },
      storageFreeMb: 1000,
      airplaneMode: true,
      thermalStatus: 0,
    });
  });

  describe('signals shown, not judged', () => {
    it('reads MemTotal and MemAvailable of /proc/meminfo in megabytes, and only the total from a kernel before 3.14', () => {
      const android10 = 'MemTotal:        3809036 kB\nMemFree:          168604 kB\nMemAvailable:    1554760 kB\nBuffers:           97692 kB\nCached:          1444612 kB\n';
      expect(parseMemory(android10)).toEqual({ totalMb: 3719, availableMb: 1518 });
      const android44 = 'MemTotal:         857868 kB\nMemFree:           40040 kB\nBuffers:           11236 kB\nCached:           296960 kB\n';
      expect(parseMemory(android44)).toEqual({ totalMb: 837 });
      expect(parseMemory('')).toBeUndefined();
    });

    it('reads whole seconds since boot from /proc/uptime', () => {
      expect(parseUptime('350735.47 234388.90\n')).toBe(350735);
      expect(parseUptime('')).toBeUndefined();
      expect(parseUptime('cat: /proc/uptime: Permission denied\n')).toBeUndefined();
    });

    it('reads Wi-Fi on from wifi_on (2: on under airplane mode, 3: off by it) and connected from an IPv4 address on wlan0', () => {
      const iproute = '30: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 3000\n    inet 192.168.1.23/24 brd 192.168.1.255 scope global wlan0\n       valid_lft forever preferred_lft forever\n';
      expect(parseWifi('1\n', iproute)).toEqual({ on: true, connected: true });
      expect(parseWifi('2\n', iproute)).toEqual({ on: true, connected: true });
      // `ip -4` prints nothing for an interface without an IPv4 address: on, not associated.
      expect(parseWifi('1\n', '')).toEqual({ on: true, connected: false });
      expect(parseWifi('0\n', '')).toEqual({ on: false, connected: false });
      expect(parseWifi('3\n', iproute)).toEqual({ on: false, connected: false });
      // toybox ifconfig (Android 6 on) and toolbox ifconfig (up to Android 5), where ip is missing.
      const toybox = 'wlan0     Link encap:UNSPEC    Driver icnss\n          inet addr:10.0.0.7  Bcast:10.0.0.255  Mask:255.255.255.0 \n          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n';
      expect(parseWifi('1', toybox)).toEqual({ on: true, connected: true });
      expect(parseWifi('1', 'wlan0: ip 192.168.0.12 mask 255.255.255.0 flags [up broadcast running multicast]\n')).toEqual({ on: true, connected: true });
      expect(parseWifi('1', 'wlan0: ip 0.0.0.0 mask 0.0.0.0 flags [up broadcast multicast]\n')).toEqual({ on: true, connected: false });
      expect(parseWifi('null\n', iproute)).toBeUndefined();
    });

    it('reads the lock screen from each form of dumpsys window policy', () => {
      const delegate = (showing: boolean) =>
        `WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mSafeMode=false mSystemReady=true mSystemBooted=true\n    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n    KeyguardServiceDelegate\n      showing=${showing}\n      showingAndNotOccluded=${showing}\n      inputRestricted=${showing}\n      occluded=false\n      secure=true\n      dreaming=false\n      systemIsReady=true\n      deviceHasKeyguard=true\n      enabled=true\n      offReason=OFF_BECAUSE_OF_USER\n      currentUser=0\n      bootCompleted=true\n      screenState=SCREEN_STATE_ON\n      interactiveState=INTERACTIVE_STATE_AWAKE\n      KeyguardStateMonitor\n        mIsShowing=${showing}\n        mSimSecure=false\n        mInputRestricted=${showing}\n        mTrusted=false\n        mCurrentUserId=0\n`;
      expect(parseScreenLocked(delegate(true))).toBe(true);
      expect(parseScreenLocked(delegate(false))).toBe(false);
      expect(parseScreenLocked('    KeyguardStateMonitor\n      mIsShowing=true\n      mSimSecure=false\n      mInputRestricted=true\n')).toBe(true);
      const lollipop = (lock: boolean, dreaming: boolean) =>
        `WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mSafeMode=false mSystemReady=true mSystemBooted=true\n    mShowingLockscreen=${lock} mShowingDream=${dreaming} mDreamingLockscreen=${dreaming}\n    mStatusBar=Window{3b3a6b1 u0 StatusBar} isStatusBarKeyguard=${lock}\n`;
      expect(parseScreenLocked(lollipop(true, false))).toBe(true);
      expect(parseScreenLocked(lollipop(false, true))).toBe(true);
      expect(parseScreenLocked(lollipop(false, false))).toBe(false);
      expect(parseScreenLocked('    mStatusBar=Window{9e1c4b2 u0 StatusBar} isStatusBarKeyguard=true\n')).toBe(true);
      expect(parseScreenLocked('  KeyguardController:\n    mKeyguardShowing=false\n    mAodShowing=false\n')).toBe(false);
      expect(parseScreenLocked("Can't find service: window\n")).toBeUndefined();
    });

    const PARTS = [
      BATTERY,
      'Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/block/dm-5 5127100 2100000 1024000 42% /data\n',
      '0\n',
      'Thermal Status: 1\n',
      'MemTotal:        3809036 kB\nMemFree:          168604 kB\nMemAvailable:    1554760 kB\n',
      '350735.47 234388.90\n',
      '1\n',
      '30: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 3000\n    inet 192.168.1.23/24 brd 192.168.1.255 scope global wlan0\n',
      '    KeyguardServiceDelegate\n      showing=false\n      KeyguardStateMonitor\n        mIsShowing=false\n',
      'Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/fuse 5127100 2100000 1024000 42% /storage/emulated\n',
    ];

    it('puts the ten answers of one shell command together, /sdcard left out when it is /data', () => {
      expect(parseHealth(PARTS.join('__df_health__\n'), new Date('2026-01-01T00:00:00Z'))).toEqual({
        checkedAt: '2026-01-01T00:00:00.000Z',
        battery: { level: 85, charging: true, temperatureC: 41.5, health: 'good' },
        storageFreeMb: 1000,
        airplaneMode: false,
        thermalStatus: 1,
        memory: { totalMb: 3719, availableMb: 1518 },
        wifi: { on: true, connected: true },
        screenLocked: false,
        uptimeS: 350735,
      });
      const apart = PARTS.with(9, 'Filesystem Size Used Free Blksize\n/sdcard 12.5G 3.1G 9.4G 4096\n');
      expect(parseHealth(apart.join('__df_health__\n'), new Date()).sdcardFreeMb).toBe(9625);
    });

    it('reads through one shell command, with the time it took and the link reconnects the provider counted', async () => {
      const sent: string[] = [];
      const sample = await readAndroidHealth(async (command) => {
        sent.push(command);
        return PARTS.join('__df_health__\n');
      }, 2);
      expect(sent).toEqual([HEALTH_COMMAND]);
      expect(sample.linkReconnects).toBe(2);
      expect(Number.isInteger(sample.lastCommandMs) && sample.lastCommandMs! >= 0).toBe(true);
      expect(sample.memory).toEqual({ totalMb: 3719, availableMb: 1518 });
    });
  });
});
