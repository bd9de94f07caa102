import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { parseBinaryXml } from '#shared/apps/index.js';
import { posix } from 'node:path';
import { HEALTH_FILES, PeerHealth } from './health.js';
import { encodePng, type RgbImage } from './png.js';
import { runInstrumentation, type ScriptedSuite } from './instrument.js';
import { parseShellLine, type SimpleCommand } from './shell-words.js';
import { decodeImapUtf7 } from './utf7.js';
import { MinicapDaemon, MinitouchDaemon, parseProjection, type Projection } from './daemons.js';
import { UIA2_DEVICE_PORT, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE, UiAutomator2ServerPeer, type ActionsReceived } from './uiautomator2.js';

/*
 * A test device that speaks the adb transport the way adbd does, over TCP, so the real adb server can
 * `adb connect` to it and real clients (adbkit, the adb command line) drive it. It keeps its own state
 * (a framebuffer, packages, a file system, settings, a log) and records what it was told, so tests
 * assert on the device rather than on what the client believes it sent.
 *
 * Transport: 24-byte little-endian headers (command, arg0, arg1, length, checksum, magic = ~command),
 * CNXN answered without authentication, streams opened with OPEN and acknowledged with OKAY, data in
 * WRTE messages each acknowledged with OKAY before the next one is sent on that stream, CLSE to close.
 */

const A_CNXN = 0x4e584e43;
const A_OPEN = 0x4e45504f;
const A_OKAY = 0x59414b4f;
const A_CLSE = 0x45534c43;
const A_WRTE = 0x45545257;
const A_AUTH = 0x48545541;
const A_VERSION = 0x01000000;
const MAX_PAYLOAD = 256 * 1024;
const SYNC_DATA_MAX = 64 * 1024;

/** The kernel's id of the boot the device is in: a new one at each boot (read to tell a reboot happened). */
export const BOOT_ID_PATH = '/proc/sys/kernel/random/boot_id';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

export interface PeerOptions {
  model?: string;
  manufacturer?: string;
  productName?: string;
  device?: string;
  release?: string;
  sdk?: string;
  width?: number;
  height?: number;
  /** `ro.kernel.qemu=1` (an emulator) when true. */
  emulator?: boolean;
  characteristics?: string;
  /** Packages present from the start (system apps). */
  systemPackages?: string[];
  /** `ro.product.cpu.abi` (default arm64-v8a). */
  abi?: string;
  /** When true, minicap (binary and APK) dies at start as it does on a device it does not support. */
  minicapCrashes?: boolean;
  /** When true, minicap paints the wall-clock time as colours (a recording's frames can be dated) instead of a moving bar. */
  minicapClock?: boolean;
  /** When true, the UiAutomator2 server's instrumentation crashes at start. */
  uiautomator2Crashes?: boolean;
}

/** The input method that decodes modified UTF-7 typed through `input text` (io.appium.settings). */
export const UNICODE_IME = 'io.appium.settings/.UnicodeIME';

export interface FileEntry {
  type: 'file' | 'dir';
  data: Buffer;
  mode: number;
  mtime: number;
}

export interface PackageEntry {
  name: string;
  path: string;
  system: boolean;
  /** The installed APK's `versionCode` and `versionName`, where its manifest has them. */
  versionCode?: number;
  versionName?: string;
}

/** What the device was told, in order. */
export interface PeerRecord {
  taps: { x: number; y: number }[];
  swipes: { x1: number; y1: number; x2: number; y2: number; durationMs: number }[];
  texts: string[];
  keys: string[];
  /** Each `pm install`: what it installed, from where, and the exact bytes it was given (size and SHA-256). */
  installs: { path: string; packageName: string; replace: boolean; size: number; sha256: string }[];
  uninstalls: string[];
  intents: { action: string; data: string | null; component: string | null }[];
  forceStopped: string[];
  launched: string[];
  commands: string[];
  /** Each JDWP connection: its pid, whether the handshake came, and the command packets it carried. */
  jdwp: { pid: number; handshake: boolean; commands: { commandSet: number; command: number }[] }[];
  /** Device ports connected to (`tcp:<port>`), in order. */
  tcpConnections: number[];
  /** Each start of minicap: which variant and the projection it was given. */
  minicapStarts: { variant: 'bin' | 'apk'; projection: Projection }[];
  /** Lines minitouch was sent (`d 0 10 20 50`, `c`, ...), in order. */
  touch: string[];
  /** W3C actions the UiAutomator2 server was sent, in order. */
  pointerActions: ActionsReceived[];
  /** Each start of an instrumentation, the UiAutomator2 server's or a scripted suite's (its command line). */
  instrumentations: string[];
  /** Each `pm clear <package>`. */
  cleared: string[];
  /** Each `adb reboot` the device accepted (its `reboot:` argument, empty for a plain reboot). */
  reboots: string[];
}

const LATIN_IME = 'com.android.inputmethod.latin/.LatinIME';
const BACKGROUND: [number, number, number] = [0x20, 0x30, 0x40];
const TAP_COLOUR: [number, number, number] = [0xff, 0xff, 0xff];
const TEXT_COLOUR: [number, number, number] = [0xff, 0xc0, 0x00];

/** The adbd-protocol test device. */
export class AdbdPeer {
  readonly record: PeerRecord = { taps: [], swipes: [], texts: [], keys: [], installs: [], uninstalls: [], intents: [], forceStopped: [], launched: [], commands: [], jdwp: [], tcpConnections: [], minicapStarts: [], touch: [], pointerActions: [], instrumentations: [], cleared: [], reboots: [] };
  readonly files = new Map<string, FileEntry>();
  readonly packages = new Map<string, PackageEntry>();
  readonly settings = new Map<string, string>();
  /** Settings (`namespace/key`) the device keeps whatever it is told, as a device policy does: `settings put` and `delete` exit 0 and change nothing. */
  readonly stuckSettings = new Set<string>();
  /**
   * What the device refuses, as a device policy or a broken build does: a shell command whose words begin
   * with one of these (`rm`, `cmd clipboard set`) prints `Permission denied` and exits 1; `reboot` refuses
   * the `reboot:` service (adb answers FAIL).
   */
  readonly refused = new Set<string>();
  /** The clipboard's text (`cmd clipboard get text` / `set text`); empty when nothing is on it. */
  clipboard = '';
  /** Battery, storage, thermal state, memory, uptime, Wi-Fi link and lock screen the device reports (`health.ts`), scripted by the test; Wi-Fi is on while `global/wifi_on` says so. */
  readonly health = new PeerHealth(() => ['1', '2'].includes(this.settings.get('global/wifi_on') ?? '0'));
  readonly properties: Record<string, string>;
  /** Processes that accept a debugger (JDWP): pid → process name (its package). */
  readonly jdwpProcesses = new Map<number, string>();
  /** Device TCP ports that accept connections (`tcp:<port>`), with what answers each connection. */
  readonly tcpServices = new Map<number, (stream: PeerStream) => void>();
  /** What the screen shows: the foreground package. */
  foreground = 'com.android.launcher3';
  /** Nodes `uiautomator dump` answers instead of the default screen (the inside of the root FrameLayout). */
  uiNodes: string | null = null;
  typed = '';
  private physical: { width: number; height: number };
  private frame: RgbImage;
  private readonly logLines: string[] = [];
  private readonly logWatchers = new Set<(line: string) => void>();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private pid = 1000;
  /** The running minicap and minitouch, if any. */
  minicap: MinicapDaemon | null = null;
  minitouch: MinitouchDaemon | null = null;
  uiautomator2: UiAutomator2ServerPeer | null = null;
  /** Every frame minicap sent, by sequence number (the newest few thousand). */
  readonly minicapFrames = new Map<number, Buffer>();
  private readonly frameWatchers = new Set<(seq: number, frame: Buffer) => void>();
  private readonly touchWatchers = new Set<(line: string) => void>();
  private readonly commandWatchers = new Set<(line: string) => void>();
  /** The loopback port it listens on (the same again when it comes back from a reboot). */
  private port = 0;
  /** Taken down by `adb reboot` and not back yet (`comeBack`): it has no connection and accepts none. */
  down = false;
  private readonly downWatchers = new Set<() => void>();

