/*
 * What serving metrics and tracing cost the gateway (the goals: under 3 % of its throughput for metrics,
 * under 10 % for tracing at 10 % sampling): the same request as the `http` step — `GET
 * /df/api/client-config` behind the gateway of an embedded server — first on a server with metrics and
 * tracing off, then with `METRICS_PORT` set and `/metrics` scraped once a second meanwhile (fifteen
 * times Prometheus's default rate), then with metrics on and tracing exported over OTLP/protobuf to a
 * local receiver at 10 % and at 100 % sampling. Each configuration runs in a process of its own (Node's
 * collectors and the tracing SDK, once started, stay for the life of a process, and a process that has
 * hosted servers before is slower), in rounds whose order turns each time; each round's figures are taken
 * against that round's off run, and the report gives the median round. A last round runs each
 * configuration under the V8 profiler and reports the self time of the metrics code and of the tracing
 * code as shares of the server thread's busy time: what the code costs, which the spread between processes
 * of one configuration (as large as the effect measured) does not blur.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { startTracing } from '#shared/tracing/index.js';
import { num, phase, table } from './console.js';
import { LoadGenerator } from './load-generator.js';
import type { LoadResult } from './load-worker.js';
import { signIn, startBenchServer } from './server.js';

const ROUTE = '/df/api/client-config';

export interface MetricsCostOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Rounds of the four configurations, each round in another order. */
  rounds: number;
}

/** One configuration: metrics off or on, and tracing's sampling ratio when it is on. */
export interface MetricsConfig {
  metrics: boolean;
  ratio: number | null;
  /** Measured under the V8 profiler, for the code's shares (not for the throughput ratios). */
  profile?: boolean;
}

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

