import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tiedToAgent } from '../child-tie.js';
import { DriverError } from '../provider.js';

/**
 * go-ios (`ios`, the npm package `go-ios`) as the host's iOS toolbox, beside appium-ios-device: the iOS
 * 17+ tunnel, instruments screenshots, port forwarding, WebDriverAgent through `runwda`/`runtest`. It
 * prints its results as JSON lines on stdout and its log as JSON lines on stderr; this module runs it
 * against the agent's usbmuxd (`USBMUXD_SOCKET_ADDRESS`) and answers typed results. A missing binary or
 * a failing command is a DriverError (DEVICE_ERROR) carrying go-ios's own reason, never a crash.
 */

const DEFAULT_TIMEOUT_MS = 30_000;

/** The binary inside the npm package, for this machine (the package's postinstall is not relied on). */
export function goIosBinary(): string | null {
  const arch = process.arch === 'arm64' ? 'arm64' : process.arch === 'x64' ? 'amd64' : null;
  const os = process.platform === 'linux' ? 'linux' : process.platform === 'darwin' ? 'darwin' : null;
  if (!arch || !os) return null;
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('go-ios/package.json'));
  } catch {
    return null;
  }
  const file = join(packageDir, 'dist', `go-ios-${os}-${arch}_${os}_${arch}`, 'ios');
  return existsSync(file) ? file : null;
}

/** A device as `ios list --details` prints it. */
export interface GoIosDevice {
  udid: string;
  productName: string;
  productType: string;
  productVersion: string;
  connectionType: string;
}

/** An installed app as `ios apps` prints it. */
export interface GoIosApp {
  bundleId: string;
  name: string;
  version: string;
  type: 'User' | 'System' | string;
}

/** A running tunnel as `ios tunnel ls` prints it. */
export interface GoIosTunnel {
  udid: string;
  address: string;
  rsdPort: number;
  userspaceTunnelPort?: number;
}

export interface GoIosOptions {
  /** usbmuxd: a socket path or host:port (what `USBMUXD_SOCKET_ADDRESS` takes). */
  usbmuxd: string;
  /** The binary; default: the one in the `go-ios` package. */
  binary?: string | null;
  /** Where the host's tunnel answers its info API (`--tunnel-info-port`). */
  tunnelInfoPort?: number;
  /**
   * The folder go-ios runs in: the tunnel keeps its pairing identity (`selfIdentity.plist`) in its
   * working folder. Default: `df-go-ios` in the system's temporary folder.
   */
  workDir?: string;
}

/** One JSON line of go-ios's log (stderr). */
interface LogLine {
  level?: string;
  msg?: string;
  err?: string;
  error?: string;
  [key: string]: unknown;
}

/** Whether a TCP connection to loopback `port` is accepted (closed again at once). */
function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A long-running go-ios command (a forward, WebDriverAgent, the tunnel). */
export class GoIosProcess {
  /** The last error go-ios logged (its reason when it exits). */
  lastError: string | null = null;
  /** Settles when the process ends: its exit code, or null when it was killed. */
  readonly exited: Promise<number | null>;
  private readonly lineListeners = new Set<(line: LogLine) => void>();

