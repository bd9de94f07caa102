import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Allocation, API keys, the idle time-out and a host leaving, on simulated devices: these tests are
 * about the farm (the service, the bus and the agent), so they do not spend five Chromiums.
 */
const ADMIN = { email: 'farm-sim@example.com', password: 'farm-password-2' };
const IDLE_MS = 3_000;
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    DF_SESSION_IDLE_TIMEOUT: `${IDLE_MS}ms`,
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'sim-node',
      heartbeatMs: 300,
      devices: Array.from({ length: 5 }, (_, i) => ({ provider: 'simulated' as const, name: `Sim ${i + 1}`, prepareMs: 50 })),
    }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  await eventually(async () => ((await http(server.url, 'GET', '/df/api/devices?status=available', { token })).body.totalElements === 5 ? true : undefined), { what: 'five devices' });
});

afterAll(async () => {
  await server?.stop();
});

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  http(server.url, method, `/df/api${path}`, { headers, ...(Object.keys(headers).length === 0 ? { token } : {}), ...(body !== undefined ? { body } : {}) });

describe('allocation', () => {
  it('gives 20 parallel creates on 5 devices exactly 5 sessions and 15 DEVICE_BUSY, never a device twice', async () => {
    const devices = (await api('GET', '/devices')).body.content as { id: string }[];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api('POST', '/sessions', { deviceId: devices[i % 5]!.id, name: `race ${i}` })));
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.body).toMatchObject({ code: 'DEVICE_BUSY', statusCode: 409 });
    expect(new Set(created.map((r) => r.body.deviceId)).size).toBe(5);
    const active = await api('GET', '/sessions?status=active&status=starting&size=100');
    expect(active.body.totalElements).toBe(5);
    // The device streams agree: one allocation each.
    for (const d of devices) {
      const events = await server.process.platform.store.readStream(`device-${d.id}`);
      expect(events.filter((e) => e.type === 'DeviceAllocated')).toHaveLength(1);
    }
    expect((await api('GET', '/devices?status=in_use')).body.totalElements).toBe(5);
    await Promise.all(created.map((r) => api('DELETE', `/sessions/${r.body.id}`)));
    expect((await api('GET', '/devices?status=available')).body.totalElements).toBe(5);
  });

  it('answers 404 for an unknown device and 400 for a malformed create', async () => {
    expect((await api('POST', '/sessions', { deviceId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await api('POST', '/sessions', { deviceId: 'x', type: 'nope' })).status).toBe(400);
  });
});

describe('X-Api-Key', () => {
  it('creates a key shown once, routes sessions and devices by it, and refuses it once revoked', async () => {
    const created = await api('POST', '/keys', { name: 'CI pipeline' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^dfk_/);
    const listed = await api('GET', '/keys');
    expect(listed.body.content).toEqual([expect.objectContaining({ id: created.body.id, name: 'CI pipeline', revoked: false })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    expect((await api('GET', `/keys/${created.body.id}`)).body.prefix).toBe(created.body.key.slice(0, 10));

    const byKey = { 'x-api-key': created.body.key };
    const devices = await api('GET', '/devices', undefined, byKey);
    expect(devices.status).toBe(200);
    expect(devices.body.totalElements).toBe(5);
    const session = await api('POST', '/sessions', { deviceId: devices.body.content[0].id, type: 'automation' }, byKey);
    expect(session.status).toBe(201);
    expect(session.body.ownerId).toBe(1);
    expect((await api('DELETE', `/sessions/${session.body.id}`, undefined, byKey)).status).toBe(200);
    // Keys count only where the interface routes by them.
    expect((await api('GET', '/keys', undefined, byKey)).status).toBe(401);
    expect((await api('GET', '/devices', undefined, { 'x-api-key': 'dfk_wrong' })).status).toBe(401);

    expect((await api('DELETE', `/keys/${created.body.id}`)).status).toBe(204);
    expect((await api('GET', '/devices', undefined, byKey)).status).toBe(401);
    expect((await api('GET', `/keys/${created.body.id}`)).body.revoked).toBe(true);
  });
});

describe('idle sessions', () => {
  it('ends a session idle longer than the time-out, while activity keeps another alive', async () => {
    const [a, b] = (await api('GET', '/devices?size=2')).body.content as { id: string }[];
    const idle = (await api('POST', '/sessions', { deviceId: a!.id })).body;
    const busy = (await api('POST', '/sessions', { deviceId: b!.id })).body;
    const deadline = Date.now() + IDLE_MS * 2;
    // Keep one session busy for twice the time-out; the other is left alone.
    while (Date.now() < deadline) {
      expect((await api('POST', `/sessions/${busy.id}/device/control`, { action: 'tap', x: 1, y: 1 })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 6));
    }
    const ended = await eventually(async () => {
      const s = (await api('GET', `/sessions/${idle.id}`)).body;
      return s.status === 'ended' ? s : undefined;
    }, { what: 'the idle session to end' });
    expect(ended.endReason).toBe('idle-timeout');
    expect((await api('GET', `/sessions/${busy.id}`)).body.status).toBe('active');
    expect((await api('GET', `/devices/${a!.id}`)).body.status).toBe('available');
    await api('DELETE', `/sessions/${busy.id}`);
  });
});

describe('a host that leaves', () => {
  it('takes its devices offline and ends their open sessions with a reason', async () => {
    const device = (await api('GET', '/devices?size=1')).body.content[0];
    const session = (await api('POST', '/sessions', { deviceId: device.id })).body;
    await server.process.agent!.stop();
    const offline = await eventually(async () => {
      const r = await api('GET', '/devices?status=offline');
      return r.body.totalElements === 5 ? r.body : undefined;
    }, { what: 'devices offline' });
    expect(offline.content[0].status).toBe('offline');
    const ended = await eventually(async () => {
      const s = (await api('GET', `/sessions/${session.id}`)).body;
      return s.status === 'ended' ? s : undefined;
    }, { what: 'the session to end' });
    expect(ended.endReason).toBe('host-stopped');
    const refused = await api('POST', '/sessions', { deviceId: device.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DEVICE_OFFLINE');
  });
});