  constructor(readonly options: PeerOptions = {}) {
    this.physical = { width: options.width ?? 360, height: options.height ?? 640 };
    this.properties = {
      'ro.product.model': options.model ?? 'Peer Phone',
      'ro.product.manufacturer': options.manufacturer ?? 'PeerWorks',
      'ro.product.name': options.productName ?? 'peer_phone',
      'ro.product.device': options.device ?? 'peer',
      'ro.product.brand': 'peer',
      'ro.build.version.release': options.release ?? '14',
      'ro.build.version.sdk': options.sdk ?? '34',
      'ro.build.characteristics': options.characteristics ?? 'default',
      'ro.hardware': options.emulator ? 'ranchu' : 'peerboard',
      'ro.kernel.qemu': options.emulator ? '1' : '0',
      'ro.serialno': 'PEER0001',
      'ro.product.cpu.abi': options.abi ?? 'arm64-v8a',
      'sys.boot_completed': '1',
    };
    for (const dir of ['/', '/sdcard', '/sdcard/Download', '/data', '/data/local', '/data/local/tmp', '/data/app', '/system', '/dev']) this.mkdir(dir);
    for (const name of options.systemPackages ?? ['com.android.settings', 'com.android.launcher3', 'com.android.vending', 'com.android.chrome']) {
      this.packages.set(name, { name, path: `/system/app/${name}/${name}.apk`, system: true });
    }
    this.settings.set('system/user_rotation', '0');
    this.settings.set('system/accelerometer_rotation', '1');
    this.settings.set('secure/default_input_method', LATIN_IME);
    this.settings.set('secure/enabled_input_methods', LATIN_IME);
    this.settings.set('global/airplane_mode_on', '0');
    // The settings a clean device is reset to after each session (agent/android/baseline.ts).
    for (const [k, v] of Object.entries({ 'global/window_animation_scale': '1.0', 'global/transition_animation_scale': '1.0', 'global/animator_duration_scale': '1.0', 'system/font_scale': '1.0', 'system/system_locales': 'en-US', 'global/wifi_on': '1', 'secure/location_mode': '3' })) this.settings.set(k, v);
    this.mkdir(posix.dirname(BOOT_ID_PATH));
    this.writeFile(BOOT_ID_PATH, Buffer.from(`${randomUUID()}\n`));
    this.frame = this.blankFrame();
    this.log('I', 'PeerInit', 'device booted');
  }

  /** Adds a debuggable process (its `/proc/<pid>/cmdline` too, as the package manager's name). */
  addJdwpProcess(pid: number, name: string): void {
    this.jdwpProcesses.set(pid, name);
    this.mkdir(`/proc/${pid}`);
    this.writeFile(`/proc/${pid}/cmdline`, Buffer.from(`${name}\0`));
  }

  /** A device port that echoes every byte back on each connection. */
  echoPort(port: number): void {
    this.tcpServices.set(port, (stream) => stream.onData((data) => stream.write(data)));
  }

  /** Starts listening on a loopback port and returns it. */
  async start(port = 0): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  /**
   * What `adb reboot` does to the device: its connections end (the adb server sees the transport go) and
   * it accepts none until the test brings it back (`comeBack`); what ran on it stops, its clipboard empties.
   */
  private goDown(): void {
    this.down = true;
    for (const pid of [...this.daemons.keys()]) this.endDaemon(pid);
    this.clipboard = '';
    this.server?.close();
    this.server = null;
    // Ended, not destroyed: what was written before (the reboot stream's close) still reaches the adb server.
    for (const s of this.sockets) s.end(() => s.destroy());
    for (const w of [...this.downWatchers]) w();
  }

  /** Resolves once an `adb reboot` has taken the device down (at once while it is down). */
  wentDown(): Promise<void> {
    if (this.down) return Promise.resolve();
    return new Promise((resolve) => {
      const w = () => {
        this.downWatchers.delete(w);
        resolve();
      };
      this.downWatchers.add(w);
    });
  }

  /**
   * The rebooted device is back: it listens on its port again (the adb server reconnects it), in a new boot
   * (a new boot id), and still booting — the first `getprop sys.boot_completed` answers 0, the next ones 1.
   */
  async comeBack(): Promise<void> {
    if (!this.down) throw new Error('the device is not down');
    this.writeFile(BOOT_ID_PATH, Buffer.from(`${randomUUID()}\n`));
    this.properties['sys.boot_completed'] = '0';
    this.down = false;
    await this.start(this.port);
    this.log('I', 'PeerInit', 'device booted');
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /** The current screen size (rotated when the rotation setting says so). */
  get screen(): { width: number; height: number } {
    const rotation = Number(this.settings.get('system/user_rotation') ?? '0');
    return rotation % 2 === 1 ? { width: this.physical.height, height: this.physical.width } : { ...this.physical };
  }

  /** The framebuffer as a PNG (what `screencap -p` answers). */
  screenshot(): Buffer {
    return encodePng(this.frame);
  }

  /** Lines of the device log. */
  get logcat(): readonly string[] {
    return this.logLines;
  }

  // ---- transport ---------------------------------------------------------------------------------

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    // adbd turns Nagle's algorithm off on its transport sockets: an OKAY and the WRTE after it must not wait for an ACK.
    socket.setNoDelay(true);
    new Transport(socket, this);
  }

  /** The service for an OPEN destination (started once the stream is acknowledged), or null to refuse it. */
  openService(destination: string): ((stream: PeerStream) => void) | null {
    if (destination === 'shell:') return (stream) => this.interactiveShell(stream);
    if (destination === 'jdwp') {
      // The list once, as `adb jdwp` prints it; the stream then closes.
      return (stream) => {
        stream.write(Buffer.from([...this.jdwpProcesses.keys()].map((pid) => `${pid}\n`).join('')));
        stream.close();
      };
    }
    if (destination === 'track-jdwp') {
      // Length-prefixed (four hex digits) lists, the first at once; kept open as adbd keeps it.
      return (stream) => {
        const list = Buffer.from([...this.jdwpProcesses.keys()].map((pid) => `${pid}\n`).join(''));
        stream.write(Buffer.concat([Buffer.from(list.length.toString(16).padStart(4, '0')), list]));
      };
    }
    const jdwp = /^jdwp:(\d+)$/.exec(destination);
    if (jdwp) {
      const pid = Number(jdwp[1]);
      if (!this.jdwpProcesses.has(pid)) return null;
      return (stream) => new JdwpVm(this, pid, stream);
    }
    const tcp = /^tcp:(\d+)$/.exec(destination);
    if (tcp) {
      const service = this.tcpServices.get(Number(tcp[1]));
      if (!service) return null;
      this.record.tcpConnections.push(Number(tcp[1]));
      return service;
    }
    if (destination.startsWith('shell:') || destination.startsWith('exec:')) {
      const line = destination.slice(destination.indexOf(':') + 1);
      this.record.commands.push(line);
      for (const w of this.commandWatchers) w(line);
      return (stream) => void this.runShell(line, stream);
    }
    if (destination === 'sync:') return (stream) => new SyncSession(this, stream);
    if (destination.startsWith('reboot:')) {
      if (this.refused.has('reboot')) return null;
      // adbd acknowledges and the device goes down: it records the reboot, closes the stream and drops its connections.
      this.record.reboots.push(destination.slice('reboot:'.length));
      this.log('I', 'ShutdownThread', 'Rebooting, reason: adb');
      return (stream) => {
        stream.close();
        this.goDown();
      };
    }
    if (destination === 'localabstract:minicap') return this.minicap ? (stream) => this.minicap?.serve(stream) : null;
    if (destination === 'localabstract:minitouch') return this.minitouch ? (stream) => this.minitouch?.serve(stream) : null;
    return null;
  }

  // ---- device state --------------------------------------------------------------------------------

  log(level: 'V' | 'D' | 'I' | 'W' | 'E', tag: string, message: string): void {
    const now = new Date();
    const p2 = (n: number) => String(n).padStart(2, '0');
    const stamp = `${p2(now.getMonth() + 1)}-${p2(now.getDate())} ${p2(now.getHours())}:${p2(now.getMinutes())}:${p2(now.getSeconds())}.${String(now.getMilliseconds()).padStart(3, '0')}`;
    const line = `${stamp}  ${this.pid}  ${this.pid} ${level} ${tag.padEnd(8)}: ${message}`;
    this.logLines.push(line);
    for (const w of this.logWatchers) w(line);
  }