  constructor(
    readonly child: ChildProcess,
    readonly what: string,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', (err) => {
        this.lastError ??= err.message;
        resolve(-1);
      });
    });
    eachLine(child.stderr, (text) => {
      const line = parseLog(text);
      if (!line) return;
      if (line.level === 'ERROR') this.lastError = describeLog(line);
      for (const l of this.lineListeners) l(line);
    });
    child.stdout?.resume();
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Waits until go-ios logs a line `ready` accepts; refuses (DEVICE_ERROR with go-ios's reason) when it
   * exits first or `timeoutMs` passes.
   */
  async until(ready: (line: LogLine) => boolean, timeoutMs: number): Promise<void> {
    let listener: ((line: LogLine) => void) | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => {
          listener = (line) => ready(line) && resolve();
          this.lineListeners.add(listener);
        }),
        this.exited.then((code) => {
          throw new DriverError('DEVICE_ERROR', `go-ios ${this.what} ended (${code ?? 'killed'}): ${this.lastError ?? 'no reason given'}`);
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DriverError('DEVICE_ERROR', `go-ios ${this.what} was not ready within ${timeoutMs} ms${this.lastError ? `: ${this.lastError}` : ''}`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (listener) this.lineListeners.delete(listener);
    }
  }

  /**
   * Asks `probe` again every 25 ms until it answers true; refuses (DEVICE_ERROR) when the process exits
   * first or `timeoutMs` passes, saying `notReady`.
   */
  async whileRunning(probe: () => Promise<boolean>, timeoutMs: number, notReady: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await probe()) return;
      if (!this.running) throw new DriverError('DEVICE_ERROR', `go-ios ${this.what} ended: ${this.lastError ?? 'no reason given'}`);
      if (Date.now() >= deadline) throw new DriverError('DEVICE_ERROR', `go-ios ${this.what}: ${notReady} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  onLog(listener: (line: LogLine) => void): void {
    this.lineListeners.add(listener);
  }

  /** Ends the process (SIGTERM, then SIGKILL after a grace period) and waits for it. */
  async stop(graceMs = 3_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    timer.unref();
    await this.exited;
    clearTimeout(timer);
  }
}

export class GoIos {
  private readonly binary: string | null;

  constructor(private readonly options: GoIosOptions) {
    this.binary = options.binary === undefined ? goIosBinary() : options.binary;
  }

  /** Whether the binary is there (a host without it offers what appium-ios-device alone can). */
  get available(): boolean {
    return this.binary !== null && existsSync(this.binary);
  }

  /** UDIDs of the devices usbmuxd lists. */
  async list(): Promise<string[]> {
    const out = await this.json<{ deviceList?: unknown }>(['list']);
    return Array.isArray(out.deviceList) ? out.deviceList.filter((d): d is string => typeof d === 'string') : [];
  }

  async listDetails(): Promise<GoIosDevice[]> {
    const out = await this.json<{ deviceList?: Record<string, unknown>[] }>(['list', '--details']);
    return (out.deviceList ?? []).map((d) => ({
      udid: String(d.Udid ?? ''),
      productName: String(d.ProductName ?? ''),
      productType: String(d.ProductType ?? ''),
      productVersion: String(d.ProductVersion ?? ''),
      connectionType: String(d.ConnectionType ?? ''),
    }));
  }

  /** Lockdown's values of the device (`ios info`). */
  async info(udid: string): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>(['info', `--udid=${udid}`]);
  }

  /** Installed apps: third-party ones, or all with `all`. */
  async apps(udid: string, options: { all?: boolean } = {}): Promise<GoIosApp[]> {
    const out = await this.json<unknown>(['apps', `--udid=${udid}`, ...(options.all ? ['--all'] : [])]);
    if (out === null) return [];
    if (!Array.isArray(out)) throw new DriverError('DEVICE_ERROR', 'go-ios apps answered no list');
    return (out as Record<string, unknown>[]).map((a) => ({
      bundleId: String(a.CFBundleIdentifier ?? ''),
      name: String(a.CFBundleDisplayName ?? a.CFBundleName ?? ''),
      version: String(a.CFBundleShortVersionString ?? a.CFBundleVersion ?? ''),
      type: String(a.ApplicationType ?? ''),
    }));
  }

  /** A PNG of the screen through instruments (the iOS 17+ way; it needs the tunnel or the developer disk image). */
  async screenshot(udid: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Buffer> {
    const dir = await mkdtemp(join(tmpdir(), 'go-ios-shot-'));
    try {
      const file = join(dir, 'screen.png');
      await this.run(['screenshot', `--udid=${udid}`, `--output=${file}`], timeoutMs);
      return await readFile(file).catch(() => {
        throw new DriverError('DEVICE_ERROR', 'go-ios screenshot wrote no file');
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Forwards a loopback port of the host to a device port (`ios forward`); ready once go-ios listens. */
  async forward(udid: string, hostPort: number, devicePort: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GoIosProcess> {
    const proc = this.start(['forward', `--udid=${udid}`, String(hostPort), String(devicePort)], `forward ${hostPort}->${devicePort}`);
    const deadline = Date.now() + timeoutMs;
    try {
      await proc.until((line) => /start listening/i.test(line.msg ?? ''), timeoutMs);
      // go-ios logs "Start listening" just before it binds the port: the forward is usable once a
      // connection to it is accepted.
      await proc.whileRunning(() => portAccepts(hostPort), Math.max(0, deadline - Date.now()), `port ${hostPort} did not accept connections`);
    } catch (err) {
      await proc.stop();
      throw err;
    }
    return proc;
  }

  /** Starts WebDriverAgent's test runner on the device (`ios runwda`); it runs until stopped. */
  runWda(udid: string, options: { bundleId: string; testRunnerBundleId?: string; xctestConfig?: string; env?: Record<string, string> }): GoIosProcess {
    const args = ['runwda', `--udid=${udid}`, `--bundleid=${options.bundleId}`, `--testrunnerbundleid=${options.testRunnerBundleId ?? options.bundleId}`, `--xctestconfig=${options.xctestConfig ?? 'WebDriverAgentRunner.xctest'}`];
    for (const [k, v] of Object.entries(options.env ?? {})) args.push(`--env=${k}=${v}`);
    return this.start(args, 'runwda');
  }

  /** The host's tunnel to iOS 17+ devices (`ios tunnel start`, userspace: no root, no TUN device). */
  startTunnel(options: { userspace: boolean }): GoIosProcess {
    return this.start(['tunnel', 'start', ...(options.userspace ? ['--userspace'] : [])], 'tunnel');
  }

  /** The tunnels the host's tunnel process keeps. */
  async tunnels(): Promise<GoIosTunnel[]> {
    const out = await this.json<unknown>(['tunnel', 'ls']);
    if (!Array.isArray(out)) return [];
    return (out as Record<string, unknown>[]).map((t) => ({
      udid: String(t.udid ?? t.Udid ?? ''),
      address: String(t.address ?? t.Address ?? ''),
      rsdPort: Number(t.rsdPort ?? t.RsdPort ?? 0),
      ...(t.userspaceTunPort !== undefined ? { userspaceTunnelPort: Number(t.userspaceTunPort) } : {}),
    }));
  }

  /** Runs a command to its end and answers the last JSON value it printed on stdout. */
  async json<T>(args: string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
    const stdout = await this.run(args, timeoutMs);
    const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        return JSON.parse(lines[i]!) as T;
      } catch {
        // not JSON: an earlier line may be
      }
    }
    throw new DriverError('DEVICE_ERROR', `go-ios ${args[0]} printed no JSON`);
  }

  /** Runs a command to its end; answers its stdout, or refuses with the error go-ios logged. */
  async run(args: string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
    const proc = this.start(args, args[0] ?? 'command');
    let stdout = '';
    proc.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void proc.stop(1_000);
    }, timeoutMs);
    const code = await proc.exited;
    clearTimeout(timer);
    if (timedOut) throw new DriverError('DEVICE_ERROR', `go-ios ${args[0]} took longer than ${timeoutMs} ms`);
    if (code !== 0) throw new DriverError('DEVICE_ERROR', `go-ios ${args[0]} failed${code === -1 ? '' : ` (exit ${code})`}: ${proc.lastError ?? 'no reason given'}`);
    return stdout;
  }

  private start(args: string[], what: string): GoIosProcess {
    if (!this.binary || !existsSync(this.binary)) {
      throw new DriverError('DEVICE_ERROR', `go-ios is not installed on this host (the npm package go-ios has no binary for ${process.platform}/${process.arch}${this.binary ? ` at ${this.binary}` : ''})`);
    }
    const global = this.options.tunnelInfoPort ? [`--tunnel-info-port=${this.options.tunnelInfoPort}`] : [];
    const tied = tiedToAgent(this.binary, [...args, ...global]);
    const cwd = this.options.workDir ?? join(tmpdir(), 'df-go-ios');
    mkdirSync(cwd, { recursive: true });
    const child = spawn(tied.command, tied.args, {
      cwd,
      env: { ...process.env, USBMUXD_SOCKET_ADDRESS: this.options.usbmuxd.replace(/^unix:/i, '') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new GoIosProcess(child, what);
  }
}

function eachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    rest += chunk.toString('utf8');
    let i: number;
    while ((i = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, i));
      rest = rest.slice(i + 1);
    }
    if (rest.length > 64 * 1024) rest = rest.slice(-64 * 1024);
  });
  stream.on('end', () => rest && onLine(rest));
}

function parseLog(text: string): LogLine | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed ? { level: /error|fatal/i.test(trimmed) ? 'ERROR' : 'INFO', msg: trimmed } : null;
  try {
    return JSON.parse(trimmed) as LogLine;
  } catch {
    return { level: 'INFO', msg: trimmed };
  }
}

/** A log line as one sentence: its message and the error it carries. */
function describeLog(line: LogLine): string {
  const cause = line.err ?? line.error;
  return `${line.msg ?? ''}${cause ? `: ${String(cause)}` : ''}`.slice(0, 500);
}
