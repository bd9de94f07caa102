/*
 * Device-farm figures: the live screen of a real headless Chromium device as a viewer receives it
 * (frames per second, capture → viewer latency), and the device list with 10,000 devices that
 * arrived through the agent protocol (simulated agents on the server's own bus).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { AgentHost, loadAgentConfig, type AgentConfigFile } from '#agent/index.js';
import { subjects } from '#shared/wire/index.js';
import type { RunningProcess } from '#services/run.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { note, num, phase } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { LoadGenerator } from './load-generator.js';
import type { LoadResult } from './load-worker.js';
import { CHROMIUM, signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';


export interface Started {
  server: RunningProcess;
  token: string;
  dataDir: string;
  /** Removes the data directory and drops the PostgreSQL database, if any. */
  cleanup(): Promise<void>;
}

export async function startServer(label: string, agentConfig: AgentConfigFile | null, extraEnv: Record<string, string> = {}, backend: 'PGlite' | 'PostgreSQL' = 'PGlite'): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), `qa-bench-${label}-`));
  const database = backend === 'PostgreSQL' ? await createTestDatabase('qa_bench_df') : null;
  if (database) extraEnv = { ...extraEnv, DATABASE_URL: database.url };
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  const env: Record<string, string> = { AGENT_ENABLED: agentConfig ? 'true' : 'false', ...extraEnv };
  if (agentConfig) {
    const path = join(dataDir, 'agent.json');
    writeFileSync(path, JSON.stringify(agentConfig));
    env.AGENT_CONFIG = path;
  }
  const starting = phase(`starting the server (${database ? 'PostgreSQL, a fresh database' : 'embedded: PGlite in a temporary DATA_DIR'}${agentConfig ? ', in-process agent' : ''})`);
  let server: RunningProcess;
  try {
    server = await startBenchServer(dataDir, env);
  } catch (err) {
    await cleanup();
    throw err;
  }
  starting.done(server.url);
  try {
    return { server, token: await signIn(server.url), dataDir, cleanup };
  } catch (err) {
    await server.stop();
    await cleanup();
    throw err;
  }
}

