/*
 * What serving metrics and tracing cost the gateway (the goals: under 3 % of its throughput for metrics,
 * under 10 % for tracing at 10 % sampling): the same request as the `http` step — `GET
 * /df/api/client-config` behind the gateway of an embedded server — on servers with metrics and tracing
 * off, with `METRICS_PORT` set and `/metrics` scraped once a second while measured (fifteen times
 * Prometheus's default rate), and with metrics on and tracing exported over OTLP/protobuf to a local
 * receiver at 10 % and at 100 % sampling; the scraper and the receiver run in an observer process of
 * their own (bench/observer-worker.ts), as Prometheus and a collector would. Each configuration runs in
 * processes of its own (Node's collectors and the tracing SDK, once started, stay for the life of a
 * process), two of each, all started first and kept running; then rounds measure a slice of every
 * process in turn, so that what the machine does meanwhile falls on every configuration alike and no
 * figure rests on one process (the same configuration in two processes differs by as much as the effect
 * measured). A last round runs each configuration under the V8 profiler and reports the self time of the
 * metrics code and of the tracing code as shares of the server thread's busy time: what the code itself
 * costs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { startTracing } from '#shared/tracing/index.js';
import { num, phase, table } from './console.js';
import { LoadGenerator } from './load-generator.js';
import { Observer } from './observer.js';
import type { LoadResult } from './load-worker.js';
import { signIn, startBenchServer } from './server.js';
import { median } from './stats.js';

const ROUTE = '/df/api/client-config';

export interface MetricsCostOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Rounds: each measures one slice of every process, in an order turned by one each round. */
  rounds: number;
  /** Processes each configuration runs in, all kept running through the rounds. */
  processesPerConfig: number;
}

/** One configuration: metrics off or on, and tracing's sampling ratio when it is on. */
export interface MetricsConfig {
  metrics: boolean;
  ratio: number | null;
  /** Measured under the V8 profiler, for the code's shares (not for the throughput ratios). */
  profile?: boolean;
}

/** The configurations both cost steps measure, off first (every ratio is against it). */
export const METRICS_CONFIGS: readonly MetricsConfig[] = [
  { metrics: false, ratio: null },
  { metrics: true, ratio: null },
  { metrics: true, ratio: 0.1 },
  { metrics: true, ratio: 1 },
];

/** A configuration's name in progress lines and tables. */
export const configLabel = (c: MetricsConfig): string => (c.ratio !== null ? `tracing ${c.ratio * 100} %` : `metrics ${c.metrics ? 'on ' : 'off'}`);

/** The `OTEL_*` variables a configuration with a ratio starts tracing from, its spans sent to `endpoint`. */
export const tracingEnvOf = (ratio: number, endpoint: string, more: Record<string, string> = {}): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: String(ratio),
  OTEL_SERVICE_NAME: 'qa-bench',
  ...more,
});

/** Self time of the metrics code and of the tracing code, as shares of the profiled thread's busy time. */
export interface CodeShares {
  busyMs: number;
  metrics: number;
  tracing: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

const METRICS_CODE = (url: string) => url.includes('/prom-client/') || url.includes('/shared/metrics/');
const TRACING_CODE = (url: string) => url.includes('/@opentelemetry/') || url.includes('/shared/tracing/');

/** Each sample counted to the function it was in (self time); busy is every sample but the idle ones. */
export function codeShares(profile: CpuProfile): CodeShares {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  let busy = 0;
  let metrics = 0;
  let tracing = 0;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    if (METRICS_CODE(frame.url)) metrics += us;
    else if (TRACING_CODE(frame.url)) tracing += us;
  });
  return { busyMs: busy / 1000, metrics: metrics / Math.max(1, busy), tracing: tracing / Math.max(1, busy) };
}

/** What one configuration measured; `cpuPerRequestUs` is the server process's CPU time (every thread, the load generator is another process) over the measured window, per request answered. */
type Measured = LoadResult & { scrapes: number; otlpBytes: number; cpuPerRequestUs: number; shares?: CodeShares };

