import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { enrolHost, eventually } from '#test/helpers/df-farm.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * One key for a pipeline (docs/modules/credentials.md, "One key for a pipeline"): a `/v1` API key with the
 * scopes `devices` and `webhooks` runs a suite through the WebDriver hub, imports JUnit and manages the
 * workspace's webhooks; without a scope, the refusal names the scope the route wants; a key acts in its
 * own workspace only.
 */
let server: TestServer;
let agent: AgentHost;
let company: SignedUpCompany;
let pipelineKey: string;
/** A webhook receiver on loopback, and what it got. */
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

const JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="checkout" tests="2" failures="1">
  <testcase classname="checkout" name="adds to cart" time="0.2"/>
  <testcase classname="checkout" name="pays" time="0.4"><failure message="declined">card declined</failure></testcase>
</testsuite></testsuites>`;

const as = (key: string) => (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse> =>
  http(server.url, method, path, { token: key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  server = await startTestServer({ AGENT_ENABLED: 'false', DF_WD_QUEUE_TIMEOUT: '30s' });
  company = await signUpCompany(server.url, 'pipeline');
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, company.token, 'pipeline'), heartbeatMs: 300, devices: [] } });
  agent = new AgentHost({
    bus: server.process.platform.bus,
    config,
    logger: pino({ level: 'silent' }),
    providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: [{ name: 'Fake Pixel', osVersion: '14' }] })],
  });
  await agent.start();
  await eventually(async () => ((await http(server.url, 'GET', '/df/api/devices', { token: company.token })).body.content?.length === 1 ? true : undefined), { what: 'the fake device' });
  const made = await client(server.url, company.token).post('/api-keys', { name: 'pipeline', scopes: ['read', 'write', 'devices', 'webhooks'] });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.scopes).toEqual(['read', 'write', 'devices', 'webhooks']);
  pipelineKey = made.body.key;
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('one key for a pipeline', () => {
  it('runs a WebDriver session through /df/wd, and the session is the key creator\'s', { timeout: 60_000 }, async () => {
    const call = as(pipelineKey);
    const opened = await call('POST', '/df/wd/session', { capabilities: { alwaysMatch: { platformName: 'Android', 'df:name': 'pipeline run' } } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const sessionId = opened.body.value.sessionId as string;
    expect((await call('GET', `/df/wd/session/${sessionId}/url`)).status).toBe(200);
    const record = await call('GET', `/df/api/sessions/${sessionId}`);
    expect(record.status).toBe(200);
    expect(record.body.ownerId).toBe(company.userId);
    expect((await call('DELETE', `/df/wd/session/${sessionId}`)).status).toBe(200);
  });

  it('imports a JUnit report on /v1', async () => {
    const call = as(pipelineKey);
    const project = await call('POST', '/v1/projects', { name: 'Pipeline', key: 'PIPE' });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const imported = await http(server.url, 'POST', `/v1/projects/${project.body.data.id}/junit-imports`, {
      token: pipelineKey,
      rawBody: JUNIT,
      headers: { 'content-type': 'application/xml' },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.data).toMatchObject({ created: 2 });
  });

  it("creates, pings, rotates, reads the deliveries of and deletes a webhook of the key's workspace", async () => {
    const call = as(pipelineKey);
    const path = `/api/v1/workspaces/${company.workspaceId}/webhooks`;
    const created = await call('POST', path, { url: receiverUrl, events: ['session.ended'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const hook = `${path}/${created.body.id}`;
    expect((await call('GET', hook)).status).toBe(200);
    const ping = await call('POST', `${hook}/ping`);
    expect(ping.status, JSON.stringify(ping.body)).toBe(202);
    expect(ping.body.event).toBe('webhook.ping');
    const got = await eventually(async () => received.find((r) => r.headers['webhook-id'] === ping.body.id), { what: 'the ping at the receiver' });
    expect(new Webhook(created.body.secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
    const log = await eventually(async () => {
      const l = await call('GET', `${hook}/deliveries`);
      expect(l.status, JSON.stringify(l.body)).toBe(200);
      return l.body.content[0]?.state === 'delivered' ? l.body : undefined;
    }, { what: 'the ping delivered in the log' });
    expect(log.content.map((d: { id: string }) => d.id)).toEqual([ping.body.id]);
    const rotated = await call('POST', `${hook}/rotate-secret`, { overlapSeconds: 60 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await call('DELETE', hook)).status).toBe(204);
  });

  it('closes a session with its JUnit import, and its webhook hears test_session.finished with the counts by status', async () => {
    const call = as(pipelineKey);
    const hook = await call('POST', `/api/v1/workspaces/${company.workspaceId}/webhooks`, { url: receiverUrl, events: ['test_session.finished'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const project = await call('POST', '/v1/projects', { name: 'Pipeline hooks', key: 'PHOOK' });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const report = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="nightly" tests="4">
  <testcase classname="nightly" name="a" time="0.1"/>
  <testcase classname="nightly" name="b" time="0.1"/>
  <testcase classname="nightly" name="c" time="0.1"><failure message="no">no</failure></testcase>
  <testcase classname="nightly" name="d" time="0.1"><skipped/></testcase>
</testsuite></testsuites>`;
    const imported = await http(server.url, 'POST', `/v1/projects/${project.body.data.id}/junit-imports?name=nightly-42&close=true`, {
      token: pipelineKey,
      rawBody: report,
      headers: { 'content-type': 'application/xml' },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const got = await eventually(async () => received.find((r) => r.body.includes('"test_session.finished"') && r.body.includes('nightly-42')), { what: 'test_session.finished at the receiver' });
    const message = new Webhook(hook.body.secret).verify(got.body, got.headers as Record<string, string>) as { data: Record<string, unknown> };
    expect(message.data).toMatchObject({ projectId: project.body.data.id, name: 'nightly-42', workspaceId: company.workspaceId, results: { passed: 2, failed: 1, skipped: 1, blocked: 0, retest: 0, total: 4 } });
    expect((await call('DELETE', `/api/v1/workspaces/${company.workspaceId}/webhooks/${hook.body.id}`)).status).toBe(204);
  });

  it('refuses what its scopes do not cover, naming the scope the route wants', async () => {
    const v1Only = (await client(server.url, company.token).post('/api-keys', { name: 'v1 only', scopes: ['read', 'write'] })).body.key as string;
    const wd = await as(v1Only)('POST', '/df/wd/session', { capabilities: { alwaysMatch: { platformName: 'Android' } } });
    expect(wd.status).toBe(403);
    // The hub answers in the W3C shape, with the platform's code and message.
    expect(wd.body.value.data.code).toBe('INSUFFICIENT_SCOPE');
    expect(wd.body.value.message).toContain('"devices" scope');
    const hooksPath = `/api/v1/workspaces/${company.workspaceId}/webhooks`;
    const hooks = await as(v1Only)('GET', hooksPath);
    expect(hooks.status).toBe(403);
    expect(errorCode(hooks)).toBe('INSUFFICIENT_SCOPE');
    expect(hooks.body.message).toContain('"webhooks" scope');
    // Nor may it create one, or ping or read the deliveries of the pipeline's own: each names the scope.
    const mine = await as(pipelineKey)('POST', hooksPath, { url: receiverUrl, events: ['session.ended'] });
    expect(mine.status).toBe(201);
    for (const [method, path] of [['POST', hooksPath], ['POST', `${hooksPath}/${mine.body.id}/ping`], ['GET', `${hooksPath}/${mine.body.id}/deliveries`], ['POST', `${hooksPath}/${mine.body.id}/rotate-secret`]] as const) {
      const refused = await as(v1Only)(method, path, method === 'POST' ? { url: receiverUrl, events: ['session.ended'] } : undefined);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(errorCode(refused), `${method} ${path}`).toBe('INSUFFICIENT_SCOPE');
      expect(refused.body.message, `${method} ${path}`).toContain('"webhooks" scope');
    }
    expect((await as(pipelineKey)('GET', `${hooksPath}/${mine.body.id}/deliveries`)).body.totalElements).toBe(0);
    // The device scope does not open /v1 writes by itself.
    const devicesOnly = (await client(server.url, company.token).post('/api-keys', { name: 'devices only', scopes: ['devices'] })).body.key as string;
    expect(errorCode(await as(devicesOnly)('POST', '/v1/projects', { name: 'Nope', key: 'NOPE' }))).toBe('INSUFFICIENT_SCOPE');
    // Elsewhere in the organization API a key is still refused.
    expect(errorCode(await as(pipelineKey)('GET', '/api/v1/users'))).toBe('UNAUTHORIZED');
  });

  it("acts in its own workspace only: another workspace's webhooks are refused", async () => {
    const other = await client(server.url, company.token).post('/workspaces', { name: `Elsewhere ${process.pid}` });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const res = await as(pipelineKey)('GET', `/api/v1/workspaces/${other.body.id}/webhooks`);
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('INVALID_WORKSPACE');
  });
});