  mkdir(path: string): void {
    const parts = path.split('/').filter(Boolean);
    let at = '';
    if (!this.files.has('/')) this.files.set('/', { type: 'dir', data: Buffer.alloc(0), mode: S_IFDIR | 0o755, mtime: nowSeconds() });
    for (const part of parts) {
      at += `/${part}`;
      const existing = this.files.get(at);
      if (existing && existing.type === 'file') throw new Error(`${at}: Not a directory`);
      if (!existing) this.files.set(at, { type: 'dir', data: Buffer.alloc(0), mode: S_IFDIR | 0o755, mtime: nowSeconds() });
    }
  }

  writeFile(path: string, data: Buffer, mode = 0o644, mtime = nowSeconds()): void {
    const parent = posix.dirname(path);
    if (this.files.get(parent)?.type !== 'dir') throw new Error(`${parent}: No such file or directory`);
    if (this.files.get(path)?.type === 'dir') throw new Error(`${path}: Is a directory`);
    this.files.set(path, { type: 'file', data, mode: S_IFREG | (mode & 0o7777), mtime });
  }

  children(path: string): [string, FileEntry][] {
    const prefix = path === '/' ? '/' : `${path}/`;
    return [...this.files.entries()].filter(([p]) => p !== path && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')).map(([p, e]) => [p.slice(prefix.length), e]);
  }

  private remove(path: string, recursive: boolean): string | null {
    const entry = this.files.get(path);
    if (!entry) return `rm: ${path}: No such file or directory`;
    if (entry.type === 'dir' && !recursive) return `rm: ${path}: Is a directory`;
    for (const p of [...this.files.keys()]) if (p === path || p.startsWith(`${path}/`)) this.files.delete(p);
    return null;
  }

  private blankFrame(): RgbImage {
    const { width, height } = this.screen;
    const pixels = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) pixels.set(BACKGROUND, i * 3);
    return { width, height, pixels };
  }

  private paint(x: number, y: number, radius: number, colour: [number, number, number]): void {
    const { width, height, pixels } = this.frame;
    for (let py = Math.max(0, Math.round(y) - radius); py <= Math.min(height - 1, Math.round(y) + radius); py++) {
      for (let px = Math.max(0, Math.round(x) - radius); px <= Math.min(width - 1, Math.round(x) + radius); px++) pixels.set(colour, (py * width + px) * 3);
    }
  }

  /** Paints a rectangle of the framebuffer (what a test app would draw). */
  fillRect(x: number, y: number, width: number, height: number, colour: [number, number, number]): void {
    const { width: w, height: h, pixels } = this.frame;
    for (let py = Math.max(0, y); py < Math.min(h, y + height); py++) for (let px = Math.max(0, x); px < Math.min(w, x + width); px++) pixels.set(colour, (py * w + px) * 3);
  }

  /** The text field: a bar at the top whose length follows the typed text. */
  private paintText(): void {
    const { width } = this.frame;
    for (let px = 0; px < width; px++) for (let py = 0; py < 8; py++) this.frame.pixels.set(px < Math.min(width, this.typed.length * 4) ? TEXT_COLOUR : BACKGROUND, (py * width + px) * 3);
  }

  private rotate(rotation: number): void {
    this.settings.set('system/user_rotation', String(rotation));
    this.frame = this.blankFrame();
    this.log('I', 'WindowManager', `rotation changed to ${rotation}`);
  }

  // ---- shell ---------------------------------------------------------------------------------------

  private async runShell(line: string, stream: PeerStream): Promise<void> {
    if (this.runLine(line, (data) => stream.write(data), stream) === 'following') return;
    stream.close();
  }

