import type { Logger } from 'pino';
import { DriverError } from '../provider.js';
import { pushFile, shell, shellQuote, type AdbDevice } from './adb.js';
import { DEVICE_TMP, deviceBuild, packageFile, removePushed } from './daemon.js';
import { line, Minitouch, minitouchBinary, toNatural, type Point } from './minitouch.js';
import { UiAutomator2Touch, uiautomator2Refusal } from './uiautomator2.js';
import { encodeImapUtf7 } from './utf7.js';
import type { FastPathNote } from './fast-paths.js';

export type InputPath = 'minitouch' | 'agent' | 'input';
export type TextPath = 'ime' | 'input';

/** io.appium.settings' input method that decodes modified UTF-7 typed through `input text`. */
export const UNICODE_IME = 'io.appium.settings/.UnicodeIME';
export const SETTINGS_PACKAGE = 'io.appium.settings';

/** Text for `input text`: spaces become `%s` (how `input` reads a space), the whole quoted for the shell. */
export function inputTextArgument(text: string): string {
  return shellQuote(text.replace(/ /g, '%s'));
}

/**
 * Touch, keys and text of an Android device. Touch goes through minitouch's socket where it runs
 * (before Android 10, without root), else through the UiAutomator2 server (Android 8 and later; started
 * at the session's first gesture, which `input` serves meanwhile), else through `input` commands; text of printable ASCII through
 * `input text`, any other text through io.appium.settings' Unicode input method, switched in for the
 * session and restored by `stop`. `onPath` hears which path each takes, why a faster one is not used, and
 * what that says of the touch's fast path (`up`, `down`, `unavailable`; null: not known yet).
 */
export class AndroidInput {
  private rotation: 0 | 90 | 180 | 270 = 0;
  private minitouch: Minitouch | null = null;
  /** The UiAutomator2 path: wanted (no minitouch), starting, running, or refused (with why). */
  private agentTouch: { state: 'off' } | { state: 'wanted' } | { state: 'starting'; ready: Promise<UiAutomator2Touch | null> } | { state: 'running'; touch: UiAutomator2Touch } = { state: 'off' };
  private readonly pushed = new Map<string, string>();
  /** The input method before the session switched the Unicode one in, once it did. */
  private previousIme: string | null = null;
  private imeRefused: string | null = null;

  constructor(
    private readonly device: AdbDevice,
    private readonly serial: string,
    private readonly logger: Logger,
    private readonly natural: { width: number; height: number },
    private readonly onPath: (kind: 'input' | 'text', path: InputPath | TextPath, reason: string | null, fast?: FastPathNote) => void,
    private readonly options: { uiautomator2: boolean } = { uiautomator2: true },
  ) {}

  /** Starts minitouch where it can run; otherwise touch uses `input` and the reason is reported. */
  async start(): Promise<void> {
    await this.stopTouch();
    const build = await deviceBuild(this.device);
    const binary = minitouchBinary(build);
    let noMinitouch: string;
    if (!binary) {
      noMinitouch = build.sdk > 28 ? `minitouch needs root on Android 10 and later (SDK ${build.sdk})` : `no minitouch for ABI ${build.abis.join('/') || 'unknown'}`;
    } else {
      try {
        this.minitouch = await Minitouch.start(this.device, this.pushed, binary, this.natural);
        this.onPath('input', 'minitouch', null, 'up');
        return;
      } catch (err) {
        noMinitouch = `minitouch did not start: ${(err as Error).message}`;
      }
    }
    const refusal = this.options.uiautomator2 ? uiautomator2Refusal(build) : "touch through the UiAutomator2 server is off in the agent's config";
    if (refusal) {
      // Neither path for this device is unavailable; a minitouch that should have started is down.
      this.onPath('input', 'input', `${noMinitouch}; ${refusal}`.slice(0, 300), binary ? 'down' : 'unavailable');
      return;
    }
    // The server takes seconds to start on a phone: not on the way to the session's first frame. The
    // device's touch is the server's from now on; should it not start, `input` with the reason.
    this.agentTouch = { state: 'wanted' };
    this.onPath('input', 'agent', null);
  }

