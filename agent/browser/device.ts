import type { ControlAction, DeviceInfo, RpcResult, Screen } from '#shared/wire/index.js';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { DriverError, LogRing, type DebugProtocol, type DebugTarget, type DeviceDriver, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { CdpConnection } from './cdp.js';
import { launchChromium, type ChromiumProcess } from './chromium.js';
import { SpareBrowser } from './spare.js';
import { press, pressKey, swipe, type CdpCall } from './input.js';
import { readUiTree, scanAccessibility } from './inspect.js';
import { followPageLogs } from './page-logs.js';
import type { BrowserProfile } from './profiles.js';
import { jpegSize } from './ui-tree.js';
import { freePort } from '../appium/server.js';

/** The system chromedriver Appium's Chromium driver runs (nothing is downloaded). */
const CHROMEDRIVER = '/usr/bin/chromedriver';

const NAVIGATION_TIMEOUT_MS = 20_000;

type Orientation = 'portrait' | 'landscape';

/** A browser of a device: its process and profile, for diagnostics. */
export interface BrowserProcessInfo {
  pid: number;
  userDataDir: string;
}

/**
 * A browser device: one headless Chromium per session on a fresh profile, emulating a phone, tablet or
 * desktop through CDP. Nothing of one session survives into the next, because `release` kills the
 * browser and deletes its profile, and `prepare` always takes a browser no session has used: the spare
 * launched ahead (`warm`, and again after each release) on a new profile, else a new one launched then.
 */
export class BrowserDevice implements DeviceDriver {
  private browser: ChromiumProcess | null = null;
  /** Whether the session's browser is a spare launched ahead. */
  private launchedAhead = false;
  /** Set by `warm`: keep a spare ready from then on. */
  private keepSpare = false;
  private readonly spare: SpareBrowser;
  private cdp: CdpConnection | null = null;
  private page: string | null = null;
  private orientation: Orientation = 'portrait';
  private readonly logRing = new LogRing();
  private readonly brokenListeners = new Set<(reason: string) => void>();
  private stopFrames: (() => void) | null = null;

  constructor(
    readonly info: DeviceInfo,
    private readonly profile: BrowserProfile,
    private readonly executable: string,
    /** Where this host keeps its browsers' profiles (see `profileRootOf`). */
    private readonly profileRoot?: string,
    private readonly logger?: Logger,
  ) {
    this.spare = new SpareBrowser(
      () => this.launch(),
      (err) => this.logger?.warn({ deviceId: info.deviceId, err: err.message }, 'the spare browser did not start; the next session launches its own'),
    );
  }

  /** From now on keeps a spare browser launched ahead of the next session. */
  warm(): void {
    this.keepSpare = true;
    this.spare.fill();
  }

  /** The session's browser (whether it was the spare) and the spare waiting for the next session. */
  browsers(): { session: (BrowserProcessInfo & { launchedAhead: boolean }) | null; spare: BrowserProcessInfo | null } {
    const spare = this.spare.ready;
    return {
      session: this.browser ? { pid: this.browser.pid, userDataDir: this.browser.userDataDir, launchedAhead: this.launchedAhead } : null,
      spare: spare ? { pid: spare.pid, userDataDir: spare.userDataDir } : null,
    };
  }

  async prepare(onProgress: (step: string) => void): Promise<Screen> {
    await this.teardown();
    const spare = await this.spare.take();
    if (spare) {
      onProgress('taking the browser launched ahead');
      try {
        return await this.attach(spare, true, onProgress);
      } catch (err) {
        if (spare.running()) throw err;
        // The spare died as it was taken: the session launches its own, as without a spare.
        this.logger?.warn({ deviceId: this.info.deviceId, err: (err as Error).message }, 'the spare browser exited while it was attached; launching another');
        await this.teardown();
      }
    }
    onProgress('launching browser');
    return this.attach(await this.launch(), false, onProgress);
  }

  private launch(): Promise<ChromiumProcess> {
    return launchChromium({ executable: this.executable, width: this.profile.width, height: this.profile.height, ...(this.profileRoot ? { profileRoot: this.profileRoot } : {}) });
  }

  /** Makes `browser` the session's: connects to it, attaches to its page and applies the device profile. */
  private async attach(browser: ChromiumProcess, launchedAhead: boolean, onProgress: (step: string) => void): Promise<Screen> {
    this.browser = browser;
    this.launchedAhead = launchedAhead;
    const cdp = await CdpConnection.connect(browser.wsEndpoint);
    this.cdp = cdp;
    onProgress('attaching to the page');
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    let targetId = targetInfos.find((t) => t.type === 'page')?.targetId;
    targetId ??= (await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId;
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    this.page = sessionId;
    followPageLogs(cdp, sessionId, this.logRing);
    await Promise.all([this.call('Page.enable'), this.call('Runtime.enable'), this.call('Log.enable')]);
    onProgress('applying the device profile');
    this.orientation = 'portrait';
    if (this.profile.userAgent) await this.call('Emulation.setUserAgentOverride', { userAgent: this.profile.userAgent });
    await this.call('Emulation.setTouchEmulationEnabled', this.profile.touch ? { enabled: true, maxTouchPoints: 5 } : { enabled: false });
    await this.applyMetrics();
    if (this.profile.homeUrl !== 'about:blank') await this.navigate(this.profile.homeUrl);
    // Watched from here on (a browser that dies while attaching fails `prepare` instead).
    void browser.exited.then(() => {
      if (this.browser === browser) this.emitBroken('the browser exited');
    });
    return this.screen();
  }

  async release(): Promise<void> {
    await this.teardown();
    this.logRing.clear();
    this.orientation = 'portrait';
    // The next session's browser starts now, in the background, on a new profile.
    if (this.keepSpare) this.spare.fill();
  }

  async screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot> {
    const { data } = await this.call<{ data: string }>('Page.captureScreenshot', {
      format,
      ...(format === 'jpeg' ? { quality: quality ?? 80 } : {}),
    });
    const screen = this.screen();
    return { contentType: format === 'png' ? 'image/png' : 'image/jpeg', data: Buffer.from(data, 'base64'), width: screen.width, height: screen.height };
  }

  async control(action: ControlAction): Promise<RpcResult<'control'>> {
    const css = (v: number) => v / this.profile.scale;
    switch (action.action) {
      case 'tap':
        await press(this.pageCall, this.profile, { x: css(action.x), y: css(action.y) }, 0);
        return {};
      case 'longPress':
        await press(this.pageCall, this.profile, { x: css(action.x), y: css(action.y) }, action.durationMs ?? 800);
        return {};
      case 'swipe':
        await swipe(this.pageCall, this.profile, { x: css(action.x1), y: css(action.y1) }, { x: css(action.x2), y: css(action.y2) }, action.durationMs ?? 300);
        return {};
      case 'pinch':
        throw new DriverError('UNSUPPORTED', 'Pinching is not offered on browser devices');
      case 'text':
        await this.call('Input.insertText', { text: action.text });
        return {};
      case 'key':
        await pressKey(this.pageCall, action.key);
        return {};
      case 'home':
        return { url: await this.navigate(this.profile.homeUrl) };
      case 'back': {
        const history = await this.call<{ currentIndex: number; entries: { id: number }[] }>('Page.getNavigationHistory');
        const previous = history.entries[history.currentIndex - 1];
        if (previous) {
          const loaded = this.cdp!.waitFor('Page.loadEventFired', this.page!, NAVIGATION_TIMEOUT_MS);
          await this.call('Page.navigateToHistoryEntry', { entryId: previous.id });
          await loaded.catch(() => undefined);
        }
        return { url: await this.currentUrl() };
      }
      case 'rotate':
        this.orientation = action.orientation;
        await this.applyMetrics();
        return { orientation: this.orientation };
      case 'openUrl':
        return { url: await this.navigate(action.url) };
      default: {
        const never: never = action;
        throw new DriverError('BAD_REQUEST', `Unknown action ${JSON.stringify(never)}`);
      }
    }
  }

  logs(afterSeq: number): RpcResult<'logs'> {
    return this.logRing.after(afterSeq);
  }

  uiTree(): Promise<RpcResult<'uiTree'>> {
    return readUiTree(this.pageCall, this.profile.scale);
  }

  /** axe-core in every frame of the page (`inspect.ts`). */
  accessibilityScan(): Promise<RpcResult<'accessibilityScan'>> {
    return scanAccessibility(this.pageCall, this.profile.scale);
  }

  async startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    await this.stopScreencast();
    const cdp = this.requireCdp();
    const page = this.page!;
    this.stopFrames = cdp.on('Page.screencastFrame', (params, sessionId) => {
      if (sessionId !== page) return;
      const { data, metadata, sessionId: frameId } = params as { data: string; metadata: { timestamp?: number }; sessionId: number };
      const jpeg = Buffer.from(data, 'base64');
      const size = jpegSize(jpeg) ?? this.screen();
      const capturedAt = metadata.timestamp ? Math.round(metadata.timestamp * 1000) : Date.now();
      // Acknowledging only after the frame is handed on is the back-pressure: Chromium sends the next
      // frame after the ack, so a slow consumer slows the stream instead of growing a queue here.
      void onFrame({ jpeg, width: size.width, height: size.height, capturedAt })
        .catch(() => undefined)
        .finally(() => void cdp.send('Page.screencastFrameAck', { sessionId: frameId }, { sessionId: page }).catch(() => undefined));
    });
    await this.call('Page.startScreencast', {
      format: 'jpeg',
      quality: options.quality,
      everyNthFrame: 1,
      ...(options.maxWidth ? { maxWidth: options.maxWidth } : {}),
      ...(options.maxHeight ? { maxHeight: options.maxHeight } : {}),
    });
  }

  async stopScreencast(): Promise<void> {
    if (!this.stopFrames) return;
    this.stopFrames();
    this.stopFrames = null;
    if (this.cdp && !this.cdp.closed) await this.call('Page.stopScreencast').catch(() => undefined);
  }

  /** The Chromium's own DevTools endpoint (loopback), while the device is prepared for a session. */
  async devtools(): Promise<{ host: string; port: number } | null> {
    if (!this.browser || !this.page || !this.cdp || this.cdp.closed) return null;
    const url = new URL(this.browser.wsEndpoint);
    return { host: url.hostname, port: Number(url.port) };
  }

  async debugProtocols(): Promise<DebugProtocol[]> {
    return (await this.devtools()) ? ['cdp'] : [];
  }

  /** The browser's pages (`/json/list`), each reachable through the browser's DevTools endpoint. */
  async debugTargets(): Promise<DebugTarget[]> {
    const endpoint = await this.devtools();
    if (!endpoint) throw new DriverError('NOT_PREPARED', 'The browser is not running');
    const list = (await (await fetch(`http://${endpoint.host}:${endpoint.port}/json/list`, { signal: AbortSignal.timeout(5_000) })).json()) as { id: string; type: string; title: string; url: string }[];
    return list
      .filter((t) => t.type === 'page')
      .map((t) => ({ id: t.id, kind: 'page' as const, title: (t.title || t.url).slice(0, 300), protocol: 'cdp' as const }));
  }

  /** `cdp`: the browser's whole DevTools endpoint (HTTP `/json/*` and its WebSockets) as one TCP stream. */
  async openDebugStream(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    if (protocol !== 'cdp') throw new DriverError('UNSUPPORTED', `A browser device does not offer ${protocol}`);
    const endpoint = await this.devtools();
    if (!endpoint) throw new DriverError('NOT_PREPARED', 'The browser is not running');
    if (target !== undefined && !(await this.debugTargets()).some((t) => t.id === target)) throw new DriverError('BAD_REQUEST', `No page ${target}`);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
      socket.once('connect', () => resolve(socket));
      socket.once('error', (err) => reject(new DriverError('DEVICE_ERROR', `DevTools is not reachable: ${err.message}`)));
    });
  }

  /**
   * Appium's Chromium driver attached to this device's running browser (`debuggerAddress`), through the
   * system chromedriver, each session on its own chromedriver port (the driver kills whatever listens
   * on its port when it starts).
   */
  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    const endpoint = await this.devtools();
    if (!endpoint) throw new DriverError('NOT_PREPARED', 'The device has no running browser');
    return {
      platformName: 'linux',
      'appium:automationName': 'Chromium',
      'appium:executable': CHROMEDRIVER,
      'goog:chromeOptions': { debuggerAddress: `${endpoint.host}:${endpoint.port}` },
      'appium:chromedriverPort': await freePort(),
    };
  }

  onBroken(listener: (reason: string) => void): void {
    this.brokenListeners.add(listener);
  }

  async close(): Promise<void> {
    this.keepSpare = false;
    await Promise.all([this.spare.close(), this.teardown()]);
  }

  private screen(): Screen {
    const portrait = this.orientation === 'portrait';
    const width = portrait ? this.profile.width : this.profile.height;
    const height = portrait ? this.profile.height : this.profile.width;
    return { width: Math.round(width * this.profile.scale), height: Math.round(height * this.profile.scale), scale: this.profile.scale };
  }

  private async applyMetrics(): Promise<void> {
    const portrait = this.orientation === 'portrait';
    await this.call('Emulation.setDeviceMetricsOverride', {
      width: portrait ? this.profile.width : this.profile.height,
      height: portrait ? this.profile.height : this.profile.width,
      deviceScaleFactor: this.profile.scale,
      mobile: this.profile.mobile,
      screenOrientation: portrait ? { type: 'portraitPrimary', angle: 0 } : { type: 'landscapePrimary', angle: 90 },
    });
  }

  private async navigate(url: string): Promise<string> {
    const loaded = this.requireCdp().waitFor('Page.loadEventFired', this.page!, NAVIGATION_TIMEOUT_MS);
    loaded.catch(() => undefined);
    const result = await this.call<{ loaderId?: string; errorText?: string }>('Page.navigate', { url });
    if (result.errorText) throw new DriverError('DEVICE_ERROR', `Navigation to ${url} failed: ${result.errorText}`);
    // A same-document navigation (a fragment) has no loader and fires no load event.
    if (result.loaderId) await loaded;
    return this.currentUrl();
  }

  private async currentUrl(): Promise<string> {
    const { result } = await this.call<{ result: { value?: string } }>('Runtime.evaluate', { expression: 'location.href', returnByValue: true });
    return result.value ?? '';
  }

  private requireCdp(): CdpConnection {
    if (!this.cdp || !this.page || this.cdp.closed) throw new DriverError('NOT_PREPARED', 'The device has no running browser');
    return this.cdp;
  }

  private call<T = Record<string, unknown>>(method: string, params: object = {}): Promise<T> {
    return this.requireCdp().send<T>(method, params, { sessionId: this.page! });
  }

  /** `call` for the helpers that drive the page (input, inspection). */
  private readonly pageCall: CdpCall = (method, params) => this.call(method, params);

  private emitBroken(reason: string): void {
    for (const listener of this.brokenListeners) listener(reason);
  }

  private async teardown(): Promise<void> {
    this.stopFrames?.();
    this.stopFrames = null;
    const browser = this.browser;
    this.browser = null;
    this.cdp?.close();
    this.cdp = null;
    this.page = null;
    await browser?.kill();
  }
}
