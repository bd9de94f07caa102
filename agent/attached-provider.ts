import type { Logger } from 'pino';
import type { DeviceDriver, DeviceListener, DeviceProvider } from './provider.js';

/** How long `start` waits for the devices attached at start to be described. */
const INITIAL_SCAN_MS = 15_000;
const RETRY_MS = 2_000;

/** A driver of a device that can be unplugged: `gone` tells it so (and its session, through `onBroken`). */
export interface AttachedDriver extends DeviceDriver {
  gone(reason: string): void;
}

/**
 * What the Android and iOS providers share: a source of attach and detach notices (an adb server,
 * usbmuxd) followed in the background and tried again while it is not reachable; a device described
 * once before it is offered (a detach during the description wins); withdrawn when it leaves.
 * `K` is the source's key of a device (an adb serial, a usbmuxd DeviceID).
 */
export abstract class AttachedDeviceProvider<K, D extends AttachedDriver> implements DeviceProvider {
  abstract readonly name: string;
  protected listener: DeviceListener | null = null;
  protected readonly devices = new Map<K, D>();
  /** Devices being described, with a token so a removal during the description wins. */
  protected readonly pending = new Map<K, symbol>();
  private retry: NodeJS.Timeout | null = null;
  protected stopped = false;

  constructor(protected readonly logger: Logger) {}

  /** Starts following the source; answers the descriptions of the devices it lists first (none when it is not reachable). */
  protected abstract follow(): Promise<Promise<void>[]>;
  /** Stops following the source (and what the provider runs besides). */
  protected abstract unfollow(): Promise<void>;
  /** How the logs name a device. */
  protected abstract logName(key: K, driver: D): Record<string, unknown>;

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
    await this.unfollow();
    await Promise.all([...this.devices.values()].map((d) => d.close().catch(() => undefined)));
    this.devices.clear();
  }

  protected scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.follow();
    }, RETRY_MS);
    this.retry.unref();
  }

  /**
   * Offers a device once: `describe` reads what it is and answers how to make its driver, which is
   * made only if the device is still wanted then. A failure is logged with `logged` and `failure`.
   */
  protected async attachOnce(key: K, describe: () => Promise<() => D>, logged: Record<string, unknown>, failure: string): Promise<void> {
    if (this.devices.has(key) || this.pending.has(key) || this.stopped) return;
    const token = Symbol(String(key));
    this.pending.set(key, token);
    try {
      const make = await describe();
      if (this.pending.get(key) !== token || this.stopped) return;
      const driver = make();
      this.devices.set(key, driver);
      this.logger.info({ ...logged, deviceId: driver.info.deviceId, model: driver.info.model }, `${this.name} device attached`);
      this.listener?.added(driver);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, ...logged }, failure);
    } finally {
      if (this.pending.get(key) === token) this.pending.delete(key);
    }
  }

  protected detach(key: K, reason: string): void {
    this.pending.delete(key);
    const driver = this.devices.get(key);
    if (!driver) return;
    this.devices.delete(key);
    this.logger.info({ ...this.logName(key, driver), reason }, `${this.name} device detached`);
    driver.gone(reason);
    this.listener?.removed(driver.info.deviceId);
  }
}
