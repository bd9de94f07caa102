import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { freePort } from '#test/helpers/adb.js';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

/**
 * The production shape on one machine: the organization (with the projections), the device module
 * and the gateway as three processes' worth of servers sharing PostgreSQL, Redis and NATS, the
 * gateway forwarding over HTTP (and relaying WebSocket upgrades). The device module runs its agent
 * with one simulated device.
 */
const ADMIN = { email: 'split-admin@example.com', password: 'split-password' };
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let organization: TestServer;
let df: TestServer;
let gateway: TestServer;

beforeAll(async () => {
  deployment = await sharedDeployment();
  const shared = deployment.env;
  organization = await startTestServer({ ...shared, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password }, [
    'organization',
    'projections',
  ]);
  df = await startTestServer(
    {
      ...shared,
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'split-node', heartbeatMs: 300, devices: [{ provider: 'simulated', name: 'Split sim', prepareMs: 50 }] }),
    },
    ['df'],
  );
  gateway = await startTestServer({ ...shared, ORGANIZATION_URL: organization.url, DF_URL: df.url }, ['gateway']);
});

afterAll(async () => {
  await gateway?.stop();
  await df?.stop();
  await organization?.stop();
  await deployment?.drop();
});

describe('split deployment', () => {
  it('signs in through the gateway, which forwards to the organization service', async () => {
    const r = await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN });
    expect(r.status).toBe(200);
    const tmt = await http(gateway.url, 'POST', '/tmt/api/v1/auth/login', { body: ADMIN });
    expect(tmt.status).toBe(200);
  });

  it("answers /health and /ready on every process's own server without a credential, the device module's too", async () => {
    // What load balancers and orchestrators call (Compose's health checks, Kubernetes' probes).
    for (const [name, server] of [['gateway', gateway], ['organization', organization], ['df', df]] as const) {
      expect((await http(server.url, 'GET', '/health')).status, `${name} /health`).toBe(200);
      const ready = await http(server.url, 'GET', '/ready');
      expect(ready.status, `${name} /ready`).toBe(200);
      expect(ready.body.status, `${name} /ready`).toBe('ready');
    }
    // Only the probes: the rest of the device module's own server still wants a credential.
    expect((await http(df.url, 'GET', '/api/devices')).status).toBe(401);
    expect((await http(df.url, 'GET', '/ready/x')).status).toBe(401);
  });

  it('forwards /df with the prefix stripped; the device module verifies the token itself', async () => {
    const { token } = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    const through = await http(gateway.url, 'GET', '/df/api/client-config', { token, headers: { 'x-request-id': 'split-1' } });
    expect(through.status).toBe(200);
    expect(through.body.workspaceId).toBe(1);
    expect(through.headers.get('x-request-id')).toBe('split-1');
    // The module's own server speaks without /df and still checks credentials and entitlement.
    const direct = await http(df.url, 'GET', '/api/client-config', { token });
    expect(direct.status).toBe(200);
    expect((await http(df.url, 'GET', '/api/client-config')).status).toBe(401);
    const wrongWs = await http(df.url, 'GET', '/api/client-config', { token, headers: { 'x-workspace-id': '77' } });
    expect(wrongWs.status).toBe(403);
    expect(errorCode(wrongWs)).toBe('INVALID_WORKSPACE');
    expect(wrongWs.body.message).toBe('Invalid X-Workspace-Id header');
  });

  it("answers the gateway's own refusals on /df/wd in the W3C shape WebDriver clients read", async () => {
    const r = await http(gateway.url, 'POST', '/df/wd/session', { body: { capabilities: { alwaysMatch: { browserName: 'chrome' } } } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ value: { error: 'unknown error', message: expect.any(String), stacktrace: '', data: { code: 'UNAUTHORIZED' } } });
  });

  it('honours an Idempotency-Key once, in the module that runs the handler: through the gateway and at the module alike', async () => {
    const { token } = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    const key = `split-${Date.now()}`;
    const upload = { name: 'split.apk', size: 10, contentType: 'application/vnd.android.package-archive' };
    const send = (base: string, path: string) => http(base, 'POST', path, { token, headers: { 'idempotency-key': key }, body: upload });
    const first = await send(gateway.url, '/df/api/files/presigned-upload');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send(gateway.url, '/df/api/files/presigned-upload');
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.fileId]).toEqual([201, 'true', first.body.fileId]);
    // The module's own server holds the key: the same request sent to it straight is the same request.
    const direct = await send(df.url, '/api/files/presigned-upload');
    expect([direct.status, direct.headers.get('idempotent-replayed'), direct.body.fileId]).toEqual([201, 'true', first.body.fileId]);
    const other = await http(gateway.url, 'POST', '/df/api/files/presigned-upload', { token, headers: { 'idempotency-key': key }, body: { ...upload, size: 11 } });
    expect([other.status, errorCode(other)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('a logout at the organization is honoured by every other service at once', async () => {
    const { token } = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    expect((await http(gateway.url, 'POST', '/api/v1/auth/logout', { token })).status).toBe(204);
    const atGateway = await http(gateway.url, 'GET', '/df/api/client-config', { token });
    expect(atGateway.status).toBe(401);
    expect(atGateway.body.code).toBe('TOKEN_REVOKED');
    const atModule = await http(df.url, 'GET', '/api/client-config', { token });
    expect(atModule.status).toBe(401);
    expect(errorCode(atModule)).toBe('TOKEN_REVOKED');
  });

  it('sign-up through the gateway is visible to sign-in on the next request (read-your-writes across services)', async () => {
    const body = { email: 'split-founder@example.com', password: 'founder-pass', name: 'F', companyName: 'Split Co' };
    expect((await http(gateway.url, 'POST', '/api/v1/auth/signup', { body })).status).toBe(201);
    expect((await http(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(200);
  });

  it('relays the viewer WebSocket under /df to the device module: frames out, input in, closes both ways', async () => {
    const { token } = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    const api = (method: string, path: string, body?: unknown) => http(gateway.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const device = await eventually(async () => (await api('GET', '/devices?status=available')).body.content?.[0] as { id: string } | undefined, { what: 'the simulated device' });
    const created = await api('POST', '/sessions', { deviceId: device.id, name: 'split viewer' });
    expect(created.status).toBe(201);
    const sessionId = created.body.id as string;
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}`)).body.status === 'active' ? true : undefined), { what: 'the session to start' });
    const ws = `${gateway.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}`;

    // The token in the query (as browsers send it) is carried to the module, which verifies it.
    const viewer = connectViewer(`${ws}?access_token=${token}`, { 'x-request-id': 'split-ws-1' });
    expect(await viewer.next((m) => m.type === 'hello')).toMatchObject({ sessionId, canControl: true });
    await viewer.framesAtLeast(1);
    expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    viewer.send({ type: 'input', id: 'split-in-1', action: { action: 'tap', x: 3, y: 4 } });
    expect(await viewer.next((m) => m.type === 'ack' && m.id === 'split-in-1')).toMatchObject({ action: 'tap' });
    // The simulated device remembers what was done to it.
    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    expect(tree.body.root.children.map((n: { name: string }) => JSON.parse(n.name))).toContainEqual({ action: 'tap', x: 3, y: 4 });
    expect((await api('GET', `/sessions/${sessionId}/viewers`)).body).toEqual([expect.objectContaining({ userId: 1, access: 'control', connections: 1 })]);
    // The client closes: the module sees its viewer leave.
    viewer.socket.close(1000, 'bye');
    expect((await viewer.closed).code).toBe(1000);
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}/viewers`)).body.length === 0 ? true : undefined), { what: 'the viewer to leave' });

    // The token as the first message, and the Authorization header, also pass through the gateway.
    const byMessage = connectViewer(ws);
    byMessage.send({ type: 'auth', token, workspaceId: 1 });
    await byMessage.next((m) => m.type === 'hello');
    await byMessage.framesAtLeast(1);
    byMessage.socket.close();
    await byMessage.closed;
    const byHeader = connectViewer(ws, { authorization: `Bearer ${token}`, 'x-workspace-id': '1' });
    await byHeader.next((m) => m.type === 'hello');

    // Without a token the module refuses, and its close code reaches the viewer. (A handshake the module
    // refuses over HTTP, e.g. a bad header token, gets the module's status; not asserted here because
    // the df server keeps such a refused socket open, which would hold its shutdown.)
    const anonymous = connectViewer(ws);
    anonymous.send({ type: 'ping' });
    expect((await anonymous.closed).code).toBe(4401);
    expect(anonymous.frames).toHaveLength(0);

    // The module closes (the session ends): the viewer behind the gateway is told and closed.
    expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    expect(await byHeader.next((m) => m.type === 'ended')).toMatchObject({ reason: 'user' });
    expect((await byHeader.closed).code).toBe(4000);
  });

  it('answers 502 when the module breaks its connection off mid-request, and 503 with a retry time when it refuses connections', async () => {
    // A module that dies while answering: it reads the request and closes the connection.
    const dying = createServer((socket) => socket.on('data', () => socket.destroy()).on('error', () => undefined));
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const dyingPort = (dying.address() as AddressInfo).port;
    const nowhere = await freePort();
    const cut = await startTestServer({ ...deployment.env, ORGANIZATION_URL: organization.url, DF_URL: `http://127.0.0.1:${dyingPort}` }, ['gateway']);
    const refused = await startTestServer({ ...deployment.env, ORGANIZATION_URL: organization.url, DF_URL: `http://127.0.0.1:${nowhere}` }, ['gateway']);
    try {
      const token = (await http(cut.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
      const broken = await http(cut.url, 'GET', '/df/api/devices', { token });
      expect(broken.status).toBe(502);
      expect(broken.body).toMatchObject({ code: 'BAD_GATEWAY', message: 'The module broke off its answer' });
      const down = await http(refused.url, 'GET', '/df/api/devices', { token });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(down.headers.get('retry-after')).toBe('5');
    } finally {
      await cut.stop();
      await refused.stop();
      await new Promise((resolve) => dying.close(resolve));
    }
  });

  it('answers a WebSocket upgrade to a path nobody relays as plain HTTP', async () => {
    const socket = connectViewer(`${gateway.url.replace('http', 'ws')}/api/v1/users`);
    expect((await socket.closed).code).toBe(401);
  });
});
