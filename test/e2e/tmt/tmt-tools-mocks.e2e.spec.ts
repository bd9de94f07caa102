import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

/** Mock services: definitions over the authenticated API, and the public dispatch answered with no credential. */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let A: Client;
const users = { reader: '', writer: '' };
const MOCKS = '/tmt/api/v1/mock-services';

function tmt(token: string, workspaceId: number) {
  const headers = { 'x-workspace-id': String(workspaceId) };
  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    http(server.url, method, path, { token, headers, ...(body !== undefined ? { body } : {}) });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    put: (path: string, body?: unknown) => call('PUT', path, body ?? {}),
    delete: (path: string) => call('DELETE', path),
  };
}
let ta: ReturnType<typeof tmt>;

/** A call to the public dispatch with no credential; the body as text. */
async function callMock(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(new URL(path, server.url), init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: performance.now() - started };
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  a = await signUpCompany(server.url, 'mocks');
  A = client(server.url, a.token);
  ta = tmt(a.token, a.workspaceId);
  const roleOf = async (name: string, permissions: string[]) => (await A.post('/roles', { name, permissions })).body.id as number;
  for (const [key, permissions] of [
    ['reader', ['TMT_READ']],
    ['writer', ['TMT_READ', 'TMT_WRITE']],
  ] as const) {
    const u = await createActiveUser(server.url, A, smtp.mails, { email: `${key}@mocks.test`, roleIds: [await roleOf(key, [...permissions])] });
    await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: u.id });
    users[key] = u.token;
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const usersApi = {
  name: 'Users API',
  module: 'shop',
  routes: [
    { method: 'GET', path: '/users/:id', status: 200, headers: { 'X-Mock': 'users', 'Cache-Control': 'max-age=5' }, body: { id: 7, name: 'Ada' } },
    { method: 'POST', path: '/users', status: 201, headers: { 'Content-Type': 'text/csv' }, body: 'id,name\n8,Grace' },
    { method: 'DELETE', path: '/users/:id', status: 204 },
    { method: 'GET', path: '/slow', status: 200, body: 'late', delayMs: 700 },
    { method: 'ANY', path: '/files/*', status: 202, body: 'any method, any depth' },
    { method: 'GET', path: '/', status: 200, body: 'root' },
    { method: 'GET', path: '/teapot', status: 418, body: '"a JSON string"' },
  ],
};

