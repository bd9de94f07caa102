import type { Logger } from 'pino';
import { stableUuid } from '../config.js';
import type { DeviceListener, DeviceProvider } from '../provider.js';
import { Adb, type AdbClient } from './adb.js';
import { AndroidDevice, describeAndroidDevice } from './device.js';

/** How long `start` waits for the devices attached at start to be described. */
const INITIAL_SCAN_MS = 15_000;
const RETRY_MS = 2_000;

type Tracker = Awaited<ReturnType<AdbClient['trackDevices']>>;

export interface AndroidProviderOptions {
  hostId: string;
  adbHost: string;
  adbPort: number;
  /** The `adb` command for interactive shells (default `adb` on the PATH). */
  adbBinary?: string;
  logger: Logger;
}

/**
 * Android devices of one adb server: follows `host:track-devices` (adbkit's `trackDevices`), offers a
 * device once it is in the `device` state (authorized and online) and withdraws it when it leaves that
 * state or disappears. If the adb server is not reachable, it keeps trying in the background.
 */
export class AndroidProvider implements DeviceProvider {
  readonly name = 'android';
  private readonly client: AdbClient;
  private listener: DeviceListener | null = null;
  private tracker: Tracker | null = null;
  private readonly devices = new Map<string, AndroidDevice>();
  /** Serials being described, with a token so a removal during the description wins. */
  private readonly pending = new Map<string, symbol>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: AndroidProviderOptions) {
    this.client = Adb.createClient({ host: options.adbHost, port: options.adbPort });
  }

  /** Device ids by serial (for tests and logs). */
  serials(): string[] {
    return [...this.devices.keys()];
  }

  async start(listener: DeviceListener): Promise<void> {
    this.listener = listener;
    const initial = await this.track();
    if (initial.length === 0) return;
    // Devices attached at start are offered before start returns, so the host starts them with the rest.
    await Promise.race([Promise.allSettled(initial), new Promise((resolve) => setTimeout(resolve, INITIAL_SCAN_MS).unref())]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.tracker?.end();
    this.tracker = null;
    await Promise.all([...this.devices.values()].map((d) => d.close().catch(() => undefined)));
    this.devices.clear();
  }

  /** Starts following the adb server; answers the descriptions of the devices it lists first. */
  private async track(): Promise<Promise<void>[]> {
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
    tracker.on('remove', (d: { id: string }) => this.detach(d.id, 'the device was disconnected'));
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

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.track();
    }, RETRY_MS);
    this.retry.unref();
  }

  private async changed(serial: string, state: string): Promise<void> {
    if (state === 'device') await this.attach(serial);
    else this.detach(serial, `the device is ${state}`);
  }

  private async attach(serial: string): Promise<void> {
    if (this.devices.has(serial) || this.pending.has(serial) || this.stopped) return;
    const token = Symbol(serial);
    this.pending.set(serial, token);
    try {
      const adbDevice = this.client.getDevice(serial);
      const info = await describeAndroidDevice(adbDevice, serial, stableUuid(this.options.hostId, 'android', serial));
      if (this.pending.get(serial) !== token || this.stopped) return;
      const driver = new AndroidDevice(info, serial, adbDevice, this.options.logger, {
        client: this.client,
        adbHost: this.options.adbHost,
        adbPort: this.options.adbPort,
        adbBinary: this.options.adbBinary ?? 'adb',
      });
      this.devices.set(serial, driver);
      this.options.logger.info({ serial, deviceId: info.deviceId, model: info.model }, 'android device attached');
      this.listener?.added(driver);
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message, serial }, 'android device could not be described; it is not offered');
    } finally {
      if (this.pending.get(serial) === token) this.pending.delete(serial);
    }
  }

  private detach(serial: string, reason: string): void {
    this.pending.delete(serial);
    const driver = this.devices.get(serial);
    if (!driver) return;
    this.devices.delete(serial);
    this.options.logger.info({ serial, reason }, 'android device detached');
    driver.gone(reason);
    this.listener?.removed(driver.info.deviceId);
  }
}
