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

describe('input hygiene on POST /oauth/token, answered in its own format', () => {
  /** A raw request to the token endpoint: the answer is always 4xx with the RFC 6749 fields beside the platform's. */
  async function token(init: { query?: string; body?: string; contentType?: string; authorization?: string }): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {};
    if (init.contentType) headers['content-type'] = init.contentType;
    if (init.authorization !== undefined) headers.authorization = init.authorization;
    const res = await fetch(`${server.url}/oauth/token${init.query ?? ''}`, { method: 'POST', headers, ...(init.body !== undefined ? { body: init.body } : {}) });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) };
  }

  function expectOAuthRefusal(res: { status: number; body: any }, status: number, code: string, error = 'invalid_request'): void {
    expect([res.status, res.body.code, res.body.error]).toEqual([status, code, error]);
    expect(res.body).toMatchObject({ statusCode: status, error_description: expect.any(String), message: expect.any(String) });
    expect(res.body.error_description).toBe(res.body.message);
  }

  const form = 'application/x-www-form-urlencoded';
  const json = 'application/json';
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

  it('refuses unstorable text in every form field with 400 INVALID_INPUT naming it', async () => {
    for (const field of ['grant_type', 'client_id', 'client_secret', 'scope']) {
      const res = await token({ contentType: form, body: field === 'grant_type' ? 'grant_type=a%00b' : `grant_type=client_credentials&${field}=a%00b` });
      expectOAuthRefusal(res, 400, 'INVALID_INPUT');
      expect(res.body.details).toEqual([{ path: `body.${field}`, message: expect.stringContaining('NUL character') }]);
    }
  });

  it('refuses form parameters holding percent-escapes that are not UTF-8', async () => {
    const res = await token({ contentType: form, body: 'grant_type=client_credentials&client_id=a%ED%A0%80b&client_secret=x' });
    expectOAuthRefusal(res, 400, 'INVALID_INPUT');
    expect(res.body.details).toEqual([{ path: 'body', message: expect.stringContaining('not UTF-8') }]);
  });

  it('refuses unstorable text in every JSON field, NUL or an unpaired surrogate', async () => {
    for (const field of ['grant_type', 'client_id', 'client_secret', 'scope']) {
      for (const bad of ['a\u0000b', 'a\ud800b', '\udfffz']) {
        const res = await token({ contentType: json, body: JSON.stringify({ grant_type: 'client_credentials', [field]: bad }) });
        expectOAuthRefusal(res, 400, 'INVALID_INPUT');
        expect(res.body.details[0].path).toBe(`body.${field}`);
      }
    }
    // An unstorable key is refused the same way.
    expectOAuthRefusal(await token({ contentType: json, body: '{"a\\u0000":"x","grant_type":"client_credentials"}' }), 400, 'INVALID_INPUT');
  });

  it('refuses unstorable text in the query, and percent-escapes that are not UTF-8', async () => {
    expectOAuthRefusal(await token({ query: '?x=a%00b', contentType: form, body: 'grant_type=client_credentials' }), 400, 'INVALID_INPUT');
    expectOAuthRefusal(await token({ query: '?x=a%ED%A0%80b', contentType: form, body: 'grant_type=client_credentials' }), 400, 'INVALID_INPUT');
  });

  it('refuses HTTP Basic garbage as invalid_request, never looking it up', async () => {
    const body = 'grant_type=client_credentials';
    for (const authorization of [
      basic('a%00b', 'secret'),
      basic('client', 'se%00cret'),
      basic('a\u0000b', 'secret'),
      basic('client', '%ED%A0%80'),
      basic('%zz', 'secret'),
      'Basic %00',
      'Basic',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
      'Bearer x.y.z',
      `Basic ${'A'.repeat(9000)}`,
    ]) {
      const res = await token({ contentType: form, body, authorization });
      expect([authorization.slice(0, 40), res.status, res.body.error]).toEqual([authorization.slice(0, 40), 400, 'invalid_request']);
      expect(res.body.code).toBe('INVALID_REQUEST');
    }
  });

  it('answers a malformed or absent body in the same format', async () => {
    expectOAuthRefusal(await token({}), 400, 'INVALID_REQUEST');
    expectOAuthRefusal(await token({ contentType: json, body: '' }), 400, 'INVALID_REQUEST');
    expectOAuthRefusal(await token({ contentType: json, body: '{"grant_type":' }), 400, 'INVALID_REQUEST');
    expectOAuthRefusal(await token({ contentType: json, body: '[1]' }), 400, 'INVALID_REQUEST');
    expectOAuthRefusal(await token({ contentType: form, body: `grant_type=${'x'.repeat(20_000)}` }), 400, 'INVALID_REQUEST');
    expectOAuthRefusal(await token({ contentType: 'text/xml', body: '<x/>' }), 400, 'INVALID_REQUEST');
  });
});
