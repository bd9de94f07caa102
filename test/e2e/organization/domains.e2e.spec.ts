import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startOidcProvider, type TestOidcProvider } from '#test/helpers/oidc-provider.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { followSignIn } from '#test/helpers/sso-browser.js';

/**
 * E-mail domains belong to the company that proved them through DNS (a loopback dnsmasq): only that
 * company's identity providers enforce and are offered for its addresses, and no other company's
 * provider, directory (SCIM) or invitation creates people there, whatever ids their providers have.
 */
let server: TestServer;
let dns: TestDns;
let idp: TestOidcProvider;
let a: SignedUpCompany;
let b: SignedUpCompany;
let c: SignedUpCompany;
let adminA: Client;
let adminB: Client;
let providerA: number;
let providerB: number;

const DOMAIN = 'acme.test';
const oidcSettings = (name: string) => ({
  type: 'oidc',
  name,
  domains: [DOMAIN],
  enforce: true,
  jitProvisioning: true,
  config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email', 'profile'] },
});

const signInThrough = (providerId: number) => followSignIn(server.url, `${server.url}/api/v1/auth/sso/${providerId}/start`);

const scim = (token: string, body: unknown) =>
  http(server.url, 'POST', '/scim/v2/Users', { rawBody: JSON.stringify(body), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' } });
const scimUser = (email: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, emails: [{ primary: true, value: email }], active: true });

beforeAll(async () => {
  dns = await startDnsmasq();
  idp = await startOidcProvider();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  [a, b, c] = [await signUpCompany(server.url, 'dom-a'), await signUpCompany(server.url, 'dom-b'), await signUpCompany(server.url, 'dom-c')];
  adminA = client(server.url, a.token);
  adminB = client(server.url, b.token);
  // B registers its enforcing provider for A's domain first, so its id is the lower one.
  const byB = await adminB.post('/identity-providers', oidcSettings('B SSO'));
  expect(byB.status).toBe(201);
  providerB = byB.body.id;
  const byA = await adminA.post('/identity-providers', oidcSettings('Acme SSO'));
  expect(byA.status).toBe(201);
  providerA = byA.body.id;
  expect(providerB).toBeLessThan(providerA);
  idp.open([`${server.url}/api/v1/auth/sso/${providerA}/callback`, `${server.url}/api/v1/auth/sso/${providerB}/callback`]);
  expect((await adminA.post('/users/invite', { email: `alice@${DOMAIN}`, roleIds: [] })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await idp?.stop();
  await dns?.stop();
});

describe('e-mail domains', () => {
  it('an unverified domain enforces nothing and is offered by nobody', async () => {
    expect((await http(server.url, 'GET', `/api/v1/auth/providers?email=someone@${DOMAIN}`)).body).toEqual([]);
    const login = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: `alice@${DOMAIN}`, password: 'no password yet' } });
    expect(errorCode(login)).toBe('INVALID_CREDENTIALS');
  });

  it('verifies through the loopback resolver: a missing record is NXDOMAIN, a wrong one is named, the right one verifies', async () => {
    const claimed = await adminA.post('/domains', { domain: 'ACME.test.' });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toEqual({
      domain: DOMAIN,
      verification: { type: 'dns-txt', name: `_qa-platform-verification.${DOMAIN}`, value: expect.stringMatching(/^qa-platform-verification=[A-Za-z0-9_-]{43}$/) },
      verifiedAt: null,
    });
    // C claims the same domain before A proves it, and publishes its own record too.
    const byC = await client(server.url, c.token).post('/domains', { domain: DOMAIN });
    expect(byC.status).toBe(201);
    expect(byC.body.verification.value).not.toBe(claimed.body.verification.value);

    const missing = await adminA.post(`/domains/${DOMAIN}/verify`, {});
    expect(missing.status).toBe(409);
    expect(errorCode(missing)).toBe('DOMAIN_NOT_VERIFIED');
    expect(missing.body.message).toContain('NXDOMAIN');
    expect(missing.body.message).not.toContain(dns.server);

    await dns.publish(claimed.body.verification.name, 'qa-platform-verification=not-the-token');
    const wrong = await adminA.post(`/domains/${DOMAIN}/verify`, {});
    expect(errorCode(wrong)).toBe('DOMAIN_NOT_VERIFIED');
    expect(wrong.body.message).toContain('"qa-platform-verification=not-the-token"');

    await dns.publish(byC.body.verification.name, byC.body.verification.value);
    await dns.publish(claimed.body.verification.name, claimed.body.verification.value);
    const right = await adminA.post(`/domains/${DOMAIN}/verify`, {});
    expect(right.status).toBe(200);
    expect(right.body.verifiedAt).toEqual(expect.any(String));
    expect((await adminA.get('/domains')).body).toEqual([right.body]);

    // C's record is published as well, but A was first.
    const second = await client(server.url, c.token).post(`/domains/${DOMAIN}/verify`, {});
    expect(second.status).toBe(409);
    expect(errorCode(second)).toBe('DOMAIN_TAKEN');
    expect(errorCode(await adminB.post('/domains', { domain: DOMAIN }))).toBe('DOMAIN_TAKEN');
  });

  it("another company's enforcing provider with a lower id changes nothing: the owner's enforcement holds", async () => {
    const login = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: `alice@${DOMAIN}`, password: 'anything' } });
    expect(login.status).toBe(403);
    expect(errorCode(login)).toBe('SSO_REQUIRED');
    expect(login.body.details[0].provider.id).toBe(providerA);
    const offered = await http(server.url, 'GET', `/api/v1/auth/providers?email=someone@${DOMAIN}`);
    expect(offered.body).toEqual([{ id: providerA, type: 'oidc', name: 'Acme SSO', enforce: true }]);
    // A switching enforcement off is A's to do, and B's provider does not take over.
    const current = (await adminA.get(`/identity-providers/${providerA}`)).body;
    const { id: _i, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = current;
    expect((await adminA.put(`/identity-providers/${providerA}`, { ...settings, enforce: false })).status).toBe(200);
    expect(errorCode(await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: `alice@${DOMAIN}`, password: 'anything' } }))).toBe('INVALID_CREDENTIALS');
    expect((await adminA.put(`/identity-providers/${providerA}`, { ...settings, enforce: true })).status).toBe(200);
  });

  it("refuses another company's provider listing the verified domain, on create and on change", async () => {
    const created = await adminB.post('/identity-providers', { ...oidcSettings('B again'), enforce: false });
    expect(created.status).toBe(409);
    expect(errorCode(created)).toBe('DOMAIN_TAKEN');
    const current = (await adminB.get(`/identity-providers/${providerB}`)).body;
    const { id: _i, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = current;
    expect(errorCode(await adminB.put(`/identity-providers/${providerB}`, { ...settings, name: 'B renamed' }))).toBe('DOMAIN_TAKEN');
  });

  it("B's provider signs nobody of the domain in or up; A's provider does", async () => {
    idp.addAccount('dave', { email: `dave@${DOMAIN}`, name: 'Dave' });
    idp.signInAs('dave');
    expect((await signInThrough(providerB)).searchParams.get('error')).toBe('DOMAIN_NOT_OWNED');
    idp.addAccount('alice', { email: `alice@${DOMAIN}`, name: 'Alice' });
    idp.signInAs('alice');
    expect((await signInThrough(providerB)).searchParams.get('error')).toBe('DOMAIN_NOT_OWNED');
    expect(JSON.stringify((await adminB.get('/users')).body)).not.toContain(DOMAIN);
    // The real Dave signs in through his own company's provider, which creates him there.
    idp.signInAs('dave');
    const landing = await signInThrough(providerA);
    expect(landing.searchParams.get('error')).toBeNull();
    const pair = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.body.token })).body).toMatchObject({ email: `dave@${DOMAIN}`, companyId: a.companyId });
  });

  it("B's SCIM refuses the domain's addresses with one answer whether or not they have an account", async () => {
    const token = (await adminB.post('/scim-tokens', { name: 'B directory' })).body.token as string;
    const existing = await scim(token, scimUser(`alice@${DOMAIN}`));
    const unused = await scim(token, scimUser(`nobody-yet@${DOMAIN}`));
    expect(existing.status).toBe(403);
    expect(existing.body.code).toBe('DOMAIN_NOT_OWNED');
    expect(unused.status).toBe(existing.status);
    expect(unused.body).toEqual(existing.body);
    // A's own directory creates people at A's verified domain.
    const tokenA = (await adminA.post('/scim-tokens', { name: 'A directory' })).body.token as string;
    expect((await scim(tokenA, scimUser(`nobody-yet@${DOMAIN}`))).status).toBe(201);
  });

  it("refuses B's invitation of an address at A's domain", async () => {
    const invited = await adminB.post('/users/invite', { email: `erin@${DOMAIN}`, roleIds: [] });
    expect(invited.status).toBe(409);
    expect(errorCode(invited)).toBe('DOMAIN_TAKEN');
    expect((await adminA.post('/users/invite', { email: `erin@${DOMAIN}`, roleIds: [] })).status).toBe(201);
  });

  it("refuses a public sign-up at A's domain: nobody starts a company of their own beside the one that answers for the address", async () => {
    const body = { email: `frank@${DOMAIN.toUpperCase()}`, password: 'a-long-password-1', name: 'Frank', companyName: 'Frank Ltd' };
    const signedUp = await http(server.url, 'POST', '/api/v1/auth/signup', { body });
    expect(signedUp.status).toBe(409);
    expect(errorCode(signedUp)).toBe('DOMAIN_TAKEN');
    // A sign-in at the address still meets A's enforcement.
    const login = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: body.email, password: body.password } });
    expect(errorCode(login)).toBe('SSO_REQUIRED');
    expect((await http(server.url, 'POST', '/api/v1/auth/signup', { body: { ...body, email: 'frank@unverified-elsewhere.test' } })).status).toBe(201);
  });

  it('a released domain no longer enforces, and another company may then verify it', async () => {
    expect((await adminA.delete(`/domains/${DOMAIN}`)).status).toBe(204);
    expect((await adminA.get('/domains')).body).toEqual([]);
    expect(errorCode(await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: `alice@${DOMAIN}`, password: 'anything' } }))).toBe('INVALID_CREDENTIALS');
    const byC = await client(server.url, c.token).post(`/domains/${DOMAIN}/verify`, {});
    expect(byC.status).toBe(200);
    expect(errorCode(await adminA.post(`/domains/${DOMAIN}/verify`, {}))).toBe('NOT_FOUND');
    // The audit of each company shows what it did.
    const audit = await adminA.get('/audit/events?resourceType=email-domain');
    expect(audit.body.content.map((e: { eventType: string }) => e.eventType)).toEqual(['DomainReleased', 'DomainVerified', 'DomainClaimed']);
    expect(JSON.stringify(audit.body)).not.toMatch(/qa-platform-verification=|"token":"[A-Za-z0-9_-]{43}"/);
  });
});

describe('e-mail domain helper', () => {
  it('verifyDomain claims, publishes and verifies a domain in one call', async () => {
    expect(await verifyDomain(server.url, b.token, 'b-own.test', dns)).toMatchObject({ domain: 'b-own.test', verifiedAt: expect.any(String) });
  });
});
