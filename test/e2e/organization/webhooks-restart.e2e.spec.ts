import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { client, signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A delivery that is due survives a restart: its first attempt fails, the server stops before the
 * retry, and the server started again on the same data sends it (same `webhook-id`, still signed).
 */
let server: TestServer | null = null;
let dataDir = '';
let receiver: Server;
let receiverUrl: string;
let status = 500;
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await new Promise((resolve) => receiver?.close(resolve));
});

const env = { AGENT_ENABLED: 'false', WEBHOOK_RETRY_SCHEDULE: '10s' };

it('sends a delivery queued before a restart after it', { timeout: 180_000 }, async () => {
  const first = await startTestServer(env);
  server = first;
  dataDir = first.dataDir;
  const a = await signUpCompany(first.url, 'hooks-restart');
  const org = client(first.url, a.token);
  const hook = await org.post(`/workspaces/${a.workspaceId}/webhooks`, { url: receiverUrl, events: ['test_session.finished'] });
  expect(hook.status).toBe(201);
  const v1 = (method: string, path: string, body?: unknown) => http(first.url, method, `/v1${path}`, { token: a.token, headers: { 'x-workspace-id': String(a.workspaceId) }, ...(body ? { body } : {}) });
  const project = await v1('POST', '/projects', { name: 'Restart', key: 'RESTART' });
  const session = await v1('POST', '/test-sessions', { projectId: project.body.data.id, name: 'Before the restart' });
  for (const s of ['in_progress', 'completed']) expect((await v1('PUT', `/test-sessions/${session.body.data.id}`, { status: s })).status).toBe(200);
  const pending = await eventually(async () => {
    const log = (await org.get(`/workspaces/${a.workspaceId}/webhooks/${hook.body.id}/deliveries`)).body.content as { id: string; state: string; attempts: unknown[] }[];
    return log[0]?.attempts.length === 1 ? log[0] : undefined;
  }, { what: 'the first attempt recorded' });
  expect(pending.state).toBe('pending');
  // Stop the process, keeping its data directory.
  await first.process.stop();
  server = null;
  expect(received).toHaveLength(1);
  status = 204;

  server = await startTestServer({ ...env, DATA_DIR: dataDir });
  const again = client(server.url, (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: a.email, password: a.password } })).body.token);
  const delivered = await eventually(async () => {
    const log = (await again.get(`/workspaces/${a.workspaceId}/webhooks/${hook.body.id}/deliveries`)).body.content as { id: string; state: string; attempts: { status: number }[] }[];
    return log[0]?.state === 'delivered' ? log[0] : undefined;
  }, { what: 'the delivery sent after the restart', timeoutMs: 30_000 });
  expect(delivered.id).toBe(pending.id);
  expect(delivered.attempts.map((x) => x.status)).toEqual([500, 204]);
  expect(received).toHaveLength(2);
  expect(received[1]!.headers['webhook-id']).toBe(pending.id);
  expect(new Webhook(hook.body.secret).verify(received[1]!.body, received[1]!.headers)).toMatchObject({ type: 'test_session.finished', data: { name: 'Before the restart' } });
});
