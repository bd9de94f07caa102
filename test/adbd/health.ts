/**
 * The adbd peer's health, as a test scripts it: battery level, charging, temperature and health, free
 * storage on `/data`, thermal status (or no thermal service at all). It answers `dumpsys battery`,
 * `df /data` and `dumpsys thermalservice` in the words of a real Android device; airplane mode is the
 * peer's `settings` (`global/airplane_mode_on`). Change the fields at any time: the next reading sees them.
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
  /** Android's thermal status (0 none … 6 shutdown); null: the device has no thermal service. */
  thermalStatus: number | null = 0;
  /** How many readings (`dumpsys battery`) the device answered. */
  readings = 0;

  /** Sets several fields at once. */
  set(values: Partial<Pick<PeerHealth, 'batteryLevel' | 'charging' | 'temperatureC' | 'batteryHealth' | 'dataFreeMb' | 'thermalStatus'>>): void {
    Object.assign(this, values);
  }

  /** Answers `dumpsys …` and `df …`; returns the exit status. */
  exec(name: string, args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    if (name === 'df') return this.df(args, io);
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
    if (path !== '/data') {
      io.err(`df: ${path}: No such file or directory\n`);
      return 1;
    }
    const size = this.dataSizeMb * 1024;
    const free = this.dataFreeMb * 1024;
    const used = size - free;
    io.out(`Filesystem        1K-blocks     Used Available Use% Mounted on\n/dev/block/dm-5 ${size} ${used} ${free} ${Math.round((used * 100) / size)}% /data\n`);
    return 0;
  }
}
