import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startOidcProvider, type TestOidcProvider } from '#test/helpers/oidc-provider.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { slapdAvailable, startSlapd, type TestDirectory } from '#test/helpers/slapd.js';
import { expectAccessible, launchBrowser, openPage, pageErrors, signedIn, VIEWPORT } from '#test/helpers/console-browser.js';

/**
 * Identity providers in the console: the administration page (add, edit with the secret kept, try,
 * remove; secrets never shown), the e-mail domains page (claim, the record to publish, a failed and a
 * successful verification against a loopback DNS server, remove), and the sign-in page offering "Continue with …" for an address's
 * providers: through a real OpenID provider to the console with tokens, and a real directory's form.
 */
let server: TestServer;
let dns: TestDns;
let idp: TestOidcProvider;
let directory: TestDirectory | undefined;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  idp = await startOidcProvider();
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  admin = await signUpCompany(server.url, 'console-idp');
  org = client(server.url, admin.token);
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
}, 240_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.stop();
  await directory?.stop();
  await dns?.stop();
});

/** A browser context nobody signed in to, on the sign-in page. */
async function anonymousSignInPage(): Promise<{ context: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  ctx.setDefaultTimeout(90_000);
  const p = await openPage(ctx);
  await p.goto(`${server.url}/sign-in`);
  return { context: ctx, page: p };
}