  /** Ends minitouch, removes what it pushed, and puts the input method back as it was before the session. */
  async stop(): Promise<void> {
    await this.stopTouch();
    await removePushed(this.device, this.pushed);
    this.imeRefused = null;
    const previous = this.previousIme;
    this.previousIme = null;
    if (previous !== null) {
      if (previous && previous !== 'null') await this.sh(`ime set ${shellQuote(previous)}`);
      await this.sh(`ime disable ${UNICODE_IME}`);
    }
  }

  setRotation(rotation: 0 | 90 | 180 | 270): void {
    this.rotation = rotation;
  }

  async tap(x: number, y: number): Promise<void> {
    if (await this.touch([[{ x, y }]], 0)) return;
    await this.input(`tap ${n(x)} ${n(y)}`);
  }

  async longPress(x: number, y: number, durationMs: number): Promise<void> {
    if (await this.touch([[{ x, y }]], durationMs)) return;
    await this.input(`swipe ${n(x)} ${n(y)} ${n(x)} ${n(y)} ${durationMs}`);
  }

  async swipe(from: Point, to: Point, durationMs: number): Promise<void> {
    if (await this.touch([line(from, to, durationMs)], durationMs)) return;
    await this.input(`swipe ${n(from.x)} ${n(from.y)} ${n(to.x)} ${n(to.y)} ${durationMs}`);
  }

  /** Two fingers on a horizontal line through `centre`, from `fromDistance` apart to `toDistance` apart. */
  async pinch(centre: Point, fromDistance: number, toDistance: number, durationMs: number): Promise<void> {
    const finger = (side: -1 | 1) => line({ x: centre.x + (side * fromDistance) / 2, y: centre.y }, { x: centre.x + (side * toDistance) / 2, y: centre.y }, durationMs);
    if (await this.touch([finger(-1), finger(1)], durationMs)) return;
    throw new DriverError('UNSUPPORTED', 'A pinch needs two fingers, which `input` cannot give; this device has no multi-touch path');
  }

  async key(code: string): Promise<void> {
    await this.input(`keyevent ${code}`);
  }

  /** Types text; a line break is the Enter key. */
  async text(text: string): Promise<void> {
    const unicode = /[^\x20-\x7e\n]/.test(text);
    if (unicode && !(await this.switchInUnicodeIme())) {
      throw new DriverError('BAD_REQUEST', `This device types printable ASCII characters and line breaks only (${this.imeRefused ?? 'no Unicode input method'})`);
    }
    // Once the Unicode input method is in, everything typed is encoded for it (it reads `&` as a start).
    const encode = this.previousIme !== null ? encodeImapUtf7 : (s: string) => s;
    const lines = text.split('\n');
    for (const [i, part] of lines.entries()) {
      if (part.length > 0) await this.input(`text ${inputTextArgument(encode(part))}`);
      if (i < lines.length - 1) await this.input('keyevent KEYCODE_ENTER');
    }
  }

  /**
   * Installs io.appium.settings when missing (it stays, like any helper the farm keeps on a device),
   * enables its Unicode input method and makes it the current one, remembering the previous one.
   */
  private async switchInUnicodeIme(): Promise<boolean> {
    if (this.previousIme !== null) return true;
    if (this.imeRefused) return false;
    try {
      if (!(await this.sh(`pm path ${SETTINGS_PACKAGE}`)).includes('package:')) {
        const apk = packageFile('io.appium.settings-v7', 'apks', 'settings_apk-debug.apk') ?? packageFile('io.appium.settings', 'apks', 'settings_apk-debug.apk');
        if (!apk) throw new Error('io.appium.settings is not installed on the agent');
        const remote = `${DEVICE_TMP}/df-io.appium.settings.apk`;
        await pushFile(this.device, apk, remote);
        const out = await this.sh(`pm install -r -t -g ${remote}; rm -f ${remote}`);
        if (!/Success/.test(out)) throw new Error(`installing io.appium.settings failed: ${out.trim().slice(0, 200)}`);
      }
      const previous = (await this.sh('settings get secure default_input_method')).trim();
      await this.sh(`ime enable ${UNICODE_IME}`);
      await this.sh(`ime set ${UNICODE_IME}`);
      const now = (await this.sh('settings get secure default_input_method')).trim();
      if (now !== UNICODE_IME) throw new Error(`the Unicode input method could not be selected (${now || 'none'} is current)`);
      this.previousIme = previous;
      this.onPath('text', 'ime', null);
      return true;
    } catch (err) {
      this.imeRefused = (err as Error).message.slice(0, 300);
      this.onPath('text', 'input', this.imeRefused);
      this.logger.warn({ serial: this.serial, reason: this.imeRefused }, 'the Unicode input method is not available');
      return false;
    }
  }

