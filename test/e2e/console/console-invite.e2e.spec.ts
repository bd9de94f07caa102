import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { eventually } from '#test/helpers/df-farm.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { expectAccessible, launchBrowser, openPage, pageErrors, signedIn, signInThroughPage, VIEWPORT } from '#test/helpers/console-browser.js';

/**
 * A team's first week from the console, end to end: an administrator invites a coworker into a
 * workspace; the mailed link (at the server's real address, APP_URL being unset) lands the coworker
 * on that workspace's device grid; a second invitation keeps the role and kills the first link; a
 * person with no workspace is told whom to ask, and moves on once granted, without signing out.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let roles: Record<string, number>;
let teamSpace: number;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  admin = await signUpCompany(server.url, 'console-invite');
  org = client(server.url, admin.token);
  roles = Object.fromEntries(((await org.get('/roles')).body as { id: number; name: string }[]).map((r) => [r.name, r.id]));
  const made = await org.post('/workspaces', { name: 'Team space' });
  expect(made.status).toBe(201);
  teamSpace = made.body.id;
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

/** The text of a mail as written (quoted-printable soft breaks and escapes undone). */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/** The activation link of the `n`-th invitation mailed to `to`. */
const activationLink = (to: string, n: number) =>
  eventually(async () => {
    const mails = smtp.mails.filter((m) => m.to.includes(to));
    return mails.length >= n ? /(http\S+\/activate\?token=[A-Za-z0-9_%-]+)/.exec(mailText(mails[n - 1]!.raw))?.[1] : undefined;
  }, { what: `invitation mail ${n} to ${to}` });

describe('inviting a coworker into a workspace', { timeout: 240_000 }, () => {
  const email = `carla-${process.pid}@example.test`;

  it('invites from the console with a role and a workspace; the form resets; a second invitation keeps the role', async () => {
    await page.goto(`${server.url}/org/users`);
    const form = page.getByRole('form', { name: 'Invite' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Role').selectOption({ label: 'Member' });
    const workspaces = form.getByRole('group', { name: 'Workspaces they may enter' });
    await workspaces.getByRole('checkbox', { name: 'Team space' }).check();
    await expectAccessible(page, 'the invite form, filled in');
    await form.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByRole('status').filter({ hasText: `Invitation mailed to ${email}.` }).waitFor();
    await expect.poll(() => form.getByLabel('E-mail').inputValue()).toBe('');
    expect(await workspaces.getByRole('checkbox', { name: 'Team space' }).isChecked()).toBe(false);
    expect(await form.getByLabel('Role').inputValue()).toBe('');
    const first = await activationLink(email, 1);
    // APP_URL is unset: the link is the address the server listens on.
    expect(new URL(first).origin).toBe(server.url);

    // Again, choosing nothing: a new link, the role and workspace kept.
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'already invited — a new link was sent' }).waitFor();
    await expectAccessible(page, 'the invite form after a repeated invitation');
    const invited = (await org.get(`/users/email?email=${encodeURIComponent(email)}`)).body;
    expect(invited).toMatchObject({ status: 'passive', roleIds: [roles.Member] });
    const second = await activationLink(email, 2);
    expect(second).not.toBe(first);

    // The coworker's own browser: the first link is dead, the second lands on the Team space's device grid.
    const own = await browser.newContext({ viewport: VIEWPORT });
    own.setDefaultTimeout(90_000);
    try {
      const carla = await openPage(own);
      await carla.goto(first);
      await carla.getByLabel('Your name').fill('Carla Coworker');
      await carla.getByLabel('Password').fill('carla password');
      await carla.getByRole('button', { name: 'Activate my account' }).click();
      await carla.getByRole('alert').filter({ hasText: 'Invalid or expired invitation token' }).waitFor();
      await expectAccessible(carla, 'the activation page refusing a replaced link');

      await carla.goto(second);
      await carla.getByLabel('Your name').fill('Carla Coworker');
      await carla.getByLabel('Password').fill('carla password');
      await carla.getByRole('button', { name: 'Activate my account' }).click();
      await carla.waitForURL((u) => u.pathname === '/devices');
      await carla.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
      await expect.poll(() => carla.getByLabel('Workspace').inputValue()).toBe(String(teamSpace));
      await expectAccessible(carla, "the new coworker's device grid");
      const me = (await org.get(`/users/email?email=${encodeURIComponent(email)}`)).body;
      expect(me).toMatchObject({ status: 'active', roleIds: [roles.Member] });
    } finally {
      await own.close();
    }
  });
});

describe('a person with no workspace', { timeout: 240_000 }, () => {
  it('is told whom to ask, and moves on to the device grid once granted, without signing out', async () => {
    const nomad = await createActiveUser(server.url, org, smtp.mails, { email: `nomad-${process.pid}@example.test`, name: 'Nora Nomad' });
    const own = await browser.newContext({ viewport: VIEWPORT });
    own.setDefaultTimeout(90_000);
    try {
      const p = await openPage(own);
      await p.goto(`${server.url}/sign-in`);
      await signInThroughPage(p, nomad.email, nomad.password);
      await p.getByRole('heading', { level: 1, name: 'No workspace yet' }).waitFor();
      expect(await p.content()).not.toContain('X-Workspace-Id');
      const admins = p.getByRole('list', { name: 'Administrators of your company' });
      expect(await admins.textContent()).toContain(admin.email);
      expect(await admins.getByRole('link', { name: admin.email }).getAttribute('href')).toBe(`mailto:${admin.email}`);
      await p.getByRole('button', { name: 'Check again' }).click();
      await p.getByRole('status').filter({ hasText: 'Still no workspace' }).waitFor();
      await expectAccessible(p, 'the page of a person without a workspace');
      const signIns = (await org.get(`/users/user-login-logs/${nomad.id}`)).body;

      expect((await org.post(`/workspaces/${teamSpace}/access/users`, { userId: nomad.id })).status).toBe(200);
      await p.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
      expect(new URL(p.url()).pathname).toBe('/devices');
      await expect.poll(() => p.getByLabel('Workspace').inputValue()).toBe(String(teamSpace));
      // The same sign-in: no new one was recorded on the way.
      expect((await org.get(`/users/user-login-logs/${nomad.id}`)).body).toEqual(signIns);
      await expectAccessible(p, 'the device grid after access was granted');
    } finally {
      await own.close();
    }
  });
});
