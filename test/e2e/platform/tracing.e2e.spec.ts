import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, testApk, type AdbServer } from '#test/helpers/adb.js';
import { referenceApks } from '#test/helpers/apps.js';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '#test/helpers/otlp-receiver.js';
import { http } from '#test/helpers/server.js';

/**
 * OpenTelemetry traces across a running installation of separate processes — the gateway, the
 * organization module with the projections, the device module, and two device hosts' agents (an
 * Android test device on adb; a device Appium's fake driver runs for WebDriver) — exporting to an OTLP
 * receiver in this test, half of them in http/json and half in http/protobuf. A session start, a tap and a
 * WebDriver command must each arrive as one trace with spans from the gateway, the device module and
 * the agent, the agent's continuing the module's across NATS or the data plane, the device call a leaf.
 * So must an app upload (installed into the session, or catalogued: the bytes stored, the build read,
 * then installed from the catalogue), and a session's end with the webhook delivery it causes, sent by
 * the organization module to a receiver on loopback in the request's trace. Timer ticks with work are
 * traces of their own: the dispatcher's round that sent that delivery, and an agent's health reading
 * (its adb calls, and the device module's handling of the report, continuing it across NATS).
 */
const ADMIN = { email: 'tracing-admin@example.com', password: 'tracing-password-1' };
const POOL = 'tracing-test-shared-pool-token-0123456789';

let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let receiver: OtlpReceiver;
let adb: AdbServer;
let phone: AdbdPeer;
let gateway: ChildServer;
let hooks: Server;
let hooksUrl: string;
const delivered: { headers: IncomingHttpHeaders; body: string }[] = [];
const servers: ChildServer[] = [];
const agents: ChildProcess[] = [];
const dirs: string[] = [];

const otel = (protocol: 'http/json' | 'http/protobuf') => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_BSP_SCHEDULE_DELAY: '200',
});

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-tracing-e2e-'));
  dirs.push(dir);
  return dir;
};

async function service(entry: string, env: Record<string, string>): Promise<ChildServer> {
  const server = await startChildServer({ ...deployment.env, DATA_DIR: dataDir(), LOG_LEVEL: 'info', ...env }, { entry });
  servers.push(server);
  return server;
}

