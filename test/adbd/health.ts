/** The `/proc` files the peer's health answers `cat` of. */
export const HEALTH_FILES = ['/proc/meminfo', '/proc/uptime'];

/**
 * The adbd peer's health, as a test scripts it: battery level, charging, temperature and health, free
 * storage on `/data` and `/sdcard`, thermal status (or no thermal service at all), memory, uptime, the
 * Wi-Fi link and the lock screen. It answers `dumpsys battery`, `df`, `dumpsys thermalservice`,
 * `cat /proc/meminfo`, `cat /proc/uptime`, `ip addr show wlan0` and `dumpsys window policy` in the words
 * of a real Android device (10 and later); airplane mode and whether Wi-Fi is on are the peer's `settings`
 * (`global/airplane_mode_on`, `global/wifi_on`). Change the fields at any time: the next reading sees them.
 */
export class PeerHealth {
  batteryLevel = 80;
  /** On USB power (`USB powered: true`, `status: 2`) when true; discharging (`status: 3`) when false. */
  charging = false;
  temperatureC = 30;
  /** `BatteryManager.BATTERY_HEALTH_*`: 2 good, 3 overheat, 4 dead, 5 over voltage, 6 failure, 7 cold. */
  batteryHealth = 2;
  dataSizeMb = 32_768;
  dataFreeMb = 16_384;
  /** Free megabytes of `/sdcard`; null: it is `/data`'s emulated storage (`df` answers `/data`'s figures on `/storage/emulated`). */
  sdcardFreeMb: number | null = null;
  /** Android's thermal status (0 none … 6 shutdown); null: the device has no thermal service. */
  thermalStatus: number | null = 0;
  /** `MemTotal` and `MemAvailable` of `/proc/meminfo`, in megabytes. */
  memTotalMb = 3_852;
  memAvailableMb = 1_720;
  /** Seconds since boot at the moment it was set; `/proc/uptime` counts on from there. */
  uptimeS = 86_400;
  /** Whether the Wi-Fi interface holds an address (while `global/wifi_on` is on: off, it has none). */
  wifiConnected = true;
  /** Whether the lock screen shows (`dumpsys window policy`'s keyguard delegate). */
  keyguardShowing = false;
  /** How many readings (`dumpsys battery`) the device answered. */
  readings = 0;
  private uptimeSetAt = Date.now();

  constructor(private readonly wifiOn: () => boolean = () => true) {}

  /** Sets several fields at once. */
  set(values: Partial<Pick<PeerHealth, 'batteryLevel' | 'charging' | 'temperatureC' | 'batteryHealth' | 'dataFreeMb' | 'sdcardFreeMb' | 'thermalStatus' | 'memTotalMb' | 'memAvailableMb' | 'uptimeS' | 'wifiConnected' | 'keyguardShowing'>>): void {
    Object.assign(this, values);
    if (values.uptimeS !== undefined) this.uptimeSetAt = Date.now();
  }

  /** Answers `dumpsys …`, `df …`, `cat` of `HEALTH_FILES` and `ip addr show …`; returns the exit status. */
  exec(name: string, args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    if (name === 'df') return this.df(args, io);
    if (name === 'cat') return this.cat(args, io);
    if (name === 'ip') return this.ip(args, io);
    if (args[0] === 'window' && args[1] === 'policy') {
      io.out(this.windowPolicy());
      return 0;
    }
    if (args[0] === 'battery') {
      this.readings++;
      io.out(this.battery());
      return 0;
    }
    if (args[0] === 'thermalservice') {
      if (this.thermalStatus === null) {
        io.err("Can't find service: thermalservice\n");
        return 1;
      }
      io.out(`IsStatusOverride: false\nThermal Status: ${this.thermalStatus}\nCached temperatures:\n`);
      return 0;
    }
    io.err(`Can't find service: ${args[0] ?? ''}\n`);
    return 1;
  }

  private battery(): string {
    return [
      'Current Battery Service state:',
      '  AC powered: false',
      `  USB powered: ${this.charging}`,
      '  Wireless powered: false',
      '  Max charging current: 500000',
      `  status: ${this.charging ? (this.batteryLevel >= 100 ? 5 : 2) : 3}`,
      `  health: ${this.batteryHealth}`,
      '  present: true',
      `  level: ${this.batteryLevel}`,
      '  scale: 100',
      '  voltage: 4012',
      `  temperature: ${Math.round(this.temperatureC * 10)}`,
      '  technology: Li-ion',
      '',
    ].join('\n');
  }

