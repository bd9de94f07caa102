import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { connectNatsBus, type MessageBus } from '#shared/bus/index.js';
import { eventually, enrolHost } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Restart NATS, then the service: a separate agent (its own NATS connection, as `npm run agent` has)
 * comes back by itself each time, its devices return, and the session history is intact. Runs on its
 * own nats-server on a free port, so restarting it disturbs nothing else.
 */
const NATS_SERVER = '/usr/sbin/nats-server';
const ADMIN = { email: 'farm-resilience@example.com', password: 'farm-password-3' };
const HOST_TIMEOUT_MS = 1_500;

let port = 0;
let nats: ChildProcess | null = null;
let server: TestServer | null = null;
let agentBus: MessageBus;
let agent: AgentHost;
const dataDir = mkdtempSync(join(tmpdir(), 'df-resilience-'));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

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
  });

  afterAll(async () => {
    await agent?.stop();
    await agentBus?.close();
    await server?.stop();
    if (nats) await stopNats();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let historic: string;

  it('keeps working after NATS restarts: devices go offline while it is down and return by themselves', async () => {
    const [a, b] = (await api('GET', '/devices?sortBy=name')).body.content as { id: string }[];
    historic = (await api('POST', '/sessions', { deviceId: a!.id, name: 'before the outage' })).body.id;
    await api('POST', `/sessions/${historic}/device/control`, { action: 'openUrl', url: 'http://127.0.0.1/before' });
    await api('DELETE', `/sessions/${historic}`);
    const open = (await api('POST', '/sessions', { deviceId: b!.id, name: 'open during the outage' })).body.id;

    await stopNats();
    await devicesWith('offline', 2);
    const lost = await eventually(async () => {
      const s = (await api('GET', `/sessions/${open}`)).body;
      return s.status === 'ended' ? s : undefined;
    }, { what: 'the open session to end' });
    expect(lost.endReason).toBe('host-lost');

    await startNats();
    await devicesWith('available', 2);
    const again = await api('POST', '/sessions', { deviceId: b!.id, name: 'after NATS' });
    expect(again.status).toBe(201);
    await api('DELETE', `/sessions/${again.body.id}`);
  });

  it('keeps working after the service restarts: the agent announces itself again and history is intact', async () => {
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
    expect((await api('GET', '/sessions?size=50')).body.totalElements).toBe(3);

    const device = (await api('GET', '/devices?size=1')).body.content[0];
    const fresh = await api('POST', '/sessions', { deviceId: device.id, name: 'after the restart' });
    expect(fresh.status).toBe(201);
    expect((await api('POST', `/sessions/${fresh.body.id}/device/control`, { action: 'home' })).status).toBe(200);
    await api('DELETE', `/sessions/${fresh.body.id}`);
  });
});
