import { randomUUID } from 'node:crypto';
import { stat as localStat } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { AppHelper } from '#shared/wire/messages.js';
import type { ControlAction, DeviceInfo, RpcResult, Screen } from '#shared/wire/index.js';
import { DriverError, LogRing, unknownAction, type DebugProtocol, type DebugTarget, type DeviceDriver, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { freeLocalPort, pullFile, pushFile, shell, shellQuote, type AdbDevice } from './adb.js';
import { AndroidScreen, type ScreenPath } from './screen.js';
import { AndroidInput, SETTINGS_PACKAGE, type InputPath, type TextPath } from './input.js';
import { UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE } from './uiautomator2.js';

/** Packages the agent itself installs (text input, touch): they stay on the device when a session ends. */
const HELPER_PACKAGES = new Set([SETTINGS_PACKAGE, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE]);
import { androidKeyCode } from './keys.js';
import { parseLogcatLine } from './logcat.js';
import { parseUiautomatorXml } from './ui-tree.js';
import { ANDROID_ENGINE, androidFindings } from './accessibility.js';
import { AndroidDebug, type AndroidDebugOptions } from './debug.js';

const SCRATCH_ROOT = '/data/local/tmp';
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
/** Device paths a session may not delete or replace as a whole. */
const PROTECTED = new Set(['/', '/sdcard', '/storage', '/storage/emulated', '/storage/emulated/0', '/data', '/data/local', '/data/local/tmp', '/system', '/vendor', '/proc', '/dev', '/sys']);

type Orientation = 'portrait' | 'landscape';

/** What an Android device is, read from its properties (`getprop`) and `wm size`. */
export async function describeAndroidDevice(device: AdbDevice, serial: string, deviceId: string): Promise<DeviceInfo> {
  const props = await device.getProperties();
  const get = (key: string) => (props[key] ?? '').trim();
  const size = parseWmSize(await shell(device, 'wm size'));
  const density = Number(get('ro.sf.lcd_density')) || 0;
  const characteristics = get('ro.build.characteristics').split(',');
  const hardware = get('ro.hardware');
  const emulator = get('ro.kernel.qemu') === '1' || get('ro.boot.qemu') === '1' || ['goldfish', 'ranchu', 'vbox86'].includes(hardware) || serial.startsWith('emulator-');
  const smallestDp = size && density ? (Math.min(size.width, size.height) * 160) / density : 0;
  const type = characteristics.includes('tablet') || smallestDp >= 600 ? 'tablet' : characteristics.includes('tv') ? 'tv' : characteristics.includes('watch') ? 'watch' : 'phone';
  const model = get('ro.product.model') || 'Android device';
  return {
    deviceId,
    name: `${model} (${serial})`.slice(0, 200),
    platform: 'android',
    osVersion: get('ro.build.version.release') || 'unknown',
    model: model.slice(0, 200),
    manufacturer: (get('ro.product.manufacturer') || 'unknown').slice(0, 200),
    type,
    isRealDevice: !emulator,
    provider: 'android',
    screen: { width: size?.width ?? 1080, height: size?.height ?? 1920, scale: 1 },
  };
}

/** `wm size`: the override size when there is one, else the physical size. */
export function parseWmSize(output: string): { width: number; height: number } | null {
  const override = /Override size:\s*(\d+)x(\d+)/.exec(output);
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(output);
  const m = override ?? physical;
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

const SYSTEM_SETTINGS = 'com.android.settings';
const PLAY_STORE = 'com.android.vending';
const launcherCommand = (pkg: string) => `monkey -p ${pkg} -c android.intent.category.LAUNCHER 1`;
const settingsLaunch = (screen: string, data?: string) => ({ command: `am start -a android.settings.${screen}${data ? ` -d ${shellQuote(data)}` : ''}`, pkg: SYSTEM_SETTINGS });

/** The shell command that opens a helper, and the package it starts (force-stopped at release). */
function helperLaunch(helper: AppHelper, packageName: string | undefined): { command: string; pkg: string } {
  const needPackage = (): string => {
    if (!packageName) throw new DriverError('BAD_REQUEST', `The ${helper} helper needs a packageName`);
    return packageName;
  };
  switch (helper) {
    case 'play-store':
      return {
        command: packageName ? `am start -a android.intent.action.VIEW -d ${shellQuote(`market://details?id=${packageName}`)}` : launcherCommand(PLAY_STORE),
        pkg: PLAY_STORE,
      };
    case 'settings':
      return settingsLaunch('SETTINGS');
    case 'app-settings':
      return settingsLaunch('APPLICATION_DETAILS_SETTINGS', `package:${needPackage()}`);
    case 'developer-options':
      return settingsLaunch('APPLICATION_DEVELOPMENT_SETTINGS');
    case 'wifi-settings':
      return settingsLaunch('WIFI_SETTINGS');
    case 'launch-app': {
      const pkg = needPackage();
      return { command: launcherCommand(pkg), pkg };
    }
    default: {
      const never: never = helper;
      throw new DriverError('BAD_REQUEST', `Unknown helper ${String(never)}`);
    }
  }
}

/**
 * One Android device through the adb server (adbkit): screen through `screencap`, input through
 * `input`, apps through `pm`/`am`/`monkey`, files through the sync service, UI through `uiautomator
 * dump`, logs through `logcat`. A session leaves nothing behind: `release` force-stops what it
 * started, uninstalls what it installed, and removes what it pushed and its scratch folder.
 */
export class AndroidDevice implements DeviceDriver {
  private readonly logRing = new LogRing();
  private readonly brokenListeners = new Set<(reason: string) => void>();
  private prepared = false;
  private orientation: Orientation = 'portrait';
  private baselinePackages = new Set<string>();
  private readonly started = new Set<string>();
  private readonly pushed = new Set<string>();
  private scratch: string | null = null;
  private logcat: Duplex | null = null;
  /** The screen capability: screenshots and the live screen (minicap, else screencap). */
  private readonly screenCapability: AndroidScreen;
  /** The input capability: touch (minitouch, else `input`), keys, text (any script through an input method). */
  private readonly inputCapability: AndroidInput;
  private devtoolsPort: number | null = null;
  private readonly debug: AndroidDebug | null;

  constructor(
    readonly info: DeviceInfo,
    readonly serial: string,
    private readonly device: AdbDevice,
    private readonly logger: Logger,
    debug?: Omit<AndroidDebugOptions, 'logger'>,
    touch: { uiautomator2: boolean } = { uiautomator2: true },
  ) {
    this.debug = debug ? new AndroidDebug(serial, device, { ...debug, logger }) : null;
    this.screenCapability = new AndroidScreen(device, serial, logger, { width: info.screen.width, height: info.screen.height }, (path, reason) => this.notePath('screen', path, reason));
    this.inputCapability = new AndroidInput(device, serial, logger, { width: info.screen.width, height: info.screen.height }, (kind, path, reason) => this.notePath(kind, path, reason), touch);
  }

  /** Why each capability runs on a fallback now (screen, input, text), for the info's `reason`. */
  private readonly fallbacks = new Map<string, string>();

  /**
   * Records which path a capability takes in the device's info (`capabilities`, which the host's
   * heartbeat carries to the service), and says why a faster one is not used: in the info's reason, and
   * once in the device log.
   */
  private notePath(kind: 'screen' | 'input' | 'text', path: ScreenPath | InputPath | TextPath, reason: string | null): void {
    const capabilities = { ...this.info.capabilities, [kind]: path };
    if (reason) {
      const note = `${kind}: ${path} (${reason})`.slice(0, 500);
      if (this.fallbacks.get(kind) !== note) this.logRing.push('warn', 'agent', note);
      this.fallbacks.set(kind, note);
    } else this.fallbacks.delete(kind);
    const why = [...this.fallbacks.values()].join('; ').slice(0, 500);
    if (why) capabilities.reason = why;
    else delete capabilities.reason;
    this.info.capabilities = capabilities as DeviceInfo['capabilities'];
  }

  async prepare(onProgress: (step: string) => void): Promise<Screen> {
    onProgress('waking the device');
    await this.sh('input keyevent KEYCODE_WAKEUP');
    await this.sh('wm dismiss-keyguard');
    onProgress('going home');
    await this.sh('input keyevent KEYCODE_HOME');
    await this.sh('settings put system accelerometer_rotation 0 && settings put system user_rotation 0');
    this.orientation = 'portrait';
    await this.screenCapability.setRotation(0);
    this.inputCapability.setRotation(0);
    onProgress('starting touch');
    await this.inputCapability.start();
    onProgress('noting installed apps');
    this.baselinePackages = new Set(await this.packages(false));
    this.started.clear();
    this.pushed.clear();
    this.scratch = `${SCRATCH_ROOT}/df-session-${randomUUID().slice(0, 8)}`;
    await this.sh(`mkdir -p ${shellQuote(this.scratch)}`);
    this.logRing.clear();
    await this.startLogcat();
    this.prepared = true;
    return this.screen();
  }

  async release(): Promise<void> {
    this.prepared = false;
    this.stopLogcat();
    const problems: string[] = [];
    const attempt = async (what: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        problems.push(`${what}: ${(err as Error).message}`);
      }
    };
    await attempt('stopping the live screen', () => this.screenCapability.release());
    await attempt('stopping touch and restoring the input method', () => this.inputCapability.stop());
    for (const pkg of this.started) await attempt(`force-stop ${pkg}`, () => this.sh(`am force-stop ${pkg}`));
    this.started.clear();
    if (this.baselinePackages.size > 0) {
      await attempt('uninstalling session apps', async () => {
        for (const pkg of await this.packages(false)) {
          // The helper with the Unicode input method stays, as any helper the farm keeps on a device.
          if (!this.baselinePackages.has(pkg) && !HELPER_PACKAGES.has(pkg)) await this.sh(`pm uninstall ${pkg}`);
        }
      });
    }
    for (const path of this.pushed) await attempt(`removing ${path}`, () => this.sh(`rm -rf ${shellQuote(path)}`));
    this.pushed.clear();
    if (this.scratch) {
      const scratch = this.scratch;
      await attempt('removing the scratch folder', () => this.sh(`rm -rf ${shellQuote(scratch)}`));
    }
    this.scratch = null;
    await attempt('going home', () => this.sh('input keyevent KEYCODE_HOME'));
    this.logRing.clear();
    if (problems.length > 0) this.logger.warn({ serial: this.serial, problems }, 'android release left something behind');
  }

  async screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot> {
    return this.screenCapability.screenshot(format, quality, this.screen());
  }

  async control(action: ControlAction): Promise<RpcResult<'control'>> {
    this.requirePrepared();
    switch (action.action) {
      case 'tap':
        await this.inputCapability.tap(action.x, action.y);
        return {};
      case 'longPress':
        await this.inputCapability.longPress(action.x, action.y, action.durationMs ?? 800);
        return {};
      case 'swipe':
        await this.inputCapability.swipe({ x: action.x1, y: action.y1 }, { x: action.x2, y: action.y2 }, action.durationMs ?? 300);
        return {};
      case 'pinch':
        await this.inputCapability.pinch({ x: action.x, y: action.y }, action.fromDistance, action.toDistance, action.durationMs ?? 400);
        return {};
      case 'text':
        await this.inputCapability.text(action.text);
        return {};
      case 'key': {
        const code = androidKeyCode(action.key);
        if (!code) throw new DriverError('BAD_REQUEST', `Unknown key "${action.key}"`);
        await this.inputCapability.key(code);
        return {};
      }
      case 'home':
        await this.inputCapability.key('KEYCODE_HOME');
        return {};
      case 'back':
        await this.inputCapability.key('KEYCODE_BACK');
        return {};
      case 'rotate':
        await this.sh(`settings put system accelerometer_rotation 0 && settings put system user_rotation ${action.orientation === 'portrait' ? 0 : 1}`);
        this.orientation = action.orientation;
        await this.screenCapability.setRotation(action.orientation === 'portrait' ? 0 : 90);
        this.inputCapability.setRotation(action.orientation === 'portrait' ? 0 : 90);
        return { orientation: this.orientation };
      case 'openUrl': {
        const out = await this.sh(`am start -a android.intent.action.VIEW -d ${shellQuote(action.url)}`);
        if (/^Error/m.test(out)) throw new DriverError('DEVICE_ERROR', `The URL could not be opened: ${out.trim().slice(0, 300)}`);
        return { url: action.url };
      }
      default:
        throw unknownAction(action);
    }
  }

  logs(afterSeq: number): RpcResult<'logs'> {
    return this.logRing.after(afterSeq);
  }

  async uiTree(): Promise<RpcResult<'uiTree'>> {
    this.requirePrepared();
    const xml = await this.dumpHierarchy();
    const { root, packageName } = parseUiautomatorXml(xml, this.screen());
    return { url: packageName ? `android-app://${packageName}` : 'android-app://unknown', title: this.info.model, root };
  }

  /** Rules over the UI hierarchy and the screenshot (agent/android/accessibility.ts). */
  async accessibilityScan(): Promise<RpcResult<'accessibilityScan'>> {
    this.requirePrepared();
    const xml = await this.dumpHierarchy();
    const png = await this.capture();
    const density = Number((await this.sh('getprop ro.sf.lcd_density')).trim()) || Number(/(\d+)\s*$/.exec((await this.sh('wm density')).trim())?.[1]) || 160;
    const packageName = /package="([^"]+)"/.exec(xml)?.[1] ?? 'unknown';
    return { engine: ANDROID_ENGINE, url: `android-app://${packageName}`, title: this.info.model, scope: `android-app://${packageName}`, findings: androidFindings(xml, png, density).slice(0, 1_000) };
  }

  /** The `uiautomator dump` hierarchy as XML. */
  private async dumpHierarchy(): Promise<string> {
    let out = await this.sh('uiautomator dump /dev/tty');
    if (!out.includes('<hierarchy')) {
      // Some builds cannot write to the terminal; a file in the scratch folder always works.
      const file = `${this.scratch ?? SCRATCH_ROOT}/window_dump.xml`;
      await this.sh(`uiautomator dump ${shellQuote(file)}`);
      out = await this.sh(`cat ${shellQuote(file)}`);
      await this.sh(`rm -f ${shellQuote(file)}`);
    }
    const start = out.indexOf('<?xml') >= 0 ? out.indexOf('<?xml') : out.indexOf('<hierarchy');
    const end = out.lastIndexOf('</hierarchy>');
    if (start < 0 || end < 0) throw new DriverError('DEVICE_ERROR', `uiautomator gave no hierarchy: ${out.trim().slice(0, 200)}`);
    return out.slice(start, end + '</hierarchy>'.length);
  }

  async startScreencast(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    this.requirePrepared();
    await this.screenCapability.start(options, onFrame);
  }

  async stopScreencast(): Promise<void> {
    await this.screenCapability.stop();
  }

  async devtools(): Promise<{ host: string; port: number } | null> {
    this.requirePrepared();
    const browsers = ['com.android.chrome', 'com.google.android.webview', 'com.android.webview'];
    const present = await this.appPresence(browsers);
    if (!Object.values(present.presence).some(Boolean)) return null;
    if (this.devtoolsPort === null) {
      const port = await freeLocalPort();
      await this.device.forward(`tcp:${port}`, 'localabstract:chrome_devtools_remote');
      this.devtoolsPort = port;
    }
    return { host: '127.0.0.1', port: this.devtoolsPort };
  }

  // ---- debugging -----------------------------------------------------------------------------------

  async debugProtocols(): Promise<DebugProtocol[]> {
    if (!this.debug) return [];
    const present = await this.appPresence(['com.android.chrome', 'com.google.android.webview', 'com.android.webview']).catch(() => ({ presence: {} }));
    return this.debug.protocols(Object.values(present.presence).some(Boolean));
  }

  async debugTargets(): Promise<DebugTarget[]> {
    this.requirePrepared();
    return this.debug ? this.debug.targets() : [];
  }

  async openDebugStream(protocol: DebugProtocol, target: string | undefined): Promise<Duplex> {
    this.requirePrepared();
    if (!this.debug) throw new DriverError('UNSUPPORTED', 'Debugging is not set up for this device');
    return this.debug.open(protocol, target);
  }

  shellCommand(): { file: string; args: string[] } | null {
    return this.debug?.shellCommand() ?? null;
  }

  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    return { platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:udid': this.serial };
  }

  // ---- apps ----------------------------------------------------------------------------------------

  async listApps(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    const thirdParty = new Set(await this.packages(true));
    const all = thirdPartyOnly ? [...thirdParty] : await this.packages(false);
    return all.sort().map((packageName) => ({ packageName, system: !thirdParty.has(packageName) }));
  }

  async installApp(localPath: string): Promise<RpcResult<'installApp'>> {
    this.requirePrepared();
    const before = new Set(await this.packages(false));
    const remote = `${this.scratch ?? SCRATCH_ROOT}/upload-${randomUUID().slice(0, 8)}.apk`;
    await pushFile(this.device, localPath, remote);
    try {
      const out = await this.sh(`pm install -r -t ${shellQuote(remote)}`);
      const failure = /Failure \[([^\]]*)\]/.exec(out) ?? /^(Exception|Error).*$/m.exec(out);
      if (failure || !/Success/.test(out)) throw new DriverError('BAD_REQUEST', `The app could not be installed: ${(failure?.[1] ?? out.trim()).slice(0, 300) || 'no answer from pm'}`);
    } finally {
      await this.sh(`rm -f ${shellQuote(remote)}`).catch(() => undefined);
    }
    const added = (await this.packages(false)).filter((p) => !before.has(p));
    return { packageNames: added };
  }

  async uninstallApp(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    this.requirePrepared();
    if (!(await this.packages(false)).includes(packageName)) return { packageName, uninstalled: false };
    const out = await this.sh(`pm uninstall ${packageName}`);
    if (!/Success/.test(out)) throw new DriverError('BAD_REQUEST', `The app could not be uninstalled: ${out.trim().slice(0, 300)}`);
    this.started.delete(packageName);
    return { packageName, uninstalled: true };
  }

  async appPresence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    const installed = new Set(await this.packages(false));
    return { presence: Object.fromEntries(packageNames.map((p) => [p, installed.has(p)])) };
  }

  async openHelper(helper: AppHelper, packageName?: string): Promise<RpcResult<'openHelper'>> {
    this.requirePrepared();
    const { command, pkg } = helperLaunch(helper, packageName);
    const out = await this.sh(command);
    if (helper === 'launch-app' && /monkey aborted|No activities found/.test(out)) throw new DriverError('BAD_REQUEST', `${pkg} has no launcher activity on this device`);
    this.started.add(pkg);
    if (/^Error/m.test(out)) throw new DriverError('DEVICE_ERROR', `The ${helper} helper could not be opened: ${out.trim().slice(0, 300)}`);
    return { helper, ...(packageName ? { packageName } : {}) };
  }

  // ---- files ---------------------------------------------------------------------------------------

  async pushFile(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    this.requirePrepared();
    this.refuseProtected(devicePath);
    const parent = devicePath.slice(0, devicePath.lastIndexOf('/')) || '/';
    const parentStat = await this.statOrNull(parent);
    if (!parentStat) throw new DriverError('NOT_FOUND', `The folder ${parent} does not exist`);
    if ((parentStat.mode & S_IFMT) !== S_IFDIR) throw new DriverError('BAD_REQUEST', `${parent} is not a folder`);
    const existing = await this.statOrNull(devicePath);
    if (existing && (existing.mode & S_IFMT) === S_IFDIR) throw new DriverError('BAD_REQUEST', `${devicePath} is a folder`);
    await pushFile(this.device, localPath, devicePath);
    if (!existing) this.pushed.add(devicePath);
    return { path: devicePath, size: (await localStat(localPath)).size };
  }

  async pullFile(devicePath: string, localPath: string): Promise<{ size: number }> {
    this.requirePrepared();
    const found = await this.statOrNull(devicePath);
    if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
    if ((found.mode & S_IFMT) !== S_IFREG) throw new DriverError('BAD_REQUEST', `${devicePath} is not a regular file`);
    await pullFile(this.device, devicePath, localPath);
    return { size: (await localStat(localPath)).size };
  }

  async listFiles(devicePath: string): Promise<RpcResult<'listFiles'>> {
    this.requirePrepared();
    const found = await this.statOrNull(devicePath);
    if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
    if ((found.mode & S_IFMT) !== S_IFDIR) throw new DriverError('BAD_REQUEST', `${devicePath} is not a folder`);
    const entries: { name: string; mode: number; size: number }[] = await this.device.readdir(devicePath);
    return {
      path: devicePath,
      entries: entries
        .filter((e) => e.name !== '.' && e.name !== '..')
        .map((e) => {
          const kind = e.mode & S_IFMT;
          const mtime = (e as unknown as { mtimeMs?: number }).mtimeMs;
          return {
            name: e.name,
            type: kind === S_IFDIR ? ('directory' as const) : kind === S_IFREG ? ('file' as const) : ('other' as const),
            size: e.size,
            mode: e.mode & 0o7777,
            modifiedAt: typeof mtime === 'number' && Number.isFinite(mtime) ? new Date(mtime).toISOString() : null,
          };
        })
        .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1)),
    };
  }

  async deleteFile(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    this.requirePrepared();
    this.refuseProtected(devicePath);
    if (!(await this.statOrNull(devicePath))) return { path: devicePath, deleted: false };
    const out = await this.sh(`rm -rf ${shellQuote(devicePath)}`);
    if (await this.statOrNull(devicePath)) throw new DriverError('BAD_REQUEST', `${devicePath} could not be deleted: ${out.trim().slice(0, 300)}`);
    this.pushed.delete(devicePath);
    return { path: devicePath, deleted: true };
  }

  async makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    this.requirePrepared();
    const existing = await this.statOrNull(devicePath);
    if (existing) {
      if ((existing.mode & S_IFMT) === S_IFDIR) return { path: devicePath };
      throw new DriverError('BAD_REQUEST', `${devicePath} exists and is not a folder`);
    }
    // The shallowest folder that does not exist yet is what `mkdir -p` creates and release removes.
    const parts = devicePath.split('/').filter(Boolean);
    let created = devicePath;
    for (let i = 1; i <= parts.length; i++) {
      const candidate = `/${parts.slice(0, i).join('/')}`;
      if (!(await this.statOrNull(candidate))) {
        created = candidate;
        break;
      }
    }
    this.refuseProtected(created);
    const out = await this.sh(`mkdir -p ${shellQuote(devicePath)}`);
    if (!(await this.statOrNull(devicePath))) throw new DriverError('BAD_REQUEST', `${devicePath} could not be created: ${out.trim().slice(0, 300)}`);
    this.pushed.add(created);
    return { path: devicePath };
  }

  onBroken(listener: (reason: string) => void): void {
    this.brokenListeners.add(listener);
  }

  /** The device went away (unplugged, adb disconnect). */
  gone(reason: string): void {
    this.prepared = false;
    void this.stopScreencast();
    this.stopLogcat();
    for (const l of this.brokenListeners) l(reason);
  }

  async close(): Promise<void> {
    this.prepared = false;
    await this.stopScreencast();
    this.stopLogcat();
    await this.debug?.close();
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private screen(): Screen {
    const { width, height } = this.info.screen;
    const portrait = this.orientation === 'portrait';
    return { width: portrait ? width : height, height: portrait ? height : width, scale: 1 };
  }

  private async sh(command: string): Promise<string> {
    return shell(this.device, command);
  }


  private capture(): Promise<Buffer> {
    return this.screenCapability.capture();
  }

  private async packages(thirdPartyOnly: boolean): Promise<string[]> {
    const out = await this.sh(thirdPartyOnly ? 'pm list packages -3' : 'pm list packages');
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('package:'))
      .map((l) => l.slice('package:'.length));
  }

  private async statOrNull(devicePath: string): Promise<{ mode: number; size: number } | null> {
    try {
      const s = await this.device.stat(devicePath);
      return { mode: s.mode, size: s.size };
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
  }

  private refuseProtected(devicePath: string): void {
    const normal = devicePath.replace(/\/+$/, '') || '/';
    if (PROTECTED.has(normal)) throw new DriverError('BAD_REQUEST', `${normal} is protected`);
  }

  private requirePrepared(): void {
    if (!this.prepared) throw new DriverError('NOT_PREPARED', 'The device is not prepared');
  }

  private async startLogcat(): Promise<void> {
    this.stopLogcat();
    await this.sh('logcat -c').catch(() => undefined);
    const stream = await this.device.shell('logcat -v threadtime');
    this.logcat = stream;
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const lines = text.split(/\r?\n/);
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const entry = parseLogcatLine(line);
        if (entry) this.logRing.push(entry.level, entry.source, entry.text, entry.at);
        else if (line.trim() && !line.startsWith('---------')) this.logRing.push('info', 'logcat', line);
      }
    });
    stream.on('error', () => undefined);
  }

  private stopLogcat(): void {
    this.logcat?.destroy();
    this.logcat = null;
  }
}
