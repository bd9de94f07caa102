import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig, type AgentConfigFile } from '#agent/index.js';
import { connectViewer, eventually } from '#test/helpers/df-farm.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Who owns a device: a host joins only with an enrolment token, its devices belong to the
 * enrolment's company (and workspaces), and nobody else can list, read, open, relay to or even
 * count them. The server's own in-process host serves the installation's first company.
 */
let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
const agents: AgentHost[] = [];
/** What the remote agents logged, as parsed JSON lines. */
const agentLog: Record<string, unknown>[] = [];

const df = (who: SignedUpCompany, method: string, path: string, body?: unknown, workspaceId?: number) =>
  http(server.url, method, `/df/api${path}`, {
    token: who.token,
    ...(body !== undefined ? { body } : {}),
    ...(workspaceId !== undefined ? { headers: { 'x-workspace-id': String(workspaceId) } } : {}),
  });

const deviceNames = async (who: SignedUpCompany, workspaceId?: number): Promise<string[]> => {
  const r = await df(who, 'GET', '/devices?size=100', undefined, workspaceId);
  expect(r.status).toBe(200);
  return (r.body.content as { name: string }[]).map((d) => d.name).sort();
};

/** A remote host on the server's bus with simulated devices, logging into `agentLog`. */
async function startAgent(name: string, config: Partial<AgentConfigFile>): Promise<AgentHost> {
  const logger = pino({ level: 'info' }, { write: (line: string) => void agentLog.push({ ...JSON.parse(line), agent: name }) });
  const agent = new AgentHost({
    bus: server.process.platform.bus,
    logger,
    config: loadAgentConfig({ value: { nodeName: name, heartbeatMs: 200, appium: { enabled: false }, devices: [{ provider: 'simulated', name: `${name} phone` }], ...config } }),
  });
  agents.push(agent);
  await agent.start();
  return agent;
}

const refusedWith = (agent: AgentHost, code: string) => eventually(async () => (agent.lastRefusal?.code === code ? agent.lastRefusal : undefined), { what: `refusal ${code}` });

beforeAll(async () => {
  server = await startTestServer({ DF_HOST_TIMEOUT: '3s' });
  a = await signUpCompany(server.url, 'owner');
  b = await signUpCompany(server.url, 'stranger');
  await eventually(async () => ((await deviceNames(a)).length === 2 ? true : undefined), { what: "the in-process host's devices in the first company" });
}, 90_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  await server?.stop();
});

