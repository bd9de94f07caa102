import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat as localStat } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { AfcService } from 'appium-ios-device/build/lib/afc/index.js';
import { HouseArrestService } from 'appium-ios-device/build/lib/house-arrest/index.js';
import { InstallationProxyService } from 'appium-ios-device/build/lib/installation-proxy/index.js';
import { PlistService } from 'appium-ios-device/build/lib/plist-service/index.js';
import { SyslogService } from 'appium-ios-device/build/lib/syslog/index.js';
import { NotAZipError, readAppArchive } from '#shared/apps/index.js';
import type { ControlAction, DeviceInfo, RpcResult, Screen } from '#shared/wire/index.js';
import { pngSize, pngToJpeg } from '../android/adb.js';
import { PngScreencast } from '../png-screencast.js';
import { DriverError, LogRing, type DebugProtocol, type DebugTarget, type DeviceDriver, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { iosModel } from './models.js';
import { Screenshotr } from './screenshotr.js';
import { parseSyslogLine } from './syslog.js';
import { UsbmuxClient } from './usbmux.js';
import { usbmuxStream } from './usbmux-stream.js';
import { listInspectorTargets } from './web-inspector.js';

/** Least time between two screencast frames; screenshotr itself is the real limit (a few frames a second). */
const FRAME_INTERVAL_MS = 200;
/** Where uploaded IPAs wait in the AFC media area for installation_proxy (the folder Xcode and ideviceinstaller use). */
const STAGING = 'PublicStaging';
const DEBUGSERVER = ['com.apple.debugserver.DVTSecureSocketProxy', 'com.apple.debugserver'];
/** Folders of an app container a session may not delete or replace as a whole. */
const PROTECTED = new Set(['/', '/Documents', '/Library', '/tmp']);
const NEEDS_WDA = 'needs WebDriverAgent on the device, which is built and signed with Xcode on a Mac; use /df/wd with an XCUITest-capable Appium host';

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

/**
 * One iOS device behind usbmuxd, through appium-ios-device: screenshots through screenshotr, the log
 * through syslog_relay, apps through AFC (upload) and installation_proxy, debugging through usbmux
 * port connections and the web inspector service. Input and the UI tree need WebDriverAgent, which
 * only Xcode can build and sign: this driver answers them UNSUPPORTED, and `/df/wd` reaches the device
 * through Appium's XCUITest driver where the host has one. A session leaves nothing behind: `release`
 * uninstalls the apps it installed and removes what it staged.
 */
export class IosDevice implements DeviceDriver {
  private readonly logRing = new LogRing();
  private readonly brokenListeners = new Set<(reason: string) => void>();
  private prepared = false;
  private syslog: SyslogService | null = null;
  private shooter: Screenshotr | null = null;
  private baselineApps = new Set<string>();
  private readonly installed = new Set<string>();
  /** Container paths (`/<bundle id>/<path>`) the session created; release removes them. */
  private readonly pushed = new Set<string>();
  /** Repeated captures as the live screen (the next one only after the previous frame was handed on). */
  private readonly screencast = new PngScreencast(() => this.capture(), FRAME_INTERVAL_MS, (err) => this.logger.debug({ err, udid: this.udid }, 'screencast frame failed'));
  private debugserver: string | null | undefined;

  constructor(
    readonly info: DeviceInfo,
    readonly udid: string,
    private readonly usbmux: UsbmuxClient,
    private readonly logger: Logger,
  ) {}

  async prepare(onProgress: (step: string) => void): Promise<Screen> {
    this.debugserver = undefined;
    onProgress('noting installed apps');
    this.baselineApps = new Set(Object.keys(await this.browse('User')));
    this.installed.clear();
    this.pushed.clear();
    onProgress('following the device log');
    this.logRing.clear();
    await this.startSyslog();
    this.prepared = true;
    return this.info.screen;
  }

  async release(): Promise<void> {
    this.prepared = false;
    await this.stopScreencast();
    this.stopSyslog();
    this.closeShooter();
    const problems: string[] = [];
    try {
      const now = Object.keys(await this.browse('User'));
      for (const bundleId of now) {
        if (this.baselineApps.has(bundleId)) continue;
        await this.withInstaller((proxy) => proxy.uninstallApplication(bundleId)).catch((err: Error) => problems.push(`uninstalling ${bundleId}: ${err.message}`));
      }
    } catch (err) {
      problems.push(`listing apps: ${(err as Error).message}`);
    }
    for (const path of this.pushed) {
      const { bundleId, inner } = this.split(path);
      await this.withContainer(bundleId, (afc) => afc.deleteDirectory(inner)).catch((err: Error) => {
        // An app uninstalled above took its container with it.
        if (!/not found|OBJECT_NOT_FOUND/i.test(err.message)) problems.push(`removing ${path}: ${err.message}`);
      });
    }
    this.pushed.clear();
    this.installed.clear();
    this.logRing.clear();
    if (problems.length > 0) this.logger.warn({ udid: this.udid, problems }, 'ios release left something behind');
  }

  async screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot> {
    const png = await this.capture();
    const size = pngSize(png) ?? this.info.screen;
    if (format === 'jpeg') {
      const jpeg = await pngToJpeg(png, quality ?? 80);
      // Without an image codec the PNG is answered, and its content type says so.
      if (jpeg) return { contentType: 'image/jpeg', data: jpeg.data, width: jpeg.width, height: jpeg.height };
    }
    return { contentType: 'image/png', data: png, width: size.width, height: size.height };
  }

  async control(action: ControlAction): Promise<RpcResult<'control'>> {
    this.requirePrepared();
    throw new DriverError('UNSUPPORTED', `${action.action} on an iOS device ${NEEDS_WDA}`);
  }

  logs(afterSeq: number): RpcResult<'logs'> {
    return this.logRing.after(afterSeq);
  }

  async uiTree(): Promise<RpcResult<'uiTree'>> {
    this.requirePrepared();
    throw new DriverError('UNSUPPORTED', `The UI tree of an iOS device ${NEEDS_WDA}`);
  }

  async startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    this.requirePrepared();
    await this.screencast.start('iOS', options, onFrame);
  }

  async stopScreencast(): Promise<void> {
    await this.screencast.stop();
  }

  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    return { platformName: 'iOS', 'appium:automationName': 'XCUITest', 'appium:udid': this.udid };
  }

  // ---- apps ----------------------------------------------------------------------------------------

  async listApps(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    const apps = await this.browse(thirdPartyOnly ? 'User' : 'Any');
    return Object.entries(apps)
      .map(([packageName, attrs]) => ({ packageName, system: attrs.ApplicationType !== 'User' }))
      .sort((a, b) => a.packageName.localeCompare(b.packageName));
  }

  async installApp(localPath: string): Promise<RpcResult<'installApp'>> {
    this.requirePrepared();
    let bundleId: string;
    try {
      const meta = await readAppArchive(localPath);
      if (meta?.platform !== 'ios') throw new DriverError('BAD_REQUEST', 'iOS devices install IPAs (a zip with Payload/<App>.app/Info.plist)');
      bundleId = meta.identifier;
    } catch (err) {
      if (err instanceof DriverError) throw err;
      throw new DriverError('BAD_REQUEST', err instanceof NotAZipError ? 'The file is not an IPA (not a zip archive)' : `The IPA could not be read: ${(err as Error).message}`);
    }
    const staged = `${STAGING}/df-${randomUUID().slice(0, 8)}.ipa`;
    await this.withAfc(async (afc) => {
      await afc.createDirectory(STAGING);
      const target = await afc.createWriteStream(staged, {});
      await pipeline(createReadStream(localPath), target);
    });
    try {
      await this.withInstaller((proxy) => proxy.installApplication(staged, { PackageType: 'Developer' }, 300_000));
    } catch (err) {
      throw new DriverError('BAD_REQUEST', `The app could not be installed: ${(err as Error).message.slice(0, 300)}`);
    } finally {
      await this.withAfc((afc) => afc.deleteDirectory(staged)).catch(() => undefined);
    }
    this.installed.add(bundleId);
    return { packageNames: [bundleId] };
  }

  async uninstallApp(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    this.requirePrepared();
    if (!(packageName in (await this.browse('Any')))) return { packageName, uninstalled: false };
    try {
      await this.withInstaller((proxy) => proxy.uninstallApplication(packageName));
    } catch (err) {
      throw new DriverError('BAD_REQUEST', `The app could not be uninstalled: ${(err as Error).message.slice(0, 300)}`);
    }
    this.installed.delete(packageName);
    return { packageName, uninstalled: true };
  }

  async appPresence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    const apps = await this.browse('Any');
    return { presence: Object.fromEntries(packageNames.map((p) => [p, p in apps])) };
  }

  // ---- files (app containers through house_arrest) -------------------------------------------------
  // A device path is `/<bundle id>/<path in the app's container>`; `/` lists the third-party apps. iOS
  // vends only the containers of apps installed for development (a development-signed build).

  async listFiles(devicePath: string): Promise<RpcResult<'listFiles'>> {
    this.requirePrepared();
    if (devicePath.replace(/\/+$/, '') === '') {
      const apps = Object.keys(await this.browse('User')).sort();
      return { path: devicePath, entries: apps.map((name) => ({ name, type: 'directory' as const, size: 0, mode: 0o755, modifiedAt: null })) };
    }
    const { bundleId, inner } = this.split(devicePath);
    return this.withContainer(bundleId, async (afc) => {
      const found = await statOrNull(afc, inner);
      if (!found) throw new DriverError('BAD_REQUEST', `not found: ${devicePath}`);
      if (!found.isDirectory()) throw new DriverError('BAD_REQUEST', `${devicePath} is not a folder`);
      const entries: RpcResult<'listFiles'>['entries'] = [];
      for (const name of await afc.listDirectory(inner)) {
        if (name === '.' || name === '..') continue;
        const info = await statOrNull(afc, `${inner.replace(/\/$/, '')}/${name}`);
        if (!info) continue;
        entries.push({
          name,
          type: info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other',
          size: info.size,
          mode: info.isDirectory() ? 0o755 : 0o644,
          modifiedAt: Number.isFinite(info.mtimeMs) && info.mtimeMs > 0 ? new Date(info.mtimeMs).toISOString() : null,
        });
      }
      return { path: devicePath, entries: entries.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1)) };
    });
  }

  async pushFile(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    this.requirePrepared();
    const { bundleId, inner } = this.split(devicePath);
    this.refuseProtected(inner, devicePath);
    await this.withContainer(bundleId, async (afc) => {
      const parent = inner.slice(0, inner.lastIndexOf('/')) || '/';
      const parentInfo = await statOrNull(afc, parent);
      if (!parentInfo) throw new DriverError('BAD_REQUEST', `not found: the folder /${bundleId}${parent === '/' ? '' : parent} does not exist`);
      if (!parentInfo.isDirectory()) throw new DriverError('BAD_REQUEST', `/${bundleId}${parent} is not a folder`);
      const existing = await statOrNull(afc, inner);
      if (existing?.isDirectory()) throw new DriverError('BAD_REQUEST', `${devicePath} is a folder`);
      await pipeline(createReadStream(localPath), await afc.createWriteStream(inner, {}));
      if (!existing) this.pushed.add(devicePath);
    });
    return { path: devicePath, size: (await localStat(localPath)).size };
  }

  async pullFile(devicePath: string, localPath: string): Promise<{ size: number }> {
    this.requirePrepared();
    const { bundleId, inner } = this.split(devicePath);
    await this.withContainer(bundleId, async (afc) => {
      const found = await statOrNull(afc, inner);
      if (!found) throw new DriverError('BAD_REQUEST', `not found: ${devicePath}`);
      if (!found.isFile()) throw new DriverError('BAD_REQUEST', `${devicePath} is not a regular file`);
      await pipeline(await afc.createReadStream(inner, {}), createWriteStream(localPath));
    });
    return { size: (await localStat(localPath)).size };
  }

  async deleteFile(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    this.requirePrepared();
    const { bundleId, inner } = this.split(devicePath);
    this.refuseProtected(inner, devicePath);
    return this.withContainer(bundleId, async (afc) => {
      if (!(await statOrNull(afc, inner))) return { path: devicePath, deleted: false };
      await afc.deleteDirectory(inner);
      this.pushed.delete(devicePath);
      return { path: devicePath, deleted: true };
    });
  }

  async makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    this.requirePrepared();
    const { bundleId, inner } = this.split(devicePath);
    return this.withContainer(bundleId, async (afc) => {
      const existing = await statOrNull(afc, inner);
      if (existing) {
        if (existing.isDirectory()) return { path: devicePath };
        throw new DriverError('BAD_REQUEST', `${devicePath} exists and is not a folder`);
      }
      // The shallowest folder that does not exist yet is what AFC creates and release removes.
      const parts = inner.split('/').filter(Boolean);
      let created = inner;
      for (let i = 1; i <= parts.length; i++) {
        const candidate = `/${parts.slice(0, i).join('/')}`;
        if (!(await statOrNull(afc, candidate))) {
          created = candidate;
          break;
        }
      }
      this.refuseProtected(created, devicePath);
      await afc.createDirectory(inner);
      this.pushed.add(`/${bundleId}${created}`);
      return { path: devicePath };
    });
  }

  // ---- debugging -----------------------------------------------------------------------------------

  async debugProtocols(): Promise<DebugProtocol[]> {
    const protocols: DebugProtocol[] = ['tcp_forward', 'webkit_inspector', 'usbmux'];
    if ((await this.debugserverService()) !== null) protocols.push('lldb_rsp');
    return protocols;
  }

  async debugTargets(): Promise<DebugTarget[]> {
    this.requirePrepared();
    const socket = await this.service('com.apple.webinspector');
    const pages = await listInspectorTargets(this.udid, socket, this.info.osVersion);
    // The device itself, for the usbmux stream (libimobiledevice's tools, Xcode-side clients).
    return [{ id: 'device', kind: 'device', title: `${this.info.name} (usbmuxd, this device only)`, protocol: 'usbmux' }, ...pages];
  }

  async openDebugStream(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    this.requirePrepared();
    switch (protocol) {
      case 'tcp_forward': {
        const port = Number(target);
        if (!target || !/^\d{1,5}$/.test(target) || port < 1 || port > 65_535) throw new DriverError('BAD_REQUEST', 'tcp_forward takes a device TCP port (1-65535) as its target');
        try {
          return await this.usbmux.connectPort(this.udid, port);
        } catch (err) {
          throw new DriverError('DEVICE_ERROR', `Nothing answers on device port ${port}: ${(err as Error).message}`, { cause: err });
        }
      }
      case 'webkit_inspector':
        // The stream is the whole inspector service; a target (a page id from debugTargets) only names
        // which page the client means to talk to, so it is checked for shape, not opened.
        if (target !== undefined && !/^[A-Za-z]+:\d+\.\d+$/.test(target)) throw new DriverError('BAD_REQUEST', 'A web inspector target is a page id like PID:4242.1 (GET debug targets)');
        return this.service('com.apple.webinspector');
      case 'usbmux':
        return usbmuxStream(this.usbmux, this.udid);
      case 'lldb_rsp': {
        const name = await this.debugserverService();
        if (!name) throw new DriverError('UNSUPPORTED', 'The device offers no debugserver (it needs the developer disk image mounted)');
        return this.service(name);
      }
      default:
        throw new DriverError('UNSUPPORTED', `iOS devices do not offer ${protocol}`);
    }
  }

  onBroken(listener: (reason: string) => void): void {
    this.brokenListeners.add(listener);
  }

  /** The device went away (unplugged, usbmuxd gone). */
  gone(reason: string): void {
    this.prepared = false;
    void this.stopScreencast();
    this.stopSyslog();
    this.closeShooter();
    for (const l of this.brokenListeners) l(reason);
  }

  async close(): Promise<void> {
    this.prepared = false;
    await this.stopScreencast();
    this.stopSyslog();
    this.closeShooter();
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private requirePrepared(): void {
    if (!this.prepared) throw new DriverError('NOT_PREPARED', 'The device is not prepared');
  }

  /** A started lockdown service; a refusal is the device's (DEVICE_ERROR), naming the service. */
  private async service(name: string) {
    try {
      return await this.usbmux.startService(this.udid, name);
    } catch (err) {
      throw new DriverError('DEVICE_ERROR', `The device did not start ${name}: ${(err as Error).message.slice(0, 300)}`, { cause: err });
    }
  }

  private async capture(): Promise<Buffer> {
    // One screenshotr connection serves a session's screenshots; a broken one is opened again once.
    for (let attempt = 0; ; attempt++) {
      try {
        this.shooter ??= await Screenshotr.open(await this.service('com.apple.mobile.screenshotr'));
        const png = await this.shooter.capture();
        if (!pngSize(png)) throw new DriverError('DEVICE_ERROR', 'screenshotr did not answer a PNG');
        return png;
      } catch (err) {
        this.closeShooter();
        if (attempt >= 1 || err instanceof DriverError) throw err instanceof DriverError ? err : new DriverError('DEVICE_ERROR', `Screenshot failed: ${(err as Error).message}`);
      }
    }
  }

  private closeShooter(): void {
    this.shooter?.close();
    this.shooter = null;
  }

  private async startSyslog(): Promise<void> {
    this.stopSyslog();
    const syslog = new SyslogService(await this.service('com.apple.syslog_relay'));
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

  private async withInstaller<T>(work: (proxy: InstallationProxyService) => Promise<T>): Promise<T> {
    const proxy = new InstallationProxyService(new PlistService(await this.service('com.apple.mobile.installation_proxy')));
    try {
      return await work(proxy);
    } finally {
      proxy.close();
    }
  }

  private async withAfc<T>(work: (afc: AfcService) => Promise<T>): Promise<T> {
    const afc = new AfcService(await this.service('com.apple.afc'));
    try {
      return await work(afc);
    } finally {
      afc.close();
    }
  }

  /** `/<bundle id>/<path>` as the app and the path in its container. */
  private split(devicePath: string): { bundleId: string; inner: string } {
    const m = /^\/([A-Za-z0-9][A-Za-z0-9.-]{0,254})(\/.*)?$/.exec(devicePath);
    if (!m) throw new DriverError('BAD_REQUEST', 'An iOS device path is /<bundle id>/<path in the app container>, e.g. /com.example.app/Documents/a.txt');
    const inner = (m[2] ?? '/').replace(/\/+$/, '') || '/';
    return { bundleId: m[1]!, inner };
  }

  private refuseProtected(inner: string, devicePath: string): void {
    if (PROTECTED.has(inner)) throw new DriverError('BAD_REQUEST', `${devicePath} is protected`);
  }

  /** AFC in an app's container, vended by house_arrest; an app without one (not installed, not development-signed) is not found. */
  private async withContainer<T>(bundleId: string, work: (afc: AfcService) => Promise<T>): Promise<T> {
    const arrest = new HouseArrestService(await this.service('com.apple.mobile.house_arrest'));
    let afc: AfcService;
    try {
      afc = await arrest.vendContainer(bundleId);
    } catch (err) {
      arrest.close();
      throw new DriverError('BAD_REQUEST', `not found: no container of ${bundleId} (only apps installed for development share theirs): ${(err as Error).message.slice(0, 200)}`);
    }
    try {
      return await work(afc);
    } finally {
      afc.close();
    }
  }

  /** Installed apps by bundle id: `User` (third-party), `System` or `Any`. */
  private async browse(type: 'User' | 'System' | 'Any'): Promise<Record<string, { ApplicationType?: string }>> {
    return this.withInstaller(async (proxy) => (await proxy.listApplications({ applicationType: type, returnAttributes: ['CFBundleIdentifier', 'ApplicationType', 'CFBundleDisplayName'] })) as Record<string, { ApplicationType?: string }>);
  }

  /** The debugserver service the device starts, or null when lockdown refuses both names (no developer disk image). */
  private async debugserverService(): Promise<string | null> {
    if (this.debugserver !== undefined) return this.debugserver;
    for (const name of DEBUGSERVER) {
      try {
        const probe = await this.usbmux.startService(this.udid, name);
        probe.destroy();
        this.debugserver = name;
        return name;
      } catch {
        // refused: try the next name
      }
    }
    this.debugserver = null;
    return null;
  }
}

/** AFC file info, or null when the path does not exist. */
async function statOrNull(afc: AfcService, path: string) {
  try {
    return await afc.getFileInfo(path);
  } catch (err) {
    if (/OBJECT_NOT_FOUND/.test((err as Error).message)) return null;
    throw err;
  }
}
