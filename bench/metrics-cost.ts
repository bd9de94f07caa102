/*
 * What serving metrics costs the gateway (the goal: under 3 % of its throughput): the same request as
 * the `http` step — `GET /df/api/client-config` behind the gateway of an embedded server — first on a
 * server with metrics off, then on one with `METRICS_PORT` set and `/metrics` scraped once a second
 * meanwhile (fifteen times Prometheus's default rate). Off runs first: Node's own collectors, once
 * started, stay for the life of the bench process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
}

async function measureOne(load: LoadGenerator, metrics: boolean, options: MetricsCostOptions): Promise<LoadResult & { scrapes: number }> {
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
    const ticker = phase(`metrics ${metrics ? 'on ' : 'off'} ${options.connections} conn, ${options.durationSeconds} s`);
    const result = await load.run({ url, headers, connections: options.connections, durationSeconds: options.durationSeconds });
    const bad = result.non2xx + result.errors + result.timeouts;
    ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${metrics ? `, ${scrapes} scrapes` : ''}`);
    if (bad > 0) throw new Error(`metrics ${metrics ? 'on' : 'off'}: ${bad} failed requests`);
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
    return { route: ROUTE, connections: options.connections, durationSeconds: options.durationSeconds, off, on, throughputKept: on.requestsPerSecond / off.requestsPerSecond };
  } finally {
    await load.close();
  }
}

export function formatMetricsCost(report: MetricsCostReport): string {
  const row = (name: string, r: LoadResult) => [name, num(r.requestsPerSecond), num(r.latency.p50, 2), num(r.latency.p99, 2)];
  return `Metrics cost: GET ${report.route} through the gateway, ${report.connections} connections, ${report.durationSeconds} s each\n${table(
    ['metrics', 'req/s', 'p50 ms', 'p99 ms'],
    [row('off', report.off), row(`on (METRICS_PORT, ${report.on.scrapes} scrapes)`, report.on)],
  )}\nthroughput kept with metrics on: ${num(report.throughputKept * 100, 1)} % (goal: over 97 %)\n`;
}
