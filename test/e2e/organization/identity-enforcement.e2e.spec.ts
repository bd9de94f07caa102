import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '#test/helpers/org-api.js';
import { startOidcProvider, type TestOidcProvider } from '#test/helpers/oidc-provider.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { followSignIn } from '#test/helpers/sso-browser.js';
import { expectAccessible, launchBrowser, openPage, VIEWPORT } from '#test/helpers/console-browser.js';

/**
 * What "single sign-on required" ends (docs/modules/identity.md, "What enforcement ends"): the password
 * sessions of the company's people at the enforced domain, and every credential they made from a
 * password sign-in — a /v1 API key, an OAuth client, a device key, a health-check key, a test engine's token, a SCIM
 * token — until an administrator approves it;
 * a credential made while signed in through the provider keeps working.
 */
let server: TestServer;
let idp: TestOidcProvider;
let dns: TestDns;
let providerId: number;
const email = 'boss@enforced.test';
const password = 'correct horse battery';
let pair: { token: string; refreshToken: string };
let workspaceId: number;
const made = { apiKey: '', apiKeyId: '', clientId: '', clientSecret: '', clientRecordId: '', dfKey: '', dfKeyId: '', hcKey: '', hcKeyId: '', engineToken: '', engineId: '', scimToken: '', scimTokenId: '' };

/** Plays the browser through the provider back to the console's `/sso`, and exchanges the code. */
async function signInThroughProvider(): Promise<{ token: string; refreshToken: string }> {
  const landing = await followSignIn(server.url, `${server.url}/api/v1/auth/sso/${providerId}/start`);
  const exchanged = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
  if (exchanged.status !== 200) throw new Error(`sign-in through the provider failed: ${landing.search}`);
  return exchanged.body;
}

const v1 = (bearer: string) => http(server.url, 'GET', '/v1/projects', { token: bearer });
const df = (key: string) => http(server.url, 'GET', '/df/api/devices', { headers: { 'x-api-key': key } });
const hc = (key: string) => http(server.url, 'GET', '/healthcheck/api/v1/checks', { headers: { 'x-api-key': key } });
const engine = (token: string) => http(server.url, 'GET', '/autorunner/api/v1/runs', { headers: { 'x-engine-token': token } });
const scim = (token: string) => http(server.url, 'GET', '/scim/v2/Users?count=1', { token });
const inWorkspace = (token: string) => ({ token, headers: { 'x-workspace-id': String(workspaceId) } });
const oauthToken = async () =>
  http(server.url, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: made.clientId, client_secret: made.clientSecret } });

beforeAll(async () => {
  idp = await startOidcProvider();
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  const signup = await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email, password, name: 'The Boss', companyName: 'Enforced Inc' } });
  expect(signup.status).toBe(201);
  pair = signup.body;
  workspaceId = (await http(server.url, 'GET', '/api/v1/workspaces/accessible', { token: pair.token })).body[0].id;
  // Credentials made while signed in with a password.
  const admin = client(server.url, pair.token);
  const key = await admin.post('/api-keys', { name: 'CI', scopes: ['read'] });
  expect(key.status).toBe(201);
  expect(key.body.signIn ?? 'password').toBe('password');
  made.apiKey = key.body.key;
  made.apiKeyId = key.body.id;
  const oauth = await admin.post('/oauth-clients', { name: 'CI', scopes: ['read'] });
  expect(oauth.status).toBe(201);
  Object.assign(made, { clientId: oauth.body.clientId, clientSecret: oauth.body.clientSecret, clientRecordId: oauth.body.id });
  const dfKey = await http(server.url, 'POST', '/df/api/keys', { token: pair.token, headers: { 'x-workspace-id': String(workspaceId) }, body: { name: 'runner' } });
  expect(dfKey.status).toBe(201);
  made.dfKey = dfKey.body.key;
  made.dfKeyId = dfKey.body.id;
  const hcKey = await http(server.url, 'POST', '/healthcheck/api/v1/api-keys', { ...inWorkspace(pair.token), body: { name: 'cron' } });
  expect(hcKey.status).toBe(201);
  made.hcKey = hcKey.body.key;
  made.hcKeyId = hcKey.body.id;
  const registered = await http(server.url, 'POST', '/autorunner/api/v1/engines', { ...inWorkspace(pair.token), body: { name: 'CI engine' } });
  expect(registered.status).toBe(201);
  expect(registered.body).toMatchObject({ signIn: 'password', needsApproval: false });
  made.engineToken = registered.body.token;
  made.engineId = registered.body.id;
  const scimToken = await admin.post('/scim-tokens', { name: 'Directory' });
  expect(scimToken.status).toBe(201);
  expect(scimToken.body).toMatchObject({ signIn: 'password', needsApproval: false });
  made.scimToken = scimToken.body.token;
  made.scimTokenId = scimToken.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await idp?.stop();
  await dns?.stop();
});