/** A local OTLP/HTTP receiver that counts what it is sent (the bytes) and answers at once. */
async function startSink(): Promise<{ endpoint: string; bytes: () => number; close(): Promise<void> }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function measureOne(load: LoadGenerator, metrics: boolean, options: MetricsCostOptions, label = `metrics ${metrics ? 'on ' : 'off'}`, profile = false): Promise<LoadResult & { scrapes: number; cpuPerRequestUs: number; shares?: CodeShares }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-metrics-'));
  // No device host: its browser devices (two Chromiums starting, then their health readings) would run
  // in the measured seconds of one process and not another's, the spread this step is to see through.
  const server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false', ...(metrics ? { METRICS_PORT: '0' } : {}) });
  let scrapes = 0;
  let scraper: NodeJS.Timeout | null = null;
  const profiler = profile ? new Session() : null;
  try {
    const headers = { authorization: `Bearer ${await signIn(server.url)}`, 'x-workspace-id': '1' };
    const url = `${server.url}${ROUTE}`;
    await load.run({ url, headers, connections: options.connections, durationSeconds: options.warmupSeconds });
    if (server.metricsUrl) {
      const metricsUrl = server.metricsUrl;
      // A scrape still in flight when the server stops is reset; only the ones answered are counted.
      scraper = setInterval(() => void fetch(metricsUrl).then((r) => r.text()).then(() => scrapes++, () => undefined), 1_000);
    }
    const ticker = phase(`${label} ${options.connections} conn, ${options.durationSeconds} s`);
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const cpuBefore = process.cpuUsage();
    const result = await load.run({ url, headers, connections: options.connections, durationSeconds: options.durationSeconds });
    const cpu = process.cpuUsage(cpuBefore);
    const profiled = profiler ? ((await profiler.post('Profiler.stop')) as { profile: CpuProfile }).profile : undefined;
    // BENCH_PROFILE_DIR keeps the measured window's profile (`<label>.cpuprofile`), for a look at the frames.
    if (profiled && process.env.BENCH_PROFILE_DIR) writeFileSync(join(process.env.BENCH_PROFILE_DIR, `${label.replace(/[^\w.-]+/g, '-')}.cpuprofile`), JSON.stringify(profiled));
    const shares = profiled ? codeShares(profiled) : undefined;
    const cpuPerRequestUs = (cpu.user + cpu.system) / Math.max(1, result.ok + result.non2xx);
    const bad = result.non2xx + result.errors + result.timeouts;
    const shareText = shares ? `, profiled: metrics code ${num(shares.metrics * 100, 1)} %, tracing code ${num(shares.tracing * 100, 1)} % of ${num(shares.busyMs)} ms busy` : '';
    ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms, server CPU ${num(cpuPerRequestUs)} µs/request${metrics ? `, ${scrapes} scrapes` : ''}${shareText}`);
    if (bad > 0) throw new Error(`${label}: ${bad} failed requests`);
    return { ...result, scrapes, cpuPerRequestUs, shares };
  } finally {
    profiler?.disconnect();
    if (scraper) clearInterval(scraper);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One configuration measured in this process (the child `bench/metrics-cost-child.ts` runs): tracing
 * started first, as a process does, when a ratio is given.
 */
export async function measureConfig(config: MetricsConfig, options: MetricsCostOptions): Promise<Measured> {
  const load = new LoadGenerator();
  const sink = config.ratio === null ? null : await startSink();
  const tracing = sink
    ? await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(config.ratio), OTEL_SERVICE_NAME: 'qa-bench' }, 'qa-bench')
    : null;
  const label = config.ratio === null ? `metrics ${config.metrics ? 'on ' : 'off'}` : `tracing ${config.ratio * 100} %`;
  try {
    const result = await measureOne(load, config.metrics, options, config.profile ? `${label}, profiled` : label, config.profile).finally(() => tracing?.shutdown());
    // Shut down first: the exporter sends what it still holds before the receiver's bytes are read.
    return { ...result, otlpBytes: sink?.bytes() ?? 0 };
  } finally {
    await sink?.close();
    await load.close();
  }
}

/** Runs one configuration in a new process and answers what it measured. */
function measureInChild(config: MetricsConfig, options: MetricsCostOptions): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./metrics-cost-child.ts', import.meta.url), [JSON.stringify({ config, options })], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let answer: Measured | null = null;
    child.once('message', (m: { result?: Measured; error?: string }) => {
      if (m.result) answer = m.result;
      else reject(new Error(`metrics cost: ${m.error}`));
    });
    child.once('exit', (code) => (answer ? resolve(answer) : reject(new Error(`metrics cost child exited ${code} without a result`))));
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const CONFIGS: MetricsConfig[] = [
  { metrics: false, ratio: null },
  { metrics: true, ratio: null },
  { metrics: true, ratio: 0.1 },
  { metrics: true, ratio: 1 },
];

/**
 * The gateway's throughput in each configuration, each in a process of its own, `rounds` times with the
 * order turned by one each round; the round whose metrics-on figure is the median is reported, and every
 * ratio is the median of the rounds' ratios against their own off run.
 */
export async function measureMetricsCost(options: MetricsCostOptions): Promise<MetricsCostReport> {
  const rounds: Measured[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = CONFIGS.map((_, i) => (i + round) % CONFIGS.length);
    const measured: Measured[] = [];
    for (const i of order) measured[i] = await measureInChild(CONFIGS[i]!, options);
    rounds.push(measured);
  }
  const kept = (i: number) => median(rounds.map((r) => r[i]!.requestsPerSecond / r[0]!.requestsPerSecond));
  const cpuRatio = (i: number) => median(rounds.map((r) => r[i]!.cpuPerRequestUs / r[0]!.cpuPerRequestUs));
  const onKept = kept(1);
  const profiled = [];
  for (const config of CONFIGS) {
    const measured = await measureInChild({ ...config, profile: true }, options);
    profiled.push({ config, requestsPerSecond: measured.requestsPerSecond, shares: measured.shares! });
  }
  const typical = rounds.reduce((best, r) => (Math.abs(r[1]!.requestsPerSecond / r[0]!.requestsPerSecond - onKept) < Math.abs(best[1]!.requestsPerSecond / best[0]!.requestsPerSecond - onKept) ? r : best));
  return {
    route: ROUTE,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
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
  return `Metrics cost: GET ${report.route} through the gateway, ${report.connections} connections, ${report.durationSeconds} s each, each in a process of its own; the median of ${report.rounds} rounds in turning order\n${table(
    ['metrics', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req'],
    [
      row('off', report.off),
      row(`on (METRICS_PORT, ${report.on.scrapes} scrapes)`, report.on),
      ...report.traced.map((t) => row(`on, tracing at ${t.ratio * 100} % (${num(t.otlpBytes / 1024)} KiB of OTLP sent)`, t)),
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
