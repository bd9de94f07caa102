import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { BusSubscription, MessageBus } from '#shared/bus/index.js';
import { Bye, DevicesReport, HealthReport, Heartbeat, Hello, HostAck, PROTOCOL_VERSION, Reply, decode, encode, subjects } from '#shared/wire/index.js';
import { androidSdkHome } from './appium/android-sdk.js';
import { AppiumServer } from './appium/server.js';
import { WebDriverRelay } from './appium/relay.js';
import { webdriverRoute } from './appium/route.js';
import { BrowserProvider } from './browser/provider.js';
import type { AgentConfig, BrowserDeviceConfig, SimulatedDeviceConfig } from './config.js';
import { debugRoute } from './data-plane/debug-route.js';
import { devtoolsRoute } from './data-plane/devtools-route.js';
import { DataPlaneServer } from './data-plane/server.js';
import type { DeviceDriver, DeviceProvider } from './provider.js';
import { SimulatedProvider } from './simulated/provider.js';
import { LazyProvider } from './lazy-provider.js';
import { DeviceWorker } from './worker.js';
import { outsideTrace } from '#shared/tracing/index.js';

export const AGENT_VERSION = '0.1.0';

/** How often a host that cannot connect says so again in its log. */
const COMPLAIN_EVERY_MS = 30_000;

export interface AgentHostOptions {
  bus: MessageBus;
  config: AgentConfig;
  logger: Logger;
  /** Providers to use instead of the ones the config names. */
  providers?: DeviceProvider[];
  /** Say no hello until `setHostToken` gives the token (a host enrolled by the process it runs in). */
  awaitToken?: boolean;
}

/** The providers a config asks for. */
export function providersFor(config: AgentConfig, logger: Logger): DeviceProvider[] {
  const browser = config.devices.filter((d): d is BrowserDeviceConfig => d.provider === 'browser');
  const simulated = config.devices.filter((d): d is SimulatedDeviceConfig => d.provider === 'simulated');
  const providers: DeviceProvider[] = [];
  if (browser.length > 0 && !existsSync(config.chromiumPath)) {
    // Offering devices that can never start would only produce failed sessions.
    logger.warn({ chromiumPath: config.chromiumPath }, 'No Chromium at chromiumPath: browser devices are not offered (install chromium or set chromiumPath)');
  } else if (browser.length > 0) {
    providers.push(new BrowserProvider({ hostId: config.hostId, executable: config.chromiumPath, devices: browser, logger }));
  }
  if (simulated.length > 0) providers.push(new SimulatedProvider({ hostId: config.hostId, devices: simulated }));
  const { android, ios } = config;
  if (android?.enabled) {
    providers.push(new LazyProvider('android', async () => {
      const { AndroidProvider } = await import('./android/provider.js');
      return new AndroidProvider({ hostId: config.hostId, adbHost: android.adbHost, adbPort: android.adbPort, adbBinary: android.adbBinary, uiautomator2: android.uiautomator2, rebootWaitMs: android.rebootWaitMs, logger });
    }));
  }
  if (ios?.enabled) {
    providers.push(new LazyProvider('ios', async () => {
      const { IosProvider } = await import('./ios/provider.js');
      return new IosProvider({ hostId: config.hostId, usbmuxd: ios.usbmuxd, logger, wda: ios.wda, goIos: ios.goIos });
    }));
  }
  return providers;
}

/** How long after its hello is answered a host starts work ahead of need (`startAhead`), so the service records its devices first. */
const START_AHEAD_AFTER_MS = 5_000;

/**
 * A device host: announces itself and its devices, heart-beats, and keeps one worker per device. It
 * never decides anything about devices; it reports facts and the df service turns them into events.
 * Whenever a heartbeat fails or the service does not know the host (the bus or the service
 * restarted), the next beat announces the host again, so it comes back by itself.
 */
