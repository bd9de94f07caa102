import type { Logger } from 'pino';
import { stableUuid } from '../config.js';
import type { DeviceListener, DeviceProvider } from '../provider.js';
import { DEFAULT_WDA, IosDevice, describeIosDevice } from './device.js';
import { GoIos } from './go-ios.js';
import { TunnelSupervisor } from './tunnel.js';
import type { WdaConfig } from './wda.js';
import { describeAddress, parseUsbmuxAddress, UsbmuxClient, type UsbmuxDevice } from './usbmux.js';

/** How long `start` waits for the devices attached at start to be described. */
const INITIAL_SCAN_MS = 15_000;
const RETRY_MS = 2_000;
/** appium-ios-device caps a frame at 1 MiB by default; a real iPhone's screenshot PNG is larger. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface IosProviderOptions {
  hostId: string;
  /** usbmuxd's address: `/var/run/usbmuxd` or `host:port`. */
  usbmuxd: string;
  logger: Logger;
  /** WebDriverAgent on the devices (bundle id, ports, MJPEG frame rate). */
  wda?: Partial<WdaConfig>;
  /** go-ios: its binary and the host's iOS 17+ tunnel. */
  goIos?: { binary?: string | undefined; workDir?: string | undefined; tunnel?: 'auto' | 'on' | 'off'; userspace?: boolean; tunnelInfoPort?: number };
}

/**
 * iOS devices of one usbmuxd: follows its attach and detach notices (`Listen`), describes each device
 * through a lockdown session (its pair record must exist: the device was trusted on this host) and
 * withdraws it on detach. If usbmuxd is not reachable, it keeps trying in the background.
 */
export class IosProvider implements DeviceProvider {
  readonly name = 'ios';
  private readonly client: UsbmuxClient;
  private listener: DeviceListener | null = null;
  private subscription: { close(): void } | null = null;
  /** Drivers by usbmuxd DeviceID. */
  private readonly devices = new Map<number, IosDevice>();
  private readonly pending = new Map<number, symbol>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;
  /** go-ios, for what appium-ios-device lacks (null when its binary is missing: a warning, not a failure). */
  readonly goIos: GoIos | null;
  /** The host's iOS 17+ tunnel (null when go-ios is missing or the tunnel is off). */
  readonly tunnel: TunnelSupervisor | null;
  private readonly wda: WdaConfig;

  constructor(private readonly options: IosProviderOptions) {
    this.client = new UsbmuxClient(parseUsbmuxAddress(options.usbmuxd));
    process.env.APPIUM_IOS_MAX_FRAME_SIZE ??= String(MAX_FRAME_BYTES);
    this.wda = { ...DEFAULT_WDA, ...Object.fromEntries(Object.entries(options.wda ?? {}).filter(([, v]) => v !== undefined)) };
    const go = options.goIos ?? {};
    const goIos = new GoIos({ usbmuxd: options.usbmuxd, ...(go.binary ? { binary: go.binary } : {}), ...(go.workDir ? { workDir: go.workDir } : {}), tunnelInfoPort: go.tunnelInfoPort ?? 60_105 });
    this.goIos = goIos.available ? goIos : null;
    if (!this.goIos) options.logger.warn({ binary: go.binary ?? 'the go-ios package' }, 'go-ios is not installed: no iOS 17+ tunnel, no instruments screenshots, no WebDriverAgent start');
    this.tunnel = this.goIos && go.tunnel !== 'off' ? new TunnelSupervisor(this.goIos, options.logger, { userspace: go.userspace ?? true }) : null;
    if (go.tunnel === 'on') this.tunnel?.start();
  }

  /** UDIDs of the offered devices (for tests and logs). */
  udids(): string[] {
    return [...this.devices.values()].map((d) => d.udid);
  }

  async start(listener: DeviceListener): Promise<void> {
    this.listener = listener;
    const initial = await this.follow();
    if (initial.length === 0) return;
    // Devices attached at start are offered before start returns, so the host starts them with the rest.
    await Promise.race([Promise.allSettled(initial), new Promise((resolve) => setTimeout(resolve, INITIAL_SCAN_MS).unref())]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.subscription?.close();
    this.subscription = null;
    await this.tunnel?.stop();
    await Promise.all([...this.devices.values()].map((d) => d.close().catch(() => undefined)));
    this.devices.clear();
  }

  /** Subscribes to usbmuxd; answers the descriptions of the devices attached already. */
  private async follow(): Promise<Promise<void>[]> {
    if (this.stopped) return [];
    const initial: Promise<void>[] = [];
    let starting = true;
    try {
      const subscription = await this.client.listen({
        attached: (d) => {
          const described = this.attach(d);
          if (starting) initial.push(described);
        },
        detached: (deviceId) => this.detach(deviceId, 'the device was unplugged'),
        ended: (err) => {
          if (this.stopped || this.subscription !== subscription) return;
          this.subscription = null;
          this.options.logger.warn({ err: err?.message, usbmuxd: describeAddress(this.client.address) }, 'usbmuxd connection ended; devices withdrawn until it is back');
          for (const id of [...this.devices.keys()]) this.detach(id, 'usbmuxd went away');
          this.scheduleRetry();
        },
      });
      this.subscription = subscription;
      // usbmuxd reports the devices attached already right after confirming Listen; a listing shows
      // which of them to wait for.
      const present = await this.client.listDevices();
      for (const d of present) if (!this.devices.has(d.deviceId) && !this.pending.has(d.deviceId)) initial.push(this.attach(d));
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message, usbmuxd: describeAddress(this.client.address) }, 'usbmuxd not reachable; retrying');
      this.scheduleRetry();
      return [];
    } finally {
      starting = false;
    }
    return [...initial];
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.follow();
    }, RETRY_MS);
    this.retry.unref();
  }

  private async attach(d: UsbmuxDevice): Promise<void> {
    // A device synced over Wi-Fi is listed a second time (ConnectionType Network); the cable one is offered.
    if (d.connectionType !== 'USB') return;
    if (this.devices.has(d.deviceId) || this.pending.has(d.deviceId) || this.stopped) return;
    const token = Symbol(d.udid);
    this.pending.set(d.deviceId, token);
    try {
      const values = await this.client.values(d.udid);
      if (this.pending.get(d.deviceId) !== token || this.stopped) return;
      const info = describeIosDevice(values, d.udid, stableUuid(this.options.hostId, 'ios', d.udid));
      const driver = new IosDevice(info, d.udid, this.client, this.options.logger, { goIos: this.goIos, wda: this.wda });
      // iOS 17 moved developer services behind RemoteXPC: the first such device starts the host's tunnel.
      if ((Number.parseInt(info.osVersion, 10) || 0) >= 17) this.tunnel?.start();
      this.devices.set(d.deviceId, driver);
      this.options.logger.info({ udid: d.udid, deviceId: info.deviceId, model: info.model }, 'ios device attached');
      this.listener?.added(driver);
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message, udid: d.udid }, 'ios device could not be described (is it trusted on this host?); it is not offered');
    } finally {
      if (this.pending.get(d.deviceId) === token) this.pending.delete(d.deviceId);
    }
  }

  private detach(deviceId: number, reason: string): void {
    this.pending.delete(deviceId);
    const driver = this.devices.get(deviceId);
    if (!driver) return;
    this.devices.delete(deviceId);
    this.options.logger.info({ udid: driver.udid, reason }, 'ios device detached');
    driver.gone(reason);
    this.listener?.removed(driver.info.deviceId);
  }
}
