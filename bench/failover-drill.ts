/*
 * The failover drill: the production topology on this machine, as real processes on loopback, under
 * load, with one process of each kind killed (SIGKILL) in turn.
 *
 *   npx tsx bench/failover-drill.ts [--sessions=50 --hosts=20 ...]   or   npm run bench -- --only=drill
 *
 * What runs: HAProxy (a generated configuration: the gateways and every module's replicas behind it,
 * health checks on /ready, tunnel time-outs for WebSockets), three nats-server processes clustered by
 * routes, two gateways, two replicas of each module (organization, df, tmt, healthcheck, autorunner),
 * two projections runners, on a PostgreSQL database of its own and the machine's Redis under a key
 * prefix of its own. In this process: 20 device hosts (`AgentHost`, 25 simulated devices each), each on
 * a NATS connection of its own given the three servers; the clients: 50 device sessions, each with a
 * viewer on its live screen (through HAProxy and a gateway), probed every second, and /v1 writers
 * creating test cases, every acknowledged one recorded and read straight back.
 *
 * Then, one at a time, each waited out until every session answers again and then restarted as an
 * orchestrator would: SIGKILL of a gateway, of a df replica, of the projections runner holding the
 * leases, and of a NATS node. For each: what the clients saw fail and for how long, the time until every
 * session answered again, the read models' lag, and the acknowledged writes lost (all of them are read
 * back at the end). Prints progress and a table; writes bench/results/failover-drill.json. Everything it
 * started is stopped and the database dropped at the end, also when it fails or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { tiedToAgent } from '#agent/child-tie.js';
import { connectNatsBus, type MessageBus } from '#shared/bus/index.js';
import { natsHostInbox } from '#shared/wire/index.js';
import { openPostgres, type Database } from '#shared/db/index.js';
import { createLogger } from '#shared/logger.js';
import { ALL_PROJECTIONS } from '#services/run.js';
import { freePort, NATS_SERVER } from '#test/helpers/daemon.js';
import { testEnv } from '#test/helpers/env.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { heading, note, num, phase, table, type Ticker } from './console.js';
import { BENCH_POOL_TOKEN, simulatedAgent, until } from './device-farm.js';
import { BENCH_ADMIN, benchServerEnv } from './server.js';
import { distribution, type Distribution } from './stats.js';

export interface DrillOptions {
  hosts: number;
  devicesPerHost: number;
  sessions: number;
  /** Pause between two probes of one session. */
  probeEveryMs: number;
  /** Concurrent /v1 writers, each pausing this long between its writes. */
  writers: number;
  writePauseMs: number;
  /** Quiet time measured before the first kill (errors there are the drill's own noise floor). */
  baselineMs: number;
  /** Longest wait for every session to answer again after a kill. */
  recoveryTimeoutMs: number;
}

export const DRILL_DEFAULTS: DrillOptions = {
  hosts: 20,
  devicesPerHost: 25,
  sessions: 50,
  probeEveryMs: 1_000,
  writers: 2,
  writePauseMs: 50,
  baselineMs: 20_000,
  recoveryTimeoutMs: 120_000,
};

/**
 * The module processes, two replicas of each behind HAProxy: the device farm in processes of its own
 * (one of them is killed), the four other modules together in each of theirs, which spares the 2-core
 * machine four Node.js processes' start-up and memory without changing what a replica is.
 */
const GROUPS = [
  { name: 'df', services: 'df', urls: ['DF_URL'] },
  { name: 'modules', services: 'organization,tmt,healthcheck,autorunner', urls: ['ORGANIZATION_URL', 'TMT_URL', 'HEALTHCHECK_URL', 'AUTORUNNER_URL'] },
] as const;
type Group = (typeof GROUPS)[number]['name'];
/** HAProxy's health checks: every second, down after two failures, up again after two successes. */
const CHECK = { interMs: 1_000, fall: 2, rise: 2 };
/** A session "answers" when a tap through its viewer is acknowledged and its frame arrives, and the session reads back active. */
const PROBE_TIMEOUT_MS = 7_000;
/** Every this many probes of a session, a tap instead of a ping (a tap is a write: its timeline entry). */
const TAP_EVERY = 10;
/**
 * A kill's window ends once every session it interrupted has answered again, at least `MIN_WINDOW_MS`
 * after the kill, and then when nothing failed for `QUIET_MS` (or `SETTLE_MAX_MS` after the last session answered).
 */
const MIN_WINDOW_MS = 15_000;
const QUIET_MS = 3_000;
const SETTLE_MAX_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;
const REPO = resolve(import.meta.dirname, '..');
/** The read models the drill's load writes to, whose lag it samples. */
const LAG_PROJECTIONS = ['tmt-test-cases', 'df-sessions'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds since the drill's start (monotonic). */
let origin = performance.now();
const now = () => performance.now() - origin;
const seconds = (ms: number, digits = 1) => `${num(ms / 1000, digits)} s`;

// ---------------------------------------------------------------------------------------------
// processes

/** A child process of the drill, tied to it (killed by the kernel if the drill dies), its output's tail kept for diagnosis. */
class Child {
  child: ChildProcess | null = null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> = Promise.resolve({ code: null, signal: null });
  private tail: string[] = [];
  starts = 0;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string> = {},
    private readonly onOutput?: (text: string) => void,
  ) {}

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  start(): void {
    const { command, args } = tiedToAgent(this.command, this.args);
    const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.starts++;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.onOutput?.(text);
      this.tail.push(...text.split('\n').filter(Boolean));
      if (this.tail.length > 40) this.tail.splice(0, this.tail.length - 40);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
  }

  output(): string {
    return this.tail.join('\n').slice(-3000);
  }

  /** SIGKILL, and waits for the exit. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM; SIGKILL after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    const t = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(t);
  }
}

/** Waits until `probe` says yes; fails at once when `child` exits, naming its output. */
async function readyOrExit(child: Child, probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!child.running) throw new Error(`${child.name} exited before ${what}: ${child.output()}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${child.name}: ${what} not seen within ${timeoutMs / 1000} s: ${child.output()}`);
    await sleep(250);
  }
}

