/*
 * What a person running `npm start` waits for, and what the process holds at rest: the first start on
 * an empty data directory (the embedded database created, the bootstrap administrator signed up), then
 * restarts with nothing changed (the goal: `/ready` in under 5 s), each timed from the spawn of `npm
 * start` to the first 200 of `/ready`; the platform process's resident memory at rest after each start
 * (the goal: under 300 MB), read from /proc once `/ready` answers and the process has idled, with the
 * device host's own programs (Chromium, Appium) apart; a restart after a console source changed (its
 * mtime), which must build the console again; and one after a server source changed, which must build
 * the server's bundle again (`npm start` runs the compiled server, dist/server/main.mjs). The last start
 * then idles on (the first minute after a start still compiles and collects) and the CPU time the
 * platform's process and its device programs spend while nobody asks anything is read from /proc: what
 * an idle installation costs its machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '#test/helpers/daemon.js';
import { num, phase } from './console.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A source the console build watches: touching it must make the next start build the console again. */
const CONSOLE_SOURCE = join(ROOT, 'console', 'index.html');
/** A source the server's bundle is built from: touching it must make the next start build the bundle again. */
const SERVER_SOURCE = join(ROOT, 'services', 'run.ts');

export interface StartupOptions {
  restarts: number;
  /** How long a started process idles before its memory is read. */
  idleSeconds: number;
  /** How long the last start idles, from `/ready`, before its CPU at rest is read. */
  restSettleSeconds: number;
  /** How long its CPU at rest is read for. */
  restSeconds: number;
}

/** CPU time at rest, in milliseconds per 10 s of wall time (every thread). */
export interface CpuAtRest {
  platformMsPer10s: number;
  deviceProgramsMsPer10s: number;
  seconds: number;
}

export interface StartRun {
  kind: 'first' | 'restart' | 'console changed' | 'server changed';
  readyMs: number;
  /** The platform's Node process. */
  rssMb: number;
  /** The in-process device host's programs (Chromium, Appium), summed. */
  deviceProgramsMb: number;
  consoleBuilt: boolean;
  serverBuilt: boolean;
}

export interface StartupReport {
  runs: StartRun[];
  restartMedianMs: number;
  restartMaxMs: number;
  rssMedianMb: number;
  cpuAtRest: CpuAtRest | null;
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  rssKb: number;
  command: string;
}

function processes(): ProcessInfo[] {
  const list: ProcessInfo[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      list.push({ pid: Number(name), ppid, rssKb: rss ? Number(rss[1]) : 0, command });
    } catch {
      // gone meanwhile
    }
  }
  return list;
}

/**
 * The resident memory under `npm start`, in MB: the platform's own Node process (the one running
 * the compiled server, dist/server/main.mjs), and apart from it the programs its in-process device host started (the browser
 * devices' Chromium, the Appium server), whose RSS counts pages their processes share more than once.
 */
function memoryOf(npmPid: number): { platformMb: number; deviceProgramsMb: number } {
  const tree = platformTree(npmPid);
  if (!tree) return { platformMb: 0, deviceProgramsMb: 0 };
  return { platformMb: tree.platform.rssKb / 1024, deviceProgramsMb: tree.devices.reduce((sum, p) => sum + p.rssKb, 0) / 1024 };
}

/** The platform's Node process under `npm start` and the programs its device host started. */
function platformTree(npmPid: number): { platform: ProcessInfo; devices: ProcessInfo[] } | null {
  const all = processes();
  const below = (pid: number): ProcessInfo[] => all.filter((p) => p.ppid === pid).flatMap((p) => [p, ...below(p.pid)]);
  const platform = below(npmPid).find((p) => p.command.includes('dist/server/main.mjs'));
  return platform ? { platform, devices: below(platform.pid) } : null;
}

/** CPU time (user and system, every thread) a process has used, in clock ticks; 0 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Linux's clock ticks per second for /proc's CPU times (USER_HZ, 100 on every architecture it runs here). */
const TICKS_PER_SECOND = 100;

/** The CPU the platform and its device programs use over `seconds` while nothing asks them anything. */
async function cpuAtRest(npmPid: number, seconds: number): Promise<CpuAtRest> {
  const tree = platformTree(npmPid);
  if (!tree) throw new Error('the platform process was not found under npm start');
  const pids = [tree.platform.pid, ...tree.devices.map((p) => p.pid)];
  const before = pids.map(cpuTicks);
  await sleep(seconds * 1_000);
  const used = pids.map((pid, i) => Math.max(0, cpuTicks(pid) - before[i]!));
  const perTenSeconds = (ticks: number) => ((ticks / TICKS_PER_SECOND) * 1_000 * 10) / seconds;
  return { platformMsPer10s: perTenSeconds(used[0]!), deviceProgramsMsPer10s: perTenSeconds(used.slice(1).reduce((a, b) => a + b, 0)), seconds };
}

