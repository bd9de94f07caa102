import { spawn, type ChildProcess } from 'node:child_process';
import { tiedToAgent } from '../child-tie.js';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';

const STATUS_POLL_MS = 100;

/** Where Appium runs and finds its drivers. */
export interface AppiumServerOptions {
  logger: Logger;
  /** A fixed port; a free loopback port is chosen when absent. */
  port?: number | undefined;
  /**
   * `APPIUM_HOME`: a directory whose `package.json` depends on `appium` and whose `node_modules` holds
   * the drivers. Default: the project that installed the `appium` package.
   */
  home?: string | undefined;
  /** How long the server may take to answer `/status`. */
  startTimeoutMs?: number;
  /** Variables added to the server's environment (`ANDROID_HOME` for the UiAutomator2 driver). */
  env?: Record<string, string>;
}

/** A free TCP port on the loopback interface (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The project directory that installed `appium`: Appium treats a directory whose `package.json`
 * depends on `appium` as a "local" APPIUM_HOME and registers every extension found in its
 * `node_modules` (the manifest is synchronised from the installed packages, offline).
 */
export function defaultAppiumHome(): string {
  const require = createRequire(import.meta.url);
  const appiumPackage = require.resolve('appium/package.json');
  return dirname(dirname(dirname(appiumPackage)));
}

function appiumEntry(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('appium/package.json')), 'index.js');
}

/** Whether `home` looks like a local APPIUM_HOME (a `package.json` depending on `appium`). */
export function isLocalAppiumHome(home: string): boolean {
  const file = join(home, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    return Boolean(pkg.dependencies?.appium ?? pkg.devDependencies?.appium);
  } catch {
    return false;
  }
}

/**
 * One Appium server per agent host, a child process on 127.0.0.1. It starts on the first call to
 * `ensure()` (the host's, ahead of need, or the first WebDriver session's) and stops with the agent. Nothing is downloaded: the
 * drivers are the npm packages installed next to `appium`, found through the local APPIUM_HOME.
 */
export class AppiumServer {
  private child: ChildProcess | null = null;
  private starting: Promise<string> | null = null;
  private url: string | null = null;
  private stopped = false;

  constructor(private readonly options: AppiumServerOptions) {}

  /** The server's base URL, once it runs. */
  get baseUrl(): string | null {
    return this.url;
  }

  /** Starts the server unless it runs; resolves with its base URL. */
  ensure(): Promise<string> {
    if (this.stopped) return Promise.reject(new Error('The Appium server is stopped'));
    if (this.url && this.child && this.child.exitCode === null && this.child.signalCode === null) return Promise.resolve(this.url);
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch(): Promise<string> {
    const { logger } = this.options;
    const home = this.options.home ?? defaultAppiumHome();
    if (!isLocalAppiumHome(home)) logger.warn({ home }, 'APPIUM_HOME has no package.json depending on appium; drivers may not be found');
    const port = this.options.port ?? (await freePort());
    const args = [appiumEntry(), 'server', '--address', '127.0.0.1', '--port', String(port), '--log-no-colors', '--log-level', 'info', '--base-path', '/', '--allow-insecure', '*:session_discovery'];
    const started = tiedToAgent(process.execPath, args);
    const child = spawn(started.command, started.args, {
      cwd: home,
      env: { ...process.env, ...this.options.env, APPIUM_HOME: home, APPIUM_SKIP_CHROMEDRIVER_INSTALL: '1', NO_UPDATE_NOTIFIER: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const log = logger.child({ component: 'appium', port });
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (/\berror\b/i.test(line)) log.info(line);
        else log.debug(line);
      });
    }
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      if (this.child === child) {
        this.child = null;
        this.url = null;
      }
      if (!this.stopped) log.warn({ code, signal }, 'the Appium server exited');
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 60_000);
    log.info({ home }, 'starting the Appium server');
    for (;;) {
      if (exited) throw new Error(`The Appium server exited during start (port ${port})`);
      if (this.stopped) throw new Error('The Appium server was stopped during start');
      try {
        const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) {
          await res.arrayBuffer();
          break;
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        this.kill(child);
        throw new Error(`The Appium server did not answer within ${this.options.startTimeoutMs ?? 60_000} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
    }
    log.info('the Appium server is ready');
    this.url = url;
    return url;
  }

  private kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  }

  /** Stops the server and its children (chromedriver instances) as one process group. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    const child = this.child;
    this.child = null;
    this.url = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.kill(child, 'SIGTERM');
    const timer = setTimeout(() => this.kill(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
