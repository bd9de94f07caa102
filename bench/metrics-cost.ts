/*
 * What serving metrics and tracing cost the gateway (the goals: under 3 % of its throughput for metrics,
 * under 10 % for tracing at 10 % sampling): the same request as the `http` step — `GET
 * /df/api/client-config` behind the gateway of an embedded server — first on a server with metrics and
 * tracing off, then with `METRICS_PORT` set and `/metrics` scraped once a second meanwhile (fifteen
 * times Prometheus's default rate), then with metrics on and tracing exported over OTLP/protobuf to a
 * local receiver at 10 % and at 100 % sampling. Off runs first: Node's own collectors, once started,
 * stay for the life of the bench process.
 */
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
}

export interface MetricsCostReport {
  route: string;
  connections: number;
  durationSeconds: number;
  off: LoadResult;
  on: LoadResult & { scrapes: number };
  /** Throughput with metrics on as a share of off. */
  throughputKept: number;
  /** Metrics on and tracing at 10 % and at 100 % sampling, with the OTLP bytes the receiver got. */
  traced: (LoadResult & { scrapes: number; ratio: number; otlpBytes: number; throughputKept: number })[];
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

async function measureOne(load: LoadGenerator, metrics: boolean, options: MetricsCostOptions, label = `metrics ${metrics ? 'on ' : 'off'}`): Promise<LoadResult & { scrapes: number }> {
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
    const result = await load.run({ url, headers, connections: options.connections, durationSeconds: options.durationSeconds });
    const bad = result.non2xx + result.errors + result.timeouts;
    ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${metrics ? `, ${scrapes} scrapes` : ''}`);
    if (bad > 0) throw new Error(`${label}: ${bad} failed requests`);
    return { ...result, scrapes };
  } finally {
    if (scraper) clearInterval(scraper);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The gateway's throughput with metrics off, then on (served and scraped). */
export async function measureMetricsCost(options: MetricsCostOptions): Promise<MetricsCostReport> {
  const load = new LoadGenerator();
  try {
    const off = await measureOne(load, false, options);
    const on = await measureOne(load, true, options);
    const traced: MetricsCostReport['traced'] = [];
    for (const ratio of [0.1, 1]) {
      const sink = await startSink();
      // Started before the server, as a process does (its servers and logger see it on); stopped after.
      const tracing = await startTracing(
        { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio), OTEL_SERVICE_NAME: 'qa-bench' },
        'qa-bench',
      );
      try {
        const result = await measureOne(load, true, options, `tracing ${ratio * 100} %`);
        await tracing!.shutdown();
        traced.push({ ...result, ratio, otlpBytes: sink.bytes(), throughputKept: result.requestsPerSecond / off.requestsPerSecond });
      } finally {
        await tracing?.shutdown();
        await sink.close();
      }
    }
    return { route: ROUTE, connections: options.connections, durationSeconds: options.durationSeconds, off, on, throughputKept: on.requestsPerSecond / off.requestsPerSecond, traced };
  } finally {
    await load.close();
  }
}

export function formatMetricsCost(report: MetricsCostReport): string {
  const row = (name: string, r: LoadResult) => [name, num(r.requestsPerSecond), num(r.latency.p50, 2), num(r.latency.p99, 2)];
  return `Metrics cost: GET ${report.route} through the gateway, ${report.connections} connections, ${report.durationSeconds} s each\n${table(
    ['metrics', 'req/s', 'p50 ms', 'p99 ms'],
    [
      row('off', report.off),
      row(`on (METRICS_PORT, ${report.on.scrapes} scrapes)`, report.on),
      ...report.traced.map((t) => row(`on, tracing at ${t.ratio * 100} % (${num(t.otlpBytes / 1024)} KiB of OTLP sent)`, t)),
    ],
  )}\nthroughput kept with metrics on: ${num(report.throughputKept * 100, 1)} % (goal: over 97 %)\n${report.traced
    .map((t) => `throughput kept with metrics on and tracing at ${t.ratio * 100} %: ${num(t.throughputKept * 100, 1)} %${t.ratio === 0.1 ? ' (goal: over 90 %)' : ''}\n`)
    .join('')}`;
}
