import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { subjects } from '#shared/wire/index.js';
import { eventually } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Heartbeats at scale: an unchanged heartbeat writes nothing, and a host's goodbye or return changes
 * all of its devices in one append (one log position), not one event per device.
 */
const ADMIN = { email: 'farm-scale@example.com', password: 'farm-password-3' };
const HOST = 'scale-host';
const DEVICES = 100;
let server: TestServer;
let token: string;
/** The many hosts of these tests join as the operator's shared pool (enrolment is tested in df-hosts). */
const POOL = 'df-scale-shared-pool-token-0123456789abcdef';

beforeAll(async () => {
  // A short host time-out, so a host whose heartbeats go unanswered during registration is declared lost.
  server = await startTestServer({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, AGENT_ENABLED: 'false', DF_HOST_TIMEOUT: '3s', DF_SHARED_POOL_TOKEN: POOL });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

const countWith = async (status: string) => (await api('GET', `/devices?status=${status}&size=1`)).body.totalElements as number;

function agent(heartbeatMs: number, hostId = HOST, devices = DEVICES): AgentHost {
  const config = loadAgentConfig({
    value: {
      hostId,
      hostToken: POOL,
      nodeName: 'scale-node',
      heartbeatMs,
      devices: Array.from({ length: devices }, (_, i) => ({ provider: 'simulated' as const, name: `${hostId} ${String(i).padStart(3, '0')}`, model: i % 2 ? 'Pixel 7' : 'Galaxy S23' })),
    },
  });
  return new AgentHost({ bus: server.process.platform.bus, config, logger: server.process.logger.child({ component: 'scale-agent' }) });
}

/** Resolves after `n` heartbeats of the host have been published on the bus. */
async function heartbeats(n: number, hostId = HOST): Promise<void> {
  let seen = 0;
  let done!: () => void;
  const reached = new Promise<void>((resolve) => (done = resolve));
  const sub = await server.process.platform.bus.subscribe(subjects.heartbeat(hostId), () => {
    if (++seen >= n) done();
  });
  try {
    await reached;
  } finally {
    await sub.unsubscribe();
  }
}

describe('a host with 100 devices', () => {
  let host: AgentHost;

  it('registers every device, then writes nothing for heartbeats that change nothing', async () => {
    host = agent(150);
    await host.start();
    await eventually(async () => ((await countWith('available')) === DEVICES ? true : undefined), { what: '100 available devices', timeoutMs: 60_000 });
    await heartbeats(2);
    const store = server.process.platform.store;
    const before = await store.headPosition();
    await heartbeats(6);
    expect(await store.headPosition()).toBe(before);
    expect(await countWith('available')).toBe(DEVICES);
  }, 120_000);

  it('takes all 100 devices offline with one event when the host says goodbye', async () => {
    const store = server.process.platform.store;
    const before = await store.headPosition();
    await host.stop();
    await eventually(async () => ((await countWith('offline')) === DEVICES ? true : undefined), { what: '100 offline devices', timeoutMs: 60_000 });
    const written = await store.readAll({ after: before });
    expect(written.map((e) => e.type)).toEqual(['HostDevicesDisconnected']);
    expect(written[0]!.streamId).toBe(`device-host-${HOST}`);
    expect(new Set((written[0]!.payload as { deviceIds: string[] }).deviceIds).size).toBe(DEVICES);
    // The device stream's own decision sees the batch: an offline device cannot be allocated.
    const device = (await api('GET', '/devices?size=1')).body.content[0];
    const refused = await api('POST', '/sessions', { deviceId: device.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DEVICE_OFFLINE');
  }, 120_000);

  it('brings all 100 back with one event when the host returns', async () => {
    const store = server.process.platform.store;
    const before = await store.headPosition();
    host = agent(150);
    await host.start();
    await eventually(async () => ((await countWith('available')) === DEVICES ? true : undefined), { what: '100 devices back', timeoutMs: 60_000 });
    const written = await store.readAll({ after: before });
    expect(written.map((e) => e.type)).toEqual(['HostDevicesReconnected']);
    const device = (await api('GET', '/devices?size=1')).body.content[0];
    const session = await api('POST', '/sessions', { deviceId: device.id });
    expect(session.status).toBe(201);
    expect((await api('DELETE', `/sessions/${session.body.id}`)).status).toBe(200);
    await host.stop();
  }, 120_000);
});

describe('many hosts announcing at once', () => {
  it('registers 1,200 devices of 24 hosts while every host stays alive (its heartbeats are answered throughout)', async () => {
    const store = server.process.platform.store;
    const before = await store.headPosition();
    const hosts = Array.from({ length: 24 }, (_, i) => agent(250, `burst-host-${String(i).padStart(2, '0')}`, 50));
    try {
      await Promise.all(hosts.map((h) => h.start()));
      const total = async () => (await api('GET', '/devices?nodeName=scale-node&search=burst-host&size=1')).body.totalElements as number;
      await eventually(async () => ((await total()) === 1_200 ? true : undefined), { what: '1,200 devices listed', timeoutMs: 90_000 });
      // One more beat of the last host to announce, then nothing may have gone offline on the way.
      await heartbeats(2, 'burst-host-23');
      const written = await store.readAll({ after: before });
      // Only these hosts count: a host of an earlier test, stopped there, may be declared lost meanwhile.
      const burst = (e: (typeof written)[number]) => String((e.payload as { hostId?: unknown }).hostId ?? '').startsWith('burst-host-');
      expect(written.filter((e) => (e.type === 'HostDevicesDisconnected' || e.type === 'DeviceDisconnected') && burst(e)).map((e) => e.streamId)).toEqual([]);
      expect(written.filter((e) => e.type === 'DeviceConnected')).toHaveLength(1_200);
      expect((await api('GET', '/devices?status=offline&search=burst-host&size=1')).body.totalElements).toBe(0);
    } finally {
      await Promise.all(hosts.map((h) => h.stop()));
    }
  }, 120_000);
});
