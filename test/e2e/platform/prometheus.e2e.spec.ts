import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { connectNatsBus, type MessageBus } from '#shared/bus/index.js';
import { natsHostInbox } from '#shared/wire/index.js';
import { chromium } from 'playwright-core';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { CHROMIUM } from '#test/helpers/console-browser.js';
import { freePort } from '#test/helpers/daemon.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { prometheusInstalled, promtool, startPrometheus, type RunningPrometheus, type ScrapeTarget } from '#test/helpers/prometheus.js';
import { http } from '#test/helpers/server.js';

/**
 * The real Prometheus (Debian's package) scraping a running installation of separate processes — the
 * gateway, the organization and device modules, the projections runner, and a device host's agent —
 * with the shipped alert rules loaded. The gateway's /metrics is behind METRICS_TOKEN on its own port,
 * every other process's on a METRICS_PORT of its own. A session is opened and tapped through the
 * gateway, and a WebDriver session runs a command through /df/wd on a second host (Appium's fake driver,
 * in this test's process, on the same NATS); then Prometheus's query API must show samples of what that did.
 */
const ADMIN = { email: 'prometheus-admin@example.com', password: 'prometheus-password' };
const POOL = 'prometheus-test-shared-pool-token-0123456789';
const TOKEN = 'prometheus-test-metrics-token-0123456789';
const ALERTS = resolve(import.meta.dirname, '../../../deploy/observability/alerts.yml');
const DASHBOARD = resolve(import.meta.dirname, '../../../deploy/observability/grafana-dashboard.json');
const DOCS_IMAGE = resolve(import.meta.dirname, '../../../docs/images/prometheus-metrics.png');

let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
const servers: ChildServer[] = [];
const dirs: string[] = [];
let gateway: ChildServer;
let agent: ChildProcess;
let wdBus: MessageBus;
let wdHost: AgentHost;
let prometheus: RunningPrometheus;
const targets: ScrapeTarget[] = [];

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-prometheus-e2e-'));
  dirs.push(dir);
  return dir;
};

/** Starts one service process with a metrics port of its own, and names it as a scrape target. */
async function service(job: string, entry: string, env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const server = await startChildServer({ ...deployment.env, DATA_DIR: dataDir(), LOG_LEVEL: 'info', METRICS_PORT: String(port), ...env }, { entry });
  servers.push(server);
  targets.push({ job, address: `127.0.0.1:${port}` });
  return server;
}