export interface MetricsCostReport {
  route: string;
  connections: number;
  durationSeconds: number;
  /** Rounds measured; the figures are the round closest to the median, the ratios the medians. */
  rounds: number;
  processesPerConfig: number;
  off: LoadResult & { cpuPerRequestUs: number };
  on: LoadResult & { scrapes: number; cpuPerRequestUs: number };
  /** Throughput with metrics on as a share of off. */
  throughputKept: number;
  /** The server's CPU per request with metrics on as a share of off (the median of the rounds' ratios). */
  cpuRatio: number;
  /** Metrics on and tracing at 10 % and at 100 % sampling, with the OTLP bytes the receiver got. */
  traced: (LoadResult & { scrapes: number; ratio: number; otlpBytes: number; throughputKept: number; cpuPerRequestUs: number; cpuRatio: number })[];
  /** The profiled round: each configuration's code shares. */
  profiled: { config: MetricsConfig; requestsPerSecond: number; shares: CodeShares }[];
}

/**
 * One configuration's server, kept running in this process and measured slice by slice: tracing started
 * first when a ratio is given (as a process does), then the embedded server, signed in and warmed up.
 * No device host: its browser devices (two Chromiums starting, then their health readings) would run in
 * the measured seconds of one process and not another's. `/metrics` is scraped once a second while a
 * slice is measured, and the spans are received, by an observer process (bench/observer-worker.ts): in
 * an installation, Prometheus and the collector are not in the server's process either.
 */
export class ConfigHost {
  private constructor(
    private readonly config: MetricsConfig,
    private readonly options: MetricsCostOptions,
    private readonly load: LoadGenerator,
    private readonly observer: Observer,
    private readonly tracing: Awaited<ReturnType<typeof startTracing>> | null,
    private readonly server: Awaited<ReturnType<typeof startBenchServer>>,
    private readonly dataDir: string,
    private readonly headers: Record<string, string>,
  ) {}

  static async start(config: MetricsConfig, options: MetricsCostOptions): Promise<ConfigHost> {
    const load = new LoadGenerator();
    const observer = await Observer.start();
    const tracing = config.ratio !== null ? await startTracing(tracingEnvOf(config.ratio, observer.endpoint), 'qa-bench') : null;
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-metrics-'));
    const server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false', ...(config.metrics ? { METRICS_PORT: '0' } : {}) });
    const host = new ConfigHost(config, options, load, observer, tracing, server, dataDir, { authorization: `Bearer ${await signIn(server.url)}`, 'x-workspace-id': '1' });
    await load.run({ url: `${server.url}${ROUTE}`, headers: host.headers, connections: options.connections, durationSeconds: options.warmupSeconds });
    return host;
  }

  get label(): string {
    const name = configLabel(this.config);
    return this.config.profile ? `${name}, profiled` : name;
  }

