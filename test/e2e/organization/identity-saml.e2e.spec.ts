import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startSamlIdp, type TestSamlIdp } from '#test/helpers/saml-idp.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * SAML 2.0 sign-in against a real identity provider (built with `samlify` in the test, signing its
 * assertions with its own key): the AuthnRequest, the signed answer posted to the assertion consumer
 * service, and the answers that must be refused (changed after signing, another audience, expired, replayed).
 */
let server: TestServer;
let dns: TestDns;
let idp: TestSamlIdp;
let company: SignedUpCompany;
let providerId: number;
let memberRoleId: number;
let teamId: number;

interface PostedForm {
  action: string;
  fields: Record<string, string>;
}

/** Plays the browser from the start URL to the identity provider's auto-posting form. */
async function toProviderForm(): Promise<PostedForm> {
  const start = await fetch(`${server.url}/api/v1/auth/sso/${providerId}/start`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const page = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const action = unescape(/<form method="post" action="([^"]+)"/.exec(html)![1]!);
  const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, unescape(m[2]!)]));
  return { action, fields };
}

let posts = 0;
let lastPostId = '';

/** Posts the form as the browser does; the console address the platform sends the browser to. */
async function post(form: PostedForm): Promise<URL> {
  lastPostId = `saml-post-${++posts}`;
  const res = await fetch(form.action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': lastPostId },
    body: new URLSearchParams(form.fields).toString(),
  });
  expect(res.status).toBe(302);
  const landing = new URL(res.headers.get('location')!, server.url);
  expect(landing.pathname).toBe('/sso');
  return landing;
}

/** The reason the server logged for refusing the last post (the browser is only told the code). */
function loggedReason(): string | undefined {
  const lines = vi.mocked(server.process.logger.info).mock.calls.map((call) => call[0] as unknown as { requestId?: string; err?: string });
  return lines.find((l) => l.requestId === lastPostId)?.err;
}

beforeAll(async () => {
  idp = await startSamlIdp();
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  vi.spyOn(server.process.logger, 'info');
  company = await signUpCompany(server.url, 'saml');
  await verifyDomain(server.url, company.token, 'corp.test', dns);
  const admin = client(server.url, company.token);
  memberRoleId = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  teamId = (await admin.post('/teams', { name: 'SAML people' })).body.id;
  const created = await admin.post('/identity-providers', {
    type: 'saml',
    name: 'Corp SAML',
    domains: ['corp.test'],
    jitProvisioning: true,
    mappings: [{ group: 'qa-members', roleIds: [memberRoleId], teamIds: [teamId], workspaceIds: [company.workspaceId] }],
    config: { entryPoint: idp.entryPoint, idpCertificate: idp.certificate },
  });
  expect(created.status).toBe(201);
  providerId = created.body.id;
  idp.trust({ entityId: `${server.url}/api/v1/auth/sso/${providerId}`, acsUrl: `${server.url}/api/v1/auth/sso/${providerId}/callback` });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await idp?.stop();
  await dns?.stop();
});

