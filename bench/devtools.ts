/*
 * `/df/devtools` cost: one CDP round trip (`Browser.getVersion`) through the gateway and the agent's
 * data plane, against the same round trip through the data plane alone and straight to Chromium's
 * own DevTools port. Sequential requests on one socket each, measured in interleaved blocks so
 * machine noise falls on every path alike.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { issueDataPlaneToken } from '#shared/auth/index.js';
import type { RunningProcess } from '#services/run.js';
import { phase, table } from './console.js';
import { CHROMIUM, chromiumAgentConfig, signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';


export interface DevtoolsOptions {
  /** Round trips measured per path. */
  roundTrips: number;
  warmup: number;
  /** Round trips per path before switching to the next path. */
  block: number;
}

export interface DevtoolsReport {
  method: string;
  roundTrips: number;
  direct: Distribution;
  dataPlane: Distribution;
  gateway: Distribution;
  /** gateway p50 / direct p50, and the same for p99. */
  ratioP50: number;
  ratioP99: number;
}

/** A CDP client that sends one command at a time and measures each round trip. */
async function cdpClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_r, res) => reject(new Error(`${url} answered ${res.statusCode}`)));
  });
  let id = 0;
  let pending: ((data: string) => void) | null = null;
  ws.on('message', (data) => pending?.(data.toString()));
  return {
    async roundTrip(method: string): Promise<number> {
      id += 1;
      const started = performance.now();
      const answered = new Promise<string>((resolve) => (pending = resolve));
      ws.send(JSON.stringify({ id, method }));
      const text = await answered;
      const elapsed = performance.now() - started;
      if (!text.includes(`"id":${id}`) || text.includes('"error"')) throw new Error(`unexpected CDP answer: ${text.slice(0, 200)}`);
      return elapsed;
    },
    close: () => ws.close(),
  };
}

export async function measureDevtools(options: DevtoolsOptions): Promise<DevtoolsReport> {
  if (!existsSync(CHROMIUM)) throw new Error(`devtools: no Chromium at ${CHROMIUM}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-devtools-'));
  const agentConfig = chromiumAgentConfig(dataDir);
  let server: RunningProcess | undefined;
  const clients: { close(): void }[] = [];
  try {
    const starting = phase('starting the server (embedded, in-process agent with one Chromium device)');
    server = await startBenchServer(dataDir, { AGENT_CONFIG: agentConfig });
    starting.done(server.url);
    const s = server;
    const token = await signIn(s.url);
    const auth = { authorization: `Bearer ${token}` };
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.url}${path}`, { method, headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const opening = phase('opening a session on the Chromium device');
    let deviceId: string | undefined;
    for (const deadline = Date.now() + 30_000; !deviceId; ) {
      const d = (await api('GET', '/df/api/devices')).body.content?.[0];
      if (d?.status === 'available') deviceId = d.id;
      else if (Date.now() > deadline) throw new Error('the Chromium device was not listed');
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await api('POST', '/df/api/sessions', { deviceId });
    if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}`);
    const sessionId = created.body.id as string;
    opening.done(`session ${sessionId.slice(0, 8)}…`);

    const version = await api('GET', `/df/devtools/${sessionId}/json/version`);
    const gatewayUrl = version.body.webSocketDebuggerUrl as string;
    const browserPath = new URL(gatewayUrl).pathname.replace(`/df/devtools/${sessionId}`, '');
    const endpoint = await s.agent!.driverOf(deviceId!)!.devtools!();
    const agent = s.agent!;
    const dpToken = async () =>
      (await issueDataPlaneToken(s.platform.keys, { hostId: agent.hostId, deviceId: deviceId!, sessionId, scope: 'devtools' })).token;

    const paths = {
      direct: await cdpClient(`ws://${endpoint!.host}:${endpoint!.port}${browserPath}`),
      dataPlane: await cdpClient(`${agent.dataPlane!.url.replace('http', 'ws')}/devices/${deviceId}/devtools${browserPath}`, { authorization: `Bearer ${await dpToken()}` }),
      gateway: await cdpClient(gatewayUrl, auth),
    };
    clients.push(...Object.values(paths));
    const method = 'Browser.getVersion';
    for (const c of Object.values(paths)) for (let i = 0; i < options.warmup; i++) await c.roundTrip(method);
    const samples = { direct: [] as number[], dataPlane: [] as number[], gateway: [] as number[] };
    const measuring = phase(`${options.roundTrips} × ${method} on each path, in blocks of ${options.block}`, () => samples.gateway.length / options.roundTrips);
    while (samples.gateway.length < options.roundTrips) {
      for (const name of ['direct', 'dataPlane', 'gateway'] as const) {
        for (let i = 0; i < options.block && samples[name].length < options.roundTrips; i++) samples[name].push(await paths[name].roundTrip(method));
      }
    }
    const direct = distribution(samples.direct);
    const dataPlane = distribution(samples.dataPlane);
    const gateway = distribution(samples.gateway);
    measuring.done(`p50 ${gateway.p50.toFixed(3)} ms via /df/devtools, ${direct.p50.toFixed(3)} ms direct`);
    await api('DELETE', `/df/api/sessions/${sessionId}`);
    return { method, roundTrips: options.roundTrips, direct, dataPlane, gateway, ratioP50: gateway.p50 / direct.p50, ratioP99: gateway.p99 / direct.p99 };
  } finally {
    for (const c of clients) c.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npx tsx bench/devtools.ts`: this figure alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureDevtools({ roundTrips: 3_000, warmup: 200, block: 100 });
  const f = (d: Distribution) => `p50 ${d.p50.toFixed(3)} ms, p99 ${d.p99.toFixed(3)} ms, max ${d.max.toFixed(3)} ms`;
  process.stdout.write(`\n${r.method} × ${r.roundTrips}\n  direct to Chromium: ${f(r.direct)}\n  agent data plane:   ${f(r.dataPlane)}\n  /df/devtools:       ${f(r.gateway)}\n  ratio /df/devtools ÷ direct: p50 ${r.ratioP50.toFixed(2)}, p99 ${r.ratioP99.toFixed(2)}\n`);
  process.exit(0);
}

/** The figures as a short text block for the bench report. */
export function formatDevtools(r: DevtoolsReport): string {
  const ms = (v: number) => v.toFixed(3);
  const row = (label: string, d: Distribution) => [label, ms(d.p50), ms(d.p99), ms(d.max)];
  return (
    `CDP round trip (${r.method}, ${r.roundTrips} sequential per path, one socket each), ms:\n` +
    table(['path', 'p50', 'p99', 'max'], [row('straight to Chromium', r.direct), row('agent data plane', r.dataPlane), row('/df/devtools (gateway → data plane)', r.gateway)]) +
    `\n/df/devtools ÷ direct: p50 ${r.ratioP50.toFixed(2)}×, p99 ${r.ratioP99.toFixed(2)}×\n`
  );
}
