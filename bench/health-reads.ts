/*
 * `--only=health-reads`: what reading Android devices' health costs (docs/modules/device-health.md). N
 * adbd test devices (default 50, `--devices=N`) behind Debian's adb server, the platform started in this
 * process on a nats-server of the step's own, and ONE agent in a process of its own (`node --import tsx
 * agent/main.ts`, as `npm run agent` runs it) joined over NATS with the shared-pool token and no sessions.
 *
 * The agent runs twice over the same devices: first with a health interval of an hour (no reading in the
 * window: its cost at rest — heartbeats, device tracking), then with a short one (`AGENT_HEALTH_INTERVAL`,
 * 5 s) so a window of a minute holds many readings. In each window: the shell commands the devices
 * received (counted at the peers, which see every `shell:` service opened), the readings the devices
 * answered and the readings published on the bus, and the CPU time of the agent's process and of the adb
 * server's (/proc/<pid>/stat, every thread). The readings' own cost is the difference of the two windows,
 * per reading, then scaled to the default interval (60 s). The peers and the platform are in this process,
 * whose CPU is reported apart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { connectNatsBus } from '#shared/bus/index.js';
import { HealthReport, decode, subjects } from '#shared/wire/index.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer } from '#test/helpers/adb.js';
import { startNatsServer } from '#test/helpers/daemon.js';
import { note, num, phase, table } from './console.js';
import { processCpuSeconds } from './cpu.js';
import { startServer, until } from './device-farm.js';

export interface HealthReadsOptions {
  devices: number;
  /** The agent's health interval in the measured window (the default is 60 s). */
  intervalMs: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** `--cpu-prof` of the reading agent into this folder (`BENCH_HEALTH_CPU_PROF`), or null. */
  profileDir: string | null;
}

/** What one window of one agent saw. */
export interface HealthWindow {
  label: 'at rest' | 'reading';
  intervalMs: number;
  seconds: number;
  /** `shell:`/`exec:` services the devices received. */
  shellCommands: number;
  /** Readings the devices answered (`dumpsys battery`). */
  readingsAnswered: number;
  /** `HealthReport`s with a reading on `df.agent.<hostId>.health`. */
  readingsPublished: number;
  agentCpuSeconds: number;
  adbServerCpuSeconds: number;
  /** This process: the peers, the platform, the bus counter. */
  benchCpuSeconds: number;
  agentRssMb: number;
}

export interface HealthReadsReport {
  devices: number;
  intervalMs: number;
  defaultIntervalMs: number;
  goalPercentOfCore: number;
  loadAverage: { start: number[]; end: number[] };
  rest: HealthWindow;
  reading: HealthWindow;
  /** Per reading: what the reading window used beyond the rest window's rate. */
  perReading: { shellCommands: number; agentCpuMs: number; adbServerCpuMs: number };
  /** At the default interval (60 s): one reading per device per minute. */
  atDefault: {
    shellCommandsPerDevicePerMinute: number;
    agentReadsPercentPerDevice: number;
    agentReadsPercentFor50: number;
    agentRestPercent: number;
    /** At rest and reading, with the devices measured. */
    agentTotalPercent: number;
    adbServerReadsPercentFor50: number;
    adbServerRestPercent: number;
    goalMet: boolean;
  };
}

const DEFAULT_INTERVAL_MS = 60_000;
const GOAL_PERCENT = 2;
const HOST_ID = 'bench-health-host';
const POOL_TOKEN = 'bench-health-reads-shared-pool-token-0123456789';
const ROOT = new URL('../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid of the adb server listening on `port` (`adb -L tcp:<port> fork-server server …`). */
function adbServerPid(port: number): number {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes('fork-server') && args.includes(`tcp:${port}`)) return Number(pid);
    } catch {
      // The process ended meanwhile.
    }
  }
  throw new Error(`no adb server process listens on tcp:${port}`);
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const cpuOf = (pid: number, who: string): number => {
  const seconds = processCpuSeconds(pid);
  if (seconds === null) throw new Error(`${who} (pid ${pid}) is gone`);
  return seconds;
};