describe('SAML 2.0 sign-in', { timeout: 120_000 }, () => {
  it('sends an AuthnRequest, takes the signed answer at the assertion consumer service, provisions and maps the person, and ends with a token pair', async () => {
    idp.signInAs({ email: 'alice@corp.test', name: 'Alice Saml', groups: ['qa-members'] });
    const form = await toProviderForm();
    const request = idp.lastRequest()!;
    expect(request).toMatchObject({ issuer: `${server.url}/api/v1/auth/sso/${providerId}`, acsUrl: `${server.url}/api/v1/auth/sso/${providerId}/callback` });
    expect(request.id).toMatch(/^_/);
    expect(form.action).toBe(request.acsUrl);
    const landing = await post(form);
    expect(landing.searchParams.get('error')).toBeNull();
    const pair = await http(server.url, 'POST', '/api/v1/auth/sso/exchange', { body: { code: landing.searchParams.get('code') } });
    expect(pair.status).toBe(200);
    const me = await http(server.url, 'GET', '/api/v1/users/me', { token: pair.body.token });
    expect(me.body).toMatchObject({ email: 'alice@corp.test', name: 'Alice Saml', status: 'active' });
    expect(me.body.roleIds).toEqual([memberRoleId]);
    const admin = client(server.url, company.token);
    expect((await admin.get(`/teams/${teamId}`)).body.memberIds).toContain(me.body.id);
    const log = await admin.get(`/users/user-login-logs/${me.body.id}`);
    expect(log.body.content[0]).toMatchObject({ success: true, provider: { id: providerId, type: 'saml', name: 'Corp SAML' } });
  });

  it('refuses the same answer twice: posted again as it was, or with the state of a new sign-in', async () => {
    idp.signInAs({ email: 'alice@corp.test', groups: [] });
    const form = await toProviderForm();
    expect((await post(form)).searchParams.get('code')).toBeTruthy();
    expect((await post(form)).searchParams.get('error')).toBe('SSO_FAILED');
    // A new sign-in started; the old answer is posted with its RelayState.
    const fresh = await toProviderForm();
    const replayed = await post({ action: form.action, fields: { ...form.fields, RelayState: fresh.fields.RelayState! } });
    expect(replayed.searchParams.get('error')).toBe('SSO_FAILED');
    expect(loggedReason()).toMatch(/InResponseTo|another sign-in/i);
  });

  it.each([
    ['an assertion changed after it was signed', 'signature', /signature/i],
    ['an assertion for another audience', 'audience', /audience/i],
    // node-saml names the lapsed confirmation (NotOnOrAfter) before the lapsed conditions.
    ['an expired assertion', 'expired', /expired|no valid subject confirmation/i],
  ] as const)('refuses %s (SSO_FAILED) and provisions nobody', async (_what, mode, reason) => {
    idp.signInAs({ email: `victim-${mode}@corp.test`, groups: ['qa-members'] });
    idp.tamper(mode);
    try {
      const landing = await post(await toProviderForm());
      expect(landing.searchParams.get('error')).toBe('SSO_FAILED');
      expect(loggedReason()).toMatch(reason);
      expect([...landing.searchParams.keys()]).toEqual(['error']);
      expect(landing.searchParams.get('code')).toBeNull();
    } finally {
      idp.tamper('none');
    }
    const users = await client(server.url, company.token).get('/users?search=corp.test');
    expect(JSON.stringify(users.body)).not.toContain(`victim-${mode}@corp.test`);
    expect(JSON.stringify(users.body)).not.toContain('intruder@corp.test');
  });

  it.each([
    ['an assertion for another Recipient', 'recipient', /Recipient/],
    ['an answer for another Destination', 'destination', /Destination/],
  ] as const)('refuses %s (SSO_FAILED): the answer is for another service', async (_what, mode, reason) => {
    idp.signInAs({ email: `forwarded-${mode}@corp.test` });
    idp.tamper(mode);
    try {
      expect((await post(await toProviderForm())).searchParams.get('error')).toBe('SSO_FAILED');
      expect(loggedReason()).toMatch(reason);
    } finally {
      idp.tamper('none');
    }
  });

  it('takes a signed assertion once: the same assertion without InResponseTo, wrapped in an answer to a new sign-in, is refused', async () => {
    idp.signInAs({ email: 'alice@corp.test' });
    idp.tamper('unasked');
    let first: PostedForm;
    try {
      first = await toProviderForm();
    } finally {
      idp.tamper('none');
    }
    expect((await post(first)).searchParams.get('code')).toBeTruthy();
    // A new sign-in; the answer's (unsigned) envelope is rewritten to answer it, the signed assertion kept.
    const fresh = await toProviderForm();
    const oldRequest = /InResponseTo="([^"]+)"/.exec(Buffer.from(first.fields.SAMLResponse!, 'base64').toString('utf8'))![1]!;
    const rewrapped = Buffer.from(Buffer.from(first.fields.SAMLResponse!, 'base64').toString('utf8').replace(oldRequest, idp.lastRequest()!.id), 'utf8').toString('base64');
    const replayed = await post({ action: fresh.action, fields: { SAMLResponse: rewrapped, RelayState: fresh.fields.RelayState! } });
    expect(replayed.searchParams.get('error')).toBe('SSO_FAILED');
    expect(loggedReason()).toMatch(/already used/);
  });

  it('refuses an answer for a sign-in that was never started, and a form without an answer', async () => {
    idp.signInAs({ email: 'alice@corp.test' });
    const form = await toProviderForm();
    expect((await post({ action: form.action, fields: { ...form.fields, RelayState: 'made-up-state' } })).searchParams.get('error')).toBe('SSO_FAILED');
    expect((await post({ action: form.action, fields: { RelayState: form.fields.RelayState! } })).searchParams.get('error')).toBe('SSO_FAILED');
    const again = await toProviderForm();
    expect((await post({ action: again.action, fields: { SAMLResponse: Buffer.from('<not-saml/>').toString('base64'), RelayState: again.fields.RelayState! } })).searchParams.get('error')).toBe('SSO_FAILED');
  });

  it('checks the settings: a certificate that is not one is a 400 with a stable code', async () => {
    const admin = client(server.url, company.token);
    expect((await admin.post(`/identity-providers/${providerId}/test`, {})).body).toMatchObject({ ok: true, details: { entityId: `${server.url}/api/v1/auth/sso/${providerId}` } });
    const bad = await admin.post('/identity-providers', { type: 'saml', name: 'Bad SAML', domains: ['bad.test'], config: { entryPoint: 'not a url', idpCertificate: 'x' } });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
  });
});