/** Spawns `npm start` and answers once `/ready` says 200, with the time that took and what it printed. */
async function start(env: NodeJS.ProcessEnv, port: number): Promise<{ child: ChildProcess; readyMs: number; output: () => string }> {
  const began = Date.now();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output.slice(-2_000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status === 200, () => false);
    if (ok) return { child, readyMs: Date.now() - began, output: () => output };
    if (Date.now() - began > 180_000) throw new Error(`not ready after 180 s:\n${output.slice(-2_000)}`);
    await sleep(25);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  process.kill(-child.pid!, 'SIGTERM');
  const forced = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
  await exited;
  clearTimeout(forced);
}

/** Starts `npm start` on a fresh data directory, then again and again with nothing changed, then after a console change. */
export async function measureStartup(options: StartupOptions): Promise<StartupReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-startup-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: 'bench@example.test',
    BOOTSTRAP_ADMIN_PASSWORD: 'bench-password-1',
    LOG_LEVEL: 'warn',
  };
  const kinds: StartRun['kind'][] = ['first', ...Array.from({ length: options.restarts }, () => 'restart' as const), 'console changed', 'server changed'];
  const runs: StartRun[] = [];
  let rest: CpuAtRest | null = null;
  const consoleTimes = statSync(CONSOLE_SOURCE);
  const serverTimes = statSync(SERVER_SOURCE);
  try {
    for (const kind of kinds) {
      if (kind === 'console changed') utimesSync(CONSOLE_SOURCE, new Date(), new Date());
      if (kind === 'server changed') utimesSync(SERVER_SOURCE, new Date(), new Date());
      const ticker = phase(`${kind} start`);
      const { child, readyMs, output } = await start(env, port);
      try {
        await sleep(options.idleSeconds * 1_000);
        const memory = memoryOf(child.pid!);
        const consoleBuilt = output().includes('web console built');
        const serverBuilt = output().includes('server built');
        runs.push({ kind, readyMs, rssMb: memory.platformMb, deviceProgramsMb: memory.deviceProgramsMb, consoleBuilt, serverBuilt });
        ticker.done(`ready in ${num(readyMs / 1000, 2)} s, platform ${num(memory.platformMb)} MB at rest (device programs ${num(memory.deviceProgramsMb)} MB)${consoleBuilt ? ', console built' : ''}${serverBuilt ? ', server built' : ''}`);
        if (kind === kinds.at(-1)) {
          const resting = phase(`CPU at rest: ${options.restSettleSeconds} s idle, then ${options.restSeconds} s read`);
          await sleep(Math.max(0, options.restSettleSeconds - options.idleSeconds) * 1_000);
          rest = await cpuAtRest(child.pid!, options.restSeconds);
          resting.done(`platform ${num(rest.platformMsPer10s)} ms of CPU per 10 s, device programs ${num(rest.deviceProgramsMsPer10s)}`);
        }
      } finally {
        await stop(child);
      }
    }
  } finally {
    utimesSync(CONSOLE_SOURCE, consoleTimes.atime, consoleTimes.mtime);
    utimesSync(SERVER_SOURCE, serverTimes.atime, serverTimes.mtime);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const restarts = runs.filter((r) => r.kind === 'restart').map((r) => r.readyMs).sort((a, b) => a - b);
  const rss = runs.map((r) => r.rssMb).sort((a, b) => a - b);
  return {
    runs,
    restartMedianMs: restarts[Math.floor(restarts.length / 2)] ?? 0,
    restartMaxMs: restarts.at(-1) ?? 0,
    rssMedianMb: rss[Math.floor(rss.length / 2)] ?? 0,
    cpuAtRest: rest,
  };
}

export function formatStartup(report: StartupReport): string {
  const lines = [
    'Startup (`npm start`, embedded database)',
    '| start | ready s | platform RSS at rest MB | device programs RSS MB | console built | server built |',
    '|---|---|---|---|---|---|',
    ...report.runs.map((r) => `| ${r.kind} | ${num(r.readyMs / 1000, 2)} | ${num(r.rssMb)} | ${num(r.deviceProgramsMb)} | ${r.consoleBuilt ? 'yes' : 'no'} | ${r.serverBuilt ? 'yes' : 'no'} |`),
    `restart with nothing changed: median ${num(report.restartMedianMs / 1000, 2)} s, max ${num(report.restartMaxMs / 1000, 2)} s (goal < 5 s); the platform's RSS at rest, median ${num(report.rssMedianMb)} MB (goal < 300 MB)`,
    ...(report.cpuAtRest
      ? [`CPU at rest (the last start, read for ${report.cpuAtRest.seconds} s once it had idled): the platform's process ${num(report.cpuAtRest.platformMsPer10s)} ms per 10 s, its device programs ${num(report.cpuAtRest.deviceProgramsMsPer10s)} ms per 10 s`]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
