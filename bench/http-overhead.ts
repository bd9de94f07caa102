import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { clientConfigRoutes } from '#services/df/client-config/routes.js';
import type { RunningProcess } from '#services/run.js';
import { note, phase, num } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { LoadGenerator } from './load-generator.js';
import type { LoadResult } from './load-worker.js';
import { signIn, startBenchServer } from './server.js';

const ROUTE = '/df/api/client-config';
const PLATFORM_DOMAIN = 'example.com';

export interface HttpOverheadOptions {
  /** Connection counts to compare at, in order; the first is the headline figure. */
  connections: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
  /** Pairs of runs at the headline connection count, the order turned in each (baseline first, then gateway first, ...). */
  pairs: number;
}

/** One autocannon run and who used the CPU meanwhile. */
export interface MeasuredLoad extends LoadResult {
  cpu: CpuShare | null;
}

/** The plain route and the gateway route at one connection count. */
export interface HttpComparison {
  connections: number;
  /** Which pair of runs at this connection count (1, 2, ...); a pair's two runs were measured one right after the other. */
  pair: number;
  durationSeconds: number;
  baseline: MeasuredLoad;
  gateway: MeasuredLoad;
  /** Gateway requests/s as a share of the baseline's. */
  throughputKept: number;
  /** Latency the gateway adds, as a share of the baseline's, at p50 and p99. */
  p50Added: number;
  p99Added: number;
}

export interface HttpOverheadReport {
  route: string;
  requestHeaders: string[];
  comparisons: HttpComparison[];
}

/**
 * The same route — the device module's client-config plugin with its zod schema and serializer — on a
 * bare Fastify, without the platform around it: the difference is what the gateway, the token and the
 * workspace checks and the platform's conventions (request ids, CORS, error handling) cost.
 */
export async function startBaseline(): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('workspace', null);
  app.addHook('onRequest', async (request) => {
    request.workspace = { id: 1, companyId: 1, archived: false, modules: ['DF'] };
  });
  await app.register(clientConfigRoutes, { prefix: '/df', sessionIdleTimeoutSeconds: 900 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

export function urlOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('baseline server has no TCP address');
  return `http://127.0.0.1:${address.port}`;
}


async function sameBody(baselineUrl: string, gatewayUrl: string, headers: Record<string, string>): Promise<void> {
  const [a, b] = await Promise.all([fetch(baselineUrl, { headers }), fetch(gatewayUrl, { headers })]);
  const [ta, tb] = await Promise.all([a.text(), b.text()]);
  if (a.status !== 200 || b.status !== 200 || ta !== tb) {
    throw new Error(`the two routes differ: ${a.status} ${ta} / ${b.status} ${tb}`);
  }
}

const ratio = (value: number, base: number) => value / base;

/** One pair's figures: the gateway's against the baseline's of the same pair. */
function compare(connections: number, pair: number, durationSeconds: number, baseline: MeasuredLoad, gateway: MeasuredLoad): HttpComparison {
  return {
    connections,
    pair,
    durationSeconds,
    baseline,
    gateway,
    throughputKept: ratio(gateway.requestsPerSecond, baseline.requestsPerSecond),
    p50Added: ratio(gateway.latency.p50, baseline.latency.p50) - 1,
    p99Added: ratio(gateway.latency.p99, baseline.latency.p99) - 1,
  };
}

/**
 * Gateway overhead: a bare Fastify route against `GET /df/api/client-config` behind the gateway of a
 * started server (embedded mode), loaded alike by autocannon running in a child process.
 */
export async function measureHttpOverhead(options: HttpOverheadOptions): Promise<HttpOverheadReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-http-'));
  let server: RunningProcess | undefined;
  let baseline: FastifyInstance | undefined;
  const load = new LoadGenerator();
  try {
    const starting = phase('starting the server (embedded: PGlite in a temporary DATA_DIR)');
    // No device host: its browser devices (two Chromiums starting, then read for their health) would take
    // CPU in some runs and not others, on the cores the two servers and the load generator share.
    server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false' });
    starting.done(server.url);
    baseline = await startBaseline();
    const token = await signIn(server.url);
    // A browser client: the CORS hook checks the origin and adds its headers on every answer.
    const headers = {
      authorization: `Bearer ${token}`,
      'x-workspace-id': '1',
      origin: `https://app.${PLATFORM_DOMAIN}`,
    };
    const targets = { baseline: `${urlOf(baseline)}${ROUTE}`, gateway: `${server.url}${ROUTE}` };
    await sameBody(targets.baseline, targets.gateway, headers);
    note(`same request to both: GET ${ROUTE} with Authorization, X-Workspace-Id: 1, Origin`);

    const runOnce = async (side: 'baseline' | 'gateway', connections: number, durationSeconds: number, label: string) => {
      const ticker = phase(`${label} ${side.padEnd(8)} ${connections} conn, ${durationSeconds} s`);
      const cpu = measureCpu({ extraPids: load.pid ? [load.pid] : [] });
      const result: MeasuredLoad = { ...(await load.run({ url: targets[side], headers, connections, durationSeconds })), cpu: null };
      result.cpu = cpu.stop();
      const bad = result.non2xx + result.errors + result.timeouts;
      ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${bad ? `, ${bad} failed` : ''}; CPU ${formatCpu(result.cpu)}`);
      if (bad > 0) throw new Error(`${side}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      return result;
    };

    for (const side of ['baseline', 'gateway'] as const) await runOnce(side, options.connections[0]!, options.warmupSeconds, 'warm-up ');
    const comparisons: HttpComparison[] = [];
    for (const connections of options.connections) {
      const pairs = connections === options.connections[0] ? options.pairs : 1;
      for (let pair = 1; pair <= pairs; pair++) {
        // Alternating which side goes first: a machine that slows or speeds up during the step moves both
        // sides of some pairs one way and of others the other way, instead of every gateway run one way.
        const order = pair % 2 === 1 ? (['baseline', 'gateway'] as const) : (['gateway', 'baseline'] as const);
        const runs: Partial<Record<'baseline' | 'gateway', MeasuredLoad>> = {};
        for (const side of order) runs[side] = await runOnce(side, connections, options.durationSeconds, `pair ${pair} `);
        comparisons.push(compare(connections, pair, options.durationSeconds, runs.baseline!, runs.gateway!));
      }
    }
    return { route: ROUTE, requestHeaders: Object.keys(headers), comparisons };
  } finally {
    await load.close();
    await baseline?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
