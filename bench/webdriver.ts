/*
 * `/df/wd` cost: one WebDriver command (`GET /session/{id}/url`) through the hub (gateway → hub →
 * agent data plane → Appium → chromedriver → Chromium), against the same command through the data
 * plane alone and straight to the agent's Appium server. Sequential requests on keep-alive
 * connections, measured in interleaved blocks so machine noise falls on every path alike.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { issueDataPlaneToken } from '#shared/auth/index.js';
import type { RunningProcess } from '#services/run.js';
import { phase, table } from './console.js';
import { CHROMIUM, chromiumAgentConfig, signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';


export interface WebdriverOptions {
  /** Commands measured per path. */
  commands: number;
  warmup: number;
  /** Commands per path before switching to the next path. */
  block: number;
}

export interface WebdriverReport {
  command: string;
  commands: number;
  /** Straight to the agent's Appium server. */
  direct: Distribution;
  /** Through the agent's data plane (token check, relay to Appium). */
  dataPlane: Distribution;
  /** Through `/df/wd` on the gateway (authentication, session check, policy, id mapping, data plane). */
  hub: Distribution;
  ratioP50: number;
  ratioP99: number;
  /** Milliseconds the hub adds over Appium at p50 (design: under 2 ms). */
  addedP50Ms: number;
}

export async function measureWebdriver(options: WebdriverOptions): Promise<WebdriverReport> {
  if (!existsSync(CHROMIUM)) throw new Error(`webdriver: no Chromium at ${CHROMIUM}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-webdriver-'));
  const agentConfig = chromiumAgentConfig(dataDir);
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });
  let server: RunningProcess | undefined;
  try {
    const starting = phase('starting the server (embedded, in-process agent with one Chromium device)');
    server = await startBenchServer(dataDir, { AGENT_CONFIG: agentConfig });
    starting.done(server.url);
    const s = server;
    const call = (url: string, method: 'GET' | 'POST' | 'DELETE', headers: Record<string, string>, body?: unknown) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const payload = body !== undefined ? JSON.stringify(body) : undefined;
        const req = request(url, { method, agent: keepAlive, headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
            } catch (err) {
              reject(err as Error);
            }
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(payload);
      });
    const token = await signIn(s.url);
    const auth = { authorization: `Bearer ${token}` };
    const waiting = phase('waiting for the Chromium device');
    for (const deadline = Date.now() + 30_000; ; ) {
      const d = (await call(`${s.url}/df/api/devices`, 'GET', auth)).body.content?.[0];
      if (d?.status === 'available') break;
      if (Date.now() > deadline) throw new Error('the Chromium device was not listed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    waiting.done('available');
    const opening = phase('POST /df/wd/session (browserName chrome): device, Appium, chromedriver');
    const openedAt = performance.now();
    const created = await call(`${s.url}/df/wd/session`, 'POST', auth, { capabilities: { alwaysMatch: { browserName: 'chrome' } } });
    if (created.status !== 200) throw new Error(`POST /df/wd/session answered ${created.status}: ${JSON.stringify(created.body)}`);
    const hubId = created.body.value.sessionId as string;
    opening.done(`${((performance.now() - openedAt) / 1000).toFixed(1)} s (first session: Appium starts)`);
    const agent = s.agent!;
    const appium = agent.appium!.baseUrl!;
    const [appiumSession] = (await call(`${appium}/appium/sessions`, 'GET', {})).body.value as { id: string }[];
    const appiumId = appiumSession!.id;
    const session = (await call(`${s.url}/df/api/sessions/${hubId}`, 'GET', auth)).body as { deviceId: string };
    // Data-plane tokens live 30 s: a fresh one for every block (not measured).
    const dpToken = async () => (await issueDataPlaneToken(s.platform.keys, { hostId: agent.hostId, deviceId: session.deviceId, sessionId: hubId, scope: 'webdriver' })).token;

    const paths = {
      direct: { url: `${appium}/session/${appiumId}/url`, headers: {} as Record<string, string> },
      dataPlane: { url: `${agent.dataPlane!.url}/devices/${session.deviceId}/wd/session/${appiumId}/url`, headers: { authorization: `Bearer ${await dpToken()}` } },
      hub: { url: `${s.url}/df/wd/session/${hubId}/url`, headers: auth },
    };
    const once = async (name: keyof typeof paths): Promise<number> => {
      const started = performance.now();
      const r = await call(paths[name].url, 'GET', paths[name].headers);
      const elapsed = performance.now() - started;
      if (r.status !== 200 || typeof r.body?.value !== 'string') throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      return elapsed;
    };
    for (const name of Object.keys(paths) as (keyof typeof paths)[]) for (let i = 0; i < options.warmup; i++) await once(name);
    paths.dataPlane.headers = { authorization: `Bearer ${await dpToken()}` };
    const samples = { direct: [] as number[], dataPlane: [] as number[], hub: [] as number[] };
    const measuring = phase(`${options.commands} × GET /session/{id}/url on each path, in blocks of ${options.block}`, () => samples.hub.length / options.commands);
    while (samples.hub.length < options.commands) {
      paths.dataPlane.headers = { authorization: `Bearer ${await dpToken()}` };
      for (const name of ['direct', 'dataPlane', 'hub'] as const) {
        for (let i = 0; i < options.block && samples[name].length < options.commands; i++) samples[name].push(await once(name));
      }
    }
    const direct = distribution(samples.direct);
    const dataPlane = distribution(samples.dataPlane);
    const hub = distribution(samples.hub);
    measuring.done(`p50 ${hub.p50.toFixed(3)} ms via /df/wd, ${direct.p50.toFixed(3)} ms straight to Appium`);
    await call(`${s.url}/df/wd/session/${hubId}`, 'DELETE', auth);
    return { command: 'GET /session/{id}/url', commands: options.commands, direct, dataPlane, hub, ratioP50: hub.p50 / direct.p50, ratioP99: hub.p99 / direct.p99, addedP50Ms: hub.p50 - direct.p50 };
  } finally {
    await server?.stop();
    keepAlive.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures as a short text block for the bench report. */
export function formatWebdriver(r: WebdriverReport): string {
  const ms = (v: number) => v.toFixed(3);
  const row = (label: string, d: Distribution) => [label, ms(d.p50), ms(d.p99), ms(d.max)];
  return (
    `WebDriver command (${r.command}, ${r.commands} sequential per path, keep-alive), ms:\n` +
    table(['path', 'p50', 'p99', 'max'], [row('straight to Appium', r.direct), row('agent data plane → Appium', r.dataPlane), row('/df/wd (gateway → hub → data plane)', r.hub)]) +
    `\n/df/wd ÷ direct: p50 ${r.ratioP50.toFixed(2)}×, p99 ${r.ratioP99.toFixed(2)}×; added at p50 ${r.addedP50Ms.toFixed(3)} ms (design: < 2 ms)\n`
  );
}

/** `npx tsx bench/webdriver.ts`: this figure alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureWebdriver({ commands: 2_000, warmup: 200, block: 100 });
  process.stdout.write(`\n${formatWebdriver(r)}`);
  process.exit(0);
}