/** The signed-in person of a console page, by its stored token. */
async function personOf(p: Page): Promise<{ email: string }> {
  const stored = await p.evaluate(() => (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem('qa.auth'));
  expect(stored).toBeTruthy();
  return (await http(server.url, 'GET', '/api/v1/users/me', { token: (JSON.parse(stored!) as { token: string }).token })).body;
}

describe('identity providers in the console', { timeout: 240_000 }, () => {
  it('adds a provider through the administration page, never shows its secret, keeps it through an edit, tries it, and removes another', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Sign-in providers' }).click();
    await page.getByText('No identity provider yet.').waitFor();
    const form = page.getByRole('form', { name: 'New identity provider' });
    await form.getByLabel(/^Name/).fill('Corp ID');
    await form.getByLabel('E-mail domains').fill('corp.test');
    await form.getByLabel('Create people at their first sign-in').check();
    await form.getByLabel('Issuer URL').fill(idp.issuer);
    await form.getByLabel('Client id').fill(idp.clientId);
    await form.getByLabel('Client secret').fill(idp.clientSecret);
    await form.getByLabel('Scopes').fill('openid email profile groups');
    await expectAccessible(page, 'identity providers, a new one');
    await form.getByRole('button', { name: 'Add the provider' }).click();
    const card = page.getByRole('article', { name: 'Identity provider Corp ID' });
    await card.waitFor();
    const [created] = (await org.get('/identity-providers')).body as { id: number; config: Record<string, unknown>; secretsSet: string[]; jitProvisioning: boolean }[];
    expect(created!.secretsSet).toEqual(['clientSecret']);
    expect(created!.jitProvisioning).toBe(true);
    expect(created!.config).toEqual({ issuer: idp.issuer, clientId: idp.clientId, scopes: ['openid', 'email', 'profile', 'groups'] });
    expect(await page.content()).not.toContain(idp.clientSecret);
    idp.open([`${server.url}/api/v1/auth/sso/${created!.id}/callback`]);

    // Edit: a new name, the secret left empty (kept).
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit Corp ID' });
    expect(await edit.getByLabel('Client secret').inputValue()).toBe('');
    await edit.getByLabel(/^Name/).fill('Corp Login');
    await expectAccessible(page, 'identity providers, editing one');
    await edit.getByRole('button', { name: 'Save the provider' }).click();
    const renamed = page.getByRole('article', { name: 'Identity provider Corp Login' });
    await renamed.waitFor();
    expect((await org.get(`/identity-providers/${created!.id}`)).body).toMatchObject({ name: 'Corp Login', secretsSet: ['clientSecret'] });
    await renamed.getByRole('button', { name: 'Try the settings' }).click();
    await renamed.getByRole('status').filter({ hasText: 'The settings work.' }).waitFor();

    // A directory provider added and removed.
    await page.getByLabel('Kind').selectOption('ldap');
    await form.getByLabel(/^Name/).fill('Old Directory');
    await form.getByLabel('E-mail domains').fill('old.test');
    await form.getByLabel('Directory URL').fill('ldap://127.0.0.1:1');
    await form.getByLabel('Search account DN').fill('cn=reader,dc=old,dc=test');
    await form.getByLabel('Search account password').fill('old-bind-password');
    await form.getByLabel('User search base').fill('dc=old,dc=test');
    await form.getByLabel('User filter').fill('(uid={{username}})');
    await form.getByRole('button', { name: 'Add the provider' }).click();
    const old = page.getByRole('article', { name: 'Identity provider Old Directory' });
    await old.waitFor();
    expect(await page.content()).not.toContain('old-bind-password');
    const oldId = ((await org.get('/identity-providers')).body as { id: number; name: string }[]).find((p) => p.name === 'Old Directory')!.id;
    await old.getByRole('button', { name: 'Remove' }).click();
    await old.getByRole('group', { name: 'Confirm removing Old Directory' }).getByRole('button', { name: 'Yes, remove' }).click();
    await old.waitFor({ state: 'detached' });
    expect((await org.get(`/identity-providers/${oldId}`)).status).toBe(404);
  });

  it('claims a domain, shows the TXT record to publish and what the resolver saw, verifies it once published, and removes another', async () => {
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Domains' }).click();
    await page.getByText('No domain yet.').waitFor();
    const form = page.getByRole('form', { name: 'Claim a domain' });
    for (const name of ['corp.test', 'spare.test']) {
      await form.getByLabel('Domain').fill(name);
      await form.getByRole('button', { name: 'Claim' }).click();
      await page.getByRole('cell', { name: name, exact: true }).waitFor();
    }
    const table = page.getByRole('table', { name: 'E-mail domains' });
    const corp = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'corp.test', exact: true }) });
    const [claimed] = ((await org.get('/domains')).body as { domain: string; verification: { name: string; value: string } }[]).filter((d) => d.domain === 'corp.test');
    await corp.getByText(claimed!.verification.value).waitFor();
    await expectAccessible(page, 'domains, two claimed');

    // Not published yet: the resolver's answer is shown.
    await corp.getByRole('button', { name: 'Verify corp.test' }).click();
    await corp.getByRole('alert').filter({ hasText: 'NXDOMAIN' }).waitFor();
    await expectAccessible(page, 'domains, a failed verification');
    await dns.publish(claimed!.verification.name, claimed!.verification.value);
    await corp.getByRole('button', { name: 'Verify corp.test' }).click();
    await corp.getByRole('button', { name: 'Verify corp.test' }).waitFor({ state: 'detached' });
    expect((await org.get('/domains')).body.find((d: { domain: string }) => d.domain === 'corp.test').verifiedAt).toEqual(expect.any(String));

    await table.getByRole('button', { name: 'Remove spare.test' }).click();
    await page.getByRole('group', { name: 'Confirm removing spare.test' }).getByRole('button', { name: 'Yes, remove' }).click();
    await table.getByRole('cell', { name: 'spare.test', exact: true }).waitFor({ state: 'detached' });
    expect((await org.get('/domains')).body.map((d: { domain: string }) => d.domain)).toEqual(['corp.test']);
  });

  it('offers "Continue with" for the address typed and signs in through the OpenID provider to the console with tokens', async () => {
    idp.addAccount('alice', { email: 'alice@corp.test', name: 'Alice Console' });
    idp.signInAs('alice');
    const anon = await anonymousSignInPage();
    try {
      await anon.page.getByLabel('E-mail or username').fill('alice@corp.test');
      const offer = anon.page.getByRole('list', { name: 'Sign in through your organization' }).getByRole('link', { name: 'Continue with Corp Login' });
      await offer.waitFor();
      await expectAccessible(anon.page, 'sign-in with a provider offered');
      await offer.click();
      await anon.page.waitForURL((u) => u.pathname === '/devices');
      expect((await personOf(anon.page)).email).toBe('alice@corp.test');
    } finally {
      await anon.context.close();
    }
  });

  it("says in its own words why a sign-in through a provider failed, never a link's text, with the way back to the sign-in page", async () => {
    const anon = await anonymousSignInPage();
    const attacker = 'Your account is locked: call +1 555 0100 and read out your password';
    try {
      await anon.page.goto(`${server.url}/sso?error=SSO_FAILED&message=${encodeURIComponent(attacker)}`);
      const alert = anon.page.getByRole('alert');
      await alert.filter({ hasText: 'Your identity provider did not confirm who you are' }).waitFor();
      expect(await alert.textContent()).toContain('(SSO_FAILED)');
      expect(await anon.page.locator('body').textContent()).not.toContain(attacker);
      await expectAccessible(anon.page, 'a refused provider sign-in');
      // A code the console does not know is neither shown nor trusted: the generic text stands in.
      await anon.page.goto(`${server.url}/sso?error=${encodeURIComponent(attacker)}`);
      await alert.filter({ hasText: 'did not finish' }).waitFor();
      expect(await anon.page.locator('body').textContent()).not.toContain(attacker);
      await anon.page.getByRole('link', { name: 'Back to sign-in' }).click();
      await anon.page.getByLabel('E-mail or username').waitFor();
    } finally {
      await anon.context.close();
    }
  });

  it.runIf(slapdAvailable)("signs in with a directory's username and password from the sign-in page", async () => {
    directory = await startSlapd();
    await directory.add(
      [
        'dn: ou=people,dc=corp,dc=test\nobjectClass: organizationalUnit\nou: people\n',
        'dn: uid=bob,ou=people,dc=corp,dc=test\nobjectClass: inetOrgPerson\nuid: bob\ncn: Bob\nsn: B\nmail: bob@dir.test\nuserPassword: bob-console-pass\n',
      ].join('\n'),
    );
    const made = await org.post('/identity-providers', {
      type: 'ldap',
      name: 'Directory',
      domains: ['dir.test'],
      jitProvisioning: true,
      config: { url: directory.url, bindDn: directory.adminDn, bindPassword: directory.adminPassword, userSearchBase: 'ou=people,dc=corp,dc=test', userFilter: '(uid={{username}})' },
    });
    expect(made.status).toBe(201);
    await verifyDomain(server.url, admin.token, 'dir.test', dns);
    const anon = await anonymousSignInPage();
    try {
      await anon.page.getByLabel('E-mail or username').fill('bob@dir.test');
      await anon.page.getByRole('button', { name: 'Continue with Directory' }).click();
      const form = anon.page.getByRole('form', { name: 'Sign in with Directory' });
      await form.getByLabel('Directory username').fill('bob');
      await form.getByLabel('Password').fill('wrong-password');
      await form.getByRole('button', { name: 'Sign in with Directory' }).click();
      await form.getByText('Invalid username or password').waitFor();
      await expectAccessible(anon.page, 'directory sign-in form');
      await form.getByLabel('Password').fill('bob-console-pass');
      await form.getByRole('button', { name: 'Sign in with Directory' }).click();
      await anon.page.waitForURL((u) => u.pathname === '/devices');
      expect((await personOf(anon.page)).email).toBe('bob@dir.test');
    } finally {
      await anon.context.close();
    }
  });
});