describe('device visibility follows the host enrolment', () => {
  it('the in-process host serves the first company; a second company cannot list, count, read, open, reserve or relay to its devices (404)', async () => {
    const list = await df(a, 'GET', '/devices');
    const device = (list.body.content as { id: string }[])[0]!;
    expect(await deviceNames(b)).toEqual([]);
    const facets = await df(b, 'GET', '/devices/filter-options');
    expect(Object.values(facets.body as Record<string, unknown[]>).every((counts) => counts.length === 0)).toBe(true);
    expect(errorCode(await df(b, 'GET', `/devices/${device.id}`))).toBe('NOT_FOUND');
    expect((await df(b, 'PUT', `/devices/${device.id}/alias`, { alias: 'mine now' })).status).toBe(404);
    expect((await df(b, 'PUT', `/devices/${device.id}/favorite`)).status).toBe(404);
    const open = await df(b, 'POST', '/sessions', { deviceId: device.id });
    expect([open.status, errorCode(open)]).toEqual([404, 'NOT_FOUND']);
    const soon = Date.now() + 3_600_000;
    const book = await df(b, 'POST', '/reservations', { deviceId: device.id, startAt: new Date(soon).toISOString(), endAt: new Date(soon + 3_600_000).toISOString() });
    expect([book.status, errorCode(book)]).toEqual([404, 'NOT_FOUND']);
    expect((await df(b, 'GET', `/reservations?deviceId=${device.id}`)).body.content).toEqual([]);
    // WebDriver: naming the device, or asking for any browser, finds nothing of this workspace.
    const wd = await http(server.url, 'POST', '/df/wd/session', {
      token: b.token,
      body: { capabilities: { alwaysMatch: { browserName: 'chrome', 'df:deviceId': device.id, 'df:queueTimeoutSeconds': 0 } } },
    });
    expect(wd.status).toBeGreaterThanOrEqual(400);
    expect(errorCode(wd)).toBe('session not created');

    // A session of the owner is invisible to the stranger on every transport.
    const session = await df(a, 'POST', '/sessions', { deviceId: device.id });
    expect(session.status).toBe(201);
    try {
      expect((await df(b, 'GET', `/sessions/${session.body.id}`)).status).toBe(404);
      expect((await df(b, 'POST', `/sessions/${session.body.id}/invitations`, { link: true, access: 'view' })).status).toBe(404);
      expect((await http(server.url, 'GET', `/df/devtools/${session.body.id}/json/version`, { token: b.token })).status).toBe(404);
      const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${session.body.id}?access_token=${b.token}`);
      expect((await viewer.closed).code).toBe(4404);
    } finally {
      await df(a, 'DELETE', `/sessions/${session.body.id}`);
    }
  });

  it('refuses a hello with no token, a wrong token or a revoked one, says why in the agent log, and its devices never appear', async () => {
    const none = await startAgent('tokenless', {});
    const forged = await startAgent('forged', { hostToken: `dfh_${randomUUID()}_${'x'.repeat(43)}` });
    const enrolled = await df(a, 'POST', '/hosts', { name: 'soon revoked' });
    expect(enrolled.status).toBe(201);
    expect((await df(a, 'DELETE', `/hosts/${enrolled.body.id}`)).status).toBe(204);
    const revoked = await startAgent('revoked', { hostToken: enrolled.body.token });

    expect((await refusedWith(none, 'HOST_TOKEN_MISSING')).message).toMatch(/enrol/);
    await refusedWith(forged, 'HOST_TOKEN_INVALID');
    await refusedWith(revoked, 'HOST_REVOKED');
    for (const name of ['tokenless', 'forged', 'revoked']) {
      const lines = agentLog.filter((l) => l.agent === name && l.msg === 'the service refused this host');
      expect(lines.length, `${name} logs its refusal`).toBeGreaterThan(0);
    }
    // Refused before anything was written: no company sees them, not even as offline devices.
    const names = [...(await deviceNames(a)), ...(await deviceNames(b))];
    expect(names.filter((n) => /tokenless|forged|revoked/.test(n))).toEqual([]);
    const store = server.process.platform.store;
    const connected = await store.readAll({ filter: { eventTypes: ['DeviceConnected'] } });
    expect(connected.filter((e) => /tokenless|forged|revoked/.test(JSON.stringify(e.payload)))).toEqual([]);
  });

  it('binds an enrolled host to its company and workspaces; re-scoping, renaming and listing work, and only there', async () => {
    const ws2 = (await client(server.url, a.token).post('/workspaces', { name: 'Lab two' })).body as { id: number };
    const enrolled = await df(a, 'POST', '/hosts', { name: 'Lab rack 2', workspaceIds: [ws2.id] });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body).toMatchObject({ name: 'Lab rack 2', workspaceIds: [ws2.id] });
    expect(enrolled.body.token).toMatch(/^dfh_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
    expect(enrolled.headers.get('cache-control')).toBe('no-store');
    // Enrolled but never connected: waiting for its first connection, not active.
    const waiting = await df(a, 'GET', '/hosts');
    expect((waiting.body.content as { id: string }[]).find((h) => h.id === enrolled.body.id)).toMatchObject({ status: 'pending', firstConnectedAt: null, devices: { total: 0, online: 0 } });
    await startAgent('rack2', { hostToken: enrolled.body.token });
    await eventually(async () => ((await df(a, 'GET', `/hosts/${enrolled.body.id}`)).body.status === 'active' ? true : undefined), { what: 'the host active after its first hello' });
    expect((await df(a, 'GET', `/hosts/${enrolled.body.id}`)).body.firstConnectedAt).toEqual(expect.any(String));

    await eventually(async () => ((await deviceNames(a, ws2.id)).includes('rack2 phone') ? true : undefined), { what: 'the enrolled host in its workspace' });
    expect(await deviceNames(a)).not.toContain('rack2 phone');
    expect(await deviceNames(b)).toEqual([]);

    const listed = await df(a, 'GET', '/hosts');
    const row = (listed.body.content as { id: string }[]).find((h) => h.id === enrolled.body.id);
    expect(row).toMatchObject({ name: 'Lab rack 2', status: 'active', workspaceIds: [ws2.id], devices: { total: 1, online: 1 } });
    expect(JSON.stringify(listed.body)).not.toContain(enrolled.body.token);
    expect((await df(b, 'GET', `/hosts/${enrolled.body.id}`)).status).toBe(404);
    expect((await df(b, 'DELETE', `/hosts/${enrolled.body.id}`)).status).toBe(404);
    expect((await df(b, 'GET', '/hosts')).body.content).toEqual([]);

    // Every workspace of the company, then a new name.
    const rescoped = await df(a, 'PUT', `/hosts/${enrolled.body.id}`, { workspaceIds: null, name: 'Lab rack 2b' });
    expect(rescoped.body).toMatchObject({ name: 'Lab rack 2b', workspaceIds: null });
    expect(await deviceNames(a)).toContain('rack2 phone');
    // Another company's workspace is not a place for this host.
    const foreign = await df(a, 'PUT', `/hosts/${enrolled.body.id}`, { workspaceIds: [b.workspaceId] });
    expect([foreign.status, errorCode(foreign)]).toEqual([404, 'NOT_FOUND']);
    expect((await df(a, 'POST', '/hosts', { name: '' })).status).toBe(400);
  });

  it('revoking a host takes its devices offline, ends their sessions and refuses the host from then on', async () => {
    const enrolled = await df(a, 'POST', '/hosts', { name: 'To be revoked' });
    const agent = await startAgent('doomed', { hostToken: enrolled.body.token });
    const device = await eventually(async () => {
      const r = await df(a, 'GET', '/devices?search=doomed');
      return (r.body.content as { id: string; status: string }[]).find((d) => d.status === 'available');
    });
    const session = await df(a, 'POST', '/sessions', { deviceId: device.id });
    expect(session.status).toBe(201);

    expect((await df(a, 'DELETE', `/hosts/${enrolled.body.id}`)).status).toBe(204);
    expect((await df(a, 'GET', `/sessions/${session.body.id}`)).body).toMatchObject({ status: 'ended', endReason: 'host-revoked' });
    expect((await df(a, 'GET', `/devices/${device.id}`)).body.status).toBe('offline');
    expect((await df(a, 'GET', `/hosts/${enrolled.body.id}`)).body).toMatchObject({ status: 'revoked', devices: { online: 0 } });
    await refusedWith(agent, 'HOST_REVOKED');
    // Still offline once the agent has been refused: nothing brings the device back.
    expect((await df(a, 'GET', `/devices/${device.id}`)).body.status).toBe('offline');
    expect(errorCode(await df(a, 'PUT', `/hosts/${enrolled.body.id}`, { name: 'again' }))).toBe('HOST_REVOKED');
  });

  it('a rotated token replaces the old one', async () => {
    const enrolled = await df(a, 'POST', '/hosts', { name: 'Rotating' });
    const rotated = await df(a, 'POST', `/hosts/${enrolled.body.id}/token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(enrolled.body.token);
    const stale = await startAgent('stale', { hostToken: enrolled.body.token });
    await refusedWith(stale, 'HOST_TOKEN_INVALID');
    await startAgent('fresh', { hostToken: rotated.body.token });
    await eventually(async () => ((await deviceNames(a)).includes('fresh phone') ? true : undefined), { what: 'the host with its new token' });
  });
});

describe('public sign-up', () => {
  it('can be switched off by the operator: 403 SIGNUP_DISABLED, and nothing is created', async () => {
    const closed = await startTestServer({ PUBLIC_SIGNUP: 'false', AGENT_ENABLED: 'false' });
    try {
      const r = await http(closed.url, 'POST', '/api/v1/auth/signup', { body: { email: 'x@example.test', password: 'correct horse battery', name: 'X', companyName: 'X Co' } });
      expect([r.status, errorCode(r)]).toEqual([403, 'SIGNUP_DISABLED']);
      expect((await http(closed.url, 'POST', '/api/v1/auth/login', { body: { username: 'x@example.test', password: 'correct horse battery' } })).status).toBe(401);
    } finally {
      await closed.stop();
    }
  }, 60_000);
});