const httpOk = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(3_000) })).status === 200;
const json = async <T>(url: string): Promise<T> => (await (await fetch(url, { signal: AbortSignal.timeout(3_000) })).json()) as T;

interface NatsNode {
  child: Child;
  clientPort: number;
  monitorPort: number;
  routePort: number;
}

interface NodeProcess {
  child: Child;
  role: 'gateway' | Group | 'projections';
  port: number;
  /** Its server name in HAProxy's backend (none for the runners, which take no traffic). */
  backendServer?: { backend: string; server: string };
}

function haproxyConfig(ports: { gateway: number; groups: Record<Group, number>; stats: number }, processes: NodeProcess[]): string {
  const backend = (name: string, members: NodeProcess[]) =>
    [
      `backend ${name}`,
      '  balance roundrobin',
      '  option httpchk',
      '  http-check send meth GET uri /ready',
      '  http-check expect status 200',
      ...members.map((p) => `  server ${p.backendServer!.server} 127.0.0.1:${p.port} check`),
    ].join('\n');
  const frontend = (name: string, port: number) => [`frontend ${name}_in`, `  bind 127.0.0.1:${port}`, `  default_backend ${name}`].join('\n');
  return [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // Viewers and relays hold their WebSockets for hours: the tunnel time-out, not the HTTP ones, applies to them.
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '  timeout client-fin 5s',
    '  timeout http-request 30s',
    '  timeout http-keep-alive 30s',
    '  timeout queue 10s',
    // A connection refused by a dead server is tried again on the other one.
    '  option redispatch',
    '  retries 3',
    `  default-server inter ${CHECK.interMs}ms fall ${CHECK.fall} rise ${CHECK.rise}`,
    frontend('gateway', ports.gateway),
    backend(
      'gateway',
      processes.filter((p) => p.role === 'gateway'),
    ),
    ...GROUPS.flatMap((g) => [
      frontend(g.name, ports.groups[g.name]),
      backend(
        g.name,
        processes.filter((p) => p.role === g.name),
      ),
    ]),
    'listen stats',
    `  bind 127.0.0.1:${ports.stats}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

/** Server states from HAProxy's CSV statistics: `backend/server` → `UP`, `DOWN`, ... */
async function haproxyStates(statsPort: number): Promise<Map<string, string>> {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`, { signal: AbortSignal.timeout(3_000) })).text();
  const states = new Map<string, string>();
  for (const line of csv.split('\n')) {
    const cells = line.split(',');
    if (cells.length < 18 || line.startsWith('#') || cells[1] === 'FRONTEND' || cells[1] === 'BACKEND') continue;
    states.set(`${cells[0]}/${cells[1]}`, cells[17]!);
  }
  return states;
}

// ---------------------------------------------------------------------------------------------
// clients

interface ErrorSeen {
  at: number;
  kind: 'session' | 'viewer' | 'write' | 'read';
  what: string;
}

interface Probe {
  started: number;
  ended: number;
  ok: boolean;
}

interface SessionClient {
  id: string;
  index: number;
  socket: WebSocket | null;
  /** The viewer said hello on its current connection. */
  live: boolean;
  connections: number;
  lastFrameAt: number;
  frames: number;
  /** `frames` when the viewer's current connection said hello. */
  framesAtConnect: number;
  pending: Map<string, (reply: Record<string, unknown>) => void>;
  frameWaiters: Set<() => void>;
  probes: Probe[];
  ended: string | null;
}

interface AckedWrite {
  id: string;
  title: string;
  ackedAt: number;
  latencyMs: number;
  /** Ack → the first read that found it: 0 when the read right after the acknowledgement did; null when none did. */
  visibleAfterMs: number | null;
}

interface LagSample {
  at: number;
  lagMs: number;
  projection: string | null;
}

export interface KillReport {
  case: string;
  victim: string;
  loadAverage: number;
  errors: number;
  errorsByKind: Record<string, number>;
  errorKinds: Record<string, number>;
  /** First and last error after the kill, from the kill. */
  firstErrorMs: number | null;
  lastErrorMs: number | null;
  sessionsInterrupted: number;
  /** Kill → the moment the last of the interrupted sessions answered again (0: none was interrupted). */
  allSessionsAnswerMs: number | null;
  sessionsNeverAnswered: number;
  lagMaxMs: number;
  /** The projection the highest lag sample was of. */
  lagProjection: string | null;
  writesAcknowledged: number;
  writeLatency: Distribution;
  /** Restarting the killed process: until it was ready (and back in HAProxy, or in the NATS cluster). */
  restartMs: number;
  errorsDuringRestart: number;
  restartErrorKinds: Record<string, number>;
  /** Longest event-loop delay of the drill's own process (the clients and the device hosts) in the window. */
  clientLoopDelayMaxMs: number;
}

