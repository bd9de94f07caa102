import type { Logger } from 'pino';
import { AttachedDeviceProvider } from '../attached-provider.js';
import { stableUuid } from '../config.js';
import { DEFAULT_WDA, IosDevice, describeIosDevice } from './device.js';
import { GoIos } from './go-ios.js';
import { TunnelSupervisor } from './tunnel.js';
import type { WdaConfig } from './wda.js';
import { describeAddress, parseUsbmuxAddress, UsbmuxClient, type UsbmuxDevice } from './usbmux.js';

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
export class IosProvider extends AttachedDeviceProvider<number, IosDevice> {
  readonly name = 'ios';
  private readonly client: UsbmuxClient;
  private subscription: { close(): void } | null = null;
  /** go-ios, for what appium-ios-device lacks (null when its binary is missing: a warning, not a failure). */
  readonly goIos: GoIos | null;
  /** The host's iOS 17+ tunnel (null when go-ios is missing or the tunnel is off). */
  readonly tunnel: TunnelSupervisor | null;
  private readonly wda: WdaConfig;

  constructor(private readonly options: IosProviderOptions) {
    super(options.logger);
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

  protected async unfollow(): Promise<void> {
    this.subscription?.close();
    this.subscription = null;
    await this.tunnel?.stop();
  }

  protected logName(_deviceId: number, driver: IosDevice): Record<string, unknown> {
    return { udid: driver.udid };
  }

  /** Subscribes to usbmuxd; answers the descriptions of the devices attached already. */
  protected async follow(): Promise<Promise<void>[]> {
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

  private async attach(d: UsbmuxDevice): Promise<void> {
    // A device synced over Wi-Fi is listed a second time (ConnectionType Network); the cable one is offered.
    if (d.connectionType !== 'USB') return;
    await this.attachOnce(
      d.deviceId,
      async () => {
        const values = await this.client.values(d.udid);
        return () => {
          const info = describeIosDevice(values, d.udid, stableUuid(this.options.hostId, 'ios', d.udid));
          const driver = new IosDevice(info, d.udid, this.client, this.options.logger, { goIos: this.goIos, wda: this.wda });
          // iOS 17 moved developer services behind RemoteXPC: the first such device starts the host's tunnel.
          if ((Number.parseInt(info.osVersion, 10) || 0) >= 17) this.tunnel?.start();
          return driver;
        };
      },
      { udid: d.udid },
      'ios device could not be described (is it trusted on this host?); it is not offered',
    );
  }
}
