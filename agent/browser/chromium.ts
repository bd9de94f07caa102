import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllWithArgument, tiedToAgent } from '../child-tie.js';

/** A running headless Chromium with its own fresh profile directory. */
export interface ChromiumProcess {
  /** Browser-level DevTools WebSocket URL. */
  wsEndpoint: string;
  pid: number;
  userDataDir: string;
  /** Resolves when the browser process has exited. */
  exited: Promise<void>;
  /** Whether the process still runs. */
  running(): boolean;
  /** Kills the browser's process group and deletes the profile. */
  kill(): Promise<void>;
}

// Without the background-networking flags Chromium dials out to Google services, which this host refuses.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--mute-audio',
  '--hide-scrollbars',
  '--remote-debugging-port=0',
  '--remote-allow-origins=*',
  // History navigation restored from the back-forward cache fires no load event; a farm device
  // should load pages the same way every time.
  '--disable-features=BackForwardCache',
];

/** Where a host keeps the profiles of its browsers: one directory per host, so its leftovers can be told apart. */
export function profileRootOf(hostId: string): string {
  return join(tmpdir(), `df-chromium-${hostId}`);
}

/**
 * Kills the browsers a previous run of this host left behind (an agent killed before it could stop
 * them, or started where setpriv was missing), found by their profile directory under `profileRoot`,
 * and deletes their profiles. Returns the pids killed.
 */
export async function reapLeftoverBrowsers(profileRoot: string): Promise<number[]> {
  const pids = await killAllWithArgument(`--user-data-dir=${profileRoot}/`);
  const entries = await readdir(profileRoot).catch(() => [] as string[]);
  await Promise.all(entries.map((e) => rm(join(profileRoot, e), { recursive: true, force: true, maxRetries: 3 })));
  return pids;
}

/**
 * A new, never-used profile directory under `root`, its downloads folder inside it (Chromium would
 * otherwise save into the agent user's home, where a download would outlive the session).
 */
async function newProfile(root: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const userDataDir = await mkdtemp(join(root, 'profile-'));
  const downloadsDir = join(userDataDir, 'Downloads');
  await mkdir(join(userDataDir, 'Default'), { recursive: true });
  await mkdir(downloadsDir);
  const preferences = { download: { default_directory: downloadsDir, prompt_for_download: false, directory_upgrade: true }, savefile: { default_directory: downloadsDir } };
  await writeFile(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(preferences));
  return userDataDir;
}

/**
 * Starts Chromium on a new temporary profile under `profileRoot` and reads its DevTools endpoint from
 * stderr. The browser runs in its own process group so renderer and GPU children die with it, and is
 * tied to the agent's life (`tiedToAgent`): a hard-killed agent takes its browsers with it.
 */
export async function launchChromium(options: { executable: string; width: number; height: number; profileRoot?: string; timeoutMs?: number }): Promise<ChromiumProcess> {
  const userDataDir = await newProfile(options.profileRoot ?? join(tmpdir(), 'df-chromium'));
  const started = tiedToAgent(options.executable, [...FLAGS, `--user-data-dir=${userDataDir}`, `--window-size=${options.width},${options.height}`, 'about:blank']);
  const child: ChildProcess = spawn(started.command, started.args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (running() && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
    }
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    const wsEndpoint = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`Chromium did not open DevTools in ${options.timeoutMs ?? 20_000} ms: ${stderr.slice(-500)}`)), options.timeoutMs ?? 20_000);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited with ${code} before DevTools opened: ${stderr.slice(-500)}`));
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr.length < 64_000) stderr += chunk.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    // Keep draining stderr so a chatty browser never blocks on a full pipe.
    child.stderr!.resume();
    return { wsEndpoint, pid: child.pid!, userDataDir, exited, running, kill };
  } catch (err) {
    await kill();
    throw err;
  }
}
