import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { connectNatsBus, type MessageBus } from '#shared/bus/index.js';
import { freePort } from '#test/helpers/daemon.js';
import { eventually, enrolHost } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Restart NATS, then the service: a separate agent (its own NATS connection, as `npm run agent` has)
 * comes back by itself each time, its devices and open sessions are kept, and the session history is
 * intact. While NATS is away device commands are refused at once (503 MESSAGE_BUS_UNAVAILABLE). Runs on its
 * own nats-server on a free port, so restarting it disturbs nothing else.
 */
const NATS_SERVER = '/usr/sbin/nats-server';
const ADMIN = { email: 'farm-resilience@example.com', password: 'farm-password-3' };
const HOST_TIMEOUT_MS = 4_000;
/** How long NATS stays down: several host time-outs. */
const OUTAGE_MS = 10_000;

let port = 0;
let nats: ChildProcess | null = null;
let server: TestServer | null = null;
let agentBus: MessageBus;
let agent: AgentHost;
const dataDir = mkdtempSync(join(tmpdir(), 'df-resilience-'));

const portOpen = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function startNats(): Promise<void> {
  nats = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  await eventually(async () => ((await portOpen()) ? true : undefined), { what: 'nats-server to listen' });
}

async function stopNats(): Promise<void> {
  const child = nats!;
  nats = null;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const startService = () =>
  startTestServer({
    DATA_DIR: dataDir,
    NATS_URL: `nats://127.0.0.1:${port}`,
    AGENT_ENABLED: 'false',
    DF_HOST_TIMEOUT: `${HOST_TIMEOUT_MS}ms`,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  });

let token: string;
const api = (method: string, path: string, body?: unknown) => http(server!.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const devicesWith = (status: string, count: number) =>
  eventually(async () => ((await api('GET', `/devices?status=${status}`)).body.totalElements === count ? true : undefined), { what: `${count} devices ${status}`, timeoutMs: 20_000 });

describe.skipIf(!existsSync(NATS_SERVER))('the farm across restarts', () => {
  beforeAll(async () => {
    port = await freePort();
    await startNats();
    server = await startService();
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    const hostToken = await enrolHost(server.url, token, 'resilience');
    agentBus = await connectNatsBus(`nats://127.0.0.1:${port}`, { name: 'resilience-agent', reconnectTimeWaitMs: 200 });
    agent = new AgentHost({
      bus: agentBus,
      logger: pino({ level: 'silent' }),
      config: loadAgentConfig({
        value: { hostToken, nodeName: 'resilience-node', heartbeatMs: 200, devices: [{ provider: 'simulated', name: 'Sim A' }, { provider: 'simulated', name: 'Sim B' }] },
      }),
    });
    await agent.start();
    await devicesWith('available', 2);
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await agentBus?.close();
    await server?.stop();
    if (nats) await stopNats();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let historic: string;

  it('during a NATS outage refuses device commands at once and keeps the session; after it the same session works again', { timeout: 120_000 }, async () => {
    const [a, b] = (await api('GET', '/devices?sortBy=name')).body.content as { id: string }[];
    historic = (await api('POST', '/sessions', { deviceId: a!.id, name: 'before the outage' })).body.id;
    await api('POST', `/sessions/${historic}/device/control`, { action: 'openUrl', url: 'http://127.0.0.1/before' });
    await api('DELETE', `/sessions/${historic}`);
    const created = await api('POST', '/sessions', { deviceId: b!.id, name: 'open during the outage' });
    expect(created.status).toBe(201);
    const open = created.body.id as string;
    expect((await api('POST', `/sessions/${open}/device/control`, { action: 'home' })).status).toBe(200);

    const stopped = Date.now();
    await stopNats();
    // The outage lasts several host time-outs (every liveness key has long expired): each device
    // command in it is refused within 5 s with a 503 naming the bus, and the session stays open.
    const refusals: number[] = [];
    while (Date.now() - stopped < OUTAGE_MS) {
      const sent = Date.now();
      const r = await api('POST', `/sessions/${open}/device/control`, { action: 'home' });
      refusals.push(Date.now() - sent);
      expect(r.status).toBe(503);
      expect(r.body.code).toBe('MESSAGE_BUS_UNAVAILABLE');
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect((await api('GET', `/sessions/${open}`)).body.status).toBe('active');
    }
    expect((await api('GET', '/devices?status=offline')).body.totalElements).toBe(0);

    await startNats();
    const restarted = Date.now();
    await eventually(async () => ((await api('POST', `/sessions/${open}/device/control`, { action: 'home' })).status === 200 ? true : undefined), {
      what: 'a command on the same session to succeed after NATS is back',
      timeoutMs: 20_000,
    });
    const recoveredMs = Date.now() - restarted;
    await eventually(async () => (agent.announced ? true : undefined), { what: 'the agent to announce itself again' });
    // Past the host time-out after the return, the host is still known and the session was never ended.
    await eventually(async () => (Date.now() - restarted > 2 * HOST_TIMEOUT_MS ? true : undefined), { what: 'two host time-outs after the return', timeoutMs: 3 * HOST_TIMEOUT_MS });
    const session = (await api('GET', `/sessions/${open}`)).body;
    expect(session.status).toBe('active');
    expect(session.endReason ?? null).toBeNull();
    expect((await api('POST', `/sessions/${open}/device/control`, { action: 'home' })).status).toBe(200);
    expect((await api('GET', '/devices?status=offline')).body.totalElements).toBe(0);
    process.stdout.write(`NATS outage: ${refusals.length} refusals, slowest ${Math.max(...refusals)} ms; first command after the return ${recoveredMs} ms\n`);
    await api('DELETE', `/sessions/${open}`);
  });

  it('keeps working after the service restarts: the agent announces itself again and history is intact', { timeout: 120_000 }, async () => {
    await server!.stop();
    server = null;
    await eventually(async () => (agent.announced ? undefined : true), { what: 'the agent to notice the service is gone' });
    server = await startService();
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    await eventually(async () => (agent.announced ? true : undefined), { what: 'the agent to announce itself again', timeoutMs: 20_000 });
    await devicesWith('available', 2);

    const history = await api('GET', `/sessions/${historic}`);
    expect(history.body).toMatchObject({ name: 'before the outage', status: 'ended', endReason: 'user' });
    const timeline = await api('GET', `/sessions/${historic}/activities`);
    expect(timeline.body.content.map((a: { detail: { action?: string } }) => a.detail.action).filter(Boolean)).toEqual(['openUrl']);
    expect((await api('GET', '/sessions?size=50')).body.totalElements).toBe(2);

    const device = (await api('GET', '/devices?size=1')).body.content[0];
    const fresh = await api('POST', '/sessions', { deviceId: device.id, name: 'after the restart' });
    expect(fresh.status).toBe(201);
    expect((await api('POST', `/sessions/${fresh.body.id}/device/control`, { action: 'home' })).status).toBe(200);
    await api('DELETE', `/sessions/${fresh.body.id}`);
  });
});