  /**
   * Runs one command line, writing what it prints; `follow` is the stream a following `logcat` takes
   * over (answers 'following' then), or null where following makes no sense (an interactive shell).
   */
  private runLine(line: string, write: (data: Buffer) => void, follow: PeerStream | null): number | 'following' {
    let commands: SimpleCommand[];
    try {
      commands = parseShellLine(line);
    } catch (err) {
      write(Buffer.from(`/system/bin/sh: ${(err as Error).message}\n`));
      return 2;
    }
    let status = 0;
    for (const command of commands) {
      if ((command.joiner === '&&' && status !== 0) || (command.joiner === '||' && status === 0)) continue;
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const io = { out: (s: string | Buffer) => out.push(Buffer.from(s)), err: (s: string) => err.push(Buffer.from(s)) };
      if (follow && command.words[0] === 'logcat' && !command.words.includes('-d') && !command.words.includes('-c') && !command.stdout) {
        this.follow(follow);
        return 'following';
      }
      if (follow && this.startDaemon(command.words, follow)) return 'following';
      try {
        status = this.exec(command.words, io);
      } catch (e) {
        io.err(`${command.words[0]}: ${(e as Error).message}\n`);
        status = 1;
      }
      const stdout = Buffer.concat(out);
      if (command.stdout && command.stdout.path !== '/dev/null') {
        const target = command.stdout.path === '/dev/tty' ? null : command.stdout.path;
        if (target) {
          const previous = command.stdout.append ? (this.files.get(target)?.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
          try {
            this.writeFile(target, Buffer.concat([previous, stdout]));
          } catch (e) {
            err.push(Buffer.from(`/system/bin/sh: ${(e as Error).message}\n`));
            status = 1;
          }
        } else write(stdout);
      } else if (!command.stdout) write(stdout);
      if (command.stderr !== '/dev/null') write(Buffer.concat(err));
    }
    return status;
  }

  /**
   * `shell:` without a command: an interactive shell as adbd runs it in a pseudo-terminal — what is
   * typed is echoed, Enter (CR or LF) runs the line, output lines end in CR LF, `exit` ends it.
   */
  private interactiveShell(stream: PeerStream): void {
    const prompt = () => stream.write(Buffer.from(`${this.properties['ro.product.device']}:/ $ `));
    let line = '';
    prompt();
    stream.onData((data) => {
      for (const ch of data.toString('latin1')) {
        if (ch === '\r' || ch === '\n') {
          stream.write(Buffer.from('\r\n'));
          const command = line.trim();
          line = '';
          this.record.commands.push(command);
          if (command === 'exit') {
            stream.close();
            return;
          }
          if (command) this.runLine(command, (out) => stream.write(Buffer.from(out.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')), null);
          prompt();
        } else if (ch === '\x7f' || ch === '\b') {
          if (line.length > 0) {
            line = line.slice(0, -1);
            stream.write(Buffer.from('\b \b'));
          }
        } else if (ch === '\x03') {
          line = '';
          stream.write(Buffer.from('^C\r\n'));
          prompt();
        } else if (ch >= ' ') {
          line += ch;
          stream.write(Buffer.from(ch, 'latin1'));
        }
      }
    });
  }

  private follow(stream: PeerStream): void {
    for (const l of this.logLines) stream.write(Buffer.from(`${l}\n`));
    const watcher = (l: string) => stream.write(Buffer.from(`${l}\n`));
    this.logWatchers.add(watcher);
    stream.onClose(() => this.logWatchers.delete(watcher));
  }

  /** Calls `watcher` with each minicap frame as it is sent; returns the function that stops it. */
  onMinicapFrame(watcher: (seq: number, frame: Buffer) => void): () => void {
    this.frameWatchers.add(watcher);
    return () => this.frameWatchers.delete(watcher);
  }

  /** Calls `watcher` with each `shell:`/`exec:` command line as it arrives; returns the function that stops it. */
  onCommand(watcher: (line: string) => void): () => void {
    this.commandWatchers.add(watcher);
    return () => this.commandWatchers.delete(watcher);
  }

  /** Calls `watcher` with each line minitouch receives; returns the function that stops it. */
  onTouchLine(watcher: (line: string) => void): () => void {
    this.touchWatchers.add(watcher);
    return () => this.touchWatchers.delete(watcher);
  }

  /**
   * minicap (`LD_LIBRARY_PATH=<dir> [exec] <bin> -P ...`, or `CLASSPATH=<apk> app_process /system/bin
   * io.devicefarmer.minicap.Main -P ...`) and minitouch (`[exec] <bin>`): long-running processes that
   * print to `stream` and live until it closes or they are killed. Answers false for anything else.
   */
  private startDaemon(commandWords: string[], stream: PeerStream): boolean {
    const env = new Map<string, string>();
    let words = [...commandWords];
    while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
      const [key, ...value] = words.shift()!.split('=');
      env.set(key!, value.join('='));
    }
    if (words[0] === 'exec') words = words.slice(1);
    const program = words[0] ?? '';
    const executable = (path: string) => {
      const f = this.files.get(path);
      return f?.type === 'file' && (f.mode & 0o111) !== 0;
    };
    const fail = (status: string) => {
      stream.write(Buffer.from(`${status}\n`));
      stream.close();
      return true;
    };
    const isMinicapBin = posix.basename(program) === 'minicap';
    const isMinicapApk = program === 'app_process' && words.includes('io.devicefarmer.minicap.Main');
    if (isMinicapBin || isMinicapApk) {
      if (isMinicapBin && !executable(program)) return fail(`/system/bin/sh: ${program}: not found`);
      if (isMinicapBin && this.files.get(`${env.get('LD_LIBRARY_PATH') ?? '/system/lib'}/minicap.so`)?.type !== 'file') return fail('CANNOT LINK EXECUTABLE "minicap": library "minicap.so" not found');
      if (isMinicapApk && this.files.get(env.get('CLASSPATH') ?? '')?.type !== 'file') return fail('Error: Could not find class \'io.devicefarmer.minicap.Main\'');
      const projection = parseProjection(words[words.indexOf('-P') + 1]);
      if (!projection) return fail('ERROR: -P needs {realW}x{realH}@{virtualW}x{virtualH}/{rotation}');
      if (this.options.minicapCrashes) return fail('Segmentation fault');
      const variant = isMinicapBin ? 'bin' : 'apk';
      this.record.minicapStarts.push({ variant, projection });
      this.minicap?.stop();
      const pid = ++this.pid;
      const daemon = new MinicapDaemon(pid, projection, variant, (seq, frame) => {
        this.minicapFrames.set(seq, frame);
        this.minicapFrames.delete(seq - 2_000);
        for (const w of this.frameWatchers) w(seq, frame);
      }, this.options.minicapClock === true);
      this.minicap = daemon;
      this.minicapFrames.clear();
      this.daemons.set(pid, { stop: () => daemon.stop(), stream });
      stream.write(Buffer.from(`PID: ${pid}\nINFO: Using projection ${words[words.indexOf('-P') + 1]}\n`));
      stream.onClose(() => this.endDaemon(pid));
      return true;
    }
    if (program === 'am' && words[1] === 'instrument') return this.startInstrumentation(words, stream);
    if (posix.basename(program) === 'minitouch') {
      if (!executable(program)) return fail(`/system/bin/sh: ${program}: not found`);
      // Android 10 took the touch devices away from the shell user: minitouch finds none without root.
      if (Number(this.properties['ro.build.version.sdk']) >= 29) return fail('Unable to open any touch device without root');
      const pid = ++this.pid;
      const { width, height } = this.physical;
      const daemon = new MinitouchDaemon(pid, { contacts: 10, maxX: (width - 1) * 4, maxY: (height - 1) * 4, pressure: 255 }, (line) => {
        this.record.touch.push(line);
        for (const w of this.touchWatchers) w(line);
      });
      this.minitouch = daemon;
      this.daemons.set(pid, { stop: () => daemon.stop(), stream });
      stream.write(Buffer.from(`Type B touch device peer-touch (${(width - 1) * 4 + 1}x${(height - 1) * 4 + 1} with 10 contacts) detected on /dev/input/event1\n`));
      stream.onClose(() => this.endDaemon(pid));
      return true;
    }
    return false;
  }

  /** A test APK's scripted suite, played by `am instrument` once its package is installed (test/adbd/instrument.ts). */
  scriptSuite(suite: ScriptedSuite): void {
    this.suites.set(suite.testPackage, suite);
  }

  private readonly suites = new Map<string, ScriptedSuite>();

  /**
   * `am instrument -w ... <package>/<runner>`: the UiAutomator2 server's instrumentation, or a scripted
   * suite's (`scriptSuite`) once its test APK and its target are installed.
   */
  private startInstrumentation(words: string[], stream: PeerStream): boolean {
    const target = words.at(-1) ?? '';
    const packageName = target.split('/')[0] ?? '';
    const fail = (message: string) => {
      stream.write(Buffer.from(`${message}\n`));
      stream.close();
      return true;
    };
    const suite = this.suites.get(packageName);
    if (suite) {
      const runner = target.split('/')[1] ?? '';
      const known = runner === suite.runner || `${packageName}${runner}` === suite.runner;
      if (!this.packages.has(packageName) || !known) return fail(`android.util.AndroidException: INSTRUMENTATION_FAILED: ${target}`);
      if (!this.packages.has(suite.targetPackage)) return fail('INSTRUMENTATION_RESULT: shortMsg=Unable to find instrumentation target package: ' + suite.targetPackage + '\nINSTRUMENTATION_CODE: 0');
      this.record.instrumentations.push(words.join(' '));
      const pid = ++this.pid;
      const stops: (() => void)[] = [];
      const stop = () => stops.splice(0).forEach((f) => f());
      this.daemons.set(pid, { stop, stream });
      this.instrumented.set(pid, [packageName, suite.targetPackage]);
      stream.onClose(() => this.endDaemon(pid));
      runInstrumentation(suite, words, {
        write: (text) => stream.write(Buffer.from(text)),
        close: () => {
          this.daemons.delete(pid);
          this.instrumented.delete(pid);
          stream.close();
        },
        log: (level, tag, message) => this.log(level, tag, message),
        onStop: (listener) => stops.push(listener),
      });
      return true;
    }
    if (packageName !== UIA2_TEST_PACKAGE || !this.packages.has(UIA2_TEST_PACKAGE)) return fail(`android.util.AndroidException: INSTRUMENTATION_FAILED: ${target}`);
    if (!this.packages.has(UIA2_SERVER_PACKAGE)) return fail(`INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0`);
    this.record.instrumentations.push(words.join(' '));
    if (this.options.uiautomator2Crashes) return fail('INSTRUMENTATION_RESULT: shortMsg=java.lang.SecurityException\nINSTRUMENTATION_CODE: 0');
    const pid = ++this.pid;
    const server = new UiAutomator2ServerPeer(pid, (received) => {
      this.record.pointerActions.push(received);
      for (const w of this.touchWatchers) w(`actions ${received.actions.length}`);
    });
    this.uiautomator2?.stop();
    this.uiautomator2 = server;
    this.tcpServices.set(UIA2_DEVICE_PORT, (s) => server.serve(s));
    this.daemons.set(pid, { stop: () => server.stop(), stream });
    stream.write(Buffer.from(`\n${UIA2_TEST_PACKAGE}.AppiumUiAutomator2Server:`));
    stream.onClose(() => this.endDaemon(pid));
    return true;
  }

  private readonly daemons = new Map<number, { stop: () => void; stream: PeerStream }>();
  /** Running scripted instrumentations: their test and target packages (`am force-stop` of either ends them). */
  private readonly instrumented = new Map<number, string[]>();

  private endDaemon(pid: number): void {
    const daemon = this.daemons.get(pid);
    if (!daemon) return;
    this.daemons.delete(pid);
    this.instrumented.delete(pid);
    daemon.stop();
    daemon.stream.close();
    if (this.minicap?.pid === pid) this.minicap = null;
    if (this.minitouch?.pid === pid) this.minitouch = null;
    if (this.uiautomator2?.pid === pid) {
      this.uiautomator2 = null;
      this.tcpServices.delete(UIA2_DEVICE_PORT);
    }
  }

  /** Runs one command; returns its exit status. */
  private exec(words: string[], io: { out: (s: string | Buffer) => void; err: (s: string) => void }): number {
    const [name, ...args] = words;
    const line = words.join(' ');
    if ([...this.refused].some((r) => line === r || line.startsWith(`${r} `))) {
      io.err(`${name}: Permission denied\n`);
      return 1;
    }
    switch (name) {
      case 'cmd':
        return this.cmd(args, io);
      case 'echo':
        io.out(`${args.join(' ')}\n`);
        return 0;
      case 'true':
        return 0;
      case 'kill': {
        let status = 0;
        for (const pid of args.filter((a) => /^\d+$/.test(a)).map(Number)) {
          if (this.daemons.has(pid)) this.endDaemon(pid);
          else {
            io.err(`kill: ${pid}: No such process\n`);
            status = 1;
          }
        }
        return status;
      }
      case 'ime':
        return this.ime(args, io);
      case 'getprop': {
        if (args[0]) {
          io.out(`${this.properties[args[0]] ?? ''}\n`);
          // Back from a reboot, the device finishes booting once it has said it has not.
          if (args[0] === 'sys.boot_completed') this.properties[args[0]] = '1';
          return 0;
        }
        for (const [k, v] of Object.entries(this.properties).sort()) io.out(`[${k}]: [${v}]\n`);
        return 0;
      }
      case 'wm':
        if (args[0] === 'size') {
          io.out(`Physical size: ${this.physical.width}x${this.physical.height}\n`);
          return 0;
        }
        if (args[0] === 'dismiss-keyguard') return 0;
        io.err(`wm: unknown command ${args[0] ?? ''}\n`);
        return 1;
      case 'screencap': {
        const png = this.screenshot();
        const file = args.filter((a) => a !== '-p')[0];
        if (file) this.writeFile(file, png);
        else io.out(png);
        return 0;
      }
      case 'input':
        return this.input(args, io);
      case 'pm':
        return this.pm(args, io);
      case 'am':
        return this.am(args, io);
      case 'monkey': {
        const pkg = args[args.indexOf('-p') + 1];
        if (!pkg || !this.packages.has(pkg)) {
          io.err(`** No activities found to run, monkey aborted.\n`);
          return 1;
        }
        this.foreground = pkg;
        this.record.launched.push(pkg);
        this.log('I', 'ActivityTaskManager', `START u0 {cat=[android.intent.category.LAUNCHER] pkg=${pkg}}`);
        io.out('Events injected: 1\n');
        return 0;
      }
      case 'uiautomator': {
        if (args[0] !== 'dump') return 1;
        const target = args[1] ?? '/sdcard/window_dump.xml';
        const xml = this.uiXml();
        if (target === '/dev/tty') io.out(xml);
        else this.writeFile(target, Buffer.from(xml));
        io.out(`UI hierchary dumped to: ${target}\n`);
        return 0;
      }
      case 'logcat':
        if (args.includes('-c')) {
          this.logLines.length = 0;
          return 0;
        }
        for (const l of this.logLines) io.out(`${l}\n`);
        return 0;
      case 'settings':
        return this.settingsCommand(args, io);
      case 'content': {
        // content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:1
        const binds = args.flatMap((a, i) => (args[i - 1] === '--bind' ? [a] : []));
        const nameBind = binds.find((b) => b.startsWith('name:'))?.split(':')[2];
        const valueBind = binds.find((b) => b.startsWith('value:'))?.split(':').slice(2).join(':');
        if (args[0] !== 'insert' || !nameBind || valueBind === undefined) return 1;
        this.putSetting('system', nameBind, valueBind);
        return 0;
      }
      case 'ls':
        return this.ls(args, io);
      case 'rm': {
        const recursive = args.some((a) => /^-[a-z]*r/.test(a));
        const force = args.some((a) => /^-[a-z]*f/.test(a));
        let status = 0;
        for (const path of args.filter((a) => !a.startsWith('-'))) {
          const problem = this.remove(path, recursive);
          if (problem && !force) {
            io.err(`${problem}\n`);
            status = 1;
          }
        }
        return status;
      }
      case 'mkdir': {
        const parents = args.includes('-p');
        for (const path of args.filter((a) => !a.startsWith('-'))) {
          if (!parents && this.files.get(posix.dirname(path))?.type !== 'dir') {
            io.err(`mkdir: '${path}': No such file or directory\n`);
            return 1;
          }
          this.mkdir(path);
        }
        return 0;
      }
      case 'stat': {
        const path = args.filter((a) => !a.startsWith('-'))[0] ?? '';
        const entry = this.files.get(path);
        if (!entry) {
          io.err(`stat: '${path}': No such file or directory\n`);
          return 1;
        }
        io.out(`  File: ${path}\n  Size: ${entry.data.length}\t ${entry.type === 'dir' ? 'directory' : 'regular file'}\n`);
        return 0;
      }
      case 'dumpsys':
        if (args[0] === 'package' && args[1]) return this.dumpsysPackage(args[1], io);
        return this.health.exec(name, args, io);
      case 'df':
      case 'ip':
        return this.health.exec(name, args, io);
      case 'cat': {
        if (args.length > 0 && args.every((path) => HEALTH_FILES.includes(path))) return this.health.exec(name, args, io);
        for (const path of args) {
          const entry = this.files.get(path);
          if (!entry || entry.type !== 'file') {
            io.err(`cat: ${path}: No such file or directory\n`);
            return 1;
          }
          io.out(entry.data);
        }
        return 0;
      }
      default:
        io.err(`/system/bin/sh: ${name}: inaccessible or not found\n`);
        return 127;
    }
  }

  private input(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const [verb, ...rest] = args[0] === 'touchscreen' ? args.slice(1) : args;
    const n = (s: string | undefined) => {
      const v = Number(s);
      if (s === undefined || !Number.isFinite(v)) throw new Error(`Error: Invalid arguments for command: ${verb}`);
      return v;
    };
    switch (verb) {
      case 'tap': {
        const tap = { x: n(rest[0]), y: n(rest[1]) };
        this.record.taps.push(tap);
        this.paint(tap.x, tap.y, 5, TAP_COLOUR);
        this.log('D', 'InputDispatcher', `tap at ${tap.x},${tap.y}`);
        return 0;
      }
      case 'swipe': {
        const s = { x1: n(rest[0]), y1: n(rest[1]), x2: n(rest[2]), y2: n(rest[3]), durationMs: rest[4] ? n(rest[4]) : 300 };
        this.record.swipes.push(s);
        for (let i = 0; i <= 10; i++) this.paint(s.x1 + ((s.x2 - s.x1) * i) / 10, s.y1 + ((s.y2 - s.y1) * i) / 10, 2, TAP_COLOUR);
        this.log('D', 'InputDispatcher', `swipe ${s.x1},${s.y1} -> ${s.x2},${s.y2} in ${s.durationMs} ms`);
        return 0;
      }
      case 'text': {
        // `input text` turns %s into a space; the shell has already removed the quoting. The Unicode
        // input method, when it is the current one, decodes what it receives from modified UTF-7.
        const raw = rest.join(' ').replace(/%s/g, ' ');
        const text = this.settings.get('secure/default_input_method') === UNICODE_IME ? decodeImapUtf7(raw) : raw;
        this.record.texts.push(text);
        this.typed += text;
        this.paintText();
        this.log('D', 'InputDispatcher', `text of ${text.length} characters`);
        return 0;
      }
      case 'keyevent': {
        for (const key of rest.filter((k) => k !== '--longpress')) {
          this.record.keys.push(key);
          if (key === 'KEYCODE_DEL' || key === '67') {
            this.typed = this.typed.slice(0, -1);
            this.paintText();
          }
          if (key === 'KEYCODE_HOME' || key === '3') this.foreground = 'com.android.launcher3';
          this.log('D', 'InputDispatcher', `key ${key}`);
        }
        return 0;
      }
      default:
        io.err(`Error: Unknown command: ${verb ?? ''}\n`);
        return 1;
    }
  }

  /** `ime list -s`, `ime enable <id>`, `ime disable <id>`, `ime set <id>`: an input method of an installed package. */
  private ime(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const [verb, id] = args;
    const enabled = (this.settings.get('secure/enabled_input_methods') ?? '').split(':').filter(Boolean);
    if (verb === 'list') {
      for (const e of enabled) io.out(`${e}\n`);
      return 0;
    }
    if (!id) {
      io.err('Error: no input method given\n');
      return 1;
    }
    const installed = id === LATIN_IME || (id === UNICODE_IME && this.packages.has('io.appium.settings'));
    if (!installed) {
      io.err(`Error: Unknown id: ${id}\n`);
      return 1;
    }
    switch (verb) {
      case 'enable':
        if (!enabled.includes(id)) this.settings.set('secure/enabled_input_methods', [...enabled, id].join(':'));
        io.out(`Input method ${id}: now enabled\n`);
        return 0;
      case 'disable':
        this.settings.set('secure/enabled_input_methods', enabled.filter((e) => e !== id).join(':'));
        io.out(`Input method ${id}: now disabled\n`);
        return 0;
      case 'set':
        if (!enabled.includes(id)) {
          io.err(`Error: Input method ${id} is not enabled\n`);
          return 1;
        }
        this.settings.set('secure/default_input_method', id);
        io.out(`Input method ${id} selected for user #0\n`);
        return 0;
      default:
        io.err(`Error: unknown command ${verb ?? ''}\n`);
        return 1;
    }
  }

  private pm(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const [verb, ...rest] = args;
    switch (verb) {
      case 'list': {
        if (rest[0] === 'instrumentation') {
          for (const [test, target, runner] of this.instrumentations()) io.out(`instrumentation:${test}/${runner} (target=${target})\n`);
          return 0;
        }
        if (rest[0] !== 'packages') return 1;
        const thirdParty = rest.includes('-3');
        const withCode = rest.includes('--show-versioncode');
        for (const p of [...this.packages.values()].sort((a, b) => a.name.localeCompare(b.name))) {
          if (!thirdParty || !p.system) io.out(`package:${p.name}${withCode ? ` versionCode:${p.versionCode ?? 0}` : ''}\n`);
        }
        return 0;
      }
      case 'path': {
        const p = this.packages.get(rest[0] ?? '');
        if (!p) return 1;
        io.out(`package:${p.path}\n`);
        return 0;
      }
      case 'install': {
        const path = rest.filter((a) => !a.startsWith('-'))[0] ?? '';
        const replace = rest.includes('-r');
        const file = this.files.get(path);
        if (!file || file.type !== 'file') {
          io.out(`Failure [INSTALL_FAILED_INVALID_URI]\n`);
          return 1;
        }
        const manifest = apkManifest(file.data);
        const packageName = manifest?.packageName;
        if (!packageName) {
          io.out('Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse]\n');
          return 1;
        }
        if (this.packages.has(packageName) && !replace) {
          io.out(`Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${packageName} without first uninstalling.]\n`);
          return 1;
        }
        this.packages.set(packageName, { name: packageName, path: `/data/app/${packageName}-1/base.apk`, system: false, ...manifest.version });
        this.record.installs.push({ path, packageName, replace, size: file.data.length, sha256: createHash('sha256').update(file.data).digest('hex') });
        this.log('I', 'PackageManager', `installed ${packageName}`);
        io.out('Success\n');
        return 0;
      }
      case 'clear': {
        const p = this.packages.get(rest[0] ?? '');
        if (!p) {
          io.out('Failed\n');
          return 1;
        }
        this.record.cleared.push(p.name);
        io.out('Success\n');
        return 0;
      }
      case 'uninstall': {
        const name = rest.filter((a) => !a.startsWith('-'))[0] ?? '';
        const p = this.packages.get(name);
        if (!p || p.system) {
          io.out('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
          return 1;
        }
        this.packages.delete(name);
        this.record.uninstalls.push(name);
        if (this.foreground === name) this.foreground = 'com.android.launcher3';
        this.log('I', 'PackageManager', `uninstalled ${name}`);
        io.out('Success\n');
        return 0;
      }
      default:
        io.err(`pm: unknown command ${verb ?? ''}\n`);
        return 1;
    }
  }

  private am(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const [verb, ...rest] = args;
    const option = (flag: string) => {
      const i = rest.indexOf(flag);
      return i >= 0 ? (rest[i + 1] ?? null) : null;
    };
    switch (verb) {
      case 'start': {
        const intent = { action: option('-a') ?? 'android.intent.action.MAIN', data: option('-d'), component: option('-n') };
        this.record.intents.push(intent);
        this.foreground = intent.component?.split('/')[0] ?? (intent.data?.startsWith('http') ? 'com.android.chrome' : intent.action === 'android.settings.SETTINGS' ? 'com.android.settings' : this.foreground);
        this.log('I', 'ActivityTaskManager', `START u0 {act=${intent.action}${intent.data ? ` dat=${intent.data}` : ''}}`);
        io.out(`Starting: Intent { act=${intent.action}${intent.data ? ` dat=${intent.data}` : ''} }\n`);
        return 0;
      }
      case 'force-stop': {
        const pkg = rest[0] ?? '';
        this.record.forceStopped.push(pkg);
        if ((pkg === UIA2_TEST_PACKAGE || pkg === UIA2_SERVER_PACKAGE) && this.uiautomator2) this.endDaemon(this.uiautomator2.pid);
        for (const [pid, packages] of [...this.instrumented]) if (packages.includes(pkg)) this.endDaemon(pid);
        if (this.foreground === pkg) this.foreground = 'com.android.launcher3';
        return 0;
      }
      default:
        io.err(`am: unknown command ${verb ?? ''}\n`);
        return 1;
    }
  }

  /** `cmd clipboard get text` and `cmd clipboard set text <text>` (the clipboard service's shell command). */
  /** The instrumentations `pm list instrumentation` lists: [test package, target package, runner] of each installed test APK. */
  private instrumentations(): [string, string, string][] {
    const found: [string, string, string][] = [];
    if (this.packages.has(UIA2_TEST_PACKAGE)) found.push([UIA2_TEST_PACKAGE, UIA2_SERVER_PACKAGE, 'androidx.test.runner.AndroidJUnitRunner']);
    for (const suite of this.suites.values()) if (this.packages.has(suite.testPackage)) found.push([suite.testPackage, suite.targetPackage, suite.runner]);
    return found;
  }

  /** `dumpsys package <name>`: an installed package's section, with its version where its APK gave one. */
  private dumpsysPackage(name: string, io: { out: (s: string) => void }): number {
    const p = this.packages.get(name);
    if (!p) {
      io.out(`Unable to find package: ${name}\n`);
      return 0;
    }
    const version = p.versionCode !== undefined ? [`    versionCode=${p.versionCode} minSdk=26 targetSdk=${this.properties['ro.build.version.sdk'] ?? '34'}`] : [];
    const versionName = p.versionName !== undefined ? [`    versionName=${p.versionName}`] : [];
    io.out([`Packages:`, `  Package [${p.name}] (${createHash('sha1').update(p.name).digest('hex').slice(0, 7)}):`, `    codePath=${posix.dirname(p.path)}`, ...version, ...versionName, ''].join('\n'));
    return 0;
  }

  private cmd(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    // `cmd package …` is the package manager's own shell command, as `pm` is.
    if (args[0] === 'package') return this.pm(args.slice(1), io);
    if (args[0] !== 'clipboard') {
      io.err(`cmd: Can't find service: ${args[0] ?? ''}\n`);
      return 20;
    }
    if (args[1] === 'get' && args[2] === 'text') {
      if (this.clipboard) io.out(`${this.clipboard}\n`);
      return 0;
    }
    if (args[1] === 'set' && args[2] === 'text') {
      this.clipboard = args.slice(3).join(' ');
      return 0;
    }
    io.err(`Unknown command: ${args[1] ?? ''}\n`);
    return 1;
  }

  private settingsCommand(args: string[], io: { out: (s: string) => void }): number {
    const [verb, namespace, key, value] = args;
    if (verb === 'get' && namespace && key) {
      io.out(`${this.settings.get(`${namespace}/${key}`) ?? 'null'}\n`);
      return 0;
    }
    if (verb === 'put' && namespace && key && value !== undefined) {
      if (!this.stuckSettings.has(`${namespace}/${key}`)) this.putSetting(namespace, key, value);
      return 0;
    }
    if (verb === 'delete' && namespace && key) {
      if (!this.stuckSettings.has(`${namespace}/${key}`)) this.settings.delete(`${namespace}/${key}`);
      return 0;
    }
    return 1;
  }

  private putSetting(namespace: string, key: string, value: string): void {
    if (namespace === 'system' && key === 'user_rotation') this.rotate(Number(value) & 3);
    else this.settings.set(`${namespace}/${key}`, value);
  }

  private ls(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
    const long = args.some((a) => a.startsWith('-') && a.includes('l'));
    const path = args.filter((a) => !a.startsWith('-'))[0] ?? '/';
    const entry = this.files.get(path);
    if (!entry) {
      io.err(`ls: ${path}: No such file or directory\n`);
      return 1;
    }
    const rows: [string, FileEntry][] = entry.type === 'dir' ? this.children(path).sort(([a], [b]) => a.localeCompare(b)) : [[path, entry]];
    for (const [name, e] of rows) io.out(long ? `${e.type === 'dir' ? 'd' : '-'}rw-r--r-- 1 shell shell ${e.data.length} 2024-01-01 00:00 ${name}\n` : `${name}\n`);
    return 0;
  }

  private uiXml(): string {
    const { width, height } = this.screen;
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    const node = (attrs: Record<string, string>, children = '') =>
      `<node index="0" text="${esc(attrs.text ?? '')}" resource-id="${attrs.id ?? ''}" class="${attrs.class}" package="${this.foreground}" content-desc="${esc(attrs.desc ?? '')}" checkable="false" checked="false" clickable="${attrs.clickable ?? 'false'}" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${attrs.bounds}">${children}</node>`;
    const button = node({ class: 'android.widget.Button', id: 'com.peer:id/tap_me', text: 'Tap me', clickable: 'true', bounds: `[0,100][${width},300]` });
    const field = node({ class: 'android.widget.EditText', id: 'com.peer:id/field', text: this.typed, desc: 'type here', bounds: `[20,320][${width - 20},380]` });
    const root = node({ class: 'android.widget.FrameLayout', bounds: `[0,0][${width},${height}]` }, this.uiNodes ?? button + field);
    return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${this.settings.get('system/user_rotation') ?? '0'}">${root}</hierarchy>`;
  }
}

/**
 * What a device's package manager would read from an APK: its package name and, where the manifest has
 * them, `versionCode` and `versionName` — from a real one's binary `AndroidManifest.xml` (found through
 * the zip's central directory and inflated), or a test APK's manifest kept as text in a stored entry.
 * Null when it is no APK.
 */
export function apkManifest(bytes: Buffer): { packageName: string; version: Pick<PackageEntry, 'versionCode' | 'versionName'> } | null {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) return null;
  const manifest = zipEntry(bytes, 'AndroidManifest.xml');
  if (manifest && manifest.readUInt16LE(0) === 0x0003) {
    try {
      const attributes = parseBinaryXml(manifest).attributes;
      const value = (name: string) => attributes.find((a) => a.name === name)?.value;
      const [name, code, versionName] = [value('package'), value('versionCode'), value('versionName')];
      if (typeof name !== 'string') return null;
      return { packageName: name, version: { ...(typeof code === 'number' ? { versionCode: code } : {}), ...(typeof versionName === 'string' ? { versionName } : {}) } };
    } catch {
      return null;
    }
  }
  const text = bytes.toString('latin1');
  if (!text.includes('AndroidManifest.xml')) return null;
  const name = /package="([A-Za-z][\w]*(?:\.[A-Za-z][\w]*)+)"/.exec(text)?.[1];
  if (!name) return null;
  const code = /versionCode="(\d+)"/.exec(text)?.[1];
  const versionName = /versionName="([^"]+)"/.exec(text)?.[1];
  return { packageName: name, version: { ...(code ? { versionCode: Number(code) } : {}), ...(versionName ? { versionName } : {}) } };
}

/** One entry of an in-memory zip, by its central directory (stored or deflated), or null. */
function zipEntry(zip: Buffer, name: string): Buffer | null {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) return null;
  let p = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < count && p + 46 <= zip.length; i++) {
    const nameLength = zip.readUInt16LE(p + 28);
    const entryName = zip.toString('utf8', p + 46, p + 46 + nameLength);
    if (entryName === name) {
      const method = zip.readUInt16LE(p + 10);
      const compressed = zip.readUInt32LE(p + 20);
      const local = zip.readUInt32LE(p + 42);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      return method === 8 ? inflateRawSync(data) : data;
    }
    p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return null;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function header(command: number, arg0: number, arg1: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(24);
  let sum = 0;
  for (const b of payload) sum = (sum + b) >>> 0;
  h.writeUInt32LE(command, 0);
  h.writeUInt32LE(arg0 >>> 0, 4);
  h.writeUInt32LE(arg1 >>> 0, 8);
  h.writeUInt32LE(payload.length, 12);
  h.writeUInt32LE(sum, 16);
  h.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return h;
}

/** One connection from the adb server. */
class Transport {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, PeerStream>();
  private nextId = 1;
  maxPayload = 4096;

  constructor(
    private readonly socket: Socket,
    private readonly peer: AdbdPeer,
  ) {
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.drain();
    });
    socket.on('close', () => {
      for (const s of this.streams.values()) s.hostClosed();
      this.streams.clear();
    });
  }

  send(command: number, arg0: number, arg1: number, payload: Buffer = Buffer.alloc(0)): void {
    if (this.socket.destroyed || this.socket.writableEnded) return;
    this.socket.write(Buffer.concat([header(command, arg0, arg1, payload), payload]));
  }

  forget(localId: number): void {
    this.streams.delete(localId);
  }

  private drain(): void {
    // A device going down (a reboot) answers nothing more on the connections it is ending.
    if (this.socket.writableEnded) this.buffer = Buffer.alloc(0);
    while (this.buffer.length >= 24) {
      const length = this.buffer.readUInt32LE(12);
      if (this.buffer.length < 24 + length) return;
      const command = this.buffer.readUInt32LE(0);
      const arg0 = this.buffer.readUInt32LE(4);
      const arg1 = this.buffer.readUInt32LE(8);
      if (this.buffer.readUInt32LE(20) !== (command ^ 0xffffffff) >>> 0) {
        this.socket.destroy();
        return;
      }
      const payload = Buffer.from(this.buffer.subarray(24, 24 + length));
      this.buffer = this.buffer.subarray(24 + length);
      this.handle(command, arg0, arg1, payload);
    }
  }

  private handle(command: number, arg0: number, arg1: number, payload: Buffer): void {
    switch (command) {
      case A_CNXN: {
        this.maxPayload = Math.min(arg1 || 4096, MAX_PAYLOAD);
        const p = this.peer.properties;
        const banner = `device::ro.product.name=${p['ro.product.name']};ro.product.model=${p['ro.product.model']};ro.product.device=${p['ro.product.device']};features=\0`;
        this.send(A_CNXN, A_VERSION, MAX_PAYLOAD, Buffer.from(banner));
        return;
      }
      case A_AUTH:
        // The device never asks for authentication, so there is nothing to answer.
        return;
      case A_OPEN: {
        const destination = payload.toString('utf8').replace(/\0+$/, '');
        const service = this.peer.openService(destination);
        if (!service) {
          this.send(A_CLSE, 0, arg0);
          return;
        }
        const localId = this.nextId++;
        const stream = new PeerStream(this, localId, arg0);
        this.streams.set(localId, stream);
        this.send(A_OKAY, localId, arg0);
        service(stream);
        return;
      }
      case A_WRTE: {
        const stream = this.streams.get(arg1);
        this.send(A_OKAY, arg1, arg0);
        stream?.received(payload);
        return;
      }
      case A_OKAY:
        this.streams.get(arg1)?.acknowledged();
        return;
      case A_CLSE: {
        const stream = this.streams.get(arg1);
        if (stream) {
          this.streams.delete(arg1);
          stream.hostClosed();
        }
        return;
      }
      default:
        return;
    }
  }
}