describe('SCIM provisioning in the console', { timeout: 240_000 }, () => {
  it('creates a token shown once with the roles it gives, lists it by prefix, and revokes it after a confirmation', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Provisioning (SCIM)' }).click();
    await page.getByText('No SCIM token yet.').waitFor();
    const form = page.getByRole('form', { name: 'New SCIM token' });
    await form.getByLabel('Name').fill('Okta');
    await form.getByLabel('Member').check();
    await expectAccessible(page, 'SCIM provisioning, a new token');
    await form.getByRole('button', { name: 'Create the token' }).click();
    const shown = (await page.getByLabel('The new SCIM token').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    const table = page.getByRole('table', { name: 'SCIM tokens' });
    await table.getByRole('cell', { name: `${shown.slice(0, 13)}…` }).waitFor();
    await expect(table.getByRole('cell', { name: 'Member' }).count()).resolves.toBe(1);
    await expectAccessible(page, 'SCIM provisioning, a token made');

    // The token shown is the one that works at /scim/v2, with the role it was made with.
    const roles = (await org.get('/roles')).body as { id: number; name: string }[];
    const [token] = (await org.get('/scim-tokens')).body as { id: string; roleIds: number[] }[];
    expect(token!.roleIds).toEqual([roles.find((r) => r.name === 'Member')!.id]);
    expect((await http(server.url, 'GET', '/scim/v2/Users', { headers: { authorization: `Bearer ${shown}` } })).status).toBe(200);

    await table.getByRole('button', { name: 'Revoke Okta' }).click();
    await page.getByRole('group', { name: 'Confirm revoking Okta' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await table.getByText('revoked').waitFor();
    expect((await http(server.url, 'GET', '/scim/v2/Users', { headers: { authorization: `Bearer ${shown}` } })).status).toBe(401);
  });
});
