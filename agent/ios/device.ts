import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SyslogService } from 'appium-ios-device/build/lib/syslog/index.js';
import type { ControlAction, DeviceInfo, HealthSample, RpcResult, Screen } from '#shared/wire/index.js';
import { LogRing, type DebugProtocol, type DebugTarget, type DeviceDriver, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { IosApps } from './apps.js';
import { IosContext } from './context.js';
import { IosDebug } from './debug.js';
import { IosFiles } from './files.js';
import type { GoIos } from './go-ios.js';
import { readIosHealth } from './health.js';
import { IosInput } from './input.js';
import { iosModel } from './models.js';
import { IosScreen } from './screen.js';
import { parseSyslogLine } from './syslog.js';
import type { UsbmuxClient } from './usbmux.js';
import { Wda, type WdaConfig } from './wda.js';

/** What an iOS device is, read from lockdown's values. */
export function describeIosDevice(values: Record<string, unknown>, udid: string, deviceId: string): DeviceInfo {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string).trim() : '');
  const productType = str('ProductType');
  const model = iosModel(productType);
  const deviceClass = str('DeviceClass');
  return {
    deviceId,
    name: (str('DeviceName') || `${model.name} (${udid.slice(0, 8)})`).slice(0, 200),
    platform: 'ios',
    osVersion: str('ProductVersion') || 'unknown',
    model: model.name.slice(0, 200),
    manufacturer: 'Apple',
    type: deviceClass === 'iPad' ? 'tablet' : deviceClass === 'Watch' ? 'watch' : deviceClass === 'AppleTV' ? 'tv' : 'phone',
    isRealDevice: true,
    provider: 'ios',
    screen: model.screen ?? { width: 1170, height: 2532, scale: 3 },
  };
}

export const DEFAULT_WDA: WdaConfig = { port: 8100, mjpegPort: 9100, startTimeoutMs: 60_000, mjpegFramerate: 30 };

/**
 * One iOS device behind usbmuxd, made of one part per capability: the screen (`screen.ts`: WDA's MJPEG,
 * instruments or screenshotr), input and the UI tree (`input.ts`, WebDriverAgent), apps (`apps.ts`),
 * files in app containers (`files.ts`), debugging (`debug.ts`), health readings (`health.ts`); the device
 * log (syslog_relay) is here.
 * Without WebDriverAgent the device is view-only: input and the UI tree answer UNSUPPORTED saying why,
 * and the session log says it too. A session leaves nothing behind: `release` uninstalls the apps it
 * installed and removes the files it created.
 */
export class IosDevice implements DeviceDriver {
  private readonly ctx: IosContext;
  private readonly logRing = new LogRing();
  private readonly brokenListeners = new Set<(reason: string) => void>();
  private syslog: SyslogService | null = null;
  readonly wda: Wda;
  readonly screen: IosScreen;
  private readonly input: IosInput;
  private readonly apps: IosApps;
  private readonly files: IosFiles;
  private readonly debug: IosDebug;

  constructor(
    readonly info: DeviceInfo,
    readonly udid: string,
    usbmux: UsbmuxClient,
    private readonly logger: Logger,
    options: { goIos?: GoIos | null; wda?: WdaConfig } = {},
  ) {
    this.ctx = new IosContext(info, udid, usbmux, logger);
    const wdaConfig = options.wda ?? DEFAULT_WDA;
    this.wda = new Wda(this.ctx, wdaConfig, options.goIos ?? null);
    this.screen = new IosScreen(this.ctx, this.wda, options.goIos ?? null, wdaConfig);
    this.input = new IosInput(this.ctx, this.wda);
    this.apps = new IosApps(this.ctx);
    this.files = new IosFiles(this.ctx, this.apps);
    this.debug = new IosDebug(this.ctx);
  }