describe('mock service definitions', () => {
  it('creates a mock with an unguessable public URL, lists, reads, replaces, switches off and on, and deletes it', async () => {
    const created = await ta.post(MOCKS, usersApi);
    expect(created.status).toBe(201);
    const m = created.body;
    expect(m).toMatchObject({ name: 'Users API', module: 'shop', enabled: true, calls: { count: 0, lastCalledAt: null }, createdBy: a.userId });
    expect(m.publicId).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(m.publicPath).toBe(`/tmt/api/v1/public/shop/mock-services/${m.publicId}`);
    expect(m.publicUrl).toMatch(new RegExp(`/tmt/api/v1/public/shop/mock-services/${m.publicId}$`));
    expect(m.routes[2]).toEqual({ method: 'DELETE', path: '/users/:id', status: 204, headers: {}, delayMs: 0 });
    expect(m.routes[0].body).toEqual({ id: 7, name: 'Ada' });
    expect((await ta.get(`${MOCKS}/${m.id}`)).body).toEqual(m);
    expect((await ta.get(`${MOCKS}?module=shop`)).body.content.map((x: { id: string }) => x.id)).toEqual([m.id]);
    expect((await ta.get(`${MOCKS}?module=other`)).body.totalElements).toBe(0);

    const second = await ta.post(MOCKS, { ...usersApi, name: 'Replace me', enabled: false });
    expect(second.body.enabled).toBe(false);
    const put = await ta.put(`${MOCKS}/${second.body.id}`, { name: 'Replaced', module: 'v2', routes: [{ method: '*', path: '*', status: 503 }] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Replaced', module: 'v2', publicId: second.body.publicId, enabled: false, routes: [{ method: 'ANY', path: '*', status: 503, headers: {}, delayMs: 0 }] });
    expect((await callMock(put.body.publicPath)).status).toBe(404);
    expect((await ta.post(`${MOCKS}/${second.body.id}/enable`)).body.enabled).toBe(true);
    expect((await callMock(`${put.body.publicPath}/x`)).status).toBe(503);
    expect((await ta.post(`${MOCKS}/${second.body.id}/disable`)).body.enabled).toBe(false);
    expect((await callMock(`${put.body.publicPath}/x`)).status).toBe(404);
    expect((await ta.delete(`${MOCKS}/${second.body.id}`)).status).toBe(204);
    expect((await ta.get(`${MOCKS}/${second.body.id}`)).status).toBe(404);
    expect((await ta.delete(`${MOCKS}/${second.body.id}`)).status).toBe(404);
    await ta.post(`${MOCKS}/${second.body.id}/enable`).then((r) => expect(r.status).toBe(404));
    // The name is free again.
    expect((await ta.post(MOCKS, { ...usersApi, name: 'replaced' })).status).toBe(201);
  });

  it('refuses bad definitions with 400 and details, duplicate names with 409, unknown ids with 404, and changes nothing', async () => {
    const before = (await ta.get(`${MOCKS}?size=200`)).body.totalElements;
    const route = { method: 'GET', path: '/x', status: 200 };
    const bad: [string, Record<string, unknown>, string][] = [
      ['status below 200', { routes: [{ ...route, status: 100 }] }, 'routes.0.status'],
      ['status above 599', { routes: [{ ...route, status: 600 }] }, 'routes.0.status'],
      ['fractional status', { routes: [{ ...route, status: 200.5 }] }, 'routes.0.status'],
      ['header name', { routes: [{ ...route, headers: { 'Bad Header': 'x' } }] }, 'routes.0.headers.Bad Header'],
      ['forbidden header', { routes: [{ ...route, headers: { 'Transfer-Encoding': 'chunked' } }] }, 'routes.0.headers.Transfer-Encoding'],
      ['header injection', { routes: [{ ...route, headers: { 'X-A': 'a\r\nSet-Cookie: x=y' } }] }, 'routes.0.headers.X-A'],
      ['body too large', { routes: [{ ...route, body: 'x'.repeat(64 * 1024 + 1) }] }, 'routes.0.body'],
      ['body on 204', { routes: [{ ...route, status: 204, body: 'x' }] }, 'routes.0.body'],
      ['delay too long', { routes: [{ ...route, delayMs: 10_001 }] }, 'routes.0.delayMs'],
      ['negative delay', { routes: [{ ...route, delayMs: -1 }] }, 'routes.0.delayMs'],
      ['unknown method', { routes: [{ ...route, method: 'BREW' }] }, 'routes.0.method'],
      ['path pattern', { routes: [{ ...route, path: 'no-slash' }] }, 'routes.0.path'],
      ['star in the middle', { routes: [{ ...route, path: '/a/*/b' }] }, 'routes.0.path'],
      ['unknown field', { routes: [{ ...route, sneaky: true }] }, 'routes.0'],
      ['no routes', { routes: [] }, 'routes'],
      ['module with slash', { module: 'a/b', routes: [route] }, 'module'],
      ['module "download"', { module: 'download', routes: [route] }, 'module'],
      ['empty name', { name: ' ', routes: [route] }, 'name'],
    ];
    for (const [label, change, path] of bad) {
      const r = await ta.post(MOCKS, { name: `Bad ${label}`, module: 'api', ...change });
      expect(r.status, label).toBe(400);
      expect(r.body.code, label).toBe('VALIDATION_FAILED');
      expect(r.body.details.map((d: { path: string }) => d.path), label).toContain(path);
    }
    expect((await ta.post(MOCKS, { name: 'No module', routes: [route] })).status).toBe(400);
    expect((await ta.post(MOCKS, { name: 'Bad enabled', module: 'api', routes: [route], enabled: 'yes' })).status).toBe(400);

    const one = await ta.post(MOCKS, { name: 'Payments', module: 'api', routes: [route] });
    const two = await ta.post(MOCKS, { name: 'Orders', module: 'api', routes: [route] });
    const dup = await ta.post(MOCKS, { name: 'PAYMENTS', module: 'other', routes: [route] });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('NAME_TAKEN');
    expect((await ta.put(`${MOCKS}/${two.body.id}`, { name: 'payments', module: 'api', routes: [route] })).status).toBe(409);
    expect((await ta.put(`${MOCKS}/${one.body.id}`, { name: 'Payments', module: 'api', routes: [{ ...route, status: 42 }] })).status).toBe(400);
    expect((await ta.get(`${MOCKS}/${two.body.id}`)).body.name).toBe('Orders');
    expect((await ta.get(`${MOCKS}/${one.body.id}`)).body.routes[0].status).toBe(200);

    const unknown = randomUUID();
    expect((await ta.get(`${MOCKS}/${unknown}`)).status).toBe(404);
    expect((await ta.put(`${MOCKS}/${unknown}`, { name: 'N', module: 'api', routes: [route] })).status).toBe(404);
    expect((await ta.post(`${MOCKS}/${unknown}/enable`)).status).toBe(404);
    expect((await ta.post(`${MOCKS}/${unknown}/disable`)).status).toBe(404);
    expect((await ta.delete(`${MOCKS}/${unknown}`)).status).toBe(404);
    expect((await ta.get(`${MOCKS}/nope`)).status).toBe(400);
    expect((await ta.get(`${MOCKS}?size=200`)).body.totalElements).toBe(before + 2);
  });

  it('reads with TMT_READ, changes with TMT_WRITE, deletes with TMT_DELETE (403 otherwise)', async () => {
    const m = (await ta.post(MOCKS, { name: 'Guarded', module: 'api', routes: [{ method: 'GET', path: '*', status: 200 }] })).body;
    const reader = tmt(users.reader, a.workspaceId);
    const writer = tmt(users.writer, a.workspaceId);
    expect((await reader.get(MOCKS)).status).toBe(200);
    expect((await reader.get(`${MOCKS}/${m.id}`)).status).toBe(200);
    for (const r of [
      await reader.post(MOCKS, { name: 'By reader', module: 'api', routes: [{ method: 'GET', path: '*', status: 200 }] }),
      await reader.put(`${MOCKS}/${m.id}`, { name: 'Owned', module: 'api', routes: [{ method: 'GET', path: '*', status: 500 }] }),
      await reader.post(`${MOCKS}/${m.id}/disable`),
      await reader.post(`${MOCKS}/${m.id}/enable`),
      await reader.delete(`${MOCKS}/${m.id}`),
      await writer.delete(`${MOCKS}/${m.id}`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    expect((await writer.post(`${MOCKS}/${m.id}/disable`)).body.enabled).toBe(false);
    expect((await ta.get(`${MOCKS}/${m.id}`)).body).toMatchObject({ name: 'Guarded', enabled: false });
    expect((await http(server.url, 'GET', MOCKS)).status).toBe(401);
  });
});

describe('public mock dispatch', () => {
  let base: string;
  let mockId: string;
  let publicId: string;
  beforeAll(async () => {
    const m = (await ta.post(MOCKS, { ...usersApi, name: 'Dispatch' })).body;
    base = m.publicPath;
    mockId = m.id;
    publicId = m.publicId;
  });

  it('answers the first matching route: status, headers and body as defined, with no credential', async () => {
    const user = await callMock(`${base}/users/42`);
    expect(user.status).toBe(200);
    expect(user.headers.get('x-mock')).toBe('users');
    expect(user.headers.get('cache-control')).toBe('max-age=5');
    expect(user.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(user.text)).toEqual({ id: 7, name: 'Ada' });

    const created = await callMock(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<not-json' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('text/csv');
    expect(created.text).toBe('id,name\n8,Grace');
    // A body the platform would refuse elsewhere (malformed JSON) is no business of a mock's.
    expect((await callMock(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' })).status).toBe(201);

    const deleted = await callMock(`${base}/users/42`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const head = await callMock(`${base}/users/42`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-mock')).toBe('users');
    expect(head.text).toBe('');

    for (const method of ['GET', 'PUT', 'PATCH', 'OPTIONS']) {
      const r = await callMock(`${base}/files/a/b/c.txt`, { method });
      expect(r.status, method).toBe(202);
      expect(r.text).toBe('any method, any depth');
    }
    expect((await callMock(base)).text).toBe('root');
    expect((await callMock(`${base}/`)).text).toBe('root');
    const teapot = await callMock(`${base}/teapot`);
    expect(teapot.status).toBe(418);
    expect(teapot.text).toBe('"a JSON string"');
    expect(teapot.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(teapot.headers.get('content-security-policy')).toContain('sandbox');
    // Even a wrong credential does not matter on a public path.
    expect((await callMock(`${base}/users/1`, { headers: { authorization: 'Bearer garbage' } })).status).toBe(200);
  });

  it('answers 404 with a JSON body when no route matches the method or path', async () => {
    for (const [method, path] of [
      ['PUT', '/users/42'],
      ['GET', '/users'],
      ['GET', '/users/42/orders'],
      ['GET', '/nothing'],
    ] as const) {
      const r = await callMock(`${base}${path}`, { method });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.headers.get('content-type')).toContain('application/json');
      const body = JSON.parse(r.text);
      expect(body.code).toBe('MOCK_ROUTE_NOT_MATCHED');
      expect(body.message).toBe(`No route of mock service "Dispatch" answers ${method} ${path}`);
    }
  });

  it('waits the route delay before answering', { timeout: 60_000 }, async () => {
    const slow = await callMock(`${base}/slow`);
    expect(slow.status).toBe(200);
    expect(slow.text).toBe('late');
    expect(slow.ms).toBeGreaterThanOrEqual(690);
  });

  it('answers 404 for an unknown public id, a wrong module, a disabled mock, and a workspace without test management', async () => {
    const unknown = await callMock(`/tmt/api/v1/public/shop/mock-services/${'x'.repeat(32)}/users/1`);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).code).toBe('NOT_FOUND');
    expect((await callMock(`/tmt/api/v1/public/other/mock-services/${publicId}/users/1`)).status).toBe(404);
    expect((await callMock(`/tmt/api/v1/public/SHOP/mock-services/${publicId}/users/1`)).status).toBe(404);

    await ta.post(`${MOCKS}/${mockId}/disable`);
    expect((await callMock(`${base}/users/1`)).status).toBe(404);
    await ta.post(`${MOCKS}/${mockId}/enable`);
    expect((await callMock(`${base}/users/1`)).status).toBe(200);

    const ws = (await A.post('/workspaces', { name: 'Mocks without TMT' })).body.id as number;
    const elsewhere = (await tmt(a.token, ws).post(MOCKS, { name: 'Soon off', module: 'api', routes: [{ method: 'GET', path: '*', status: 200 }] })).body;
    expect((await callMock(elsewhere.publicPath)).status).toBe(200);
    expect((await A.put(`/workspaces/${ws}/modules`, { modules: ['DF'] })).status).toBe(200);
    expect((await callMock(elsewhere.publicPath)).status).toBe(404);
  });

  it('counts calls and remembers the last one', async () => {
    const m = (await ta.post(MOCKS, { name: 'Counted', module: 'api', routes: [{ method: 'GET', path: '/hit', status: 200 }] })).body;
    const before = Date.now();
    for (let i = 0; i < 3; i++) expect((await callMock(`${m.publicPath}/hit`)).status).toBe(200);
    expect((await callMock(`${m.publicPath}/miss`)).status).toBe(404);
    const after = (await ta.get(`${MOCKS}/${m.id}`)).body;
    expect(after.calls.count).toBe(4);
    expect(Date.parse(after.calls.lastCalledAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await ta.get(`${MOCKS}?size=200`)).body.content.find((x: { id: string }) => x.id === m.id).calls.count).toBe(4);
  });
});