export class AgentHost {
  private readonly workers = new Map<string, DeviceWorker>();
  private readonly providers: DeviceProvider[];
  /** When this host started (ISO 8601); sent in every hello. */
  readonly startedAt = new Date().toISOString();
  private subscriptions: BusSubscription[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Set once start() has taken the devices found at start-up: later devices start on their own. */
  private hotPlug = false;
  private seq = 0;
  private needsHello = true;
  private beating = false;
  private beatAgain = false;
  private stopped = false;
  /** When the service last answered a hello. */
  private announcedAt = 0;
  /** Set once what `startAhead` starts has been started. */
  private startedAhead = false;
  /** Direct HTTP/WebSocket access to the devices (CDP, WebDriver) for the gateway; see `data-plane/`. */
  readonly dataPlane: DataPlaneServer | null;
  /** The host's Appium server (`/df/wd`), started ahead of need (`startAhead`) or by the first WebDriver session. */
  readonly appium: AppiumServer | null;
  private readonly webdriver: WebDriverRelay | null;
  /** The enrolment token sent in every hello; `undefined` while an in-process host waits for its own. */
  private token: string | undefined;
  /** Why the service last refused or did not answer a hello, how often in a row, and when that was last logged. */
  private trouble: { reason: string; count: number; loggedAt: number } | null = null;
  /** The service's last refusal (`HOST_TOKEN_INVALID`, ...), until a hello is accepted. */
  lastRefusal: { code: string; message: string } | null = null;

  constructor(private readonly options: AgentHostOptions) {
    this.token = options.config.hostToken;
    this.providers = options.providers ?? providersFor(options.config, options.logger);
    const dp = options.config.dataPlane;
    this.dataPlane = dp
      ? new DataPlaneServer({
          hostId: options.config.hostId,
          host: dp.host,
          port: dp.port,
          advertiseUrl: dp.advertiseUrl,
          logger: options.logger.child({ component: 'data-plane' }),
          sessionOf: (deviceId) => {
            const state = this.workers.get(deviceId)?.snapshot();
            return state?.state === 'in_session' ? state.sessionId : null;
          },
        })
      : null;
    this.dataPlane?.addRoute(devtoolsRoute((deviceId) => this.workers.get(deviceId)?.driver));
    this.dataPlane?.addRoute(debugRoute((deviceId) => this.workers.get(deviceId)?.driver, options.logger.child({ component: 'debug' })));
    const appium = options.config.appium;
    const sdk = options.config.android?.enabled ? androidSdkHome(options.config.android.adbBinary) : null;
    this.appium = this.dataPlane && appium?.enabled ? new AppiumServer({ logger: options.logger, port: appium.port, home: appium.home, env: sdk ? { ANDROID_HOME: sdk } : {} }) : null;
    this.webdriver = this.appium ? new WebDriverRelay({ appium: this.appium, driverOf: (deviceId) => this.workers.get(deviceId)?.driver, logger: options.logger }) : null;
    if (this.webdriver) this.dataPlane?.addRoute(webdriverRoute(this.webdriver));
  }

  get hostId(): string {
    return this.options.config.hostId;
  }

  /** Whether the service has acknowledged this host since its last failed heartbeat. */
  get announced(): boolean {
    return !this.needsHello;
  }

  /** The driver of a device this host offers (diagnostics and benchmarks). */
  driverOf(deviceId: string): DeviceDriver | undefined {
    return this.workers.get(deviceId)?.driver;
  }

  /** Gives the host its enrolment token and announces it with it. */
  setHostToken(token: string): void {
    this.token = token;
    this.needsHello = true;
    this.beatSoon();
  }

  /** Device ids this host offers. */
  deviceIds(): string[] {
    return [...this.workers.keys()];
  }

  /** Starts the providers and workers, announces the host and starts heart-beating. */
  async start(): Promise<void> {
    const { bus } = this.options;
    await this.dataPlane?.start();
    this.subscriptions.push(
      await bus.subscribe(subjects.serviceHello(), () => {
        this.needsHello = true;
        this.beatSoon();
      }),
    );
    for (const provider of this.providers) {
      await provider.start({
        added: (driver) => void this.addDevice(driver),
        removed: (deviceId) => void this.removeDevice(deviceId),
        // Each mending step goes to the service as it ends, the way health readings go (it records it and decides on quarantine).
        mending: (deviceId, mending) =>
          void this.options.bus
            .publish(subjects.health(this.hostId), encode(HealthReport, { protocol: PROTOCOL_VERSION, hostId: this.hostId, deviceId, mending }))
            .catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message, deviceId }, 'a mending step could not be reported')),
      });
    }
    // Devices found so far start together; any that arrive from here on start themselves (addDevice).
    const found = [...this.workers.values()];
    this.hotPlug = true;
    await Promise.all(found.map((w) => w.start()));
    this.options.logger.info({ hostId: this.hostId, devices: this.workers.size }, 'agent started');
    // The first hello goes out in the background: a host must not wait for the service to start.
    this.timer = setTimeout(() => void this.beat(), 0);
  }

  /** Says goodbye, stops every worker and provider. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) await s.unsubscribe().catch(() => undefined);
    this.subscriptions = [];
    await this.options.bus
      .publish(subjects.bye(this.hostId), encode(Bye, { protocol: PROTOCOL_VERSION, hostId: this.hostId, reason: 'agent stopped' }))
      .catch(() => undefined);
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    await Promise.all(this.providers.map((p) => p.stop().catch(() => undefined)));
    await this.dataPlane?.stop();
    await this.appium?.stop();
  }

  private async addDevice(driver: DeviceDriver): Promise<void> {
    const worker = new DeviceWorker(driver, {
      bus: this.options.bus,
      hostId: this.hostId,
      logger: this.options.logger,
      healthIntervalMs: this.options.config.healthIntervalMs,
      video: this.options.config.video,
      onStateChange: () => {
        this.dataPlane?.revalidate();
        // A device that left its session drops its WebDriver sessions too.
        if (this.webdriver && this.workers.get(driver.info.deviceId)?.snapshot().state !== 'in_session') void this.webdriver.releaseDevice(driver.info.deviceId);
        this.beatSoon();
      },
    });
    this.workers.set(driver.info.deviceId, worker);
    // Devices found during start are started together; later ones (hot-plug) start here.
    if (this.hotPlug) {
      await worker.start();
      await this.report();
      if (this.startedAhead) this.startAppiumAhead();
    }
  }

  /**
   * What the first session would otherwise wait for, started in the background by a heartbeat the
   * service accepted, `START_AHEAD_AFTER_MS` after the hello (not with it: the devices are listed
   * first): a spare browser per browser device, and the Appium server when a device can be driven over
   * WebDriver.
   */
  private startAhead(): void {
    if (this.startedAhead || this.stopped || !this.options.config.startAhead) return;
    this.startedAhead = true;
    for (const provider of this.providers) if (provider instanceof BrowserProvider) provider.warm();
    this.startAppiumAhead();
  }

  private startAppiumAhead(): void {
    if (!this.appium || this.stopped || ![...this.workers.values()].some((w) => w.driver.webdriverCapabilities)) return;
    this.appium.ensure().catch((err: unknown) => {
      if (!this.stopped) this.options.logger.warn({ err: (err as Error).message }, 'the Appium server did not start ahead; the first WebDriver session starts it');
    });
  }

  private async removeDevice(deviceId: string): Promise<void> {
    const worker = this.workers.get(deviceId);
    if (!worker) return;
    this.workers.delete(deviceId);
    await worker.stop();
    await this.report();
  }

  private async report(): Promise<void> {
    const inventory = this.inventory();
    this.reportedInfo = JSON.stringify(inventory.devices);
    const message = encode(DevicesReport, { protocol: PROTOCOL_VERSION, hostId: this.hostId, ...inventory });
    await this.options.bus.publish(subjects.devices(this.hostId), message).catch(() => {
      this.needsHello = true;
    });
  }

  /** The devices' info as last sent (hello or devices report), to send it again when it changes. */
  private reportedInfo = '';

  private inventory() {
    const workers = [...this.workers.values()];
    return { devices: workers.map((w) => w.driver.info), states: workers.map((w) => w.snapshot()) };
  }

  /** Beats now, or right after the beat in flight. */
  private beatSoon(): void {
    if (this.stopped) return;
    if (this.beating) {
      this.beatAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    void this.beat();
  }

  /**
   * Logs why the host is not connected: at once, and again every half minute while it lasts (with how
   * many hellos failed), so an operator reading the log at any time sees the reason.
   */
  private complain(reason: string, level: 'warn' | 'error', detail: Record<string, unknown>, message: string): void {
    const now = Date.now();
    const same = this.trouble?.reason === reason;
    const count = same ? this.trouble!.count + 1 : 1;
    if (!same || now - this.trouble!.loggedAt >= COMPLAIN_EVERY_MS) {
      this.options.logger[level]({ ...detail, hostId: this.hostId, attempts: count }, message);
      this.trouble = { reason, count, loggedAt: now };
    } else {
      this.trouble = { ...this.trouble!, count };
    }
  }

  /**
   * A heartbeat is nobody's request: it runs outside any trace, though the timer that calls it may have
   * been set in one (a device's state changed by a traced command), so no trace carries on for ever.
   */
  private beat(): Promise<void> {
    return outsideTrace(() => this.beatNow());
  }

  private async beatNow(): Promise<void> {
    if (this.stopped) return;
    this.beating = true;
    const { bus, config } = this.options;
    const timeoutMs = Math.max(1_000, config.heartbeatMs * 2);
    if (this.needsHello && this.token === undefined && this.options.awaitToken) {
      // Enrolled by the process it runs in, which has not handed the token over yet.
      this.beating = false;
      this.timer = setTimeout(() => void this.beat(), config.heartbeatMs);
      this.timer.unref();
      return;
    }
    try {
      const inventory = this.inventory();
      const infoSent = JSON.stringify(inventory.devices);
      const answer = this.needsHello
        ? await bus.request(
            subjects.hello(this.hostId),
            encode(Hello, {
              protocol: PROTOCOL_VERSION,
              hostId: this.hostId,
              nodeName: config.nodeName,
              hubId: config.hubId,
              ...(this.token !== undefined ? { token: this.token } : {}),
              agentVersion: AGENT_VERSION,
              startedAt: this.startedAt,
              ...(this.dataPlane ? { dataPlaneUrl: this.dataPlane.url } : {}),
              ...inventory,
            }),
            { timeoutMs },
          )
        : await bus.request(
            subjects.heartbeat(this.hostId),
            encode(Heartbeat, { protocol: PROTOCOL_VERSION, hostId: this.hostId, seq: this.seq++, states: inventory.states }),
            { timeoutMs },
          );
      const reply = decode(Reply, answer.data);
      if (reply.type === 'fail' && this.needsHello) {
        this.lastRefusal = { code: reply.code, message: reply.message };
        this.complain(`refused: ${reply.code}`, 'error', { code: reply.code, reason: reply.message }, 'the service refused this host');
      } else {
        if (reply.type !== 'ok') throw new Error(reply.type === 'fail' ? reply.message : 'unexpected progress reply');
        const wasHello = this.needsHello;
        const ack = HostAck.parse(reply.data);
        if (ack.dataPlaneKeys) this.dataPlane?.setKeys(ack.dataPlaneKeys);
        this.needsHello = !ack.known;
        if (wasHello && !this.needsHello) this.reportedInfo = infoSent;
        else if (!this.needsHello && infoSent !== this.reportedInfo) {
          // A device's info changed since the service last had it (its capabilities, once a session prepared it).
          await this.report();
        }
        if (wasHello && !this.needsHello) {
          this.lastRefusal = null;
          this.trouble = null;
          this.options.logger.info({ hostId: this.hostId }, 'agent announced');
          this.announcedAt = Date.now();
        } else if (!wasHello && !this.needsHello && Date.now() - this.announcedAt >= START_AHEAD_AFTER_MS) {
          this.startAhead();
        }
      }
    } catch (err) {
      if (this.needsHello) this.complain('no answer', 'warn', { err: (err as Error).message }, 'no service answered the hello; retrying');
      else this.options.logger.warn({ err: (err as Error).message, hostId: this.hostId }, 'heartbeat failed; will announce again');
      this.needsHello = true;
    } finally {
      this.beating = false;
    }
    if (this.stopped) return;
    if (this.beatAgain) {
      this.beatAgain = false;
      this.timer = setTimeout(() => void this.beat(), 0);
    } else {
      this.timer = setTimeout(() => void this.beat(), config.heartbeatMs);
    }
    this.timer.unref();
  }
}
