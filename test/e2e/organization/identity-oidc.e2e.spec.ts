import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startOidcProvider, type TestOidcProvider } from '#test/helpers/oidc-provider.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { followSignIn } from '#test/helpers/sso-browser.js';

/** Sign-in through a real OpenID provider: JIT provisioning, a group mapped to a role, spoiled tokens refused, enforced domains. */
let server: TestServer;
let dns: TestDns;
let idp: TestOidcProvider;
let company: SignedUpCompany;
let providerId: number;
let memberRoleId: number;

const signInThroughProvider = () => followSignIn(server.url, `${server.url}/api/v1/auth/sso/${providerId}/start`);

beforeAll(async () => {
  idp = await startOidcProvider();
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  company = await signUpCompany(server.url, 'oidc');
  await verifyDomain(server.url, company.token, 'corp.test', dns);
  const admin = client(server.url, company.token);
  memberRoleId = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  const team = await admin.post('/teams', { name: 'Testers' });
  const created = await admin.post('/identity-providers', {
    type: 'oidc',
    name: 'Corp ID',
    domains: ['corp.test'],
    jitProvisioning: true,
    mappings: [{ group: 'qa-members', roleIds: [memberRoleId], teamIds: [team.body.id], workspaceIds: [company.workspaceId] }],
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email', 'profile', 'groups'] },
  });
  expect(created.status).toBe(201);
  expect(created.body.config.clientSecret).toBeUndefined();
  expect(created.body.secretsSet).toEqual(['clientSecret']);
  providerId = created.body.id;
  idp.open([`${server.url}/api/v1/auth/sso/${providerId}/callback`]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await idp?.stop();
  await dns?.stop();
});

describe('OpenID Connect sign-in', () => {
  it('provisions a new person at the first sign-in, maps their group to a role, a team and a workspace, and signs them in', async () => {
    idp.addAccount('alice', { email: 'alice@corp.test', name: 'Alice Tester', groups: ['qa-members'] });
    idp.signInAs('alice');
    const landing = await signInThroughProvider();
    expect(landing.searchParams.get('error')).toBeNull();
    const pair = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
    expect(pair.status).toBe(200);
    const me = await http(server.url, 'GET', '/api/v1/users/me', { token: pair.body.token });
    expect(me.body).toMatchObject({ email: 'alice@corp.test', name: 'Alice Tester', status: 'active', isAdmin: false });
    expect(me.body.roleIds).toEqual([memberRoleId]);
    const ws = await http(server.url, 'GET', '/api/v1/workspaces/accessible', { token: pair.body.token });
    expect(ws.body.map((w: { id: number }) => w.id)).toContain(company.workspaceId);
    // The code works once.
    expect(errorCode(await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } }))).toBe('SSO_FAILED');
    // The sign-in is audited with the provider named.
    const audit = await client(server.url, company.token).get(`/audit/events?eventType=SignInSucceeded&actorId=${me.body.id}`);
    expect(audit.body.content[0].payload.provider).toEqual({ id: providerId, type: 'oidc', name: 'Corp ID' });
  });

  it('reads the claims a provider at its defaults answers from UserInfo only: the ID token alone has no address', async () => {
    // The provider (oidc-provider, conformIdTokenClaims on) puts email, name and groups in UserInfo, not in
    // the ID token: the first test's sign-in, its name and its mapped group came from there.
    idp.addAccount('dora', { email: 'dora@corp.test', name: 'Dora Userinfo', groups: ['qa-members'] });
    idp.signInAs('dora');
    const landing = await signInThroughProvider();
    expect(landing.searchParams.get('error')).toBeNull();
    const pair = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
    const me = await http(server.url, 'GET', '/api/v1/users/me', { token: pair.body.token });
    expect(me.body).toMatchObject({ email: 'dora@corp.test', name: 'Dora Userinfo' });
    expect(me.body.roleIds).toEqual([memberRoleId]);
  });

  it('trusts only an email with email_verified true: not a string "false", not false, not an address-like preferred_username', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['verified-as-string', { email: 'eve@corp.test', email_verified: 'false' }],
      ['verified-string-true', { email: 'eve2@corp.test', email_verified: 'true' }],
      ['not-verified', { email: 'eve3@corp.test', email_verified: false }],
      ['username-only', { preferred_username: 'admin@corp.test', email_verified: undefined }],
    ];
    for (const [sub, claims] of cases) {
      idp.addAccount(sub, claims);
      idp.signInAs(sub);
      expect((await signInThroughProvider()).searchParams.get('error'), sub).toBe('SSO_FAILED');
    }
    const users = JSON.stringify((await client(server.url, company.token).get('/users?search=corp.test')).body);
    for (const address of ['eve@corp.test', 'eve2@corp.test', 'eve3@corp.test']) expect(users).not.toContain(address);
  });

  it('with emailFromUsername (Entra ID), takes an address-like preferred_username where no email is sent', async () => {
    const admin = client(server.url, company.token);
    const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = (await admin.get(`/identity-providers/${providerId}`)).body;
    expect((await admin.put(`/identity-providers/${providerId}`, { ...settings, config: { ...settings.config, emailFromUsername: true } })).status).toBe(200);
    try {
      idp.addAccount('entra', { preferred_username: 'frank@corp.test', email_verified: undefined, name: 'Frank Entra' });
      idp.signInAs('entra');
      const landing = await signInThroughProvider();
      expect(landing.searchParams.get('error')).toBeNull();
      const pair = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
      expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.body.token })).body.email).toBe('frank@corp.test');
    } finally {
      expect((await admin.put(`/identity-providers/${providerId}`, { ...settings })).status).toBe(200);
    }
  });

  it('refuses an ID token changed after signing, and an expired one', async () => {
    idp.addAccount('bob', { email: 'bob@corp.test', groups: [] });
    idp.signInAs('bob');
    for (const mode of ['signature', 'expired'] as const) {
      idp.tamper(mode);
      const landing = await signInThroughProvider();
      expect(landing.searchParams.get('error')).toBe('SSO_FAILED');
    }
    idp.tamper('none');
    const users = await client(server.url, company.token).get('/users?search=bob');
    expect(JSON.stringify(users.body)).not.toContain('bob@corp.test');
    expect(JSON.stringify(users.body)).not.toContain('intruder@corp.test');
  });

  it('without just-in-time provisioning refuses an unknown person; enforced, the domain cannot use a password', async () => {
    const admin = client(server.url, company.token);
    const current = (await admin.get(`/identity-providers/${providerId}`)).body;
    const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = current;
    expect((await admin.put(`/identity-providers/${providerId}`, { ...settings, jitProvisioning: false, enforce: true })).status).toBe(200);
    idp.addAccount('carol', { email: 'carol@corp.test' });
    idp.signInAs('carol');
    expect((await signInThroughProvider()).searchParams.get('error')).toBe('SSO_NOT_PROVISIONED');
    // The secret was kept (left out of the change): alice still signs in through the provider.
    idp.signInAs('alice');
    expect((await signInThroughProvider()).searchParams.get('code')).toBeTruthy();
    const password = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: 'alice@corp.test', password: 'whatever it is' } });
    expect(password.status).toBe(403);
    expect(errorCode(password)).toBe('SSO_REQUIRED');
    // Other domains still sign in with their password.
    expect((await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: company.email, password: company.password } })).status).toBe(200);
    const offered = await http(server.url, 'GET', '/api/v1/auth/providers?email=someone@corp.test');
    expect(offered.body).toEqual([{ id: providerId, type: 'oidc', name: 'Corp ID', enforce: true }]);
  });

  it("walls tenants: another company's administrator does not see the provider, and bad settings are a 400", async () => {
    const other = client(server.url, (await signUpCompany(server.url, 'oidc-other')).token);
    expect((await other.get(`/identity-providers/${providerId}`)).status).toBe(404);
    expect((await other.delete(`/identity-providers/${providerId}`)).status).toBe(404);
    const bad = await other.post('/identity-providers', { type: 'oidc', name: 'Broken', domains: ['other.test'], config: { issuer: 'not a url' } });
    expect(bad.status).toBe(400);
    expect((await other.get('/identity-providers')).body).toEqual([]);
  });
});