/** One stream: writes wait for the host's OKAY before the next WRTE, as the protocol requires. */
export class PeerStream {
  private readonly queue: Buffer[] = [];
  private waiting = false;
  private closing = false;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  private dataListener: ((data: Buffer) => void) | null = null;
  private readonly early: Buffer[] = [];

  constructor(
    private readonly transport: Transport,
    readonly localId: number,
    readonly remoteId: number,
  ) {}

  /** Pieces written and not yet acknowledged by the host. */
  get backlog(): number {
    return this.queue.length + (this.waiting ? 1 : 0);
  }

  write(data: Buffer): void {
    if (this.closed || this.closing) return;
    for (let i = 0; i < data.length; i += this.transport.maxPayload) this.queue.push(data.subarray(i, i + this.transport.maxPayload));
    this.flush();
  }

  /** Closes once everything written has been acknowledged. */
  close(): void {
    if (this.closed) return;
    this.closing = true;
    this.flush();
  }

  onData(listener: (data: Buffer) => void): void {
    this.dataListener = listener;
    for (const d of this.early.splice(0)) listener(d);
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  received(data: Buffer): void {
    if (this.dataListener) this.dataListener(data);
    else this.early.push(data);
  }

  acknowledged(): void {
    this.waiting = false;
    this.flush();
  }

  hostClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    for (const l of this.closeListeners.splice(0)) l();
  }

