import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '#shared/auth/index.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type JsonResponse, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * The credentials of the /v1 set (docs/api-conventions.md "The /v1 set"): API keys and OAuth clients are made and
 * revoked through /api/v1, work only on /v1 and only within their scopes, act as their creator in
 * their workspace, and stay inside their company.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let b: SignedUpCompany;
let A: Client;
let B: Client;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  a = await signUpCompany(server.url, 'cred-a');
  b = await signUpCompany(server.url, 'cred-b');
  A = client(server.url, a.token);
  B = client(server.url, b.token);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** A call with any bearer credential. */
const call = (method: string, path: string, bearer: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse> =>
  http(server.url, method, path, { token: bearer, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });

/** The error code, in the platform's shape or the /v1 envelope. */
const codeOf = (body: any): string | undefined => body?.code ?? body?.error?.code;
const messageOf = (body: any): string => String(body?.message ?? body?.error?.message ?? '');

let projectCounter = 0;
const newProjectBody = () => {
  projectCounter += 1;
  return { name: `Project ${projectCounter}`, key: `P${process.pid % 1000}X${projectCounter}`.slice(0, 10), description: 'made over /v1' };
};

async function createKey(c: Client, scopes: string[], name = `key ${scopes.join('+')}`, headers?: Record<string, string>) {
  const r = await c.post('/api-keys', { name, scopes }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; name: string; scopes: string[]; key: string; prefix: string; createdAt: string };
}

async function createOAuthClient(c: Client, scopes: string[], name = `client ${scopes.join('+')}`) {
  const r = await c.post('/oauth-clients', { name, scopes });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; clientId: string; clientSecret: string; name: string; scopes: string[] };
}