describe('single sign-on required ends the old ways in', () => {
  it('before enforcement, the password session and every credential made from it work', async () => {
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.token })).status).toBe(200);
    expect((await v1(made.apiKey)).status).toBe(200);
    const token = await oauthToken();
    expect(token.status).toBe(200);
    expect((await v1(token.body.access_token)).status).toBe(200);
    expect((await df(made.dfKey)).status).toBe(200);
    expect((await hc(made.hcKey)).status).toBe(200);
    expect((await engine(made.engineToken)).status).toBe(200);
    expect((await scim(made.scimToken)).status).toBe(200);
  });

  it('when the company verifies the domain its provider enforces: password sessions end, refresh is refused, credentials are held', async () => {
    const oauthBefore = (await oauthToken()).body.access_token as string;
    const created = await client(server.url, pair.token).post('/identity-providers', {
      type: 'oidc',
      name: 'Enforced ID',
      domains: ['enforced.test'],
      enforce: true,
      jitProvisioning: true,
      mappings: [],
      config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email', 'profile'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    providerId = created.body.id;
    idp.open([`${server.url}/api/v1/auth/sso/${providerId}/callback`]);
    // A domain nobody has proven enforces nothing: the password session goes on.
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.token })).status).toBe(200);
    expect((await v1(made.apiKey)).status).toBe(200);
    await verifyDomain(server.url, pair.token, 'enforced.test', dns);

    // The access token of the password session that made the change: its session ended.
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.token })).status).toBe(401);
    // Its refresh token refreshes nothing.
    const refreshed = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: pair.refreshToken } });
    expect(refreshed.status).toBeGreaterThanOrEqual(400);
    expect(refreshed.body.token).toBeUndefined();
    // A password sign-in is refused.
    expect(errorCode(await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: email, password } }))).toBe('SSO_REQUIRED');
    // Every credential made from the password sign-in is held.
    for (const res of [await v1(made.apiKey), await v1(oauthBefore), await df(made.dfKey), await hc(made.hcKey), await engine(made.engineToken), await scim(made.scimToken)]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(errorCode(res)).toBe('CREDENTIAL_NEEDS_APPROVAL');
    }
  });

  it('signed in through the provider: the held credentials are listed as needing approval, a new key works, an approval lets an OAuth client and a device key work again', async () => {
    idp.addAccount('boss', { email, name: 'The Boss', email_verified: true });
    idp.signInAs('boss');
    const sso = await signInThroughProvider();
    const admin = client(server.url, sso.token);
    const sessions = await admin.get('/auth/sessions');
    expect(sessions.status).toBe(200);
    expect(sessions.body.content.map((s: { method: string }) => s.method)).toEqual(['sso']);

    const keys = await admin.get('/api-keys');
    expect(keys.body.find((k: { id: string }) => k.id === made.apiKeyId)).toMatchObject({ signIn: 'password', needsApproval: true });
    expect((await admin.get('/oauth-clients')).body.find((c: { id: string }) => c.id === made.clientRecordId)).toMatchObject({ needsApproval: true });
    const dfKeys = await http(server.url, 'GET', '/df/api/keys', { token: sso.token, headers: { 'x-workspace-id': String(workspaceId) } });
    expect(dfKeys.body.content.find((k: { id: string }) => k.id === made.dfKeyId)).toMatchObject({ signIn: 'password', needsApproval: true });
    const hcKeys = await http(server.url, 'GET', '/healthcheck/api/v1/api-keys', inWorkspace(sso.token));
    expect(hcKeys.body.content.find((k: { id: string }) => k.id === made.hcKeyId)).toMatchObject({ signIn: 'password', needsApproval: true });
    const engines = await http(server.url, 'GET', '/autorunner/api/v1/engines', inWorkspace(sso.token));
    expect(engines.body.content.find((e: { id: string }) => e.id === made.engineId)).toMatchObject({ signIn: 'password', needsApproval: true });
    // A token rotated through the provider is made from a single sign-on: it works without an approval.
    const other = await http(server.url, 'POST', '/autorunner/api/v1/engines', { ...inWorkspace(sso.token), body: { name: 'made through SSO' } });
    expect(other.body).toMatchObject({ signIn: 'sso', needsApproval: false });
    expect((await engine(other.body.token)).status).toBe(200);

    const fresh = await admin.post('/api-keys', { name: 'made through SSO', scopes: ['read'] });
    expect(fresh.status).toBe(201);
    expect((await v1(fresh.body.key)).status).toBe(200);
    expect((await admin.get(`/api-keys/${fresh.body.id}`)).body).toMatchObject({ signIn: 'sso', needsApproval: false });

    expect((await admin.post(`/oauth-clients/${made.clientRecordId}/approve`)).body.needsApproval).toBe(false);
    expect((await v1((await oauthToken()).body.access_token)).status).toBe(200);
    const dfApproved = await http(server.url, 'POST', `/df/api/keys/${made.dfKeyId}/approve`, { token: sso.token, headers: { 'x-workspace-id': String(workspaceId) } });
    expect(dfApproved.status, JSON.stringify(dfApproved.body)).toBe(200);
    expect((await df(made.dfKey)).status).toBe(200);
    const hcApproved = await http(server.url, 'POST', `/healthcheck/api/v1/api-keys/${made.hcKeyId}/approve`, inWorkspace(sso.token));
    expect(hcApproved.status, JSON.stringify(hcApproved.body)).toBe(200);
    expect(hcApproved.body).toMatchObject({ id: made.hcKeyId, needsApproval: false });
    expect((await hc(made.hcKey)).status).toBe(200);
    expect((await admin.get('/scim-tokens')).body.find((t: { id: string }) => t.id === made.scimTokenId)).toMatchObject({ signIn: 'password', needsApproval: true });
    // Each approval is in the audit history.
    const audit = await admin.get('/audit/events?eventType=CredentialApproved');
    expect(audit.body.content.map((e: { resourceId: string }) => e.resourceId).sort()).toEqual([made.clientRecordId, made.dfKeyId, made.hcKeyId].sort());
    // Only the company's administrators approve; another company's ids are 404.
    const stranger = await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email: 'other@elsewhere.test', password, name: 'Other', companyName: 'Elsewhere' } });
    expect((await client(server.url, stranger.body.token).post(`/api-keys/${made.apiKeyId}/approve`)).status).toBe(404);
    expect((await v1(made.apiKey)).status).toBe(403);
  });

  it('in the console, the API keys and provisioning pages mark the held key, test engine and SCIM token "needs approval", and an administrator approves them', { timeout: 180_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: VIEWPORT });
      context.setDefaultTimeout(90_000);
      const page = await openPage(context);
      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('E-mail or username').fill(email);
      await page.getByRole('list', { name: 'Sign in through your organization' }).getByRole('link', { name: 'Continue with Enforced ID' }).click();
      await page.waitForURL((u) => u.pathname === '/devices');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      const table = page.getByRole('table', { name: 'API keys' });
      const row = table.getByRole('row').filter({ hasText: 'CI' }).filter({ hasNotText: 'made through SSO' });
      await expect.poll(() => row.textContent()).toContain('needs approval');
      await expectAccessible(page, 'API keys with a held key');
      await row.getByRole('button', { name: 'Approve CI' }).click();
      await expect.poll(() => row.textContent()).toContain('works');
      expect((await v1(made.apiKey)).status).toBe(200);
      // The test engine whose token was made from the password sign-in, beside the one made through the provider.
      const engines = page.getByRole('table', { name: 'Test engines' });
      const held = engines.getByRole('row').filter({ hasText: 'CI engine' });
      await expect.poll(() => held.textContent()).toContain('needs approval');
      expect(await engines.getByRole('row').filter({ hasText: 'made through SSO' }).textContent()).toContain('works');
      await expect.poll(() => page.getByRole('table', { name: 'Health-check keys' }).textContent()).toContain('cron');
      await expectAccessible(page, 'API keys with a held test engine');
      await held.getByRole('button', { name: 'Approve CI engine' }).click();
      await expect.poll(() => held.textContent()).toContain('works');
      expect((await engine(made.engineToken)).status).toBe(200);
      const approved = await http(server.url, 'GET', `/autorunner/api/v1/engines/${made.engineId}`, inWorkspace((await signInThroughProvider()).token));
      expect(approved.body).toMatchObject({ needsApproval: false, signIn: 'password' });
      // The SCIM token made from the password sign-in, on the provisioning page.
      await page.goto(`${server.url}/org/provisioning`);
      const scimRow = page.getByRole('table', { name: 'SCIM tokens' }).getByRole('row').filter({ hasText: 'Directory' });
      await expect.poll(() => scimRow.textContent()).toContain('needs approval');
      await expectAccessible(page, 'SCIM tokens with a held token');
      await scimRow.getByRole('button', { name: 'Approve Directory' }).click();
      await expect.poll(() => scimRow.textContent()).toContain('works');
      expect((await scim(made.scimToken)).status).toBe(200);
    } finally {
      await browser.close();
    }
  });

  it('when a provider of a verified domain starts enforcing again, the password sessions begun meanwhile end', async () => {
    const sso = await signInThroughProvider();
    const admin = client(server.url, sso.token);
    const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = (await admin.get(`/identity-providers/${providerId}`)).body;
    expect((await admin.put(`/identity-providers/${providerId}`, { ...settings, enforce: false })).status).toBe(200);
    const byPassword = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: email, password } });
    expect(byPassword.status).toBe(200);
    expect((await admin.put(`/identity-providers/${providerId}`, { ...settings, enforce: true })).status).toBe(200);
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: byPassword.body.token })).status).toBe(401);
    // The session through the provider goes on.
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: sso.token })).status).toBe(200);
  });
});