export interface DrillReport {
  startedAt: string;
  options: DrillOptions;
  machine: { cpus: number; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  startupSeconds: number;
  baseline: KillReport;
  kills: KillReport[];
  writes: {
    acknowledged: number;
    lost: number;
    lostIds: string[];
    /** Stored in the read model without an acknowledgement (answered 5xx or cut off, committed nonetheless, and never acknowledged by a retry). */
    storedUnacknowledged: number;
    /** Tries sent again with the same idempotency key after a 5xx or a cut-off answer. */
    retried: number;
    /** Writes stored more than once (their title twice): what a retry without a key would make. */
    duplicates: number;
    /** Acknowledged writes whose first read did not find them: answered 404 (read-your-writes broken) or failed (counted among the errors). */
    notVisibleOnFirstRead: number;
    notFoundOnFirstRead: number;
    visibleAfter: Distribution;
    latency: Distribution;
  };
  sessionsActiveAtEnd: number;
  /** Every error the clients saw and every kill and restart, in ms since the drill started. */
  timeline: { at: number; event: string }[];
  error: string | null;
}

// ---------------------------------------------------------------------------------------------
// the drill

export async function runFailoverDrill(options: DrillOptions = DRILL_DEFAULTS): Promise<DrillReport> {
  origin = performance.now();
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  const temp = mkdtempSync(join(os.tmpdir(), 'qa-drill-'));
  const redisPrefix = `qa-drill-${randomBytes(4).toString('hex')}:`;
  const cleanups: (() => Promise<void>)[] = [];
  const children: Child[] = [];
  const agents: { host: AgentHost; bus: MessageBus }[] = [];
  const sessions: SessionClient[] = [];
  const errors: ErrorSeen[] = [];
  const acked: AckedWrite[] = [];
  const lagSamples: LagSample[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let stopping = false;
  let report: DrillReport | null = null;
  let failure: unknown = null;
  const running: Promise<unknown>[] = [];

  const record = (kind: ErrorSeen['kind'], what: string) => errors.push({ at: now(), kind, what });
  const marks: { at: number; event: string }[] = [];
  const mark = (event: string) => marks.push({ at: Math.round(now()), event });
  /** The progress line open now, ended with "failed" when the drill fails in its midst. */
  let open: Ticker | null = null;
  const begin = (label: string, fraction?: () => number): Ticker => {
    const ticker = phase(label, fraction);
    const line: Ticker = {
      done: (result) => {
        if (open === line) open = null;
        ticker.done(result);
      },
    };
    open = line;
    return line;
  };

  let teardownStarted: Promise<void> | null = null;
  const teardown = () =>
    (teardownStarted ??= (async () => {
      stopping = true;
      open?.done('stopped');
      const closing = phase('tearing down: clients, device hosts, processes, database, Redis keys, temporary files');
      for (const s of sessions) s.socket?.terminate();
      await Promise.allSettled(running);
      await Promise.allSettled(agents.map(async (a) => {
        await a.host.stop();
        await a.bus.close();
      }));
      await Promise.allSettled(children.map((c) => c.stop()));
      for (const c of cleanups.reverse()) await c().catch((err: unknown) => note(`cleanup failed: ${String(err)}`));
      rmSync(temp, { recursive: true, force: true });
      loop.disable();
      closing.done('done');
    })());
  const interrupted = () => {
    note('interrupted: tearing down');
    void teardown().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    // --- stores ---------------------------------------------------------------------------------
    heading(`failover drill — ${os.cpus().length} cores, load average ${loadAverageAtStart.join(' / ')}`);
    const database = await createTestDatabase('df_drill');
    cleanups.push(database.drop);
    const databaseName = new URL(database.url).pathname.slice(1);
    note(`PostgreSQL database ${databaseName}; Redis keys under ${redisPrefix}; files under ${temp}`);
    cleanups.push(async () => {
      const redis = new Redis(testEnv.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    });

    // --- NATS cluster ---------------------------------------------------------------------------
    const natsNodes: NatsNode[] = [];
    for (let i = 0; i < 3; i++) natsNodes.push({ clientPort: await freePort(), monitorPort: await freePort(), routePort: await freePort(), child: null as unknown as Child });
    for (const [i, n] of natsNodes.entries()) {
      const routes = natsNodes.filter((o) => o !== n).map((o) => `nats://127.0.0.1:${o.routePort}`).join(',');
      n.child = new Child(`nats-${i + 1}`, NATS_SERVER, [
        '-n', `drill-nats-${i + 1}`, '-a', '127.0.0.1', '-p', String(n.clientPort), '-m', String(n.monitorPort),
        '--cluster_name', 'drill', '--cluster', `nats://127.0.0.1:${n.routePort}`, '--routes', routes,
      ]);
      children.push(n.child);
    }
    const natsUrl = natsNodes.map((n) => `nats://127.0.0.1:${n.clientPort}`).join(',');
    const natsClustered = async (n: NatsNode) => (await json<{ num_routes: number }>(`http://127.0.0.1:${n.monitorPort}/routez`)).num_routes >= 2;
    const clustering = begin('three nats-server processes, clustered by routes');
    for (const n of natsNodes) n.child.start();
    for (const n of natsNodes) await readyOrExit(n.child, () => natsClustered(n), 30_000, 'routes to both other nodes');
    clustering.done(natsNodes.map((n) => `:${n.clientPort}`).join(' '));

    // --- platform processes ---------------------------------------------------------------------
    const frontPorts = { gateway: await freePort(), groups: {} as Record<Group, number>, stats: await freePort() };
    for (const g of GROUPS) frontPorts.groups[g.name] = await freePort();
    const gatewayUrl = `http://127.0.0.1:${frontPorts.gateway}`;
    const common: Record<string, string> = {
      ...benchServerEnv(join(temp, 'data'), {
        DATABASE_URL: database.url,
        REDIS_URL: testEnv.redisUrl,
        REDIS_KEY_PREFIX: redisPrefix,
        NATS_URL: natsUrl,
        JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        SECRETS_KEY: randomBytes(32).toString('base64'),
        AGENT_ENABLED: 'false',
        DF_SHARED_POOL_TOKEN: BENCH_POOL_TOKEN,
        APP_URL: gatewayUrl,
        SHUTDOWN_GRACE: '5s',
        // Eight platform processes share the machine's PostgreSQL (max_connections 100) with other work.
        DATABASE_POOL_MAX: '6',
      }),
    };
    mkdirSync(common.DATA_DIR!, { recursive: true });
    const processes: NodeProcess[] = [];
    const addProcess = async (role: NodeProcess['role'], index: number) => {
      const port = await freePort();
      const env: Record<string, string> = { ...common, PORT: String(port), SERVICES: GROUPS.find((g) => g.name === role)?.services ?? role };
      // A runner's projection loops each take a connection per batch.
      if (role === 'projections') env.DATABASE_POOL_MAX = '10';
      if (role === 'gateway') for (const g of GROUPS) for (const variable of g.urls) env[variable] = `http://127.0.0.1:${frontPorts.groups[g.name]}`;
      const child = new Child(`${role}-${index}`, process.execPath, ['--import', 'tsx', 'services/main.ts'], env);
      children.push(child);
      const p: NodeProcess = { child, role, port, ...(role === 'projections' ? {} : { backendServer: { backend: role, server: `${role}-${index}` } }) };
      processes.push(p);
      return p;
    };
    const runners = [await addProcess('projections', 1), await addProcess('projections', 2)];
    const modules: NodeProcess[] = [];
    for (const g of GROUPS) for (const i of [1, 2]) modules.push(await addProcess(g.name, i));
    const gateways = [await addProcess('gateway', 1), await addProcess('gateway', 2)];
    const ready = (p: NodeProcess) => readyOrExit(p.child, () => httpOk(`http://127.0.0.1:${p.port}/ready`), 300_000, '/ready answering 200');
    // A runner that follows is ready once every checkpoint it follows reaches the head within a second,
    // which a log written without pause may deny it for a long time; it serves nothing, so alive is enough.
    const alive = (p: NodeProcess) => readyOrExit(p.child, () => httpOk(`http://127.0.0.1:${p.port}/health`), 300_000, '/health answering 200');

    const haproxyDir = join(temp, 'haproxy');
    mkdirSync(haproxyDir);
    writeFileSync(join(haproxyDir, 'haproxy.cfg'), haproxyConfig(frontPorts, processes));
    const haproxy = new Child('haproxy', '/usr/sbin/haproxy', ['-db', '-f', join(haproxyDir, 'haproxy.cfg')]);
    children.push(haproxy);
    haproxy.start();
    await readyOrExit(haproxy, async () => (await haproxyStates(frontPorts.stats)).size > 0, 15_000, 'its statistics page');

    const t0 = now();
    // The first runner creates the schema and builds every read model; the others start on it.
    let starting = begin('projections runner 1 (schema and read models)');
    runners[0]!.child.start();
    await ready(runners[0]!);
    starting.done(seconds(now() - t0));
    starting = begin(`projections runner 2 and ${modules.length} module processes (${GROUPS.map((g) => `2 × ${g.services}`).join(', ')})`);
    for (const p of [runners[1]!, ...modules]) p.child.start();
    await Promise.all([alive(runners[1]!), ...modules.map(ready)]);
    starting.done(seconds(now() - t0));
    starting = begin('two gateways, and every server UP in HAProxy');
    for (const p of gateways) p.child.start();
    await Promise.all(gateways.map(ready));
    const allUp = async () => {
      const states = await haproxyStates(frontPorts.stats);
      return processes.every((p) => !p.backendServer || states.get(`${p.backendServer.backend}/${p.backendServer.server}`) === 'UP');
    };
    await until(async () => ((await allUp()) ? true : undefined), 30_000, 'every server UP in HAProxy');
    const startupSeconds = (now() - t0) / 1000;
    starting.done(`${num(startupSeconds, 1)} s after the first runner started; gateway ${gatewayUrl}`);

    // --- device hosts ---------------------------------------------------------------------------
    const totalDevices = options.hosts * options.devicesPerHost;
    const logger = createLogger({ LOG_LEVEL: 'error' });
    const login = await fetch(`${gatewayUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
    const token = ((await login.json()) as { token: string }).token;
    const headers = { authorization: `Bearer ${token}` };
    const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
      const r = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { ...headers, ...extra, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await r.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON (HAProxy's own error pages)
      }
      return { status: r.status, body: parsed };
    };
    let registered = 0;
    const registering = begin(`${options.hosts} device hosts with ${options.devicesPerHost} simulated devices each, on NATS connections of their own`, () => registered / totalDevices);
    for (let i = 0; i < options.hosts; i++) {
      const config = loadAgentConfig({ value: { ...simulatedAgent(i, options.devicesPerHost, 2_000), hostId: `drill-host-${String(i + 1).padStart(2, '0')}` } });
      const bus = await connectNatsBus(natsUrl, { name: `df-agent-${config.hostId}`, inboxPrefix: natsHostInbox(config.hostId) });
      const host = new AgentHost({ bus, config, logger: logger.child({ component: 'agent', hostId: config.hostId }) });
      agents.push({ host, bus });
      await host.start();
    }
    await until(async () => {
      registered = (await call('GET', '/df/api/devices?status=available&size=1')).body.totalElements as number;
      return registered >= totalDevices ? true : undefined;
    }, 120_000, `${totalDevices} available devices`);
    registering.done(`${registered} available`);

    // --- sessions and viewers -------------------------------------------------------------------
    const wsBase = gatewayUrl.replace('http', 'ws');
    const connectViewer = (s: SessionClient) => {
      if (stopping) return;
      const socket = new WebSocket(`${wsBase}/df/ws/sessions/${s.id}?access_token=${token}`);
      s.socket = socket;
      s.live = false;
      s.connections++;
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          s.lastFrameAt = now();
          s.frames++;
          for (const w of [...s.frameWaiters]) w();
          return;
        }
        const message = JSON.parse(data.toString()) as Record<string, unknown>;
        if (message.type === 'hello') {
          s.live = true;
          s.framesAtConnect = s.frames;
        }
        if (message.type === 'ended') s.ended = String(message.reason);
        if ((message.type === 'ack' || message.type === 'error') && typeof message.id === 'string') s.pending.get(message.id)?.(message);
        // A pong carries no id: it answers the one ping a probe has out.
        if (message.type === 'pong') for (const answer of s.pending.values()) answer(message);
      });
      socket.on('error', () => undefined);
      socket.once('close', (code) => {
        const wasLive = s.live;
        s.live = false;
        if (stopping || s.socket !== socket) return;
        record('viewer', wasLive ? `viewer closed (${code})` : `viewer could not connect (${code})`);
        // Reconnect as the console does: at once after a live connection drops, then with a short pause.
        setTimeout(() => connectViewer(s), wasLive ? 0 : 250);
      });
    };
    const opening = begin(`${options.sessions} device sessions, a viewer on each`, () => sessions.length / options.sessions);
    const devices = (await call('GET', `/df/api/devices?status=available&size=${options.sessions}`)).body.content as { id: string }[];
    for (const [index, device] of devices.entries()) {
      const created = await call('POST', '/df/api/sessions', { deviceId: device.id, name: `drill ${index + 1}` });
      if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}: ${JSON.stringify(created.body)}`);
      const s: SessionClient = { id: created.body.id, index, socket: null, live: false, connections: 0, lastFrameAt: 0, frames: 0, framesAtConnect: 0, pending: new Map(), frameWaiters: new Set(), probes: [], ended: null };
      sessions.push(s);
    }
    for (const s of sessions) {
      await until(async () => ((await call('GET', `/df/api/sessions/${s.id}`)).body.status === 'active' ? true : undefined), 60_000, `session ${s.index + 1} active`);
      connectViewer(s);
    }
    await until(async () => (sessions.every((s) => s.live) ? true : undefined), 60_000, 'every viewer connected');
    opening.done(`${sessions.length} active, ${sessions.filter((s) => s.live).length} viewers connected`);

    // --- load -----------------------------------------------------------------------------------
    const project = await call('POST', '/v1/projects', { name: 'Failover drill', key: 'DRILL' });
    if (project.status !== 201) throw new Error(`POST /v1/projects answered ${project.status}: ${JSON.stringify(project.body)}`);
    const projectId = project.body.data.id as string;

    let probeSeq = 0;
    /** Sends `message` on the session's viewer and waits until `done` says the answer is complete. */
    const onViewer = (s: SessionClient, socket: WebSocket, id: string, message: Record<string, unknown>, framesBefore: number, needFrame: boolean): Promise<string | null> =>
      new Promise<string | null>((resolve) => {
        let answered = false;
        const check = () => {
          if (answered && (!needFrame || s.frames > framesBefore)) finish(null);
        };
        const onClose = () => finish('viewer closed during the probe');
        const timer = setTimeout(() => finish(`no ${String(message.type)} answer${needFrame ? ' and frame' : ''} within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS);
        const finish = (result: string | null) => {
          clearTimeout(timer);
          s.pending.delete(id);
          s.frameWaiters.delete(check);
          socket.off('close', onClose);
          resolve(result);
        };
        s.pending.set(id, (reply) => {
          if (reply.type === 'error') return finish(`${String(message.type)} refused: ${String(reply.code)}`);
          answered = true;
          check();
        });
        s.frameWaiters.add(check);
        socket.once('close', onClose);
        socket.send(JSON.stringify(message));
      });
    /**
     * One probe of a session; null when it answers. Its viewer is connected and has shown a frame since
     * it connected; a ping on the viewer comes back (every `TAP_EVERY`th probe, and whenever the viewer has
     * no frame yet since it connected, a tap instead: acknowledged, and its frame arrives); and the
     * session's device answers over HTTP (`GET .../ui-tree`: gateway, a df replica, NATS, the host).
     */
    const probeOnce = async (s: SessionClient, round: number): Promise<string | null> => {
      if (s.ended) return `session ended (${s.ended})`;
      if (!s.live || !s.socket) return 'viewer not connected';
      const id = `p${++probeSeq}`;
      const tap = round % TAP_EVERY === 0 || s.frames <= s.framesAtConnect;
      const viewer = await onViewer(
        s,
        s.socket,
        id,
        tap ? { type: 'input', id, action: { action: 'tap', x: 1 + (round % 50), y: 1 } } : { type: 'ping', id },
        s.frames,
        tap,
      );
      if (viewer) return viewer;
      const read = await call('GET', `/df/api/sessions/${s.id}/ui-tree`).catch((err: unknown) => ({ status: 0, body: { code: errorName(err) } }));
      if (read.status !== 200) return `GET ui-tree ${read.status} ${codeOf(read.body)}`.trim();
      return null;
    };
    const probeLoop = async (s: SessionClient) => {
      // Spread the sessions over the interval.
      await sleep((s.index / sessions.length) * options.probeEveryMs);
      for (let round = 1; !stopping; round++) {
        const started = now();
        const failed = await probeOnce(s, round).catch((err: unknown) => errorName(err));
        const ended = now();
        s.probes.push({ started, ended, ok: failed === null });
        if (failed !== null && !stopping) record('session', failed);
        await sleep(Math.max(0, options.probeEveryMs - (ended - started)));
      }
    };

    let writeSeq = 0;
    let retriedWrites = 0;
    /** Reads an acknowledged write back at once, and again every 50 ms until a read finds it. */
    const readBack = async (w: AckedWrite) => {
      for (let attempt = 0; !stopping && now() - w.ackedAt < 60_000; attempt++) {
        const r = await call('GET', `/v1/test-cases/${w.id}`).catch((err: unknown) => ({ status: 0, body: { code: errorName(err) } }));
        if (r.status === 200) {
          w.visibleAfterMs = attempt === 0 ? 0 : now() - w.ackedAt;
          return;
        }
        // Not found right after its acknowledgement: read-your-writes broken (the write itself answered from the read model).
        if (r.status === 404 && attempt === 0) record('read', 'acknowledged test case not found by the next read (404)');
        if (r.status !== 404) record('read', `GET test case ${r.status} ${codeOf(r.body)}`.trim());
        await sleep(50);
      }
    };
    /**
     * Each write carries an idempotency key and, answered 5xx, cut off or told its first try still runs
     * (409 `IDEMPOTENCY_KEY_IN_USE`), is sent again with the same key (as the typed client and dfctl do)
     * until it is acknowledged: a write committed but not answered must
     * not be stored twice. Each failed try is a client error of its window; the retries are counted.
     */
    const writerLoop = async () => {
      while (!stopping) {
        const title = `drill case ${++writeSeq}`;
        const key = randomUUID();
        const started = now();
        for (let attempt = 0; ; attempt++) {
          const r = await call('POST', '/v1/test-cases', { title, projectId }, { 'idempotency-key': key }).catch((err: unknown) => ({ status: 0, body: { code: errorName(err) } }));
          if (r.status === 201) {
            const w: AckedWrite = { id: r.body.data.id as string, title, ackedAt: now(), latencyMs: now() - started, visibleAfterMs: null };
            acked.push(w);
            running.push(readBack(w));
            break;
          }
          if (stopping) break;
          record('write', `POST test case ${r.status} ${codeOf(r.body)}`.trim());
          // 409 IDEMPOTENCY_KEY_IN_USE: the first try is still running there (waiting for its read model).
          if (r.status !== 0 && r.status < 500 && codeOf(r.body) !== 'IDEMPOTENCY_KEY_IN_USE') break;
          retriedWrites++;
          await sleep(options.writePauseMs);
        }
        await sleep(options.writePauseMs);
      }
    };

    // Read-model lag from PostgreSQL itself, for the read models the load writes to (test cases; the
    // sessions' timelines): the age of the oldest event of the projection's types past its checkpoint
    // (0 when it has applied everything), sampled every half second.
    const lagDb: Database = openPostgres(database.url, { max: 1 });
    cleanups.push(() => lagDb.close());
    const watched = ALL_PROJECTIONS.filter((p) => LAG_PROJECTIONS.includes(p.name));
    if (watched.length !== LAG_PROJECTIONS.length) throw new Error(`projections ${LAG_PROJECTIONS.join(', ')} not all found`);
    const lagLoop = async () => {
      while (!stopping) {
        try {
          let worst: LagSample = { at: now(), lagMs: 0, projection: null };
          for (const p of watched) {
            const r = await lagDb.query<{ lag_ms: string }>(
              `SELECT EXTRACT(EPOCH FROM clock_timestamp() - e.recorded_at) * 1000 AS lag_ms FROM es_events e
                WHERE e.position > (SELECT position FROM projection_checkpoints WHERE name = $1) AND e.type = ANY($2::text[])
                ORDER BY e.position LIMIT 1`,
              [p.name, [...p.eventTypes]],
            );
            const lag = r.rows[0] ? Number(r.rows[0].lag_ms) : 0;
            if (lag > worst.lagMs) worst = { at: worst.at, lagMs: lag, projection: p.name };
          }
          lagSamples.push(worst);
        } catch (err) {
          note(`lag sample failed: ${errorName(err)}`);
        }
        await sleep(500);
      }
    };

    for (const s of sessions) running.push(probeLoop(s));
    for (let i = 0; i < options.writers; i++) running.push(writerLoop());
    running.push(lagLoop());

    // --- windows --------------------------------------------------------------------------------
    const status = (from: number) => {
      const answering = sessions.filter((s) => {
        const last = s.probes.at(-1);
        return last !== undefined && last.ok && last.started >= from;
      }).length;
      const errs = errors.filter((e) => e.at >= from).length;
      const lag = lagSamples.at(-1);
      return `+${seconds(now() - from)}: sessions answering ${answering}/${sessions.length}, errors ${errs}, writes acknowledged ${acked.filter((w) => w.ackedAt >= from).length}, lag ${lag ? seconds(lag.lagMs, 2) : 'n/a'}`;
    };
    /**
     * The sessions that failed a probe in [from, to] and when each answered again: the end of its first
     * successful probe started after its first failure (null: not yet).
     */
    const recoveries = (from: number, to: number) =>
      sessions.flatMap((s) => {
        const failure = s.probes.find((p) => !p.ok && p.ended >= from && p.ended <= to);
        if (!failure) return [];
        const answered = s.probes.find((p) => p.ok && p.started >= failure.ended && p.ended <= to);
        return [{ session: s, answeredAt: answered ? answered.ended : null }];
      });
    let allAnsweredAt: number | null = null;
    const steady = (from: number) => {
      const t = now();
      if (t - from < MIN_WINDOW_MS) return false;
      const r = recoveries(from, t);
      if (r.some((x) => x.answeredAt === null)) {
        allAnsweredAt = null;
        return false;
      }
      allAnsweredAt ??= t;
      return !errors.some((e) => e.at > t - QUIET_MS) || t - allAnsweredAt >= SETTLE_MAX_MS;
    };
    const watch = async (from: number, timeoutMs: number, label: string): Promise<boolean> => {
      allAnsweredAt = null;
      let lastNote = now();
      while (now() - from < timeoutMs) {
        if (steady(from)) return true;
        if (now() - lastNote >= 5_000) {
          note(`${label} ${status(from)}`);
          lastNote = now();
        }
        await sleep(200);
      }
      return false;
    };
    const summarise = (name: string, victim: string, killedAt: number, windowEnd: number, loadAverage: number, loopMaxMs: number): KillReport => {
      const inWindow = errors.filter((e) => e.at >= killedAt && e.at <= windowEnd);
      const byKind: Record<string, number> = {};
      for (const e of inWindow) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      const r = recoveries(killedAt, windowEnd);
      const interrupted = r.length;
      const never = r.filter((x) => x.answeredAt === null).length;
      const allAnswer = r.reduce((m, x) => Math.max(m, (x.answeredAt ?? 0) - killedAt), 0);
      const writes = acked.filter((w) => w.ackedAt >= killedAt && w.ackedAt <= windowEnd);
      const lags = lagSamples.filter((l) => l.at >= killedAt && l.at <= windowEnd);
      return {
        case: name,
        victim,
        loadAverage,
        errors: inWindow.length,
        errorsByKind: byKind,
        errorKinds: errorKinds(inWindow),
        firstErrorMs: inWindow.length > 0 ? inWindow[0]!.at - killedAt : null,
        lastErrorMs: inWindow.length > 0 ? inWindow.at(-1)!.at - killedAt : null,
        sessionsInterrupted: interrupted,
        allSessionsAnswerMs: never > 0 ? null : allAnswer,
        sessionsNeverAnswered: never,
        lagMaxMs: lags.reduce((m, l) => Math.max(m, l.lagMs), 0),
        lagProjection: lags.reduce<LagSample | null>((worst, l) => (l.lagMs > (worst?.lagMs ?? 0) ? l : worst), null)?.projection ?? null,
        writesAcknowledged: writes.length,
        writeLatency: distribution(writes.map((w) => w.latencyMs)),
        restartMs: 0,
        errorsDuringRestart: 0,
        restartErrorKinds: {},
        clientLoopDelayMaxMs: loopMaxMs,
      };
    };

    heading(`baseline: ${options.baselineMs / 1000} s of load, nothing killed  [load average ${num(os.loadavg()[0]!, 2)}]`);
    const baselineFrom = now();
    mark('baseline');
    loop.reset();
    await sleep(options.baselineMs);
    note(status(baselineFrom));
    const baseline = summarise('baseline (nothing killed)', '—', baselineFrom, now(), Number(os.loadavg()[0]!.toFixed(2)), loop.max / 1e6);

    const byMonitor = async (n: NatsNode) => (await json<{ connections: number }>(`http://127.0.0.1:${n.monitorPort}/varz`)).connections;
    const leaseCount = async (p: NodeProcess) =>
      ((await json<{ projections?: { mine: boolean }[] }>(`http://127.0.0.1:${p.port}/health?detail=true`)).projections ?? []).filter((l) => l.mine).length;
    const backInHaproxy = (p: NodeProcess) => async () => (await haproxyStates(frontPorts.stats)).get(`${p.backendServer!.backend}/${p.backendServer!.server}`) === 'UP';

    const cases: { name: string; pick: () => Promise<{ child: Child; victim: string; back: () => Promise<boolean> }> }[] = [
      {
        name: 'gateway',
        pick: async () => ({ child: gateways[0]!.child, victim: `${gateways[0]!.child.name} (1 of 2)`, back: backInHaproxy(gateways[0]!) }),
      },
      {
        name: 'df replica',
        pick: async () => {
          const df = modules.find((p) => p.role === 'df')!;
          return { child: df.child, victim: `${df.child.name} (1 of 2)`, back: backInHaproxy(df) };
        },
      },
      {
        name: 'projections runner holding the leases',
        pick: async () => {
          const counts = await Promise.all(runners.map(leaseCount));
          const holder = counts[0]! >= counts[1]! ? 0 : 1;
          const runner = runners[holder]!;
          return {
            child: runner.child,
            victim: `${runner.child.name} (held ${counts[holder]} of ${counts[0]! + counts[1]!} leases)`,
            back: async () => (await httpOk(`http://127.0.0.1:${runner.port}/health`)) && (await leaseCount(runners[1 - holder]!)) === counts[0]! + counts[1]!,
          };
        },
      },
      {
        name: 'NATS node',
        pick: async () => {
          const connections = await Promise.all(natsNodes.map(byMonitor));
          const busiest = connections.indexOf(Math.max(...connections));
          const node = natsNodes[busiest]!;
          return {
            child: node.child,
            victim: `${node.child.name} (${connections[busiest]} of ${connections.reduce((a, b) => a + b, 0)} client connections)`,
            back: async () => (await Promise.all(natsNodes.map(natsClustered))).every(Boolean),
          };
        },
      },
    ];

    const kills: KillReport[] = [];
    for (const [i, c] of cases.entries()) {
      const { child, victim, back } = await c.pick();
      const loadAverage = Number(os.loadavg()[0]!.toFixed(2));
      heading(`kill ${i + 1}/${cases.length}: SIGKILL ${c.name}: ${victim}, pid ${child.pid}  [load average ${loadAverage}]`);
      loop.reset();
      const killedAt = now();
      mark(`SIGKILL ${child.name}`);
      await child.kill();
      const recovered = await watch(killedAt, options.recoveryTimeoutMs, 'down:');
      const windowEnd = now();
      mark(`${child.name}: window ends`);
      const result = summarise(c.name, victim, killedAt, windowEnd, loadAverage, loop.max / 1e6);
      note(
        recovered
          ? `every session answers again ${seconds(result.allSessionsAnswerMs ?? 0)} after the kill; ${result.errors} errors seen by clients`
          : `NOT recovered within ${options.recoveryTimeoutMs / 1000} s: ${result.sessionsNeverAnswered} sessions never answered again; ${status(killedAt)}`,
      );
      const restarting = begin(`restarting ${child.name} as an orchestrator would`);
      const restartFrom = now();
      mark(`restart ${child.name}`);
      child.start();
      await readyOrExit(child, back, 180_000, 'back in service');
      result.restartMs = now() - restartFrom;
      mark(`${child.name} back in service`);
      await watch(restartFrom, 60_000, 'restart:');
      const duringRestart = errors.filter((e) => e.at >= restartFrom);
      result.errorsDuringRestart = duringRestart.length;
      result.restartErrorKinds = errorKinds(duringRestart);
      restarting.done(`back after ${seconds(result.restartMs)}; ${result.errorsDuringRestart} errors while it came back`);
      kills.push(result);
    }

    // --- read everything back -------------------------------------------------------------------
    stopping = true;
    const draining = begin('stopping the load');
    await Promise.allSettled(running);
    running.length = 0;
    draining.done(`${acked.length} writes acknowledged`);
    const reading = begin('reading every acknowledged write back');
    const stored = new Map<string, string>();
    const storedTitles = new Map<string, number>();
    for (let page = 1; ; page++) {
      const r = await call('GET', `/v1/test-cases?projectId=${projectId}&limit=100&page=${page}`);
      if (r.status !== 200) throw new Error(`GET /v1/test-cases answered ${r.status}: ${JSON.stringify(r.body)}`);
      for (const c of r.body.data as { id: string; title: string }[]) {
        stored.set(c.id, c.title);
        storedTitles.set(c.title, (storedTitles.get(c.title) ?? 0) + 1);
      }
      if ((r.body.data as unknown[]).length < 100) break;
    }
    const lostIds: string[] = [];
    for (const w of acked) {
      if (stored.get(w.id) === w.title) continue;
      // Not in the list: asked for by id as well before it counts as lost.
      const one = await call('GET', `/v1/test-cases/${w.id}`);
      if (one.status !== 200 || one.body.data.title !== w.title) lostIds.push(w.id);
    }
    const ackedIds = new Set(acked.map((w) => w.id));
    const storedUnacknowledged = [...stored.keys()].filter((id) => !ackedIds.has(id)).length;
    let sessionsActiveAtEnd = 0;
    for (const s of sessions) if ((await call('GET', `/df/api/sessions/${s.id}`)).body.status === 'active') sessionsActiveAtEnd++;
    // Every write has a title of its own: a title stored twice is a retried write stored twice.
    const duplicates = [...storedTitles.values()].reduce((sum, n) => sum + n - 1, 0);
    reading.done(`${stored.size} stored, ${lostIds.length} acknowledged writes lost, ${storedUnacknowledged} stored without an acknowledgement, ${duplicates} duplicates of ${retriedWrites} retries; ${sessionsActiveAtEnd}/${sessions.length} sessions still active`);

    const late = acked.filter((w) => w.visibleAfterMs !== 0);
    report = {
      startedAt,
      options,
      machine: { cpus: os.cpus().length, loadAverageAtStart, loadAverageAtEnd: [] },
      startupSeconds,
      baseline,
      kills,
      writes: {
        acknowledged: acked.length,
        lost: lostIds.length,
        lostIds,
        storedUnacknowledged,
        retried: retriedWrites,
        duplicates,
        notVisibleOnFirstRead: late.length,
        notFoundOnFirstRead: errors.filter((e) => e.what.startsWith('acknowledged test case not found')).length,
        visibleAfter: distribution(late.filter((w) => w.visibleAfterMs !== null).map((w) => w.visibleAfterMs!)),
        latency: distribution(acked.map((w) => w.latencyMs)),
      },
      sessionsActiveAtEnd,
      timeline: [...marks, ...errors.map((e) => ({ at: Math.round(e.at), event: `${e.kind}: ${e.what}` }))].sort((a, b) => a.at - b.at),
      error: null,
    };
  } catch (err) {
    failure = err;
    (open as Ticker | null)?.done('failed');
  } finally {
    await teardown();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
  if (failure) throw failure;
  report!.machine.loadAverageAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
  return report!;
}

/** How many errors of each kind and text. */
function errorKinds(list: readonly ErrorSeen[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const e of list) {
    const key = `${e.kind}: ${e.what}`;
    kinds[key] = (kinds[key] ?? 0) + 1;
  }
  return kinds;
}

/** The error code of a platform answer (`{code}` or `{error: {code}}`), or '' for anything else. */
function codeOf(body: unknown): string {
  const b = body as { code?: unknown; error?: { code?: unknown } } | null;
  return String(b?.code ?? b?.error?.code ?? '');
}

function errorName(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  return e?.cause?.code ?? (e?.name === 'TimeoutError' ? 'timed out' : (e?.message ?? String(err)));
}

/** `DRILL_DEFAULTS` with any `--name=value` of the command line over them (`--sessions=10 --hosts=4` for a short try). */
export function drillOptions(argv: readonly string[]): DrillOptions {
  const options = { ...DRILL_DEFAULTS };
  for (const a of argv) {
    const m = /^--([a-zA-Z]+)=(\d+)$/.exec(a);
    if (!m || !(m[1]! in options)) continue;
    options[m[1] as keyof DrillOptions] = Number(m[2]);
  }
  return options;
}

const fmtMs = (ms: number | null) => (ms === null ? '—' : num(ms / 1000, 1));

/** The drill's table and the lines under it. */
export function formatDrill(r: DrillReport): string {
  const rows = [r.baseline, ...r.kills].map((k) => [
    k.case,
    k.victim,
    num(k.loadAverage, 2),
    num(k.errors),
    k.errors > 0 ? `${fmtMs(k.firstErrorMs)}–${fmtMs(k.lastErrorMs)}` : '—',
    `${k.sessionsInterrupted}/${r.options.sessions}`,
    k.case.startsWith('baseline') ? '—' : k.sessionsNeverAnswered > 0 ? `${k.sessionsNeverAnswered} never` : fmtMs(k.allSessionsAnswerMs),
    num(k.lagMaxMs / 1000, 2),
    num(k.writesAcknowledged),
    num(k.writeLatency.max / 1000, 2),
    k.case.startsWith('baseline') ? '—' : `${fmtMs(k.restartMs)} (${k.errorsDuringRestart} err)`,
  ]);
  const lines = [
    `Failover drill — ${r.startedAt}; ${r.options.hosts} hosts × ${r.options.devicesPerHost} simulated devices, ${r.options.sessions} sessions with a viewer each (probed every ${r.options.probeEveryMs / 1000} s), ${r.options.writers} /v1 writers; ${r.machine.cpus} cores, load average ${r.machine.loadAverageAtStart.join(' / ')} at start, ${r.machine.loadAverageAtEnd.join(' / ')} at end`,
    table(
      ['killed (SIGKILL)', 'which', 'load', 'client errors', 'errors from–to, s after kill', 'sessions interrupted', 'all sessions answer, s', 'read-model lag max, s', 'writes acked in window', 'write max, s', 'restart, s'],
      rows,
    ),
  ];
  for (const k of [r.baseline, ...r.kills]) {
    const list = (kinds: Record<string, number>) =>
      Object.entries(kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => `${n}× ${what}`)
        .join('; ');
    if (k.errors > 0) lines.push(`${k.case}: ${list(k.errorKinds)}`);
    if (k.errorsDuringRestart > 0) lines.push(`${k.case}, while it came back: ${list(k.restartErrorKinds)}`);
  }
  const w = r.writes;
  lines.push(
    `Writes: ${num(w.acknowledged)} acknowledged (latency p50 ${num(w.latency.p50, 0)} ms, p99 ${num(w.latency.p99, 0)} ms, max ${num(w.latency.max, 0)} ms), ` +
      `${w.lost} LOST; ${w.storedUnacknowledged} stored without an acknowledgement; ${w.retried} retried with their key, ${w.duplicates} stored twice; ${w.notVisibleOnFirstRead} not found by the first read after their acknowledgement, of which ${w.notFoundOnFirstRead} answered 404` +
      (w.visibleAfter.count > 0 ? ` (found after p50 ${num(w.visibleAfter.p50, 0)} ms, max ${num(w.visibleAfter.max, 0)} ms)` : ''),
    `Sessions still active at the end: ${r.sessionsActiveAtEnd}/${r.options.sessions}. Start-up of the platform processes: ${num(r.startupSeconds, 1)} s.`,
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  try {
    const result = await runFailoverDrill(drillOptions(process.argv.slice(2)));
    process.stdout.write(`\n${formatDrill(result)}`);
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./results/failover-drill.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`\nTotal ${num((performance.now() - started) / 1000, 0)} s. Figures in bench/results/failover-drill.json\n`);
    if (result.writes.lost > 0) process.exitCode = 1;
  } catch (err) {
    process.stderr.write(`\nfailover drill failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  }
}