  private flush(): void {
    if (this.closed || this.waiting) return;
    const next = this.queue.shift();
    if (next) {
      this.waiting = true;
      this.transport.send(A_WRTE, this.localId, this.remoteId, next);
      return;
    }
    if (this.closing) {
      this.closed = true;
      this.transport.send(A_CLSE, this.localId, this.remoteId);
      this.transport.forget(this.localId);
      for (const l of this.closeListeners.splice(0)) l();
    }
  }
}

/** The `sync:` service over the peer's file system (version 1 requests). */
class SyncSession {
  private buffer: Buffer = Buffer.alloc(0);
  private sending: { path: string; mode: number; chunks: Buffer[] } | null = null;

  constructor(
    private readonly peer: AdbdPeer,
    private readonly stream: PeerStream,
  ) {
    stream.onData((data) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.drain();
    });
  }

  private drain(): void {
    for (;;) {
      if (this.buffer.length < 8) return;
      const id = this.buffer.toString('latin1', 0, 4);
      const length = this.buffer.readUInt32LE(4);
      if (this.sending && id === 'DONE') {
        this.buffer = this.buffer.subarray(8);
        this.finishSend(length);
        continue;
      }
      if (this.buffer.length < 8 + length) return;
      const body = Buffer.from(this.buffer.subarray(8, 8 + length));
      this.buffer = this.buffer.subarray(8 + length);
      if (this.sending) {
        if (id === 'DATA') this.sending.chunks.push(body);
        else this.fail(`unexpected ${id} during SEND`);
        continue;
      }
      this.request(id, body.toString('utf8'));
    }
  }

  private request(id: string, path: string): void {
    switch (id) {
      case 'STAT': {
        const entry = this.peer.files.get(path);
        const reply = Buffer.alloc(16);
        reply.write('STAT', 0, 'latin1');
        if (entry) {
          reply.writeUInt32LE(entry.mode, 4);
          reply.writeUInt32LE(entry.data.length, 8);
          reply.writeUInt32LE(entry.mtime, 12);
        }
        this.stream.write(reply);
        return;
      }
      case 'LIST': {
        const entry = this.peer.files.get(path);
        const rows = entry?.type === 'dir' ? this.peer.children(path) : [];
        for (const [name, e] of rows) {
          const nameBytes = Buffer.from(name);
          const dent = Buffer.alloc(20);
          dent.write('DENT', 0, 'latin1');
          dent.writeUInt32LE(e.mode, 4);
          dent.writeUInt32LE(e.data.length, 8);
          dent.writeUInt32LE(e.mtime, 12);
          dent.writeUInt32LE(nameBytes.length, 16);
          this.stream.write(Buffer.concat([dent, nameBytes]));
        }
        const done = Buffer.alloc(20);
        done.write('DONE', 0, 'latin1');
        this.stream.write(done);
        return;
      }
      case 'RECV': {
        const entry = this.peer.files.get(path);
        if (!entry || entry.type !== 'file') {
          this.fail(entry ? `${path}: Is a directory` : `${path}: No such file or directory`);
          return;
        }
        for (let i = 0; i < entry.data.length; i += SYNC_DATA_MAX) {
          const piece = entry.data.subarray(i, i + SYNC_DATA_MAX);
          const head = Buffer.alloc(8);
          head.write('DATA', 0, 'latin1');
          head.writeUInt32LE(piece.length, 4);
          this.stream.write(Buffer.concat([head, piece]));
        }
        const done = Buffer.alloc(8);
        done.write('DONE', 0, 'latin1');
        this.stream.write(done);
        return;
      }
      case 'SEND': {
        const comma = path.lastIndexOf(',');
        const target = comma >= 0 ? path.slice(0, comma) : path;
        const mode = comma >= 0 ? Number(path.slice(comma + 1)) : 0o644;
        this.sending = { path: target, mode: Number.isFinite(mode) ? mode : 0o644, chunks: [] };
        return;
      }
      case 'QUIT':
        this.stream.close();
        return;
      default:
        this.fail(`unknown sync request ${id}`);
    }
  }

  private finishSend(mtime: number): void {
    const { path, mode, chunks } = this.sending!;
    this.sending = null;
    try {
      this.peer.writeFile(path, Buffer.concat(chunks), mode, mtime || nowSeconds());
    } catch (err) {
      this.fail((err as Error).message);
      return;
    }
    const okay = Buffer.alloc(8);
    okay.write('OKAY', 0, 'latin1');
    this.stream.write(okay);
  }

  private fail(message: string): void {
    const text = Buffer.from(message);
    const head = Buffer.alloc(8);
    head.write('FAIL', 0, 'latin1');
    head.writeUInt32LE(text.length, 4);
    this.stream.write(Buffer.concat([head, text]));
  }
}

