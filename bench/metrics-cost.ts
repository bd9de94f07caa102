/*
 * What serving metrics and tracing cost the gateway (the goals: under 3 % of its throughput for metrics,
 * under 10 % for tracing at 10 % sampling): the same request as the `http` step — `GET
 * /df/api/client-config` behind the gateway of an embedded server — first on a server with metrics and
 * tracing off, then with `METRICS_PORT` set and `/metrics` scraped once a second meanwhile (fifteen
 * times Prometheus's default rate), then with metrics on and tracing exported over OTLP/protobuf to a
 * local receiver at 10 % and at 100 % sampling. Each configuration runs in a process of its own (Node's
 * collectors and the tracing SDK, once started, stay for the life of a process, and a process that has
 * hosted servers before is slower), in rounds whose order turns each time; each round's figures are taken
 * against that round's off run, and the report gives the median round.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
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
}

/** What one configuration measured; `cpuPerRequestUs` is the server process's CPU time (every thread, the load generator is another process) over the measured window, per request answered. */
type Measured = LoadResult & { scrapes: number; otlpBytes: number; cpuPerRequestUs: number };

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

async function measureOne(load: LoadGenerator, metrics: boolean, options: MetricsCostOptions, label = `metrics ${metrics ? 'on ' : 'off'}`): Promise<LoadResult & { scrapes: number; cpuPerRequestUs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-metrics-'));
  const server = await startBenchServer(dataDir, metrics ? { METRICS_PORT: '0' } : {});
  let scrapes = 0;
  let scraper: NodeJS.Timeout | null = null;
  try {
    const headers = { authorization: `Bearer ${await signIn(server.url)}`, 'x-workspace-id': '1' };
    const url = `${server.url}${ROUTE}`;
    await load.run({ url, headers, connections: options.connections, durationSeconds: options.warmupSeconds });
    if (server.metricsUrl) {
      const metricsUrl = server.metricsUrl;
      scraper = setInterval(() => void fetch(metricsUrl).then((r) => r.text()).then(() => scrapes++), 1_000);
    }
    const ticker = phase(`${label} ${options.connections} conn, ${options.durationSeconds} s`);
    const cpuBefore = process.cpuUsage();
    const result = await load.run({ url, headers, connections: options.connections, durationSeconds: options.durationSeconds });
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerRequestUs = (cpu.user + cpu.system) / Math.max(1, result.ok + result.non2xx);
    const bad = result.non2xx + result.errors + result.timeouts;
    ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms, server CPU ${num(cpuPerRequestUs)} µs/request${metrics ? `, ${scrapes} scrapes` : ''}`);
    if (bad > 0) throw new Error(`${label}: ${bad} failed requests`);
    return { ...result, scrapes, cpuPerRequestUs };
  } finally {
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
    const result = await measureOne(load, config.metrics, options, label).finally(() => tracing?.shutdown());
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
    .join('')}`;
}