export async function api<T = any>(s: Started, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${s.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// frames

export interface FramesOptions {
  durationSeconds: number;
  warmupSeconds: number;
  width: number;
  height: number;
}

export interface FramesReport {
  device: string;
  viewport: string;
  durationSeconds: number;
  frames: number;
  framesPerSecond: number;
  /** Frames the agent numbered but this viewer never received (dropped for a slow reader, or skipped). */
  seqGaps: number;
  /** Frames the page painted meanwhile (requestAnimationFrame callbacks), for comparison. */
  pageFramesPerSecond: number | null;
  meanFrameBytes: number;
  /**
   * Agent capture (CDP screencast metadata.timestamp, whole ms) → viewer received the JPEG, same machine
   * clock. Chromium stamps the frame swap, which can read a few ms later than Node's Date.now().
   */
  latency: Distribution;
  /** The agent published the frame on the bus (seen by a bench subscriber in the same process) → viewer received it. */
  busToViewer: Distribution;
  cpu: CpuShare | null;
}

/** A page that changes every frame: a requestAnimationFrame counter and the page's clock, drawn large. */
export async function startAnimatedPage(): Promise<{ url: string; painted: () => { count: number; at: number } | null; close(): Promise<void> }> {
  let last: { count: number; at: number } | null = null;
  const page = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>bench animation</title>
<style>body{margin:0;background:#111;color:#fff;font-family:monospace} #n{font-size:160px;line-height:1.1} #t{font-size:48px} #bar{height:40px;background:#e33}</style></head>
<body><div id="n">0</div><div id="t"></div><div id="bar"></div><script>
  var n = 0, el = document.getElementById('n'), t = document.getElementById('t'), bar = document.getElementById('bar');
  function tick() { n++; el.textContent = n; t.textContent = Date.now(); bar.style.width = (n % 100) + '%'; requestAnimationFrame(tick); }
  requestAnimationFrame(tick);
  setInterval(function () { fetch('/painted', { method: 'POST', body: String(n) }); }, 1000);
</script></body></html>`;
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/painted') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        last = { count: Number(body), at: performance.now() };
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/animated`,
    painted: () => last,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Chromium user-data directories the agent makes (agent/browser/chromium.ts). */
const chromiumDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('df-chromium-')).map((n) => join(tmpdir(), n)));

/** Processes whose command line names one of `dirs`: Chromium left running after the agent stopped. */
function processesUsing(dirs: string[]): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (dirs.some((d) => cmd.includes(d))) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export async function measureFrames(options: FramesOptions): Promise<FramesReport> {
  if (!existsSync(CHROMIUM)) throw new Error(`frames: no Chromium at ${CHROMIUM}`);
  const before = chromiumDirs();
  const site = await startAnimatedPage();
  const deviceName = 'Bench Chromium';
  let started: Started | undefined;
  let viewer: WebSocket | undefined;
  let sessionId: string | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    started = await startServer('frames', {
      nodeName: 'bench-node',
      hubId: 'bench-hub',
      chromiumPath: CHROMIUM,
      devices: [{ provider: 'browser', name: deviceName, profile: 'desktop', width: options.width, height: options.height }],
    });
    const s = started;
    const device = await until(async () => {
      const r = await api<{ content: { id: string; status: string }[] }>(s, 'GET', '/df/api/devices');
      const d = r.body.content[0];
      return d?.status === 'available' ? d : undefined;
    }, 30_000, 'the Chromium device to be listed as available');
    const opening = phase(`opening a session on ${deviceName} (${options.width}×${options.height}) and the animated page`);
    const created = await api<{ id: string }>(s, 'POST', '/df/api/sessions', { deviceId: device.id });
    if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}: ${JSON.stringify(created.body)}`);
    sessionId = created.body.id;
    const opened = await api(s, 'POST', `/df/api/sessions/${sessionId}/device/control`, { action: 'openUrl', url: site.url });
    if (opened.status !== 200) throw new Error(`openUrl answered ${opened.status}: ${JSON.stringify(opened.body)}`);
    opening.done(`session ${sessionId.slice(0, 8)}…`);

    // A second subscriber to the device's frames on the in-process bus: when the agent published each one.
    const published = new Map<number, number>();
    const busSubscription = await s.server.platform.bus.subscribe(subjects.frames(s.server.agent!.hostId, device.id), (msg) => {
      const seq = Number(msg.headers?.['df-seq']);
      if (Number.isFinite(seq)) published.set(seq, performance.now());
    });
    unsubscribe = () => busSubscription.unsubscribe();
    // The viewer: a JSON header ({type:'frame', seq, capturedAt, ...}) then the JPEG as a binary message.
    const socket = new WebSocket(`${s.server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${s.token}`);
    viewer = socket;
    let measuring = false;
    let header: { seq: number; capturedAt: number } | null = null;
    let lastSeq: number | null = null;
    let firstFrame!: () => void;
    const gotFirst = new Promise<void>((resolve) => (firstFrame = resolve));
    const latencies: number[] = [];
    const fromBus: number[] = [];
    let frames = 0;
    let bytes = 0;
    let gaps = 0;
    socket.on('message', (data, isBinary) => {
      const now = Date.now();
      const nowMono = performance.now();
      if (!isBinary) {
        const m = JSON.parse(data.toString()) as { type: string; seq?: number; capturedAt?: number };
        if (m.type === 'frame') header = { seq: m.seq!, capturedAt: m.capturedAt! };
        return;
      }
      firstFrame();
      if (!header) return;
      if (measuring) {
        frames++;
        bytes += (data as Buffer).byteLength;
        latencies.push(now - header.capturedAt);
        const at = published.get(header.seq);
        if (at !== undefined) fromBus.push(nowMono - at);
        if (lastSeq !== null && header.seq > lastSeq + 1) gaps += header.seq - lastSeq - 1;
      }
      published.delete(header.seq);
      lastSeq = header.seq;
      header = null;
    });
    const closed = new Promise<never>((_, reject) => {
      socket.on('close', (code, reason) => reject(new Error(`viewer closed: ${code} ${reason.toString()}`)));
      socket.on('error', (err) => reject(err));
    });
    closed.catch(() => undefined);
    await Promise.race([gotFirst, closed, sleep(15_000).then(() => Promise.reject(new Error('no frame within 15 s')))]);
    const warm = phase(`warm-up ${options.warmupSeconds} s`);
    await sleep(options.warmupSeconds * 1000);
    warm.done('');
    const cpu = measureCpu({});
    const paintedBefore = site.painted();
    const ticker = phase(`viewer on /df/ws/sessions/{id}, ${options.durationSeconds} s`);
    measuring = true;
    const t0 = performance.now();
    await Promise.race([sleep(options.durationSeconds * 1000), closed]);
    measuring = false;
    const seconds = (performance.now() - t0) / 1000;
    const cpuShare = cpu.stop();
    const paintedAfter = site.painted();
    const latency = distribution(latencies);
    const pageFramesPerSecond =
      paintedBefore && paintedAfter && paintedAfter.at > paintedBefore.at ? (paintedAfter.count - paintedBefore.count) / ((paintedAfter.at - paintedBefore.at) / 1000) : null;
    ticker.done(`${num(frames / seconds, 1)} frames/s, capture → viewer p50 ${num(latency.p50, 1)} ms, p99 ${num(latency.p99, 1)} ms; CPU ${formatCpu(cpuShare)}`);
    return {
      device: `${deviceName} (desktop profile)`,
      viewport: `${options.width}×${options.height}`,
      durationSeconds: seconds,
      frames,
      framesPerSecond: frames / seconds,
      seqGaps: gaps,
      pageFramesPerSecond,
      meanFrameBytes: frames > 0 ? bytes / frames : Number.NaN,
      latency,
      busToViewer: distribution(fromBus),
      cpu: cpuShare,
    };
  } finally {
    viewer?.close();
    await unsubscribe?.().catch(() => undefined);
    if (started && sessionId) await api(started, 'DELETE', `/df/api/sessions/${sessionId}`).catch(() => undefined);
    await started?.server.stop();
    if (started) rmSync(started.dataDir, { recursive: true, force: true });
    await site.close();
    // The agent kills its Chromium and removes its profile; anything left over is cleaned here.
    const leftDirs = [...chromiumDirs()].filter((d) => !before.has(d));
    const leftPids = processesUsing(leftDirs);
    if (leftPids.length > 0) {
      note(`killing ${leftPids.length} Chromium process(es) left running: ${leftPids.join(', ')}`);
      for (const pid of leftPids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    for (const d of leftDirs) rmSync(d, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// device-list

export interface DeviceListOptions {
  backend: 'PGlite' | 'PostgreSQL';
  devices: number;
  agents: number;
  heartbeatMs: number;
  /** DF_HOST_TIMEOUT of the server, seconds. */
  hostTimeoutSeconds: number;
  /** Devices put into manual sessions, so the sessionType and in_use filters match something. */
  sessions: number;
  connections: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
}

export interface DeviceListRun extends LoadResult {
  query: string;
  path: string;
  connections: number;
  /** totalElements the query answers. */
  matches: number;
  cpu: CpuShare | null;
}

/** What 100 agents' heartbeats did to the device state machine between registration and the end of the measurement. */
export interface HeartbeatLoad {
  seconds: number;
  heartbeats: number;
  heartbeatsPerSecond: number;
  /** Events appended meanwhile, by type (sessions opened by the bench included). */
  eventsByType: Record<string, number>;
  /** Device offline transitions meanwhile (one per device named by a disconnect): the flaps. */
  devicesTakenOffline: number;
  /** The same while the 10,000 registered (hosts whose heartbeats went unanswered meanwhile). */
  devicesTakenOfflineDuringRegistration: number;
  /** Devices the list shows offline at the end. */
  offlineAtEnd: number;
}

export interface DeviceListReport {
  backend: 'PGlite' | 'PostgreSQL';
  devices: number;
  agents: number;
  heartbeatMs: number;
  hostTimeoutSeconds: number;
  registrationSeconds: number;
  devicesPerSecond: number;
  runs: DeviceListRun[];
  heartbeatLoad: HeartbeatLoad;
}

const MODELS = ['Pixel 7', 'Pixel 8', 'Galaxy S23', 'Galaxy A54', 'iPhone 14', 'iPhone 15', 'iPad Air', 'Galaxy Tab S9', 'Moto G', 'OnePlus 11'];
const OS_VERSIONS = ['12', '13', '14', '15', '16.4', '17.2'];
const NODES = 10;

/** One simulated agent's config: its devices vary over models, OS versions and types, its node is one of ten. */
/** The simulated hosts join as the operator's shared pool, so every company of the run sees them. */
export const BENCH_POOL_TOKEN = 'bench-shared-pool-token-0123456789abcdef';

export function simulatedAgent(index: number, count: number, heartbeatMs: number): AgentConfigFile {
  const devices: NonNullable<AgentConfigFile['devices']> = [];
  for (let i = 0; i < count; i++) {
    const k = index * count + i;
    const model = MODELS[k % MODELS.length]!;
    const ios = model.startsWith('iP');
    devices.push({
      provider: 'simulated',
      name: `sim-${String(index).padStart(3, '0')}-${String(i).padStart(3, '0')} ${model}`,
      platform: ios ? 'ios' : 'android',
      type: model.includes('Tab') || model.includes('iPad') ? 'tablet' : 'phone',
      model,
      manufacturer: ios ? 'Apple' : model.split(' ')[0]!,
      osVersion: OS_VERSIONS[(k >> 1) % OS_VERSIONS.length]!,
    });
  }
  return {
    hostId: `bench-sim-${String(index).padStart(3, '0')}`,
    hostToken: BENCH_POOL_TOKEN,
    nodeName: `bench-node-${String(index % NODES).padStart(2, '0')}`,
    hubId: 'bench-hub',
    heartbeatMs,
    devices,
  };
}

export async function measureDeviceList(options: DeviceListOptions): Promise<DeviceListReport> {
  const agents: AgentHost[] = [];
  const load = new LoadGenerator();
  let started: Started | undefined;
  const sessions: string[] = [];
  try {
    started = await startServer('devices', null, { DF_HOST_TIMEOUT: `${options.hostTimeoutSeconds}s`, DF_SHARED_POOL_TOKEN: BENCH_POOL_TOKEN }, options.backend);
    const s = started;
    const perAgent = Math.ceil(options.devices / options.agents);
    const registrationStart = await s.server.platform.store.headPosition();
    let total = 0;
    const registering = phase(`registering ${num(options.devices)} devices from ${options.agents} simulated agents (${perAgent} each) over the server's bus`, () => total / options.devices);
    const t0 = performance.now();
    const logger = s.server.logger.child({ component: 'bench-agent' });
    for (let i = 0; i < options.agents; i++) {
      const config = loadAgentConfig({ value: simulatedAgent(i, Math.min(perAgent, options.devices - i * perAgent), options.heartbeatMs) });
      const agent = new AgentHost({ bus: s.server.platform.bus, config, logger });
      agents.push(agent);
      await agent.start();
    }
    await until(async () => {
      const r = await api<{ totalElements: number }>(s, 'GET', '/df/api/devices?size=1');
      total = r.body.totalElements;
      return total >= options.devices ? total : undefined;
    }, 300_000, `${options.devices} devices in the list`);
    const registrationSeconds = (performance.now() - t0) / 1000;
    registering.done(`${num(total)} listed after ${num(registrationSeconds, 1)} s (${num(total / registrationSeconds)} devices/s)`);
    // From here on every heartbeat should change nothing: count the beats and what the log gains.
    const store = s.server.platform.store;
    const fromPosition = await store.headPosition();
    const loadStart = performance.now();
    let beats = 0;
    const beatSubscription = await s.server.platform.bus.subscribe(subjects.anyHeartbeat(), () => {
      beats++;
    });

    // Manual sessions on a few devices matching the other filters, so the full query finds rows.
    const base =
      'status=available&status=in_use&osVersion=14&osVersion=13&model=Pixel%207&model=Galaxy%20S23&nodeName=bench-node-00&nodeName=bench-node-02' +
      '&search=sim&excludeType=tablet&isRealDevice=false';
    const opening = phase(`opening ${options.sessions} manual sessions on matching devices`);
    const candidates = await api<{ content: { id: string }[] }>(s, 'GET', `/df/api/devices?${base}&size=${options.sessions}`);
    for (const d of candidates.body.content) {
      const r = await api<{ id: string }>(s, 'POST', '/df/api/sessions', { deviceId: d.id });
      if (r.status !== 201) throw new Error(`POST /df/api/sessions answered ${r.status}: ${JSON.stringify(r.body)}`);
      sessions.push(r.body.id);
    }
    opening.done(`${sessions.length} open`);

    const queries = [
      { query: 'every filter', path: `/df/api/devices?${base}&sessionType=manual&sortBy=model&sortDir=desc&page=0&size=20` },
      { query: 'no filter, first page', path: '/df/api/devices?page=0&size=20' },
    ];
    const headers = { authorization: `Bearer ${s.token}`, 'x-workspace-id': '1' };
    for (const q of queries) {
      const r = await api<{ totalElements: number; content: unknown[] }>(s, 'GET', q.path);
      if (r.status !== 200) throw new Error(`GET ${q.path} answered ${r.status}: ${JSON.stringify(r.body)}`);
      (q as { matches?: number }).matches = r.body.totalElements;
      note(`${q.query}: GET ${q.path} → ${r.body.totalElements} of ${num(total)} match`);
    }
    const runs: DeviceListRun[] = [];
    for (const q of queries) {
      const matches = (q as { matches?: number }).matches ?? 0;
      const warm = phase(`warm-up  ${q.query.padEnd(22)} ${options.connections[0]} conn, ${options.warmupSeconds} s`);
      await load.run({ url: `${s.server.url}${q.path}`, headers, connections: options.connections[0]!, durationSeconds: options.warmupSeconds });
      warm.done('');
      for (const connections of options.connections) {
        const ticker = phase(`measure  ${q.query.padEnd(22)} ${connections} conn, ${options.durationSeconds} s`);
        const cpu = measureCpu({ extraPids: load.pid ? [load.pid] : [] });
        const result = await load.run({ url: `${s.server.url}${q.path}`, headers, connections, durationSeconds: options.durationSeconds });
        const cpuShare = cpu.stop();
        const bad = result.non2xx + result.errors + result.timeouts;
        ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${bad ? `, ${bad} failed` : ''}; CPU ${formatCpu(cpuShare)}`);
        if (bad > 0) throw new Error(`${q.query}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
        if (result.ok === 0) throw new Error(`${q.query}: no answer within the ${options.durationSeconds} s run (the server did not respond)`);
        runs.push({ ...result, query: q.query, path: q.path, connections, matches, cpu: cpuShare });
      }
    }
    await beatSubscription.unsubscribe();
    const seconds = (performance.now() - loadStart) / 1000;
    const eventsByType: Record<string, number> = {};
    let devicesTakenOffline = 0;
    let devicesTakenOfflineDuringRegistration = 0;
    for (let after = registrationStart; ; ) {
      const page = await store.readAll({ after, maxCount: 1_000 });
      if (page.length === 0) break;
      for (const e of page) {
        const offline = e.type === 'DeviceDisconnected' ? 1 : e.type === 'HostDevicesDisconnected' ? (e.payload as { deviceIds: string[] }).deviceIds.length : 0;
        if (e.position <= fromPosition) {
          devicesTakenOfflineDuringRegistration += offline;
          continue;
        }
        eventsByType[e.type] = (eventsByType[e.type] ?? 0) + 1;
        devicesTakenOffline += offline;
      }
      after = page[page.length - 1]!.position;
    }
    const offlineAtEnd = (await api<{ totalElements: number }>(s, 'GET', '/df/api/devices?status=offline&size=1')).body.totalElements;
    const heartbeatLoad: HeartbeatLoad = { seconds, heartbeats: beats, heartbeatsPerSecond: beats / seconds, eventsByType, devicesTakenOffline, devicesTakenOfflineDuringRegistration, offlineAtEnd };
    note(
      `heartbeats during the run: ${num(beats)} in ${num(seconds, 1)} s (${num(beats / seconds, 1)}/s); events appended: ` +
        `${Object.entries(eventsByType).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}; devices taken offline: ${devicesTakenOffline} (during registration: ${devicesTakenOfflineDuringRegistration}); offline at the end: ${offlineAtEnd}`,
    );
    return {
      backend: options.backend,
      devices: total,
      agents: options.agents,
      heartbeatMs: options.heartbeatMs,
      hostTimeoutSeconds: options.hostTimeoutSeconds,
      registrationSeconds,
      devicesPerSecond: total / registrationSeconds,
      runs,
      heartbeatLoad,
    };
  } finally {
    await load.close();
    // The agents say goodbye first: each goodbye takes its host's devices offline in one append.
    await Promise.all(agents.map((a) => a.stop().catch(() => undefined)));
    await started?.server.stop();
    await started?.cleanup();
  }
}
