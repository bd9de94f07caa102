import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { testEnv } from '#test/helpers/env.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * The production shape on one machine: the organization (with the projections), the device module
 * and the gateway as three processes' worth of servers sharing PostgreSQL, Redis and NATS, the
 * gateway forwarding over HTTP.
 */
const ADMIN = { email: 'split-admin@example.com', password: 'split-password' };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let organization: TestServer;
let df: TestServer;
let gateway: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL: testEnv.redisUrl,
    REDIS_KEY_PREFIX: `qa-test-${randomBytes(4).toString('hex')}:`,
    NATS_URL: testEnv.natsUrl,
    JWT_PRIVATE_KEY: key,
  };
  organization = await startTestServer({ ...shared, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password }, [
    'organization',
    'projections',
  ]);
  df = await startTestServer(shared, ['df']);
  gateway = await startTestServer({ ...shared, ORGANIZATION_URL: organization.url, DF_URL: df.url }, ['gateway']);
});

afterAll(async () => {
  await gateway?.stop();
  await df?.stop();
  await organization?.stop();
  await database?.drop();
});

describe('split deployment', () => {
  it('signs in through the gateway, which forwards to the organization service', async () => {
    const r = await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN });
    expect(r.status).toBe(200);
    const tmt = await http(gateway.url, 'POST', '/tmt/api/v1/auth/login', { body: ADMIN });
    expect(tmt.status).toBe(200);
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
    expect(wrongWs.body.message).toBe('Invalid X-Workspace-Id header');
  });

  it('a logout at the organization is honoured by every other service at once', async () => {
    const { token } = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    expect((await http(gateway.url, 'POST', '/api/v1/auth/logout', { token })).status).toBe(204);
    const atGateway = await http(gateway.url, 'GET', '/df/api/client-config', { token });
    expect(atGateway.status).toBe(401);
    expect(atGateway.body.code).toBe('TOKEN_REVOKED');
    const atModule = await http(df.url, 'GET', '/api/client-config', { token });
    expect(atModule.status).toBe(401);
  });

  it('sign-up through the gateway is visible to sign-in on the next request (read-your-writes across services)', async () => {
    const body = { email: 'split-founder@example.com', password: 'founder-pass', name: 'F', companyName: 'Split Co' };
    expect((await http(gateway.url, 'POST', '/api/v1/auth/signup', { body })).status).toBe(201);
    expect((await http(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(200);
  });
});