interface Agent {
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `node --import tsx agent/main.ts` on the step's NATS, reading every `intervalMs`. */
function spawnAgent(configPath: string, natsUrl: string, intervalMs: number, profileDir: string | null): Agent {
  const args = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', 'agent/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NATS_URL: natsUrl, AGENT_CONFIG: configPath, AGENT_HEALTH_INTERVAL: `${intervalMs}ms` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    stderr: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Rig {
  peers: AdbdPeer[];
  adbPid: number;
  configPath: string;
  natsUrl: string;
  /** Readings published on the bus so far. */
  published: () => number;
}

/** One agent's window: started, every device read once, a warm-up, then `durationSeconds` measured. */
async function measureWindow(rig: Rig, label: HealthWindow['label'], intervalMs: number, options: HealthReadsOptions, profileDir: string | null): Promise<HealthWindow> {
  const answeredNow = () => rig.peers.reduce((sum, p) => sum + p.health.readings, 0);
  const before = rig.peers.map((p) => p.health.readings);
  const agent = spawnAgent(rig.configPath, rig.natsUrl, intervalMs, profileDir);
  try {
    const starting = phase(`${label}: the agent (interval ${num(intervalMs / 1000, 1)} s) attaching ${rig.peers.length} devices`);
    await until(async () => (agent.child.exitCode !== null || rig.peers.every((p, i) => p.health.readings > before[i]!) ? true : undefined), 300_000, 'every device read once by the agent', 250).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; agent log: ${agent.stderr().slice(-1_000)}`);
    });
    if (agent.child.exitCode !== null) throw new Error(`the agent exited (${agent.child.exitCode}): ${agent.stderr().slice(-1_000)}`);
    starting.done('each device read once');
    const warm = phase(`${label}: warm-up ${options.warmupSeconds} s`);
    await sleep(options.warmupSeconds * 1000);
    warm.done('done');
    const pid = agent.child.pid!;
    const start = {
      at: performance.now(),
      shells: rig.peers.reduce((sum, p) => sum + p.record.commands.length, 0),
      answered: answeredNow(),
      published: rig.published(),
      agent: cpuOf(pid, 'the agent'),
      adb: cpuOf(rig.adbPid, 'the adb server'),
      bench: process.cpuUsage(),
    };
    const window = phase(`${label}: measuring ${options.durationSeconds} s`);
    await sleep(options.durationSeconds * 1000);
    const seconds = (performance.now() - start.at) / 1000;
    const result: HealthWindow = {
      label,
      intervalMs,
      seconds,
      shellCommands: rig.peers.reduce((sum, p) => sum + p.record.commands.length, 0) - start.shells,
      readingsAnswered: answeredNow() - start.answered,
      readingsPublished: rig.published() - start.published,
      agentCpuSeconds: cpuOf(pid, 'the agent') - start.agent,
      adbServerCpuSeconds: cpuOf(rig.adbPid, 'the adb server') - start.adb,
      benchCpuSeconds: (() => {
        const used = process.cpuUsage(start.bench);
        return (used.user + used.system) / 1e6;
      })(),
      agentRssMb: rssMb(pid),
    };
    window.done(`${num(result.shellCommands)} shell commands, ${num(result.readingsPublished)} readings published; agent ${num((result.agentCpuSeconds / seconds) * 100, 2)} % of a core`);
    return result;
  } finally {
    await agent.stop();
  }
}

/** Runs the step: the rig, the agent at rest, the agent reading; figures derived as the header says. */
export async function measureHealthReads(options: HealthReadsOptions): Promise<HealthReadsReport> {
  const loadStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  const nats = await startNatsServer();
  const temp = mkdtempSync(join(os.tmpdir(), 'qa-bench-health-'));
  const peers: AdbdPeer[] = [];
  let adb: Awaited<ReturnType<typeof startAdbServer>> | null = null;
  let started: Awaited<ReturnType<typeof startServer>> | null = null;
  const bus = await connectNatsBus(nats.url, { name: 'bench-health-counter' });
  try {
    let published = 0;
    await bus.subscribe(subjects.health(HOST_ID), (msg) => {
      if (decode(HealthReport, msg.data).sample) published++;
    });
    adb = await startAdbServer();
    const attaching = phase(`starting ${options.devices} adbd test devices and connecting Debian's adb server to them`);
    for (let n = 1; n <= options.devices; n++) {
      const { peer, port } = await startPeer({ model: `Bench Health ${String(n).padStart(2, '0')}`, release: '14', sdk: '34' });
      peers.push(peer);
      await adb.connect(port);
    }
    attaching.done(`${peers.length} devices on adb server :${adb.port}`);
    started = await startServer('health-reads', null, { NATS_URL: nats.url, DF_SHARED_POOL_TOKEN: POOL_TOKEN });
    const configPath = join(temp, 'agent.json');
    // No browsers, no Appium started ahead, no UiAutomator2: the devices and their health only.
    writeFileSync(configPath, JSON.stringify({ hostId: HOST_ID, nodeName: 'bench-health-node', hostToken: POOL_TOKEN, startAhead: false, appium: { enabled: false }, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }));
    const rig: Rig = { peers, adbPid: adbServerPid(adb.port), configPath, natsUrl: nats.url, published: () => published };
    const rest = await measureWindow(rig, 'at rest', 3_600_000, options, null);
    if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
    const reading = await measureWindow(rig, 'reading', options.intervalMs, options, options.profileDir);
    if (options.profileDir) note(`the reading agent's CPU profile is in ${options.profileDir}`);
    return derive(options, rest, reading, { start: loadStart, end: os.loadavg().map((l) => Number(l.toFixed(2))) });
  } finally {
    await bus.close().catch(() => undefined);
    await started?.server.stop();
    await started?.cleanup();
    await adb?.stop();
    for (const p of peers) await p.close();
    await nats.stop();
    rmSync(temp, { recursive: true, force: true });
  }
}

function derive(options: HealthReadsOptions, rest: HealthWindow, reading: HealthWindow, loadAverage: HealthReadsReport['loadAverage']): HealthReadsReport {
  const readings = Math.max(1, reading.readingsPublished);
  // What the reading window used beyond what the agent uses at rest over as long a time.
  const beyondRest = (busy: number, idle: number) => busy - (idle / rest.seconds) * reading.seconds;
  const perReading = {
    shellCommands: (reading.shellCommands - (rest.shellCommands / rest.seconds) * reading.seconds) / readings,
    agentCpuMs: (beyondRest(reading.agentCpuSeconds, rest.agentCpuSeconds) / readings) * 1000,
    adbServerCpuMs: (beyondRest(reading.adbServerCpuSeconds, rest.adbServerCpuSeconds) / readings) * 1000,
  };
  // One reading per device per default interval: ms of CPU per second of wall time, as % of a core.
  const percent = (msPerReading: number, devices: number) => (msPerReading * devices) / DEFAULT_INTERVAL_MS * 100;
  const agentRestPercent = (rest.agentCpuSeconds / rest.seconds) * 100;
  const agentReadsPercentFor50 = percent(perReading.agentCpuMs, 50);
  return {
    devices: options.devices,
    intervalMs: options.intervalMs,
    defaultIntervalMs: DEFAULT_INTERVAL_MS,
    goalPercentOfCore: GOAL_PERCENT,
    loadAverage,
    rest,
    reading,
    perReading,
    atDefault: {
      shellCommandsPerDevicePerMinute: perReading.shellCommands * (60_000 / DEFAULT_INTERVAL_MS),
      agentReadsPercentPerDevice: percent(perReading.agentCpuMs, 1),
      agentReadsPercentFor50,
      agentRestPercent,
      agentTotalPercent: agentRestPercent + percent(perReading.agentCpuMs, options.devices),
      adbServerReadsPercentFor50: percent(perReading.adbServerCpuMs, 50),
      adbServerRestPercent: (rest.adbServerCpuSeconds / rest.seconds) * 100,
      goalMet: agentReadsPercentFor50 < GOAL_PERCENT,
    },
  };
}

export function formatHealthReads(r: HealthReadsReport): string {
  const pctOf = (seconds: number, over: number) => `${num((seconds / over) * 100, 2)}%`;
  const d = r.atDefault;
  const scaled = r.devices === 50 ? '' : ` (measured with ${r.devices}, scaled linearly)`;
  return (
    `Device health reads — ${r.devices} adbd test devices behind Debian's adb server, one agent process (node --import tsx agent/main.ts) on NATS;\n` +
    `the agent at rest (interval 1 h), then reading every ${num(r.intervalMs / 1000, 1)} s; CPU from /proc/<pid>/stat; load average ${r.loadAverage.start.join(' / ')} at start, ${r.loadAverage.end.join(' / ')} at end\n` +
    table(
      ['window', 'interval s', 'seconds', 'shell cmds', 'readings answered', 'readings on the bus', 'agent CPU s', 'agent % of a core', 'adb server % of a core', 'bench process % of a core', 'agent RSS MB'],
      [r.rest, r.reading].map((w) => [
        w.label,
        num(w.intervalMs / 1000, 1),
        num(w.seconds, 1),
        num(w.shellCommands),
        num(w.readingsAnswered),
        num(w.readingsPublished),
        num(w.agentCpuSeconds, 2),
        pctOf(w.agentCpuSeconds, w.seconds),
        pctOf(w.adbServerCpuSeconds, w.seconds),
        pctOf(w.benchCpuSeconds, w.seconds),
        num(w.agentRssMb, 0),
      ]),
    ) +
    `\nAt the default interval (${r.defaultIntervalMs / 1000} s): per reading, the reading window's use beyond the rest window's rate\n` +
    table(
      ['figure', 'value'],
      [
        ['shell commands per device per minute', num(d.shellCommandsPerDevicePerMinute, 2)],
        ['agent CPU per reading, ms', num(r.perReading.agentCpuMs, 2)],
        ['adb server CPU per reading, ms', num(r.perReading.adbServerCpuMs, 2)],
        ['agent, health reads, per device, % of a core', `${num(d.agentReadsPercentPerDevice, 4)}%`],
        [`agent, health reads, 50 devices${scaled}, % of a core`, `${num(d.agentReadsPercentFor50, 3)}%`],
        [`agent at rest (heartbeats, tracking), ${r.devices} devices, % of a core`, `${num(d.agentRestPercent, 3)}%`],
        [`agent in all (at rest and reading), ${r.devices} devices, % of a core`, `${num(d.agentTotalPercent, 3)}%`],
        [`adb server, health reads, 50 devices${scaled}, % of a core`, `${num(d.adbServerReadsPercentFor50, 3)}%`],
        [`adb server at rest, ${r.devices} devices, % of a core`, `${num(d.adbServerRestPercent, 3)}%`],
        [`goal: the agent's health reads under ${r.goalPercentOfCore}% of a core for 50 devices`, d.goalMet ? 'met' : 'NOT MET'],
      ],
    ) +
    '\n'
  );
}

/** bench/results/health-reads.json: the step's own figures. */
export function writeHealthReads(r: HealthReadsReport): void {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/health-reads.json', import.meta.url), `${JSON.stringify({ finishedAt: new Date().toISOString(), ...r }, null, 2)}\n`);
}
