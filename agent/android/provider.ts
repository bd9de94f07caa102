import type { Logger } from 'pino';
import { AttachedDeviceProvider } from '../attached-provider.js';
import { stableUuid } from '../config.js';
import { Adb, type AdbClient } from './adb.js';
import { describeAndroidDevice } from './describe.js';
import { AndroidDevice } from './device.js';
import { networkSerial, reconnect } from './mend.js';
import { REBOOT_WAIT_DEFAULT_MS, type RebootWatch } from './reboot.js';

type Tracker = Awaited<ReturnType<AdbClient['trackDevices']>>;

export interface AndroidProviderOptions {
  hostId: string;
  adbHost: string;
  adbPort: number;
  /** The `adb` command for interactive shells (default `adb` on the PATH). */
  adbBinary?: string;
  /** Touch through the UiAutomator2 server where minitouch cannot run (default true). */
  uiautomator2?: boolean;
  /** How long mending waits for a rebooted device to come back and finish booting (default `REBOOT_WAIT_DEFAULT_MS`). */
  rebootWaitMs?: number;
  logger: Logger;
}

/**
 * Android devices of one adb server: follows `host:track-devices` (adbkit's `trackDevices`), offers a
 * device once it is in the `device` state (authorized and online) and withdraws it when it leaves that
 * state or disappears. If the adb server is not reachable, it keeps trying in the background.
 */
export class AndroidProvider extends AttachedDeviceProvider<string, AndroidDevice> {
  readonly name = 'android';
  private readonly client: AdbClient;
  private tracker: Tracker | null = null;
  /** Serials whose lost link is being mended. */
  private readonly mending = new Set<string>();
  /** Serials rebooted by their mending, each with who waits for its next change: kept attached meanwhile. */
  private readonly rebooting = new Map<string, Set<() => void>>();
  /** Serials whose link went away (offline or removed) while they were offered, until they come back. */
  private readonly away = new Set<string>();
  /** How many times each serial's link went away and came back since the provider started (the readings' `linkReconnects`). */
  private readonly reconnects = new Map<string, number>();

  constructor(private readonly options: AndroidProviderOptions) {
    super(options.logger);
    this.client = Adb.createClient({ host: options.adbHost, port: options.adbPort });
  }

  /** Device ids by serial (for tests and logs). */
  serials(): string[] {
    return [...this.devices.keys()];
  }

  protected async unfollow(): Promise<void> {
    this.tracker?.end();
    this.tracker = null;
  }

  protected logName(serial: string): Record<string, unknown> {
    return { serial };
  }

  /** Starts following the adb server (`host:track-devices`); answers the descriptions of the devices it lists first. */
  protected async follow(): Promise<Promise<void>[]> {
    if (this.stopped) return [];
    let tracker: Tracker;
    let list: { id: string; type: string }[];
    try {
      list = await this.client.listDevices();
      tracker = await this.client.trackDevices();
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message, adb: `${this.options.adbHost}:${this.options.adbPort}` }, 'adb server not reachable; retrying');
      this.scheduleRetry();
      return [];
    }
    this.tracker = tracker;
    tracker.on('add', (d: { id: string; type: string }) => void this.changed(d.id, d.type));
    tracker.on('change', (d: { id: string; type: string }) => void this.changed(d.id, d.type));
    tracker.on('remove', (d: { id: string }) => this.rebootChanged(d.id) || this.lost(d.id, 'the device was disconnected'));
    tracker.on('error', (err: Error) => this.options.logger.warn({ err: err.message }, 'adb device tracking failed'));
    tracker.on('end', () => {
      if (this.stopped || this.tracker !== tracker) return;
      this.tracker = null;
      this.options.logger.warn('adb server connection ended; devices withdrawn until it is back');
      for (const serial of [...this.devices.keys()]) this.detach(serial, 'the adb server went away');
      this.scheduleRetry();
    });
    return list.filter((d) => d.type === 'device').map((d) => this.attach(d.id));
  }

  private async changed(serial: string, state: string): Promise<void> {
    if (this.rebootChanged(serial)) return;
    if (state === 'device') await this.attach(serial);
    else if (state === 'offline') this.lost(serial, 'the device is offline');
    else this.detach(serial, `the device is ${state}`);
  }

  /**
   * A device whose link was lost is withdrawn; one adb reaches over the network is then mended: its
   * link is connected again (`mend.ts`), each attempt reported to the service, which quarantines the
   * device after three failed. A USB device comes back by itself when adb sees it again.
   */
  private lost(serial: string, reason: string): void {
    const driver = this.devices.get(serial);
    if (driver) this.away.add(serial);
    this.detach(serial, reason);
    if (!driver || !networkSerial(serial) || this.mending.has(serial) || this.stopped) return;
    const deviceId = driver.info.deviceId;
    this.mending.add(serial);
    void reconnect({
      client: this.client,
      serial,
      stillLost: () => !this.stopped && !this.devices.has(serial),
      report: (step) => {
        this.options.logger.info({ serial, deviceId, ...step }, 'mending step');
        this.listener?.mending?.(deviceId, step);
      },
    })
      .catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message, serial }, 'mending failed'))
      .finally(() => this.mending.delete(serial));
  }

  /** A change of a device its mending is rebooting: whoever waits for it looks again; nothing else happens. */
  private rebootChanged(serial: string): boolean {
    const waiting = this.rebooting.get(serial);
    if (!waiting) return false;
    for (const wake of [...waiting]) wake();
    return true;
  }

  /**
   * Follows a device its mending reboots (`reboot.ts`): while the watch is open, the device going away
   * and coming back neither withdraws it nor mends its link (its worker waits the reboot out, and a
   * session asked for meanwhile waits behind it); once it ends, a device adb does not list as `device`
   * is withdrawn (its link is not mended: the mending that rebooted it failed, and the service decides).
   */
  private rebootWatch(serial: string): RebootWatch {
    const waiting = new Set<() => void>();
    this.rebooting.set(serial, waiting);
    const state = async () => (await this.client.listDevices()).find((d: { id: string; type: string }) => d.id === serial)?.type;
    return {
      state,
      changed: (ms) =>
        new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, ms);
          timer.unref();
          waiting.add(wake);
        }),
      end: async () => {
        if (this.rebooting.get(serial) !== waiting) return;
        this.rebooting.delete(serial);
        const now = await state().catch(() => undefined);
        if (now !== 'device') this.detach(serial, `the device did not come back from a reboot (${now ?? 'not listed'})`);
        // Withdrawn meanwhile (the adb server went away and came back): offered again as at any attach.
        else if (!this.devices.has(serial)) await this.attach(serial);
      },
    };
  }

  private attach(serial: string): Promise<void> {
    return this.attachOnce(
      serial,
      async () => {
        const adbDevice = this.client.getDevice(serial);
        const info = await describeAndroidDevice(adbDevice, serial, stableUuid(this.options.hostId, 'android', serial));
        return () => {
          if (this.away.delete(serial)) this.reconnects.set(serial, (this.reconnects.get(serial) ?? 0) + 1);
          return new AndroidDevice(info, serial, adbDevice, this.options.logger, {
            client: this.client,
            adbHost: this.options.adbHost,
            adbPort: this.options.adbPort,
            adbBinary: this.options.adbBinary ?? 'adb',
          }, { uiautomator2: this.options.uiautomator2 ?? true }, { waitMs: this.options.rebootWaitMs ?? REBOOT_WAIT_DEFAULT_MS, watch: () => this.rebootWatch(serial) }, () => this.reconnects.get(serial) ?? 0);
        };
      },
      { serial },
      'android device could not be described; it is not offered',
    );
  }
}