/** `POST /oauth/token` with a form body. */
async function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return http(server.url, 'POST', '/oauth/token', {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Every stored event and read-model row, as text, to look for secrets. */
async function storedText(): Promise<string> {
  const { db } = server.process.platform;
  const events = await db.query<{ t: string }>(`SELECT payload::text || metadata::text AS t FROM es_events`);
  const keys = await db.query(`SELECT * FROM org_api_keys`);
  const clients = await db.query(`SELECT * FROM org_oauth_clients`);
  return JSON.stringify([events.rows.map((r) => r.t), keys.rows, clients.rows]);
}

/** Polls until `check` passes or the deadline ends. */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('/v1 API keys: management', () => {
  it('creates, lists, reads and revokes keys; the value is in the creation answer only and stored hashed', { timeout: 60_000 }, async () => {
    const created = await A.post('/api-keys', { name: 'CI pipeline', scopes: ['write', 'read', 'read'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = created.body as { id: string; key: string; prefix: string; scopes: string[]; name: string; createdAt: string };
    expect(key.key).toMatch(/^qak_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.key.slice(0, 12));
    expect(key.scopes).toEqual(['read', 'write']);
    expect(key.name).toBe('CI pipeline');
    expect(Number.isNaN(Date.parse(key.createdAt))).toBe(false);

    const list = await A.get('/api-keys');
    expect(list.status).toBe(200);
    const listed = list.body.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ id: key.id, name: 'CI pipeline', prefix: key.prefix, scopes: ['read', 'write'], createdBy: a.userId, workspaceId: a.workspaceId, revokedAt: null, lastUsedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(key.key);
    const one = await A.get(`/api-keys/${key.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed);
    expect(JSON.stringify(one.body)).not.toContain(key.key);

    // Neither the event store nor the read model holds the key; the read model holds its SHA-256.
    const stored = await storedText();
    expect(stored).not.toContain(key.key);
    expect(stored).toContain(hashToken(key.key));
    const events = await server.process.platform.store.readStream(`api-key-${key.id}`);
    expect(events.map((e) => e.type)).toEqual(['ApiKeyCreated']);

    const revoked = await A.delete(`/api-keys/${key.id}`);
    expect(revoked.status).toBe(204);
    const after = await A.get(`/api-keys/${key.id}`);
    expect(after.body.revokedAt).not.toBeNull();
    expect((await A.delete(`/api-keys/${key.id}`)).status).toBe(204);
    expect((await server.process.platform.store.readStream(`api-key-${key.id}`)).map((e) => e.type)).toEqual(['ApiKeyCreated', 'ApiKeyRevoked']);
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const before = (await A.get('/api-keys')).body.length;
    for (const body of [{ name: 'x', scopes: [] }, { name: 'x', scopes: ['root'] }, { name: '', scopes: ['read'] }, { scopes: ['read'] }, { name: 'x' }]) {
      const r = await A.post('/api-keys', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await A.get('/api-keys')).body.length).toBe(before);
    expect((await A.get('/api-keys/not-a-uuid')).status).toBe(400);
    expect((await A.get('/api-keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('/v1 API keys: where and what', () => {
  it('a read key can GET /v1/projects but POST and DELETE are 403 INSUFFICIENT_SCOPE', { timeout: 60_000 }, async () => {
    const made = await call('POST', '/v1/projects', a.token, newProjectBody());
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { key } = await createKey(A, ['read']);
    const list = await call('GET', '/v1/projects', key);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(made.body.data.id);
    expect((await call('GET', `/v1/projects/${made.body.data.id}`, key)).status).toBe(200);

    const post = await call('POST', '/v1/projects', key, newProjectBody());
    expect(post.status).toBe(403);
    expect(codeOf(post.body)).toBe('INSUFFICIENT_SCOPE');
    expect(messageOf(post.body)).toContain('write');
    const del = await call('DELETE', `/v1/projects/${made.body.data.id}`, key);
    expect(del.status).toBe(403);
    expect(codeOf(del.body)).toBe('INSUFFICIENT_SCOPE');
    expect((await call('GET', `/v1/projects/${made.body.data.id}`, a.token)).status).toBe(200);
  });

  it('a write key can POST (and PUT) but not DELETE or GET', { timeout: 60_000 }, async () => {
    const { key } = await createKey(A, ['write']);
    const post = await call('POST', '/v1/projects', key, newProjectBody());
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const id = post.body.data.id as string;
    expect((await call('PUT', `/v1/projects/${id}`, key, { name: 'Renamed by key' })).status).toBe(200);
    const del = await call('DELETE', `/v1/projects/${id}`, key);
    expect(del.status).toBe(403);
    expect(codeOf(del.body)).toBe('INSUFFICIENT_SCOPE');
    const get = await call('GET', '/v1/projects', key);
    expect(get.status).toBe(403);
    expect(codeOf(get.body)).toBe('INSUFFICIENT_SCOPE');
  });

  it('an admin key can do everything on /v1; a delete key can DELETE', { timeout: 60_000 }, async () => {
    const { key } = await createKey(A, ['admin']);
    const post = await call('POST', '/v1/projects', key, newProjectBody());
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const id = post.body.data.id as string;
    expect((await call('GET', '/v1/projects', key)).status).toBe(200);
    expect((await call('PUT', `/v1/projects/${id}`, key, { description: 'changed' })).status).toBe(200);
    expect((await call('DELETE', `/v1/projects/${id}`, key)).status).toBe(200);
    expect((await call('GET', `/v1/projects/${id}`, key)).status).toBe(404);

    const other = (await call('POST', '/v1/projects', a.token, newProjectBody())).body.data.id as string;
    const deleter = await createKey(A, ['delete']);
    expect((await call('DELETE', `/v1/projects/${other}`, deleter.key)).status).toBe(200);
  });

  it('a key is refused (401) outside /v1, saying where it works; on the device API without its scope, 403 naming it', async () => {
    const { key } = await createKey(A, ['admin']);
    for (const path of ['/api/v1/users', '/api/v1/users/me', '/api/v1/api-keys', '/tmt/api/v1/anything']) {
      const r = await call('GET', path, key);
      expect(r.status, path).toBe(401);
      expect(r.body.code).toBe('UNAUTHORIZED');
      expect(r.body.message).toContain('/v1');
    }
    const devices = await call('GET', '/df/api/devices', key);
    expect(devices.status).toBe(403);
    expect(devices.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(devices.body.message).toContain('"devices" scope');
    // It cannot mint more credentials for itself either.
    expect((await call('POST', '/api/v1/api-keys', key, { name: 'more', scopes: ['admin'] })).status).toBe(401);
  });

  it('a revoked key, an unknown key and a key of a deactivated user are 401', { timeout: 60_000 }, async () => {
    const { id, key } = await createKey(A, ['read']);
    expect((await call('GET', '/v1/projects', key)).status).toBe(200);
    expect((await A.delete(`/api-keys/${id}`)).status).toBe(204);
    const revoked = await call('GET', '/v1/projects', key);
    expect(revoked.status).toBe(401);
    expect(codeOf(revoked.body)).toBe('UNAUTHORIZED');
    expect((await call('GET', '/v1/projects', `${key.slice(0, -2)}xx`)).status).toBe(401);

    const memberRole = ((await A.get('/roles')).body as { id: number; name: string }[]).find((r) => r.name === 'Member')!;
    const member = await createActiveUser(server.url, A, smtp.mails, { email: `leaver-${process.pid}@a.test`, roleIds: [memberRole.id] });
    expect((await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: member.id })).status).toBe(200);
    const M = client(server.url, member.token);
    const memberKey = await createKey(M, ['read'], 'member key', { 'x-workspace-id': String(a.workspaceId) });
    expect((await call('GET', '/v1/projects', memberKey.key)).status).toBe(200);
    expect((await A.put(`/users/${member.id}/status`, { status: 'deactivated' })).status).toBe(200);
    const gone = await call('GET', '/v1/projects', memberKey.key);
    expect(gone.status).toBe(401);
    expect(errorCode(gone)).toBe('UNAUTHORIZED');
    expect(messageOf(gone.body)).toContain('can no longer enter');
  });

  it('scopes narrow the user, never widen: a Viewer with an admin key still cannot write', { timeout: 60_000 }, async () => {
    const viewerRole = ((await A.get('/roles')).body as { id: number; name: string }[]).find((r) => r.name === 'Viewer')!;
    const viewer = await createActiveUser(server.url, A, smtp.mails, { email: `viewer-${process.pid}@a.test`, roleIds: [viewerRole.id] });
    expect((await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: viewer.id })).status).toBe(200);
    const V = client(server.url, viewer.token);
    const { key } = await createKey(V, ['admin'], 'viewer admin key', { 'x-workspace-id': String(a.workspaceId) });
    expect((await call('GET', '/v1/projects', key)).status).toBe(200);
    const post = await call('POST', '/v1/projects', key, newProjectBody());
    expect(post.status).toBe(403);
    expect(codeOf(post.body)).toBe('FORBIDDEN');

    // Their own key is theirs to see and revoke; the administrator's keys are not (404), and the
    // administrator (API_KEY_MANAGE) sees and revokes everyone's.
    const adminKey = await createKey(A, ['read'], 'admin-only key');
    const ws = { 'x-workspace-id': String(a.workspaceId) };
    const mine = await V.get('/api-keys', ws);
    expect(mine.body.map((k: { name: string }) => k.name)).toEqual(['viewer admin key']);
    expect((await V.get(`/api-keys/${adminKey.id}`, ws)).status).toBe(404);
    expect((await http(server.url, 'DELETE', `/api/v1/api-keys/${adminKey.id}`, { token: viewer.token, headers: ws })).status).toBe(404);
    expect((await A.get(`/api-keys/${adminKey.id}`)).body.revokedAt).toBeNull();
    const all = await A.get('/api-keys');
    const viewerKey = all.body.find((k: { name: string }) => k.name === 'viewer admin key');
    expect(viewerKey.createdBy).toBe(viewer.id);
    expect((await A.delete(`/api-keys/${viewerKey.id}`)).status).toBe(204);
    expect((await call('GET', '/v1/projects', key)).status).toBe(401);
  });

  it('records lastUsedAt after a key is used', { timeout: 60_000 }, async () => {
    const { id, key } = await createKey(A, ['read']);
    expect((await A.get(`/api-keys/${id}`)).body.lastUsedAt).toBeNull();
    const started = Date.now();
    expect((await call('GET', '/v1/projects', key)).status).toBe(200);
    const seen = await eventually(
      () => A.get(`/api-keys/${id}`),
      (r) => r.body.lastUsedAt !== null,
    );
    expect(seen.body.lastUsedAt).not.toBeNull();
    expect(Date.parse(seen.body.lastUsedAt)).toBeGreaterThanOrEqual(started - 1000);
    // Not an event: the key's stream still has only its creation.
    expect((await server.process.platform.store.readStream(`api-key-${id}`)).map((e) => e.type)).toEqual(['ApiKeyCreated']);
  });

  it('a user access token still works on /v1 without scope limits, and everywhere else', { timeout: 60_000 }, async () => {
    const post = await call('POST', '/v1/projects', a.token, newProjectBody());
    expect(post.status).toBe(201);
    expect((await call('GET', '/v1/projects', a.token)).status).toBe(200);
    expect((await call('DELETE', `/v1/projects/${post.body.data.id}`, a.token)).status).toBe(200);
    expect((await call('GET', '/api/v1/users/me', a.token)).status).toBe(200);
    expect((await call('GET', '/api/v1/api-keys', a.token)).status).toBe(200);
  });
});

describe('OAuth 2.0 client credentials', () => {
  it('creates, lists and reads clients; the secret is in the creation answer only and stored hashed', async () => {
    const created = await A.post('/oauth-clients', { name: 'Reporting', scopes: ['read'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const c = created.body as { id: string; clientId: string; clientSecret: string; name: string; scopes: string[] };
    expect(c).toMatchObject({ name: 'Reporting', scopes: ['read'] });
    expect(c.clientId).toMatch(/^qoc_/);
    expect(c.clientSecret).toMatch(/^qocs_/);
    const list = await A.get('/oauth-clients');
    expect(list.status).toBe(200);
    expect(list.body.find((x: { id: string }) => x.id === c.id)).toMatchObject({ clientId: c.clientId, name: 'Reporting', scopes: ['read'], createdBy: a.userId });
    expect(JSON.stringify(list.body)).not.toContain(c.clientSecret);
    const one = await A.get(`/oauth-clients/${c.id}`);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain(c.clientSecret);
    const stored = await storedText();
    expect(stored).not.toContain(c.clientSecret);
    expect(stored).toContain(hashToken(c.clientSecret));
  });

  it('issues a token for a form body, for HTTP Basic and for JSON; the token works on /v1 within its scopes', { timeout: 60_000 }, async () => {
    const c = await createOAuthClient(A, ['read', 'write']);
    const form = await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    expect(typeof form.body.access_token).toBe('string');

    const viaBasic = await tokenRequest({ grant_type: 'client_credentials', scope: 'read' }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(viaBasic.status, JSON.stringify(viaBasic.body)).toBe(200);
    expect(viaBasic.body.scope).toBe('read');

    const viaJson = await http(server.url, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'write' } });
    expect(viaJson.status, JSON.stringify(viaJson.body)).toBe(200);
    expect(viaJson.body.scope).toBe('write');

    const full = form.body.access_token as string;
    expect((await call('GET', '/v1/projects', full)).status).toBe(200);
    const post = await call('POST', '/v1/projects', full, newProjectBody());
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const del = await call('DELETE', `/v1/projects/${post.body.data.id}`, full);
    expect(del.status).toBe(403);
    expect(codeOf(del.body)).toBe('INSUFFICIENT_SCOPE');

    const readOnly = viaBasic.body.access_token as string;
    expect((await call('GET', '/v1/projects', readOnly)).status).toBe(200);
    const refused = await call('POST', '/v1/projects', readOnly, newProjectBody());
    expect(refused.status).toBe(403);
    expect(codeOf(refused.body)).toBe('INSUFFICIENT_SCOPE');

    // Not a user access token: refused outside /v1 and the areas its scopes open.
    for (const path of ['/api/v1/users/me', '/api/v1/oauth-clients']) {
      const r = await call('GET', path, full);
      expect(r.status, path).toBe(401);
      expect(r.body.message).toContain('/v1');
    }
    expect(codeOf((await call('GET', '/df/api/devices', full)).body)).toBe('INSUFFICIENT_SCOPE');
    const seen = await eventually(
      () => A.get(`/oauth-clients/${c.id}`),
      (r) => r.body.lastUsedAt !== null,
    );
    expect(seen.body.lastUsedAt).not.toBeNull();
  });

  it('answers token errors the RFC 6749 way, with the platform fields too', { timeout: 60_000 }, async () => {
    const c = await createOAuthClient(A, ['read']);
    const wrong = await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: `${c.clientSecret}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client', statusCode: 401, code: 'INVALID_CLIENT' });
    expect(typeof wrong.body.error_description).toBe('string');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrongBasic = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic(c.clientId, 'nope') });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.body.error).toBe('invalid_client');
    const unknown = await tokenRequest({ grant_type: 'client_credentials', client_id: 'qoc_nobody', client_secret: 'qocs_nothing' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
    const noAuth = await tokenRequest({ grant_type: 'client_credentials' });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.error).toBe('invalid_client');

    const grant = await tokenRequest({ grant_type: 'password', client_id: c.clientId, client_secret: c.clientSecret });
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({ error: 'unsupported_grant_type', code: 'UNSUPPORTED_GRANT_TYPE' });
    const missing = await tokenRequest({ client_id: c.clientId, client_secret: c.clientSecret });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const beyond = await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'read delete' });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ error: 'invalid_scope', code: 'INVALID_SCOPE' });
    const bogus = await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'everything' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error).toBe('invalid_scope');
    const twice = await http(server.url, 'POST', '/oauth/token', {
      rawBody: `grant_type=client_credentials&client_id=${c.clientId}&client_id=${c.clientId}&client_secret=${c.clientSecret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('invalid_request');
    const both = await tokenRequest({ grant_type: 'client_credentials', client_secret: c.clientSecret }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('invalid_request');
    const text = await http(server.url, 'POST', '/oauth/token', { rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expect(text.body.error).toBe('invalid_request');
    // The form parser is the token endpoint's only: elsewhere a form body stays a 415.
    expect((await http(server.url, 'POST', '/api/v1/auth/login', { rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
  });

  it("deleting a client revokes its tokens and its secret; it is gone from the list", { timeout: 60_000 }, async () => {
    const c = await createOAuthClient(A, ['admin']);
    const token = (await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret })).body.access_token as string;
    expect((await call('GET', '/v1/projects', token)).status).toBe(200);
    expect((await A.delete(`/oauth-clients/${c.id}`)).status).toBe(204);
    const after = await call('GET', '/v1/projects', token);
    expect(after.status).toBe(401);
    expect(codeOf(after.body)).toBe('TOKEN_REVOKED');
    const again = await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_client');
    expect((await A.get(`/oauth-clients/${c.id}`)).status).toBe(404);
    expect((await A.get('/oauth-clients')).body.map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect((await A.delete(`/oauth-clients/${c.id}`)).status).toBe(404);
  });

  it('a forged or tampered client token is refused', async () => {
    const c = await createOAuthClient(A, ['read']);
    const token = (await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret })).body.access_token as string;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'admin' })).toString('base64url');
    const r = await call('DELETE', '/v1/projects/00000000-0000-4000-8000-000000000000', `${h}.${widened}.${s}`);
    expect(r.status).toBe(401);
    expect(codeOf(r.body)).toBe('TOKEN_INVALID');
  });
});

describe('tenant walls', () => {
  it("company B cannot see, revoke or use company A's keys and clients (404)", { timeout: 60_000 }, async () => {
    const key = await createKey(A, ['read'], 'A private key');
    const c = await createOAuthClient(A, ['read'], 'A private client');
    expect((await B.get(`/api-keys/${key.id}`)).status).toBe(404);
    expect((await B.delete(`/api-keys/${key.id}`)).status).toBe(404);
    expect((await B.get(`/oauth-clients/${c.id}`)).status).toBe(404);
    expect((await B.delete(`/oauth-clients/${c.id}`)).status).toBe(404);
    expect(JSON.stringify((await B.get('/api-keys')).body)).not.toContain(key.id);
    expect(JSON.stringify((await B.get('/oauth-clients')).body)).not.toContain(c.id);
    expect((await A.get(`/api-keys/${key.id}`)).body.revokedAt).toBeNull();
    expect((await A.get(`/oauth-clients/${c.id}`)).status).toBe(200);
    // B's own client id with A's secret (or the reverse) authenticates nothing.
    const bClient = await createOAuthClient(B, ['read']);
    expect((await tokenRequest({ grant_type: 'client_credentials', client_id: bClient.clientId, client_secret: c.clientSecret })).status).toBe(401);
  });

  it("A's key cannot reach B's /v1 data (404 on B's ids) nor act in B's workspace", { timeout: 60_000 }, async () => {
    const bProject = await call('POST', '/v1/projects', b.token, newProjectBody());
    expect(bProject.status, JSON.stringify(bProject.body)).toBe(201);
    const bId = bProject.body.data.id as string;
    const { key } = await createKey(A, ['admin']);
    const c = await createOAuthClient(A, ['admin']);
    const token = (await tokenRequest({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret })).body.access_token as string;
    for (const bearer of [key, token]) {
      expect((await call('GET', `/v1/projects/${bId}`, bearer)).status).toBe(404);
      expect((await call('PUT', `/v1/projects/${bId}`, bearer, { name: 'taken over' })).status).toBe(404);
      expect((await call('DELETE', `/v1/projects/${bId}`, bearer)).status).toBe(404);
      const list = await call('GET', '/v1/projects', bearer);
      expect(list.body.data.map((p: { id: string }) => p.id)).not.toContain(bId);
      const elsewhere = await call('GET', '/v1/projects', bearer, undefined, { 'x-workspace-id': String(b.workspaceId) });
      expect(elsewhere.status).toBe(403);
      expect(codeOf(elsewhere.body)).toBe('INVALID_WORKSPACE');
    }
    const still = await call('GET', `/v1/projects/${bId}`, b.token);
    expect(still.status).toBe(200);
    expect(still.body.data.name).toBe(bProject.body.data.name);
  });

  it('the module entitlement still applies: without TMT in its workspace a key is 403 MODULE_NOT_ENABLED', { timeout: 60_000 }, async () => {
    const c = await signUpCompany(server.url, 'cred-c');
    const C = client(server.url, c.token);
    const { key } = await createKey(C, ['admin']);
    expect((await call('GET', '/v1/projects', key)).status).toBe(200);
    expect((await C.put(`/workspaces/${c.workspaceId}/modules`, { modules: ['DF'] })).status).toBe(200);
    const r = await call('GET', '/v1/projects', key);
    expect(r.status).toBe(403);
    expect(codeOf(r.body)).toBe('MODULE_NOT_ENABLED');
  });
});

describe('test-cases over /v1 with a key', () => {
  it('a read key lists test cases and cannot create one', { timeout: 60_000 }, async () => {
    const project = await call('POST', '/v1/projects', a.token, newProjectBody());
    expect(project.status).toBe(201);
    const { key } = await createKey(A, ['read']);
    const list = await call('GET', `/v1/test-cases?projectId=${project.body.data.id}`, key);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.success).toBe(true);
    const post = await call('POST', '/v1/test-cases', key, { title: 'Log in', projectId: project.body.data.id, priority: 'high', steps: [] });
    expect(post.status).toBe(403);
    expect(codeOf(post.body)).toBe('INSUFFICIENT_SCOPE');
    const writer = await createKey(A, ['write']);
    const made = await call('POST', '/v1/test-cases', writer.key, { title: 'Log in', projectId: project.body.data.id, priority: 'high', steps: [{ action: 'open', expected: 'form' }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
});

describe('API documentation', () => {
  it('documents the credential endpoints, the form-encoded token request and its RFC 6749 errors', async () => {
    const doc = await http(server.url, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const token = doc.body.paths['/oauth/token'].post;
    expect(Object.keys(token.requestBody.content)).toEqual(expect.arrayContaining(['application/x-www-form-urlencoded', 'application/json']));
    expect(Object.keys(token.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    for (const path of ['/api/v1/api-keys', '/api/v1/api-keys/{id}', '/api/v1/oauth-clients', '/api/v1/oauth-clients/{id}']) {
      expect(doc.body.paths[path], path).toBeTruthy();
    }
  });
});
