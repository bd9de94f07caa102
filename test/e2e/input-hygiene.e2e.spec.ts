import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

// Text PostgreSQL or JSON cannot hold faithfully is refused at the edge with 400 INVALID_INPUT naming
// the field, and nothing is written (docs/api-conventions.md, "Input hygiene").
const ADMIN = { email: 'hygiene-admin@example.com', password: 'hygiene-password' };
let server: TestServer;
let token: string;
const ws = { 'x-workspace-id': '1' };

beforeAll(async () => {
  server = await startTestServer({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, AGENT_ENABLED: 'false' });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
});

afterAll(async () => {
  await server?.stop();
});

function expectInvalidInput(res: { status: number; body: any }, path: string, message = 'NUL character or an unpaired surrogate'): void {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('INVALID_INPUT');
  expect(res.body.details).toEqual([{ path, message: expect.stringContaining(message) }]);
}

describe('input hygiene at the edge', () => {
  it('refuses a NUL character in a body field and creates nothing', async () => {
    const res = await http(server.url, 'POST', '/api/v1/roles', { token, headers: ws, body: { name: 'a\u0000b', description: '', permissions: [] } });
    expectInvalidInput(res, 'body.name');
    const roles = await http(server.url, 'GET', '/api/v1/roles?size=200', { token, headers: ws });
    expect(roles.status).toBe(200);
    expect(JSON.stringify(roles.body)).not.toContain('a\\u0000b');
  });

  it('refuses an unpaired surrogate in a body field', async () => {
    expectInvalidInput(await http(server.url, 'POST', '/api/v1/workspaces', { token, body: { name: 'a\ud800b' } }), 'body.name');
    const v1 = await http(server.url, 'POST', '/v1/projects', { token, headers: ws, body: { name: 'P', key: 'PK', description: 'x\udfffy' } });
    expect(v1.status).toBe(400);
    expect(v1.body).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', details: [{ path: 'body.description' }] } });
  });

  it('refuses a NUL byte in a query value, on the device list and a /df key', async () => {
    expectInvalidInput(await http(server.url, 'GET', '/df/api/devices?search=a%00b', { token, headers: ws }), 'query.search');
    expectInvalidInput(await http(server.url, 'POST', '/df/api/keys', { token, headers: ws, body: { name: 'k\u0000' } }), 'body.name');
  });

  it('refuses percent-escapes that are not UTF-8 (an encoded lone surrogate) in a query or a path', async () => {
    expectInvalidInput(await http(server.url, 'GET', '/df/api/devices?search=a%ED%A0%80b', { token, headers: ws }), 'query', 'not UTF-8');
    expectInvalidInput(await http(server.url, 'GET', '/df/api/devices/a%FFb', { token, headers: ws }), 'path', 'not UTF-8');
    expectInvalidInput(await http(server.url, 'GET', '/df/api/devices/a%ED%A0%80b', { token, headers: ws }), 'path', 'not UTF-8');
    // Well-formed UTF-8 escapes are text like any other.
    expect((await http(server.url, 'GET', '/df/api/devices?search=%C3%A9t%C3%A9', { token, headers: ws })).status).toBe(200);
  });

  it('refuses a NUL byte in path parameters of a public endpoint, with no token', async () => {
    const res = await http(server.url, 'GET', '/tmt/api/v1/public/a%00b/mock-services/a%00b');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details[0].path).toMatch(/^params\./);
  });

  it('answers the /v1 envelope on /v1 paths', async () => {
    const res = await http(server.url, 'GET', '/v1/projects?search=%00', { token, headers: ws });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', details: [{ path: 'query.search' }] } });
  });

  it('still accepts well-formed text beyond ASCII', async () => {
    const res = await http(server.url, 'POST', '/api/v1/roles', { token, headers: ws, body: { name: 'Prüfer 😀', description: 'ok', permissions: [] } });
    expect(res.status).toBe(201);
  });
});