  private df(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const path = args.find((a) => !a.startsWith('-')) ?? '/data';
    if (path !== '/data' && path !== '/sdcard') {
      io.err(`df: ${path}: No such file or directory\n`);
      return 1;
    }
    const size = this.dataSizeMb * 1024;
    const free = (path === '/sdcard' ? (this.sdcardFreeMb ?? this.dataFreeMb) : this.dataFreeMb) * 1024;
    const used = Math.max(0, size - free);
    const row = path === '/data' ? `/dev/block/dm-5 ${size} ${used} ${free} ${Math.round((used * 100) / size)}% /data` : `/dev/fuse ${size} ${used} ${free} ${Math.round((used * 100) / size)}% /storage/emulated`;
    io.out(`Filesystem        1K-blocks     Used Available Use% Mounted on\n${row}\n`);
    return 0;
  }

  private cat(paths: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    for (const path of paths) {
      if (path === '/proc/meminfo') {
        const kb = (mb: number) => String(mb * 1024).padStart(8);
        io.out(`MemTotal:       ${kb(this.memTotalMb)} kB\nMemFree:        ${kb(Math.floor(this.memAvailableMb / 4))} kB\nMemAvailable:   ${kb(this.memAvailableMb)} kB\nBuffers:        ${kb(12)} kB\nCached:         ${kb(Math.floor(this.memAvailableMb / 2))} kB\nSwapCached:     ${kb(0)} kB\n`);
      } else if (path === '/proc/uptime') {
        const up = this.uptimeS + (Date.now() - this.uptimeSetAt) / 1000;
        io.out(`${up.toFixed(2)} ${(up * 3.1).toFixed(2)}\n`);
      } else {
        io.err(`cat: ${path}: No such file or directory\n`);
        return 1;
      }
    }
    return 0;
  }

  /** `ip [-4] addr show [dev] wlan0`: with `-4`, nothing for an interface without an IPv4 address, as iproute2 answers. */
  private ip(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const words = args.filter((a) => a !== '-4' && a !== 'dev');
    if (words[0] !== 'addr' && words[0] !== 'address') {
      io.err(`Object "${words[0] ?? ''}" is unknown, try "ip help".\n`);
      return 1;
    }
    if (words[1] !== 'show' || words[2] !== 'wlan0') {
      io.err(`Device "${words[2] ?? ''}" does not exist.\n`);
      return 1;
    }
    const up = this.wifiOn();
    const connected = up && this.wifiConnected;
    if (!connected && args.includes('-4')) return 0;
    const flags = connected ? 'BROADCAST,MULTICAST,UP,LOWER_UP' : up ? 'NO-CARRIER,BROADCAST,MULTICAST,UP' : 'BROADCAST,MULTICAST';
    io.out(`30: wlan0: <${flags}> mtu 1500 qdisc mq state ${connected ? 'UP' : 'DOWN'} group default qlen 3000\n`);
    if (connected) io.out('    inet 192.168.1.23/24 brd 192.168.1.255 scope global wlan0\n       valid_lft forever preferred_lft forever\n');
    return 0;
  }

  /** `dumpsys window policy` as Android 10 prints it, shortened to the window manager's flags and its keyguard delegate. */
  private windowPolicy(): string {
    const k = this.keyguardShowing;
    return [
      'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
      '    mSafeMode=false mSystemReady=true mSystemBooted=true',
      '    mLidState=LID_ABSENT mLidOpenRotation=-1 mCameraLensCoverState=CAMERA_LENS_COVER_ABSENT mHdmiPlugged=false',
      '    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true',
      '    KeyguardServiceDelegate',
      `      showing=${k}`,
      `      showingAndNotOccluded=${k}`,
      `      inputRestricted=${k}`,
      '      occluded=false',
      '      secure=false',
      '      dreaming=false',
      '      systemIsReady=true',
      '      deviceHasKeyguard=true',
      '      enabled=true',
      '      offReason=OFF_BECAUSE_OF_USER',
      '      currentUser=0',
      '      bootCompleted=true',
      '      screenState=SCREEN_STATE_ON',
      '      interactiveState=INTERACTIVE_STATE_AWAKE',
      '      KeyguardStateMonitor',
      `        mIsShowing=${k}`,
      '        mSimSecure=false',
      `        mInputRestricted=${k}`,
      '        mTrusted=false',
      '        mCurrentUserId=0',
      '',
    ].join('\n');
  }
}