  /** One measured slice of `options.durationSeconds`, under the V8 profiler when the configuration says so. */
  async measure(tag = ''): Promise<Measured> {
    const { options, server, label } = this;
    const metricsUrl = server.metricsUrl;
    if (metricsUrl) await this.observer.scrape(metricsUrl);
    const profiler = this.config.profile ? new Session() : null;
    const ticker = phase(`${label}${tag} ${options.connections} conn, ${options.durationSeconds} s`);
    try {
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const cpuBefore = process.cpuUsage();
      const result = await this.load.run({ url: `${server.url}${ROUTE}`, headers: this.headers, connections: options.connections, durationSeconds: options.durationSeconds });
      const cpu = process.cpuUsage(cpuBefore);
      const { scrapes, bytes } = await this.observer.stop();
      const profiled = profiler ? ((await profiler.post('Profiler.stop')) as { profile: CpuProfile }).profile : undefined;
      // BENCH_PROFILE_DIR keeps the measured window's profile (`<label>.cpuprofile`), for a look at the frames.
      if (profiled && process.env.BENCH_PROFILE_DIR) writeFileSync(join(process.env.BENCH_PROFILE_DIR, `${label.replace(/[^\w.-]+/g, '-')}.cpuprofile`), JSON.stringify(profiled));
      const shares = profiled ? codeShares(profiled) : undefined;
      const cpuPerRequestUs = (cpu.user + cpu.system) / Math.max(1, result.ok + result.non2xx);
      const bad = result.non2xx + result.errors + result.timeouts;
      const shareText = shares ? `, profiled: metrics code ${num(shares.metrics * 100, 1)} %, tracing code ${num(shares.tracing * 100, 1)} % of ${num(shares.busyMs)} ms busy` : '';
      ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms, server CPU ${num(cpuPerRequestUs)} µs/request${metricsUrl ? `, ${scrapes} scrapes` : ''}${shareText}`);
      if (bad > 0) throw new Error(`${label}: ${bad} failed requests`);
      return { ...result, scrapes, cpuPerRequestUs, shares, otlpBytes: bytes };
    } finally {
      profiler?.disconnect();
    }
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      // Shut down first: the exporter sends what it still holds.
      await this.tracing?.shutdown();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
      await this.observer.close();
      await this.load.close();
    }
  }
}

/**
 * A configuration hosted in a process of its own (`bench/metrics-cost-child.ts`): started, then measured
 * slice by slice on request, then stopped.
 */
class HostedConfig {
  private constructor(private readonly child: ChildProcess) {}

  static start(config: MetricsConfig, options: MetricsCostOptions): Promise<HostedConfig> {
    const child = fork(new URL('./metrics-cost-child.ts', import.meta.url), [JSON.stringify({ config, options })], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    return HostedConfig.answer<true>(child, 'ready').then(() => new HostedConfig(child));
  }

  /** The child's next answer: `key`'s value, or its error, or its exit. */
  private static answer<T>(child: ChildProcess, key: 'ready' | 'result'): Promise<T> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`metrics cost child exited ${code} without its ${key}`));
      child.once('exit', onExit);
      child.once('message', (m: Record<string, unknown>) => {
        child.off('exit', onExit);
        if (m[key] !== undefined) resolve(m[key] as T);
        else reject(new Error(`metrics cost: ${String(m.error)}`));
      });
    });
  }

  measure(tag: string): Promise<Measured> {
    const answered = HostedConfig.answer<Measured>(this.child, 'result');
    this.child.send({ measure: tag });
    return answered;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ stop: true });
    await exited;
  }
}

const CONFIGS = METRICS_CONFIGS;

/**
 * The gateway's throughput in each configuration. Every configuration runs in `processesPerConfig`
 * processes of its own, all started first and kept running; then `rounds` rounds each measure one slice
 * of every process, the order turned by one each round. What the machine does meanwhile (another
 * process's burst, a slower minute) falls on the configurations alike, and no configuration rests on
 * one process's luck (the same configuration in two processes differs by as much as the effect). A
 * round's figure for a configuration is the mean of its processes' slices; every ratio is the median of
 * the rounds' ratios against their own off figure, and the round whose metrics-on ratio is nearest that
 * median is the one reported.
 */
export async function measureMetricsCost(options: MetricsCostOptions): Promise<MetricsCostReport> {
  const hosts: { config: number; host: HostedConfig }[] = [];
  const rounds: Measured[][][] = [];
  try {
    for (let p = 0; p < options.processesPerConfig; p++) {
      for (let i = 0; i < CONFIGS.length; i++) {
        const ticker = phase(`starting ${i === 0 ? 'metrics off' : i === 1 ? 'metrics on' : `tracing at ${CONFIGS[i]!.ratio! * 100} %`}, process ${p + 1} of ${options.processesPerConfig}`);
        hosts.push({ config: i, host: await HostedConfig.start(CONFIGS[i]!, options) });
        ticker.done('ready');
      }
    }
    for (let round = 0; round < options.rounds; round++) {
      const measured: Measured[][] = CONFIGS.map(() => []);
      for (let k = 0; k < hosts.length; k++) {
        const { config, host } = hosts[(k + round) % hosts.length]!;
        measured[config]!.push(await host.measure(`, round ${round + 1}`));
      }
      rounds.push(measured);
    }
  } finally {
    for (const { host } of hosts) await host.stop();
  }
  const mean = (r: Measured[][], i: number, f: (m: Measured) => number) => r[i]!.reduce((sum, m) => sum + f(m), 0) / r[i]!.length;
  const rps = (m: Measured) => m.requestsPerSecond;
  const cpu = (m: Measured) => m.cpuPerRequestUs;
  const kept = (i: number) => median(rounds.map((r) => mean(r, i, rps) / mean(r, 0, rps)));
  const cpuRatio = (i: number) => median(rounds.map((r) => mean(r, i, cpu) / mean(r, 0, cpu)));
  const onKept = kept(1);
  const profiled = [];
  for (const config of CONFIGS) {
    const host = await HostedConfig.start({ ...config, profile: true }, options);
    try {
      const measured = await host.measure('');
      profiled.push({ config, requestsPerSecond: measured.requestsPerSecond, shares: measured.shares! });
    } finally {
      await host.stop();
    }
  }
  const ratio = (r: Measured[][]) => Math.abs(mean(r, 1, rps) / mean(r, 0, rps) - onKept);
  const typical = rounds.reduce((best, r) => (ratio(r) < ratio(best) ? r : best)).map((ms) => ms[0]!);
  return {
    route: ROUTE,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
    processesPerConfig: options.processesPerConfig,
    off: typical[0]!,
    on: typical[1]!,
    throughputKept: onKept,
    cpuRatio: cpuRatio(1),
    traced: [2, 3].map((i) => ({ ...typical[i]!, ratio: CONFIGS[i]!.ratio!, throughputKept: kept(i), cpuRatio: cpuRatio(i) })),
    profiled,
  };
}

export function formatMetricsCost(report: MetricsCostReport): string {
  const row = (name: string, r: LoadResult & { cpuPerRequestUs: number }) => [name, num(r.requestsPerSecond), num(r.latency.p50, 2), num(r.latency.p99, 2), num(r.cpuPerRequestUs)];
  return `Metrics cost: GET ${report.route} through the gateway, ${report.connections} connections, slices of ${report.durationSeconds} s; each configuration in ${report.processesPerConfig} processes of its own, all running throughout; the median of ${report.rounds} rounds (a slice of every process each) in turning order\n${table(
    ['metrics', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req'],
    [
      row('off', report.off),
      row(`on (METRICS_PORT, ${report.on.scrapes} scrapes)`, report.on),
      ...report.traced.map((t) => row(`on, tracing at ${t.ratio * 100} % (${num(t.otlpBytes / 1024)} KiB of OTLP sent in the slice)`, t)),
    ],
  )}\nthroughput kept with metrics on: ${num(report.throughputKept * 100, 1)} % (goal: over 97 %); server CPU per request ${num(report.cpuRatio * 100, 1)} % of off's\n${report.traced
    .map((t) => `throughput kept with metrics on and tracing at ${t.ratio * 100} %: ${num(t.throughputKept * 100, 1)} %${t.ratio === 0.1 ? ' (goal: over 90 %)' : ''}; server CPU per request ${num(t.cpuRatio * 100, 1)} % of off's\n`)
    .join('')}${formatProfiled(report)}`;
}

function formatProfiled(report: MetricsCostReport): string {
  const name = (c: MetricsConfig) => (c.ratio !== null ? `on, tracing at ${c.ratio * 100} %` : c.metrics ? 'on' : 'off');
  const rows = report.profiled.map((p) => [name(p.config), num(p.requestsPerSecond), num(p.shares.busyMs), `${num(p.shares.metrics * 100, 1)} %`, `${num(p.shares.tracing * 100, 1)} %`]);
  const on = report.profiled.find((p) => p.config.metrics && p.config.ratio === null);
  const traced = report.profiled.find((p) => p.config.ratio === 0.1);
  // The code's own frames only: what it makes other code do (allocations the collector then sweeps,
  // promise hooks of the context manager, the export's sockets) is not in them, so this is a lower bound.
  const verdict = (share: number, goal: number) => `${num(share * 100, 1)} % of the thread's busy time in its own frames (the goal's ${goal} %: a lower bound of the cost, set it beside the CPU per request above)`;
  return `\nProfiled round (the server thread under the V8 profiler; self time of the code as a share of the thread's busy time)\n${table(
    ['metrics', 'req/s', 'busy ms', 'metrics code', 'tracing code'],
    rows,
  )}\n${on ? `metrics code, metrics on: ${verdict(on.shares.metrics, 3)}\n` : ''}${traced ? `metrics and tracing code, tracing at 10 %: ${verdict(traced.shares.metrics + traced.shares.tracing, 10)}\n` : ''}`;
}
