import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, runnerCall, runnerConnection } from '@qa-platform/client';
import { Api } from '../../cli/dfctl/api.js';
import { saveConfig } from '../../cli/dfctl/config.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * The clients send one `Idempotency-Key` per logical POST and keep it on a retry: through a loopback
 * proxy that forwards the first POST, lets the platform do it, and then drops the connection without an
 * answer, the typed client, the runners' calls and dfctl try again and get the first answer, and one
 * resource exists.
 */
let server: TestServer;
let proxy: Server;
let proxyUrl: string;
let a: SignedUpCompany;
let projectId: string;
/** POSTs the proxy saw, with their keys; `drops` POSTs still to be answered by a dropped connection. */
const posts: { path: string; key: string | undefined }[] = [];
let drops = 0;

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  a = await signUpCompany(server.url, 'idem-retry');
  const p = await http(server.url, 'POST', '/v1/projects', { token: a.token, headers: { 'x-workspace-id': String(a.workspaceId) }, body: { name: 'Retries', key: 'RETRY' } });
  projectId = p.body.data.id;
  proxy = createServer((req, res) => {
    void (async () => {
      const payload = await body(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      if (req.method === 'POST') posts.push({ path: req.url!, key: headers['idempotency-key'] });
      const upstream = await fetch(new URL(req.url!, server.url), { method: req.method!, headers, ...(payload.length > 0 ? { body: payload } : {}) });
      const answer = Buffer.from(await upstream.arrayBuffer());
      // The platform has done it and answered; the client never hears of it.
      if (req.method === 'POST' && drops > 0) {
        drops--;
        return void req.socket.destroy();
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream', ...(upstream.headers.get('idempotent-replayed') ? { 'idempotent-replayed': 'true' } : {}) });
      res.end(answer);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await server?.stop();
});

beforeEach(() => {
  posts.length = 0;
  drops = 0;
});

async function casesTitled(title: string): Promise<number> {
  const r = await http(server.url, 'GET', `/v1/test-cases?projectId=${projectId}&limit=100`, { token: a.token, headers: { 'x-workspace-id': String(a.workspaceId) } });
  return (r.body.data as { title: string }[]).filter((c) => c.title === title).length;
}

describe('a POST whose answer is lost', () => {
  it('the typed client sends it again with the same key and creates one test case', async () => {
    const client = createClient({ baseUrl: proxyUrl, token: a.token, workspaceId: a.workspaceId, retry: { wait: async () => undefined } });
    drops = 1;
    const { response } = await client.POST('/v1/test-cases', { body: { title: 'typed client', projectId, priority: 'medium', steps: [] } });
    expect([response.status, response.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(await casesTitled('typed client')).toBe(1);
    // The next logical request has a key of its own.
    await client.POST('/v1/test-cases', { body: { title: 'typed client', projectId, priority: 'medium', steps: [] } });
    expect(posts[2]!.key).not.toBe(posts[0]!.key);
    expect(await casesTitled('typed client')).toBe(2);
  });

  it("the runners' calls (the WebdriverIO service's and the Playwright fixture's runnerCall) send it again with the same key", async () => {
    const created = await http(server.url, 'POST', '/api/v1/api-keys', { token: a.token, headers: { 'x-workspace-id': String(a.workspaceId) }, body: { name: 'runner', scopes: ['write', 'read'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connection = { ...runnerConnection({ url: proxyUrl, apiKey: created.body.key as string, workspaceId: a.workspaceId }), retry: { wait: async () => undefined } };
    drops = 1;
    const answer = await runnerCall<{ data: { title: string } }>(connection, 'POST', '/v1/test-cases', { title: 'runner', projectId, priority: 'medium', steps: [] });
    expect(answer.data.title).toBe('runner');
    expect(posts.map((p) => p.key)).toEqual([posts[0]!.key, posts[0]!.key]);
    expect(await casesTitled('runner')).toBe(1);
  });

  it('dfctl sends it again with the same key and creates one test case', async () => {
    const configPath = join(mkdtempSync(join(tmpdir(), 'dfctl-idem-')), 'config.json');
    try {
      saveConfig({ server: proxyUrl, accessToken: a.token, workspaceId: a.workspaceId }, configPath);
      const api = new Api({ configPath });
      drops = 1;
      const created = await api.post<{ data: { id: string } }>('/v1/test-cases', { title: 'dfctl', projectId, priority: 'medium', steps: [] });
      expect(created.data.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts.map((p) => p.key)).toEqual([posts[0]!.key, posts[0]!.key]);
      expect(await casesTitled('dfctl')).toBe(1);
    } finally {
      rmSync(configPath, { force: true });
    }
  });
});