  async prepare(onProgress: (step: string) => void): Promise<Screen> {
    this.debug.prepare();
    this.screen.prepare();
    this.files.prepare();
    onProgress('noting installed apps');
    await this.apps.prepare();
    onProgress('following the device log');
    this.logRing.clear();
    await this.startSyslog();
    onProgress('looking for WebDriverAgent');
    if (await this.wda.start(onProgress)) {
      this.info.capabilities = { screen: 'wda-mjpeg', input: 'wda' };
      this.logRing.push('info', 'agent', 'WebDriverAgent is running: touch, text, keys and the UI tree are available; the live screen is its MJPEG stream');
    } else {
      this.info.capabilities = { screen: this.screen.screenshotPath, input: 'none', reason: `View-only: ${this.wda.reason ?? 'WebDriverAgent is not running'}`.slice(0, 500) };
      this.logRing.push('warn', 'agent', `View-only: ${this.wda.reason}`);
      this.logger.info({ udid: this.udid, reason: this.wda.reason }, 'ios device is view-only this session');
    }
    this.ctx.prepared = true;
    return this.info.screen;
  }

  async release(): Promise<void> {
    await this.stopSession('end');
    const problems = [...(await this.apps.release()), ...(await this.files.release())];
    this.logRing.clear();
    if (problems.length > 0) this.logger.warn({ udid: this.udid, problems }, 'ios release left something behind');
  }

  screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot> {
    return this.screen.screenshot(format, quality);
  }

  control(action: ControlAction): Promise<RpcResult<'control'>> {
    return this.input.control(action);
  }

  logs(afterSeq: number): RpcResult<'logs'> {
    return this.logRing.after(afterSeq);
  }

  uiTree(): Promise<RpcResult<'uiTree'>> {
    return this.input.uiTree();
  }

  startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    return this.screen.start(options, onFrame);
  }

  stopScreencast(): Promise<void> {
    return this.screen.stop();
  }

  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    return { platformName: 'iOS', 'appium:automationName': 'XCUITest', 'appium:udid': this.udid };
  }

  listApps(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    return this.apps.list(thirdPartyOnly);
  }

  installApp(localPath: string): Promise<RpcResult<'installApp'>> {
    return this.apps.install(localPath);
  }

  uninstallApp(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    return this.apps.uninstall(packageName);
  }

  appPresence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    return this.apps.presence(packageNames);
  }

  listFiles(devicePath: string): Promise<RpcResult<'listFiles'>> {
    return this.files.list(devicePath);
  }

  pushFile(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    return this.files.push(localPath, devicePath);
  }

  pullFile(devicePath: string, localPath: string): Promise<{ size: number }> {
    return this.files.pull(devicePath, localPath);
  }

  deleteFile(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    return this.files.delete(devicePath);
  }

  makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    return this.files.makeFolder(devicePath);
  }

  debugProtocols(): Promise<DebugProtocol[]> {
    return this.debug.protocols();
  }

  debugTargets(): Promise<DebugTarget[]> {
    return this.debug.targets();
  }

  openDebugStream(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    return this.debug.open(protocol, target);
  }

  /** One health reading: battery, storage and iOS version in one lockdown session, and whether WDA answers (`health.ts`). */
  readHealth(): Promise<HealthSample> {
    return readIosHealth(this.ctx, this.wda);
  }

  onBroken(listener: (reason: string) => void): void {
    this.brokenListeners.add(listener);
  }

  /** The device went away (unplugged, usbmuxd gone). */
  gone(reason: string): void {
    this.ctx.prepared = false;
    void this.screen.stop();
    this.stopSyslog();
    this.screen.close();
    void this.wda.close();
    for (const l of this.brokenListeners) l(reason);
  }

  async close(): Promise<void> {
    await this.stopSession('close');
  }

  /** Stops the live screen, the syslog and WebDriverAgent (`end`: its session; `close`: all of it, the device is going). */
  private async stopSession(wda: 'end' | 'close'): Promise<void> {
    this.ctx.prepared = false;
    await this.screen.stop();
    this.stopSyslog();
    this.screen.close();
    await this.wda[wda]();
  }

  private async startSyslog(): Promise<void> {
    this.stopSyslog();
    const syslog = new SyslogService(await this.ctx.service('com.apple.syslog_relay'));
    this.syslog = syslog;
    syslog.start((line: string) => {
      const entry = parseSyslogLine(line);
      this.logRing.push(entry.level, entry.source, entry.text);
    });
  }

  private stopSyslog(): void {
    this.syslog?.close();
    this.syslog = null;
  }
}