const JDWP_HANDSHAKE = Buffer.from('JDWP-Handshake');

/**
 * A process's JDWP endpoint: the 14-byte handshake echoed, then command packets answered —
 * VirtualMachine.Version (1,1) with a description of the peer's VM, anything else with error 99
 * (NOT_IMPLEMENTED), as a VM answers a command it does not know.
 */
class JdwpVm {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly entry: PeerRecord['jdwp'][number];

  constructor(
    private readonly peer: AdbdPeer,
    pid: number,
    private readonly stream: PeerStream,
  ) {
    this.entry = { pid, handshake: false, commands: [] };
    peer.record.jdwp.push(this.entry);
    stream.onData((data) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.drain();
    });
  }

  private drain(): void {
    if (!this.entry.handshake) {
      if (this.buffer.length < JDWP_HANDSHAKE.length) return;
      if (!this.buffer.subarray(0, JDWP_HANDSHAKE.length).equals(JDWP_HANDSHAKE)) {
        this.stream.close();
        return;
      }
      this.buffer = this.buffer.subarray(JDWP_HANDSHAKE.length);
      this.entry.handshake = true;
      this.stream.write(JDWP_HANDSHAKE);
    }
    while (this.buffer.length >= 11) {
      const length = this.buffer.readUInt32BE(0);
      if (length < 11) {
        this.stream.close();
        return;
      }
      if (this.buffer.length < length) return;
      const id = this.buffer.readUInt32BE(4);
      const commandSet = this.buffer[9]!;
      const command = this.buffer[10]!;
      this.buffer = this.buffer.subarray(length);
      this.entry.commands.push({ commandSet, command });
      this.stream.write(commandSet === 1 && command === 1 ? reply(id, 0, this.version()) : reply(id, 99, Buffer.alloc(0)));
    }
  }

  private version(): Buffer {
    const p = this.peer.properties;
    const text = (s: string) => {
      const b = Buffer.from(s, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(b.length);
      return Buffer.concat([len, b]);
    };
    const int = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(n);
      return b;
    };
    return Buffer.concat([text(`Peer VM for Android ${p['ro.build.version.release']}`), int(1), int(8), text('2.1.0'), text('Dalvik')]);
  }
}

/** A JDWP reply packet: length, id, flags 0x80, error code, data. */
function reply(id: number, error: number, data: Buffer): Buffer {
  const head = Buffer.alloc(11);
  head.writeUInt32BE(11 + data.length, 0);
  head.writeUInt32BE(id, 4);
  head[8] = 0x80;
  head.writeUInt16BE(error, 9);
  return Buffer.concat([head, data]);
}