  /**
   * Runs a gesture through minitouch or the UiAutomator2 server; false when neither is there (or it
   * died: then `input` takes over). The server is started by the first gesture; one finger goes through
   * `input` while it starts, several wait for it.
   */
  private async touch(paths: Point[][], durationMs: number): Promise<boolean> {
    if (this.agentTouch.state !== 'off') return this.touchThroughAgent(paths, durationMs);
    const minitouch = this.minitouch;
    if (!minitouch) return false;
    if (!minitouch.alive) {
      this.minitouch = null;
      this.onPath('input', 'input', 'minitouch stopped', 'down');
      return false;
    }
    await minitouch.gesture(
      paths.map((path) => path.map((p) => toNatural(p, this.rotation, this.natural))),
      durationMs,
    );
    return true;
  }

  private async touchThroughAgent(paths: Point[][], durationMs: number): Promise<boolean> {
    if (this.agentTouch.state === 'wanted') this.agentTouch = { state: 'starting', ready: this.startAgentTouch() };
    const agent = this.agentTouch;
    if (agent.state === 'starting') {
      // One finger goes through `input` while the server starts; several wait for it.
      if (paths.length === 1) return false;
      return (await agent.ready) ? this.touchThroughAgent(paths, durationMs) : false;
    }
    if (agent.state !== 'running') return false;
    if (!agent.touch.alive) {
      this.agentTouch = { state: 'off' };
      this.onPath('input', 'input', 'the UiAutomator2 server stopped', 'down');
      return false;
    }
    await agent.touch.gesture(paths, durationMs);
    return true;
  }

  /** Starts the UiAutomator2 path; null (and `input` from then on, with the reason) when it cannot. */
  private async startAgentTouch(): Promise<UiAutomator2Touch | null> {
    try {
      const touch = await UiAutomator2Touch.start(this.device);
      if (this.agentTouch.state !== 'starting') {
        await touch.stop();
        return null;
      }
      this.agentTouch = { state: 'running', touch };
      this.onPath('input', 'agent', null, 'up');
      return touch;
    } catch (err) {
      if (this.agentTouch.state === 'starting') this.agentTouch = { state: 'off' };
      this.onPath('input', 'input', `the UiAutomator2 server did not start: ${(err as Error).message}`.slice(0, 300), 'down');
      this.logger.warn({ serial: this.serial, err }, 'touch through the UiAutomator2 server is not available');
      return null;
    }
  }

  private async stopTouch(): Promise<void> {
    const minitouch = this.minitouch;
    this.minitouch = null;
    await minitouch?.stop().catch(() => undefined);
    const agent = this.agentTouch;
    this.agentTouch = { state: 'off' };
    if (agent.state === 'running') await agent.touch.stop().catch(() => undefined);
    if (agent.state === 'starting') await (await agent.ready)?.stop().catch(() => undefined);
  }

  private sh(command: string): Promise<string> {
    return shell(this.device, command);
  }

  private async input(args: string): Promise<void> {
    const out = await this.sh(`input ${args}`);
    if (/^Error|Exception/m.test(out)) throw new DriverError('DEVICE_ERROR', `input ${args.split(' ')[0]} failed: ${out.trim().slice(0, 300)}`);
  }
}

const n = (v: number) => String(Math.round(v));
