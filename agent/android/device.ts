import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { AppHelper, AgentCommand } from '#shared/wire/index.js';
import type { ControlAction, DeviceInfo, HealthSample, MendingReport, RpcResult, Screen } from '#shared/wire/index.js';
import { DriverError, LogRing, unknownAction, type DebugProtocol, type DebugTarget, type DeviceDriver, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { freeLocalPort, shell, shellQuote, uiautomator2Capabilities, type AdbDevice } from './adb.js';
import { AndroidApps, SCRATCH_ROOT } from './apps.js';
import { AndroidInstrumentation } from './instrument.js';
import { AndroidFiles } from './files.js';
import { AndroidScreen } from './screen.js';
import { AndroidInput } from './input.js';
import { DevicePaths } from './fast-paths.js';
import { androidKeyCode } from './keys.js';
import { followLogcat } from './logcat.js';
import { dumpHierarchy, parseUiautomatorXml } from './ui-tree.js';
import { ANDROID_ENGINE, androidFindings } from './accessibility.js';
import { AndroidDebug, type AndroidDebugOptions } from './debug.js';
import { readAndroidHealth } from './health.js';
import { DeviceBaseline, type ReleaseOutcome } from './baseline.js';
import { mendSteps, removeLeftovers } from './mend.js';
import { rebootStep, type RebootHooks } from './reboot.js';

type Orientation = 'portrait' | 'landscape';

/**
 * One Android device through the adb server (adbkit): screen through `screencap`, input through
 * `input`, apps through `pm`/`am`/`monkey`, files through the sync service, UI through `uiautomator
 * dump`, logs through `logcat`. A session leaves nothing behind: `release` force-stops what it
 * started, uninstalls what it installed, removes what it pushed and its scratch, resets its baseline.
 */
export class AndroidDevice implements DeviceDriver {
  private readonly logRing = new LogRing();
  private readonly brokenListeners = new Set<(reason: string) => void>();
  private prepared = false;
  private orientation: Orientation = 'portrait';
  /** Its apps (`pm`, `am`) and its files (adb's sync service), each leaving nothing behind at release. */
  private readonly apps: AndroidApps;
  private readonly files: AndroidFiles;
  private readonly instrumentation: AndroidInstrumentation;
  private scratch: string | null = null;
  readonly baseline: DeviceBaseline;
  private logcat: Duplex | null = null;
  /** The screen capability: screenshots and the live screen (minicap, else screencap). */
  private readonly screenCapability: AndroidScreen;
  /** The input capability: touch (minitouch, else `input`), keys, text (any script through an input method). */
  private readonly inputCapability: AndroidInput;
  private devtoolsPort: number | null = null;
  private readonly debug: AndroidDebug | null;
  private readonly adbServer: { host: string; port: number } | null;
  /** Which path each capability takes, and the fast paths' state (`fast-paths.ts`). */
  private readonly paths: DevicePaths;

  constructor(
    readonly info: DeviceInfo,
    readonly serial: string,
    private readonly device: AdbDevice,
    private readonly logger: Logger,
    debug?: Omit<AndroidDebugOptions, 'logger'>,
    touch: { uiautomator2: boolean } = { uiautomator2: true },
    /** How a reboot of mending is waited out (the provider's watch of the device); without it a reboot is refused. */
    private readonly rebootHooks?: RebootHooks,
    /** How many times this device's link went away and came back since the agent started (the provider counts). */
    private readonly linkReconnects: () => number = () => 0,
  ) {
    this.debug = debug ? new AndroidDebug(serial, device, { ...debug, logger }) : null;
    this.adbServer = debug ? { host: debug.adbHost, port: debug.adbPort } : null;
    const context = { device, sh: (command: string) => this.sh(command), requirePrepared: () => this.requirePrepared() };
    this.apps = new AndroidApps(context);
    this.files = new AndroidFiles(context);
    this.paths = new DevicePaths(info, this.logRing);
    this.screenCapability = new AndroidScreen(device, serial, logger, { width: info.screen.width, height: info.screen.height }, (path, reason, fast) => this.paths.note('screen', path, reason, fast));
    this.inputCapability = new AndroidInput(device, serial, logger, { width: info.screen.width, height: info.screen.height }, (kind, path, reason, fast) => this.paths.note(kind, path, reason, fast), touch);
    this.instrumentation = new AndroidInstrumentation(context, this.logRing, () => this.screenCapability.capture());
    this.baseline = new DeviceBaseline(context.sh, (failure) => logger.warn({ serial, failure }, 'android reset to the baseline failed'));
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
    await this.baseline.takeOnce();
    onProgress('noting installed apps');
    await this.apps.prepare();
    this.files.prepare();
    this.scratch = `${SCRATCH_ROOT}/df-session-${randomUUID().slice(0, 8)}`;
    await this.sh(`mkdir -p ${shellQuote(this.scratch)}`);
    this.logRing.clear();
    await this.startLogcat();
    this.prepared = true;
    return this.screen();
  }

  async release(): Promise<ReleaseOutcome> {
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
    const scratch = this.scratch;
    this.scratch = null;
    // Side by side: each part stops its own helper or removes its own things, and one after another their
    // adb shells added up to seconds on a loaded host (the device waits for its end that long).
    await Promise.all([
      attempt('stopping the live screen', () => this.screenCapability.release()),
      attempt('stopping touch and restoring the input method', () => this.inputCapability.stop()),
      attempt('stopping the instrumentation tests', () => this.instrumentation.release()),
      this.apps.release(attempt),
      this.files.release(attempt),
      scratch ? attempt('removing the scratch folder', () => this.sh(`rm -rf ${shellQuote(scratch)}`)) : undefined,
    ]);
    // Then the device as the next session must find it: home, its settings and clipboard as its baseline.
    const [, outcome] = await Promise.all([attempt('going home', () => this.sh('input keyevent KEYCODE_HOME')), this.baseline.reset()]);
    this.logRing.clear();
    if (problems.length > 0) this.logger.warn({ serial: this.serial, problems }, 'android release left something behind');
    return outcome;
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
    const xml = await dumpHierarchy((command) => this.sh(command), this.scratch ?? SCRATCH_ROOT);
    const { root, packageName } = parseUiautomatorXml(xml, this.screen());
    return { url: packageName ? `android-app://${packageName}` : 'android-app://unknown', title: this.info.model, root };
  }

  /** Rules over the UI hierarchy and the screenshot (agent/android/accessibility.ts). */
  async accessibilityScan(): Promise<RpcResult<'accessibilityScan'>> {
    this.requirePrepared();
    const xml = await dumpHierarchy((command) => this.sh(command), this.scratch ?? SCRATCH_ROOT);
    const png = await this.capture();
    const density = Number((await this.sh('getprop ro.sf.lcd_density')).trim()) || Number(/(\d+)\s*$/.exec((await this.sh('wm density')).trim())?.[1]) || 160;
    const packageName = /package="([^"]+)"/.exec(xml)?.[1] ?? 'unknown';
    return { engine: ANDROID_ENGINE, url: `android-app://${packageName}`, title: this.info.model, scope: `android-app://${packageName}`, findings: androidFindings(xml, png, density).slice(0, 1_000) };
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

  /** Battery, storage, airplane mode, thermal state, memory, Wi-Fi, lock screen, uptime in one adb shell (`health.ts`); the fast paths as last known. */
  async readHealth(): Promise<HealthSample> {
    const sample = await readAndroidHealth((command) => this.sh(command), this.linkReconnects());
    const fastPaths = this.paths.reading();
    return fastPaths ? { ...sample, fastPaths } : sample;
  }

  /** Reads the settings again (one shell) and keeps them as the baseline every session's end restores (`baseline.ts`). */
  async retakeBaseline(): Promise<RpcResult<'retakeBaseline'>> {
    return { settings: await this.baseline.retake() };
  }

  /** Keeps the baseline an administrator re-took, given back by the service as the device joins (`baseline.ts`). */
  async setBaseline(settings: Record<string, string | null>): Promise<RpcResult<'setBaseline'>> {
    return { settings: await this.baseline.adopt(settings) };
  }

  /** Mends the device outside a session (`mend.ts`): its helpers restarted, its storage freed, `adb reboot` where allowed, waited out (`reboot.ts`). */
  mend(plan: { storageMinMb: number; rebootAllowed: boolean; helpersOnly?: boolean }, report: (step: MendingReport) => void, begin?: (step: MendingReport['step']) => void): Promise<RpcResult<'mend'>> {
    const restartHelpers = async () => {
      // The touch path (minitouch, or the UiAutomator2 server's) stopped and started again; minicap proven by one start.
      await this.inputCapability.stop();
      await this.inputCapability.start();
      await this.inputCapability.stop();
      await this.screenCapability.restartFastPath();
    };
    const storageFreeMb = async () => (await this.readHealth()).storageFreeMb;
    const reboot = rebootStep(() => this.device.reboot(), (c) => this.sh(c), this.rebootHooks);
    return mendSteps({ restartHelpers, freeStorage: () => removeLeftovers((c) => this.sh(c)), storageFreeMb, reboot }, { ...plan, report, ...(begin ? { begin } : {}) });
  }

  shellCommand(): { file: string; args: string[] } | null {
    return this.debug?.shellCommand() ?? null;
  }

  async webdriverCapabilities(): Promise<Record<string, unknown>> {
    return uiautomator2Capabilities(this.serial, this.adbServer);
  }

  // ---- instrumentation tests -------------------------------------------------------------------------

  startInstrumentation(command: Extract<AgentCommand, { op: 'instrumentStart' }>): RpcResult<'instrumentStart'> {
    return this.instrumentation.start(command);
  }

  pollInstrumentation(runId: string, afterSeq: number, waitMs = 0): Promise<RpcResult<'instrumentPoll'>> {
    return this.instrumentation.poll(runId, afterSeq, waitMs);
  }

  stopInstrumentation(runId: string): Promise<RpcResult<'instrumentStop'>> {
    return this.instrumentation.stop(runId);
  }

  // ---- apps ----------------------------------------------------------------------------------------

  listApps(thirdPartyOnly: boolean): Promise<RpcResult<'apps'>['apps']> {
    return this.apps.list(thirdPartyOnly);
  }

  installApp(localPath: string): Promise<RpcResult<'installApp'>> {
    return this.apps.install(localPath, this.scratch);
  }

  uninstallApp(packageName: string): Promise<RpcResult<'uninstallApp'>> {
    return this.apps.uninstall(packageName);
  }

  appPresence(packageNames: string[]): Promise<RpcResult<'appPresence'>> {
    return this.apps.presence(packageNames);
  }

  openHelper(helper: AppHelper, packageName?: string): Promise<RpcResult<'openHelper'>> {
    return this.apps.openHelper(helper, packageName);
  }

  // ---- files ---------------------------------------------------------------------------------------

  pushFile(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    return this.files.push(localPath, devicePath);
  }

  pullFile(devicePath: string, localPath: string): Promise<{ size: number }> {
    return this.files.pull(devicePath, localPath);
  }

  listFiles(devicePath: string): Promise<RpcResult<'listFiles'>> {
    return this.files.list(devicePath);
  }

  deleteFile(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    return this.files.delete(devicePath);
  }

  makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    return this.files.makeFolder(devicePath);
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

  private requirePrepared(): void {
    if (!this.prepared) throw new DriverError('NOT_PREPARED', 'The device is not prepared');
  }

  private async startLogcat(): Promise<void> {
    this.stopLogcat();
    this.logcat = await followLogcat(this.device, (c) => this.sh(c), (level, source, text, at) => this.logRing.push(level, source, text, at));
  }

  private stopLogcat(): void {
    this.logcat?.destroy();
    this.logcat = null;
  }
}