beforeAll(async () => {
  deployment = await sharedDeployment();
  await service('qa-projections', 'services/projections/main.ts', {});
  const organization = await service('qa-organization', 'services/organization/main.ts', { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
  const df = await service('qa-df', 'services/df/main.ts', { AGENT_ENABLED: 'false', DF_SHARED_POOL_TOKEN: POOL });
  gateway = await startChildServer(
    { ...deployment.env, DATA_DIR: dataDir(), LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN, ORGANIZATION_URL: organization.url, DF_URL: df.url },
    { entry: 'services/gateway/main.ts' },
  );
  servers.push(gateway);
  targets.push({ job: 'qa-gateway', address: new URL(gateway.url).host, token: TOKEN });
  const agentPort = await freePort();
  agent = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NATS_URL: deployment.env.NATS_URL,
      METRICS_PORT: String(agentPort),
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'prometheus-node', hostToken: POOL, heartbeatMs: 300, devices: [{ provider: 'simulated', name: 'Prometheus sim', prepareMs: 20 }] }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  targets.push({ job: 'qa-agent', address: `127.0.0.1:${agentPort}` });
  await eventually(async () => ((await fetch(`http://127.0.0.1:${agentPort}/metrics`).then((r) => r.ok, () => false)) ? true : undefined), { what: "the agent's /metrics", timeoutMs: 60_000 });
  const wdHostId = 'prometheus-wd-host';
  wdBus = await connectNatsBus(deployment.env.NATS_URL!, { name: 'prometheus-wd-host', inboxPrefix: natsHostInbox(wdHostId) });
  wdHost = new AgentHost({
    bus: wdBus,
    config: loadAgentConfig({ value: { hostId: wdHostId, hostToken: POOL, heartbeatMs: 300, devices: [] } }),
    logger: pino({ level: 'silent' }),
    providers: [new FakeWebDriverProvider({ hostId: wdHostId, devices: [{ name: 'Prometheus WD fake', osVersion: '14', model: 'Pixel Fake' }] })],
  });
  await wdHost.start();
  if (prometheusInstalled) prometheus = await startPrometheus(targets, { rules: [ALERTS] });
}, 240_000);

afterAll(async () => {
  await prometheus?.stop();
  await wdHost?.stop();
  await wdBus?.close();
  if (agent && agent.exitCode === null) {
    agent.kill('SIGTERM');
    await new Promise((r) => agent.once('exit', r));
  }
  for (const s of servers.reverse()) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await deployment?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 120_000);

/** The samples of `promql` once it has any (Prometheus scrapes every half second). */
const samples = (promql: string, timeoutMs = 30_000) =>
  eventually(async () => {
    const result = await prometheus.query(promql);
    return result.length > 0 ? result : undefined;
  }, { what: `samples of ${promql}`, timeoutMs });

describe.skipIf(!prometheusInstalled)('Prometheus against a running installation of separate processes', () => {
  it('sees the route histogram, device command latency, projection lag and the fleet gauges after a session and a tap', async () => {
    const token = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    expect(token).toBeTruthy();
    const api = (method: string, path: string, body?: unknown) => http(gateway.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const device = await eventually(async () => (await api('GET', '/devices?status=available&search=Prometheus%20sim')).body.content?.[0] as { id: string } | undefined, {
      what: 'the simulated device',
      timeoutMs: 60_000,
    });
    const created = await api('POST', '/sessions', { deviceId: device.id, name: 'prometheus session' });
    expect(created.status).toBe(201);
    const sessionId = created.body.id as string;
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}`)).body.status === 'active' ? true : undefined), { what: 'the session to start' });
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 3, y: 4 })).status).toBe(200);

    // A gateway that forwards knows the prefix it forwarded (its route `/api/v1/*`); the module's own
    // server has the route template, and the device module's is without /df.
    const forwarded = await samples('sum(http_server_request_duration_seconds_count{job="qa-gateway", http_route="/api/v1/*", http_request_method="POST", http_response_status_code="200"}) > 0');
    expect(Number(forwarded[0]!.value[1])).toBeGreaterThan(0);
    await samples('http_server_request_duration_seconds_count{job="qa-organization", http_route="/api/v1/auth/login", http_request_method="POST", http_response_status_code="200"} > 0');
    await samples('http_server_request_duration_seconds_count{job="qa-gateway", http_route="/df/*", http_request_method="POST", http_response_status_code="200"} > 0');
    await samples('http_server_request_duration_seconds_bucket{job="qa-df", http_route="/api/sessions/:sessionId/device/control", le="+Inf"} > 0');
    const tap = await samples('qa_device_command_duration_seconds_count{job="qa-df", kind="tap", outcome="ok"} > 0');
    expect(tap).toHaveLength(1);
    await samples('qa_device_command_duration_seconds_count{job="qa-df", kind="prepare"} > 0');
    const lag = await samples('qa_projection_lag_seconds{job="qa-projections"}');
    expect(lag.map((s) => s.metric.projection)).toContain('df-sessions');
    await samples('qa_sessions{job="qa-df", state="active"} >= 1');
    await samples('qa_devices{job="qa-df", platform="android"} >= 1');
    await samples('qa_devices_health{job="qa-df", platform="android"} >= 1');
    await samples('qa_event_store_append_duration_seconds_count{job="qa-df", store="postgres", outcome="written"} > 0');
    await samples('qa_nats_request_duration_seconds_count{job="qa-df", outcome="ok"} > 0');
    // Node's own figures from every process, the agent's too.
    const loops = await samples('nodejs_eventloop_lag_seconds', 15_000);
    await eventually(async () => {
      const jobs = new Set((await prometheus.query('nodejs_eventloop_lag_seconds')).map((s) => s.metric.job));
      return ['qa-gateway', 'qa-organization', 'qa-df', 'qa-projections', 'qa-agent'].every((j) => jobs.has(j)) ? true : undefined;
    }, { what: `event-loop lag of every process (seen: ${loops.map((s) => s.metric.job).join(', ')})` });
  }, 180_000);

  it('sees WebDriver commands through /df/wd by name, and the new-session wait in the queue', async () => {
    const token = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const wd = (method: string, path: string, body?: unknown) => http(gateway.url, method, `/df/wd${path}`, { token, ...(body !== undefined ? { body } : {}) });
    await eventually(async () => ((await http(gateway.url, 'GET', '/df/api/devices?status=available&search=WD%20fake', { token })).body.content?.length === 1 ? true : undefined), {
      what: 'the fake WebDriver device',
      timeoutMs: 60_000,
    });
    const created = await wd('POST', '/session', { capabilities: { alwaysMatch: { platformName: 'Android', 'appium:deviceName': 'Prometheus WD fake' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sessionId = created.body.value.sessionId as string;
    expect((await wd('GET', `/session/${sessionId}/source`)).status).toBe(200);
    expect((await wd('DELETE', `/session/${sessionId}`)).status).toBe(200);
    const commands = await samples('qa_webdriver_command_duration_seconds_count{job="qa-df", command="getPageSource", outcome="success"} > 0');
    expect(commands).toHaveLength(1);
    await samples('qa_webdriver_queue_wait_seconds_count{job="qa-df", outcome="acquired"} > 0');
    expect(JSON.stringify(await prometheus.query('{__name__=~"qa_webdriver.*"}'))).not.toContain(sessionId);
  }, 120_000);

  it("finds no problem with promtool check metrics in any process's /metrics", async () => {
    for (const t of targets) {
      const res = await fetch(`http://${t.address}/metrics`, t.token ? { headers: { authorization: `Bearer ${t.token}` } } : {});
      expect(res.status, t.job).toBe(200);
      const checked = await promtool(['check', 'metrics'], await res.text());
      expect(checked.output, t.job).toBe('');
      expect(checked.code, t.job).toBe(0);
    }
  });

  it('accepts the shipped alert rules (promtool check rules), and none fires on a healthy installation', async () => {
    const checked = await promtool(['check', 'rules', ALERTS]);
    expect(checked.code, checked.output).toBe(0);
    const rules = await eventually(async () => {
      const res = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as { data: { groups: { rules: { name: string; query: string; health: string; lastError?: string }[] }[] } };
      const all = res.data.groups.flatMap((g) => g.rules);
      return all.length > 0 && all.every((r) => r.health === 'ok') ? all : undefined;
    }, { what: 'every alert rule evaluated without error' });
    expect(rules.map((r) => r.name).sort()).toEqual([
      'QaDeviceHostLost',
      'QaDevicesQuarantined',
      'QaEventStoreAppendsFailing',
      'QaHttpErrorRateHigh',
      'QaNatsLeafCertificateExpiring',
      'QaProcessDown',
      'QaProjectionLagging',
      'QaWebhookBacklogGrowing',
    ]);
    for (const r of rules) expect(await prometheus.query(r.query), r.name).toEqual([]);
  });

  it("has every query of the shipped Grafana dashboard accepted by Prometheus, the fleet's and the write path's with data", async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { type: string; title: string; targets?: { expr: string }[] }[] };
    const queries = dashboard.panels.filter((p) => p.type !== 'row').flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));
    expect(queries.length).toBeGreaterThan(20);
    const results = new Map<string, number>();
    for (const q of queries) results.set(q.title, (results.get(q.title) ?? 0) + (await prometheus.query(q.expr)).length);
    for (const title of ['Requests per second by job', 'Sessions by state', 'Devices by state and platform', 'p95 device command latency by kind', 'Projection lag', 'Event-store appends by outcome', 'Heap used by job']) {
      expect(results.get(title), title).toBeGreaterThan(0);
    }
  });

  it("shows a platform metric in Prometheus's own UI, in a screenshot (into docs/images/ with WRITE_DOCS_SCREENSHOTS=1)", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    const scratch = dataDir();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const expr = 'sum by (job, kind, outcome) (qa_device_command_duration_seconds_count)';
      await page.goto(`${prometheus.url}/classic/graph?g0.expr=${encodeURIComponent(expr)}&g0.tab=1`);
      // The classic UI runs the query on load; its table lists the series the tap made.
      await page.getByText('kind="tap"').first().waitFor({ timeout: 15_000 });
      const path = process.env.WRITE_DOCS_SCREENSHOTS === '1' ? DOCS_IMAGE : join(scratch, 'prometheus-metrics.png');
      const png = await page.screenshot({ path });
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    } finally {
      await browser.close();
    }
  });

  it('the host-lost rule finds the agent once it stops answering', async () => {
    agent.kill('SIGTERM');
    await new Promise((r) => agent.once('exit', r));
    const lost = await samples('up{job="qa-agent"} == 0');
    expect(lost).toHaveLength(1);
  });
});

describe('the observability page of a split deployment', () => {
  type Listed = { services: string[]; thisProcess: boolean; metrics: { served: boolean; port: number | null; tokenProtected: boolean }; tracing: { enabled: boolean } };
  const listed = async (): Promise<Listed[]> => {
    const token = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const r = await http(gateway.url, 'GET', '/api/v1/observability', { token });
    expect(r.status).toBe(200);
    return r.body.processes as Listed[];
  };
  const portOf = (job: string) => Number(targets.find((t) => t.job === job)!.address.split(':')[1]);

  it('lists every process with how it serves metrics, the organization service marked as the one answering; a process that stops leaves the list', async () => {
    const processes = await listed();
    const byServices = new Map(processes.map((p) => [p.services.join('+'), p]));
    expect([...byServices.keys()].sort()).toEqual(['df', 'gateway', 'organization', 'projections']);
    for (const [services, job] of [['projections', 'qa-projections'], ['organization', 'qa-organization'], ['df', 'qa-df']] as const) {
      expect(byServices.get(services)!.metrics, services).toEqual({ served: true, port: portOf(job), tokenProtected: false });
    }
    expect(byServices.get('gateway')!.metrics).toEqual({ served: true, port: null, tokenProtected: true });
    expect(processes.filter((p) => p.thisProcess).map((p) => p.services)).toEqual([['organization']]);
    expect(processes.every((p) => p.tracing.enabled === false)).toBe(true);

    // The projections runner stops (SIGTERM: its clean stop removes its row), and the page no longer lists it.
    const projections = servers[0]!;
    projections.child.kill('SIGTERM');
    await projections.exited;
    const after = await eventually(async () => {
      const now = await listed();
      return now.length === 3 ? now : undefined;
    }, { what: 'the stopped process to leave the list' });
    expect(after.map((p) => p.services.join('+')).sort()).toEqual(['df', 'gateway', 'organization']);
  });
});
