import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

const ADMIN = { email: 'gw-admin@example.com', password: 'gateway-password' };
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    PLATFORM_DOMAIN: 'qa.example.com',
    BODY_LIMIT: String(64 * 1024),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
});

afterAll(async () => {
  await server?.stop();
});

/** A workspace of company 1 with only the given modules, written as the organization would. */
async function workspaceWithModules(workspaceId: number, modules: string[]): Promise<void> {
  const { store, runner } = server.process.platform ? { store: server.process.platform.store, runner: server.process.runner! } : (null as never);
  const result = await store.append(
    `workspace-${workspaceId}`,
    [
      {
        type: 'WorkspaceCreated',
        payload: { workspaceId, companyId: 1, name: `Limited ${workspaceId}`, description: '', settings: {}, modules },
        metadata: { actorId: 1, companyId: 1, workspaceId, occurredAt: new Date().toISOString() },
      },
    ],
    'no_stream',
  );
  await runner.waitFor(result.position);
}

describe('routing', () => {
  it('rewrites /tmt/api/v1/auth/** to the organization sign-in', async () => {
    const r = await http(server.url, 'POST', '/tmt/api/v1/auth/login', { body: ADMIN });
    expect(r.status).toBe(200);
    expect(r.body.token).toBeTruthy();
    const refreshed = await http(server.url, 'POST', '/tmt/api/v1/auth/refresh', { body: { refreshToken: r.body.refreshToken } });
    expect(refreshed.status).toBe(200);
  });

  it('does not route a device path without the /df prefix', async () => {
    const r = await http(server.url, 'GET', '/api/client-config', { token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('ROUTE_NOT_FOUND');
    const ok = await http(server.url, 'GET', '/df/api/client-config', { token });
    expect(ok.status).toBe(200);
  });

  it('answers unknown paths with a JSON 404 carrying the request id', async () => {
    const r = await http(server.url, 'GET', '/nowhere', { token, headers: { 'x-request-id': 'req-abc-123' } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ statusCode: 404, code: 'ROUTE_NOT_FOUND', error: 'Not Found' });
    expect(r.headers.get('x-request-id')).toBe('req-abc-123');
  });

  it('serves the OpenAPI document generated from the route schemas, and Swagger UI', async () => {
    const doc = await http(server.url, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/api/v1/auth/login'].post.requestBody).toBeTruthy();
    expect(doc.body.paths['/df/api/client-config'].get).toBeTruthy();
    // Errors are documented with the one error shape.
    const loginResponses = doc.body.paths['/api/v1/auth/login'].post.responses;
    expect(loginResponses['4XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
    expect(doc.body.components.schemas.ErrorResponse.required).toEqual(expect.arrayContaining(['statusCode', 'code', 'error', 'message']));
    const ui = await fetch(new URL('/docs', server.url));
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });
});

describe('workspace and module checks', () => {
  it('answers 403 "Invalid X-Workspace-Id header" for a workspace the caller cannot reach, or a malformed one', async () => {
    for (const value of ['999999', 'abc', '-1', '1; drop']) {
      const r = await http(server.url, 'GET', '/df/api/client-config', { token, headers: { 'x-workspace-id': value } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ statusCode: 403, code: 'INVALID_WORKSPACE', error: 'Forbidden', message: 'Invalid X-Workspace-Id header' });
    }
    const ok = await http(server.url, 'GET', '/df/api/client-config', { token, headers: { 'x-workspace-id': '1' } });
    expect(ok.status).toBe(200);
    expect(ok.body.workspaceId).toBe(1);
  });

  it('rejects a module the workspace lacks before the module, whatever the route', async () => {
    await workspaceWithModules(900, ['TMT']);
    const known = await http(server.url, 'GET', '/df/api/client-config', { token, headers: { 'x-workspace-id': '900' } });
    expect(known.status).toBe(403);
    expect(known.body.code).toBe('MODULE_NOT_ENABLED');
    // Even a path the module does not have is refused by the gateway first, not answered 404 by the module.
    const unknown = await http(server.url, 'GET', '/df/api/no-such-thing', { token, headers: { 'x-workspace-id': '900' } });
    expect(unknown.status).toBe(403);
    expect(unknown.body.code).toBe('MODULE_NOT_ENABLED');
    const entitled = await http(server.url, 'GET', '/df/api/no-such-thing', { token, headers: { 'x-workspace-id': '1' } });
    expect(entitled.status).toBe(404);
    expect(errorCode(entitled)).toBe('ROUTE_NOT_FOUND');
  });

  it('switch-workspace bakes the workspace into the token', async () => {
    await workspaceWithModules(901, ['DF']);
    const r = await http(server.url, 'POST', '/api/v1/auth/switch-workspace/901', { token });
    expect(r.status).toBe(200);
    const cfg = await http(server.url, 'GET', '/df/api/client-config', { token: r.body.token });
    expect(cfg.body.workspaceId).toBe(901);
    const unknown = await http(server.url, 'POST', '/api/v1/auth/switch-workspace/424242', { token });
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('NOT_FOUND');
  });
});

describe('CORS', () => {
  it('allows subdomains of PLATFORM_DOMAIN and localhost, with exactly the interface headers', async () => {
    for (const origin of ['https://app.qa.example.com', 'http://localhost:5173']) {
      const pre = await fetch(new URL('/api/v1/auth/login', server.url), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-workspace-id' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-auth-token, x-workspace-id');
    }
    const actual = await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN, headers: { origin: 'https://app.qa.example.com' } });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe('https://app.qa.example.com');
  });

  it('refuses other origins, look-alike domains and headers outside the list', async () => {
    for (const origin of ['https://evil.com', 'https://qa.example.com.evil.com', 'http://app.qa.example.com', 'https://evilqa.example.com']) {
      const r = await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN, headers: { origin } });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('CORS_ORIGIN_REFUSED');
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    const pre = await fetch(new URL('/api/v1/auth/login', server.url), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.qa.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-custom' },
    });
    expect(pre.status).toBe(403);

  });

  it('opens public mock services to every origin, without credentials', async () => {
    const path = '/tmt/api/v1/public/payments/mock-services/no-such-mock/charges';
    const pre = await http(server.url, 'OPTIONS', path, {
      headers: { origin: 'https://shop.example.org', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-custom' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toBe('x-custom');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    // The origin is not refused: the mock dispatcher answers (here: no such mock).
    const r = await http(server.url, 'GET', path, { headers: { origin: 'https://shop.example.org' } });
    expect(r.status).toBe(404);
    expect(errorCode(r)).toBe('NOT_FOUND');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    // Everything else still refuses that origin.
    const other = await http(server.url, 'GET', '/tmt/api/v1/mock-services', { headers: { origin: 'https://shop.example.org' } });
    expect(other.status).toBe(403);
    expect(errorCode(other)).toBe('CORS_ORIGIN_REFUSED');
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const r = await http(server.url, 'POST', '/api/v1/auth/login', { rawBody: '{"username": "a", ', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('MALFORMED_JSON');
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const huge = JSON.stringify({ username: 'x'.repeat(200 * 1024), password: 'y' });
    const r = await http(server.url, 'POST', '/api/v1/auth/login', { rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415', async () => {
    const r = await http(server.url, 'POST', '/api/v1/auth/login', { rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a malformed Authorization header with 401, not 500', async () => {
    const r = await http(server.url, 'GET', '/df/api/client-config', { headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(401);
    expect(errorCode(r)).toBe('UNAUTHORIZED');
    const garbage = await http(server.url, 'GET', '/df/api/client-config', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(garbage.status).toBe(401);
    expect(errorCode(garbage)).toBe('TOKEN_INVALID');
  });
});

describe('public keys', () => {
  it('serves the JWKS at /api/v1/auth/jwks and /.well-known/jwks.json, public parts only', async () => {
    const a = await http(server.url, 'GET', '/api/v1/auth/jwks');
    const b = await http(server.url, 'GET', '/.well-known/jwks.json');
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(a.body.keys[0].d).toBeUndefined();
  });
});

describe('health', () => {
  it('reports liveness and readiness', async () => {
    expect((await http(server.url, 'GET', '/health')).body).toEqual({ status: 'ok' });
    const ready = await http(server.url, 'GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: 'ok', eventStore: 'ok', keyValue: 'ok', bus: 'ok', projections: 'ok' });
  });
});