function agent(entry: string, env: Record<string, string>): void {
  agents.push(
    spawn(process.execPath, ['--import', 'tsx', entry], {
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', NATS_URL: deployment.env.NATS_URL!, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

beforeAll(async () => {
  [deployment, receiver] = await Promise.all([sharedDeployment(), startOtlpReceiver()]);
  hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      delivered.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks`;
  // Android 14 whose UiAutomator2 server dies at start: a tap goes through adb's `input`, one adb command.
  let phonePort: number;
  ({ peer: phone, port: phonePort } = await startPeer({ model: 'Traced Phone', release: '14', sdk: '34', width: 360, height: 640, uiautomator2Crashes: true }));
  adb = await startAdbServer();
  await adb.connect(phonePort);
  const [organization, df] = await Promise.all([
    service('services/main.ts', { SERVICES: 'organization,projections', BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, ...otel('http/protobuf') }),
    service('services/df/main.ts', { AGENT_ENABLED: 'false', DF_SHARED_POOL_TOKEN: POOL, ...otel('http/protobuf') }),
  ]);
  gateway = await service('services/gateway/main.ts', { ORGANIZATION_URL: organization.url, DF_URL: df.url, ...otel('http/json') });
  agent('agent/main.ts', {
    ...otel('http/json'),
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'tracing-node', hostToken: POOL, heartbeatMs: 300, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  agent('test/helpers/fake-wd-agent.ts', { ...otel('http/protobuf'), AGENT_HOST_TOKEN: POOL, FAKE_WD_HOST_ID: randomUUID(), FAKE_WD_DEVICE: 'Traced WD fake' });
}, 120_000);

afterAll(async () => {
  for (const a of agents) {
    if (a.exitCode !== null) continue;
    a.kill('SIGTERM');
    await new Promise((r) => a.once('exit', r));
  }
  for (const s of servers.reverse()) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await adb?.stop();
  await phone?.close();
  await receiver?.close();
  await new Promise((resolve) => hooks?.close(resolve));
  await deployment?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

const SERVER = 2;

/** Whether every span but one has its parent among the spans received: each process exports on its own schedule. */
const allParentsIn = (spans: ReceivedSpan[]) => {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => !ids.has(s.parentSpanId)).length === 1;
};

/**
 * The trace of the gateway request with id `requestId`, once `want` holds for its spans and every
 * process has exported its part (every span's parent is in, but the root's); a trace whose parts never
 * join fails here, on the time-out.
 */
async function traceOf(requestId: string, want: (spans: ReceivedSpan[]) => boolean, what: string): Promise<ReceivedSpan[]> {
  return eventually(
    async () => {
      const root = receiver.spans.find((s) => s.service === 'qa-gateway' && s.attributes['http.request.id'] === requestId);
      if (!root) return undefined;
      const spans = receiver.spans.filter((s) => s.traceId === root.traceId);
      return want(spans) && allParentsIn(spans) ? spans : undefined;
    },
    { what, timeoutMs: 30_000 },
  );
}

/** Every span of a trace has its parent in it, but the root, which is the gateway's server span. */
function expectConnected(spans: ReceivedSpan[]): void {
  const ids = new Set(spans.map((s) => s.spanId));
  const roots = spans.filter((s) => !ids.has(s.parentSpanId));
  expect(roots.map((r) => `${r.service} ${r.name}`)).toEqual([`qa-gateway ${roots[0]!.name}`]);
  expect(roots[0]!.parentSpanId).toBe('');
  expect(roots[0]!.kind).toBe(SERVER);
}

const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.find((s) => s.spanId === span.parentSpanId);
const isLeaf = (spans: ReceivedSpan[], span: ReceivedSpan) => !spans.some((s) => s.parentSpanId === span.spanId);

/** The agent's first span continues the device module's NATS request: parent-linked across the bus. */
function expectAcrossNats(spans: ReceivedSpan[]): void {
  const processed = spans.filter((s) => s.service === 'qa-agent' && s.name.startsWith('nats process df.agent.*.device.*.rpc'));
  expect(processed.length).toBeGreaterThan(0);
  for (const p of processed) expect(parentOf(spans, p)).toMatchObject({ service: 'qa-df', name: 'nats request df.agent.*.device.*.rpc' });
}

describe('OpenTelemetry traces across separate processes', () => {
  let token: string;
  let sessionId: string;
  const api = (method: string, path: string, requestId: string, body?: unknown) =>
    http(gateway.url, method, `/df/api${path}`, { token, headers: { 'x-request-id': requestId }, ...(body !== undefined ? { body } : {}) });

  it('a session start is one trace: gateway, device module, agent across NATS, adb commands as leaves', async () => {
    token = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    expect(token).toBeTruthy();
    const device = await eventually(async () => (await api('GET', '/devices?status=available&search=Traced%20Phone', 'list-devices')).body.content?.[0] as { id: string } | undefined, {
      what: 'the Android test device',
      timeoutMs: 45_000,
    });
    const created = await api('POST', '/sessions', 'trace-session-start', { deviceId: device.id, name: 'traced session' });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('trace-session-start');
    sessionId = created.body.id as string;
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}`, 'poll-session')).body.status === 'active' ? true : undefined), { what: 'the session to start', timeoutMs: 30_000 });
    const spans = await traceOf('trace-session-start', (all) => all.some((s) => s.service === 'qa-agent' && s.name.startsWith('adb shell')), 'the session start to reach the agent');
    expectConnected(spans);
    expect(new Set(spans.map((s) => s.service))).toEqual(expect.objectContaining(new Set(['qa-gateway', 'qa-df', 'qa-agent'])));
    const moduleSpan = spans.find((s) => s.service === 'qa-df' && s.kind === SERVER && s.attributes['http.route'] !== undefined)!;
    expect(moduleSpan).toMatchObject({ name: 'POST /api/sessions', attributes: { 'http.route': '/api/sessions', 'http.response.status_code': 201 } });
    expect(parentOf(spans, moduleSpan)).toMatchObject({ service: 'qa-gateway', name: 'POST /df/*' });
    expect(spans.some((s) => s.service === 'qa-df' && s.name.startsWith('event store append device-session'))).toBe(true);
    expectAcrossNats(spans);
    const adbCalls = spans.filter((s) => s.service === 'qa-agent' && s.name.startsWith('adb shell'));
    for (const call of adbCalls) expect(isLeaf(spans, call), call.name).toBe(true);
    // Both encodings arrived: the gateway and agent export JSON, the device module protobuf.
    expect(new Set(spans.map((s) => s.encoding))).toEqual(new Set(['json', 'protobuf']));
  }, 120_000);

  it('a tap is one trace ending in the adb `input tap`, and a log line of the request carries its trace id', async () => {
    expect((await api('POST', `/sessions/${sessionId}/device/control`, 'trace-tap', { action: 'tap', x: 30, y: 40 })).status).toBe(200);
    const spans = await traceOf('trace-tap', (all) => all.some((s) => s.name === 'adb shell input tap'), 'the tap to reach adb');
    expectConnected(spans);
    expectAcrossNats(spans);
    const tap = spans.find((s) => s.name === 'adb shell input tap')!;
    expect(tap.service).toBe('qa-agent');
    expect(isLeaf(spans, tap)).toBe(true);
    expect(parentOf(spans, tap)).toMatchObject({ service: 'qa-agent', name: 'device control' });
    const traceId = tap.traceId;
    const logged = await gateway.waitForLog((l) => l.requestId === 'trace-tap' && l.trace_id === traceId, 15_000);
    expect(logged.span_id).toMatch(/^[0-9a-f]{16}$/);
  }, 60_000);

  it('an app upload is one trace: installed into the session (staged and installed over NATS), or stored, read and catalogued, then installed from the catalogue', async () => {
    // Into the session: the bytes staged on the agent and installed with the package manager, in one request.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(testApk('com.example.traced', 4096))]), 'traced.apk');
    const direct = await fetch(new URL(`/df/api/sessions/${sessionId}/apps/install`, gateway.url), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-upload-install' }, body: form });
    expect(direct.status, await direct.clone().text()).toBe(201);
    const installed = await traceOf('trace-upload-install', (all) => all.some((s) => s.service === 'qa-agent' && s.name === 'adb shell pm install'), 'the upload to reach the package manager');
    expectConnected(installed);
    expectAcrossNats(installed);
    expect(installed.find((s) => s.service === 'qa-df' && s.kind === SERVER)).toMatchObject({ name: 'POST /api/sessions/:sessionId/apps/install' });
    const agentOps = new Set(installed.filter((s) => s.service === 'qa-agent' && s.name.startsWith('device ')).map((s) => s.name));
    expect(agentOps).toEqual(new Set(['device stageBegin', 'device stageChunk', 'device stageCommit', 'device installApp']));
    expect(isLeaf(installed, installed.find((s) => s.name === 'adb shell pm install')!)).toBe(true);

    // Into the catalogue: presigned, the bytes PUT, confirmed (stored, read as an app build, filed), installed from it.
    const bytes = readFileSync(referenceApks().settingsOld);
    const started = await api('POST', '/files/presigned-upload', 'trace-file-start', { name: 'settings.apk', size: bytes.length, contentType: 'application/vnd.android.package-archive' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const put = await fetch(started.body.url, { method: 'PUT', headers: { ...started.body.headers, 'x-request-id': 'trace-file-put' }, body: new Uint8Array(bytes) });
    expect(put.status).toBe(200);
    const confirmed = await api('POST', `/files/${started.body.fileId}/confirm`, 'trace-file-confirm');
    expect(confirmed.body).toMatchObject({ status: 'ready', kind: 'app' });
    const catalogued = await traceOf('trace-file-confirm', (all) => all.some((s) => s.name === 'event store append df-app') && all.some((s) => s.name === 'app build read'), 'the confirmation to catalogue the build');
    expectConnected(catalogued);
    const names = catalogued.filter((s) => s.service === 'qa-df').map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['POST /api/files/:fileId/confirm', 'blob promote', 'app build read', 'event store append df-file', 'event store append df-app']));
    expect(parentOf(catalogued, catalogued.find((s) => s.name === 'app build read')!)).toMatchObject({ name: 'POST /api/files/:fileId/confirm' });
    const fromCatalogue = await api('POST', `/sessions/${sessionId}/apps/install`, 'trace-file-install', { fileId: started.body.fileId });
    expect(fromCatalogue.status, JSON.stringify(fromCatalogue.body)).toBe(202);
    // The operation runs after the answer, in the request's trace: the bytes read from storage, staged, installed.
    const operation = await traceOf('trace-file-install', (all) => all.some((s) => s.service === 'qa-agent' && s.name === 'adb shell pm install'), 'the catalogued build to reach the package manager');
    expectConnected(operation);
    expectAcrossNats(operation);
    expect(operation.some((s) => s.service === 'qa-df' && s.name === 'blob get')).toBe(true);
  }, 90_000);

  it('a WebDriver command through /df/wd is one trace: gateway, device module, the agent over the data plane, Appium as the leaf', async () => {
    const wd = (method: string, path: string, requestId: string, body?: unknown) =>
      http(gateway.url, method, `/df/wd${path}`, { token, headers: { 'x-request-id': requestId }, ...(body !== undefined ? { body } : {}) });
    await eventually(async () => ((await http(gateway.url, 'GET', '/df/api/devices?status=available&search=Traced%20WD', { token })).body.content?.length === 1 ? true : undefined), {
      what: 'the fake WebDriver device',
      timeoutMs: 45_000,
    });
    const created = await wd('POST', '/session', 'trace-wd-new', { capabilities: { alwaysMatch: { platformName: 'Android', 'appium:deviceName': 'Traced WD fake' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const wdSession = created.body.value.sessionId as string;
    expect((await wd('GET', `/session/${wdSession}/source`, 'trace-wd-source')).status).toBe(200);
    const spans = await traceOf('trace-wd-source', (all) => all.some((s) => s.service === 'qa-agent' && s.name.startsWith('appium GET')), 'the WebDriver command to reach Appium');
    expectConnected(spans);
    const appium = spans.find((s) => s.service === 'qa-agent' && s.name.startsWith('appium GET'))!;
    expect(appium.name).toBe('appium GET /session/{id}/source');
    expect(isLeaf(spans, appium)).toBe(true);
    expect(parentOf(spans, parentOf(spans, appium)!)).toMatchObject({ service: 'qa-df' });
    // The new session went to the agent over NATS (the device prepared) as well as the data plane.
    const started = await traceOf('trace-wd-new', (all) => all.some((s) => s.service === 'qa-agent' && s.name === 'appium POST /session'), 'the new WebDriver session to reach Appium');
    expectConnected(started);
    expectAcrossNats(started);
    expect((await wd('DELETE', `/session/${wdSession}`, 'trace-wd-delete')).status).toBe(200);
  }, 90_000);

  it('the observability route reports tracing on (sampler, protocol, service name; never the endpoint) and the trace id of its own request', async () => {
    const res = await http(gateway.url, 'GET', '/api/v1/observability', { token, headers: { 'x-request-id': 'trace-observability' } });
    expect(res.status).toBe(200);
    expect(res.body.tracing).toEqual({ enabled: true, sampler: 'parentbased_always_on', ratio: 1, protocol: 'http/protobuf', serviceName: 'qa-organization+projections' });
    expect(JSON.stringify(res.body)).not.toContain(receiver.endpoint.replace(/^http:\/\//, ''));
    const spans = await traceOf('trace-observability', (all) => all.some((s) => s.name === 'GET /api/v1/observability'), 'the observability request’s trace');
    expect(res.body.request).toEqual({ requestId: 'trace-observability', traceId: spans[0]!.traceId });
  }, 30_000);

  it('a session’s end and the webhook delivery it causes are one trace: the delivery continues the request behind the event', async () => {
    const session = (await api('GET', `/sessions/${sessionId}`, 'trace-session-read')).body as { workspaceId: number };
    const hook = await http(gateway.url, 'POST', `/api/v1/workspaces/${session.workspaceId}/webhooks`, { token, body: { url: hooksUrl, events: ['session.ended'] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expect((await api('DELETE', `/sessions/${sessionId}`, 'trace-session-end')).status).toBe(200);
    const spans = await traceOf('trace-session-end', (all) => all.some((s) => s.name === 'webhook delivery'), 'the webhook delivery to join the request’s trace');
    expectConnected(spans);
    const delivery = spans.find((s) => s.name === 'webhook delivery')!;
    expect(delivery).toMatchObject({ kind: 3, attributes: { 'webhook.event': 'session.ended', 'http.response.status_code': 204 } });
    expect(delivery.service).not.toBe('qa-df');
    // Its parent is the device module's handling of the request whose command appended the event behind it.
    expect(parentOf(spans, delivery)).toMatchObject({ service: 'qa-df', name: 'DELETE /api/sessions/:sessionId' });
    expect(spans.some((s) => s.service === 'qa-df' && s.name === 'event store append device-session')).toBe(true);
    // The receiver got the attempt's own traceparent: the same trace.
    const got = delivered.find((d) => d.body.includes(sessionId))!;
    expect(got.headers.traceparent).toBe(`00-${delivery.traceId}-${delivery.spanId}-01`);
    // The read model's batch that applied the end (in the projections' process) is a trace of its own, linked to that span.
    const command = parentOf(spans, delivery)!;
    const batch = await eventually(async () => receiver.spans.find((s) => s.name === 'projection apply df-sessions' && s.links.some((l) => l.traceId === command.traceId && l.spanId === command.spanId)), {
      what: 'the df-sessions batch linked to the request that ended the session',
      timeoutMs: 15_000,
    });
    expect(batch).toMatchObject({ service: 'qa-organization+projections', parentSpanId: '' });
    expect(batch.traceId).not.toBe(command.traceId);
    // The dispatcher's round that sent it is a trace of its own too (the attempt stays in the request's).
    const round = await eventually(async () => receiver.spans.find((s) => s.name === 'webhooks.dispatch'), { what: 'the dispatcher’s round', timeoutMs: 15_000 });
    expect(round).toMatchObject({ service: 'qa-organization+projections', parentSpanId: '', attributes: { 'webhook.deliveries': 1 } });
    expect(round.traceId).not.toBe(delivery.traceId);
  }, 60_000);

  it('an agent’s scheduled health reading is a trace of its own: its adb calls, and the device module handling its report', async () => {
    const spans = await eventually(
      async () => {
        for (const reading of receiver.spans.filter((s) => s.service === 'qa-agent' && s.name === 'agent.health-reading')) {
          const mine = receiver.spans.filter((s) => s.traceId === reading.traceId);
          if (mine.some((s) => s.service === 'qa-df' && s.name.endsWith('.health')) && mine.some((s) => s.name.startsWith('adb shell'))) return mine;
        }
        return undefined;
      },
      { what: 'a health reading traced from the agent to the device module', timeoutMs: 30_000 },
    );
    const reading = spans.find((s) => s.name === 'agent.health-reading')!;
    expect(reading).toMatchObject({ parentSpanId: '', attributes: { 'device.id': expect.any(String) } });
    for (const call of spans.filter((s) => s.name.startsWith('adb shell'))) expect(call).toMatchObject({ service: 'qa-agent', parentSpanId: reading.spanId });
    const handled = spans.find((s) => s.service === 'qa-df' && s.name.endsWith('.health'))!;
    expect(handled).toMatchObject({ name: 'nats process df.agent.*.health', kind: 5, parentSpanId: reading.spanId });
  }, 60_000);
});
