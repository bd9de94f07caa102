import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signIn, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn, signInThroughPage, openPage, VIEWPORT } from '#test/helpers/console-browser.js';

/**
 * The session page's viewers and sharing, end to end: the owner revokes an invitation and a link and
 * disconnects a viewer, whose own page then says so; a viewer gets none of these controls.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let owner: { context: BrowserContext; page: Page };
let sessionId = '';
let wendy: { id: number; email: string; password: string; token: string };

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  // The first company to sign up gets the in-process host's devices.
  admin = await signUpCompany(server.url, 'console-sharing');
  browser = await launchBrowser();
  const org = client(server.url, admin.token);
  const roles = (await org.get('/roles')).body as { id: number; name: string }[];
  wendy = await createActiveUser(server.url, org, smtp.mails, { email: `wendy-${process.pid}@example.test`, name: 'Wendy Watcher', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
  expect((await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: wendy.id })).status).toBe(200);
  const deviceId = await availableDevice(server.url, admin.token);
  const started = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId } });
  expect(started.status).toBe(201);
  sessionId = started.body.id;
  owner = await signedIn(browser, server.url, admin.email, admin.password);
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (sessionId) await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token: admin.token });
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

describe('viewers and sharing on the session page', { timeout: 120_000 }, () => {
  it('revokes a coworker invitation after a confirmation', async () => {
    const { page } = owner;
    await page.goto(`${server.url}/sessions/${sessionId}`);
    await page.getByRole('tab', { name: /Viewers and sharing/ }).click();
    const pane = page.getByRole('tabpanel');
    await pane.getByText('No coworker is invited.').waitFor();
    await pane.getByText('No link is open.').waitFor();
    await pane.getByLabel('Invite a coworker by e-mail').fill(wendy.email);
    await pane.getByRole('button', { name: 'Invite' }).click();
    await pane.getByRole('status').filter({ hasText: 'Invitation mailed (view).' }).waitFor();
    const invitations = pane.getByRole('list', { name: 'Invitations' });
    await expect.poll(() => invitations.textContent()).toContain(wendy.email);
    await expectAccessible(page, 'session sharing with an invitation');

    await invitations.getByRole('button', { name: `Revoke the invitation of ${wendy.email}` }).click();
    const confirm = invitations.getByRole('group', { name: `Confirm revoking the invitation of ${wendy.email}` });
    // The safe choice has the focus.
    await expect.poll(() => confirm.getByRole('button', { name: 'Keep it' }).evaluate((b) => b === (b.ownerDocument as { activeElement: unknown }).activeElement)).toBe(true);
    await confirm.getByRole('button', { name: 'Yes, revoke' }).click();
    await pane.getByText('No coworker is invited.').waitFor();
    const listed = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/invitations`, { token: admin.token });
    expect(listed.body).toEqual([]);
  });

  it('disconnects a viewer who came by a link; her page says so and she gets no sharing controls', async () => {
    const { page } = owner;
    const pane = page.getByRole('tabpanel');
    await pane.getByRole('radio', { name: 'View' }).check();
    await pane.getByRole('button', { name: 'Make a link' }).click();
    const link = await pane.getByLabel('Shareable link').inputValue();
    // Absolute, on the console's own address, at the route that accepts it.
    expect(new URL(link).origin).toBe(server.url);
    expect(new URL(link).pathname).toMatch(/^\/device-farm\/session-invite\/dfs_[A-Za-z0-9_-]+$/);
    const links = pane.getByRole('list', { name: 'Open links' });
    await expect.poll(() => links.getByRole('listitem').count()).toBe(1);
    expect(await links.textContent()).toContain('0 used');

    const watcher = await browser.newContext({ viewport: VIEWPORT });
    const view = await openPage(watcher);
    await view.goto(link);
    await expect.poll(() => new URL(view.url()).pathname).toBe('/sign-in');
    await signInThroughPage(view, wendy.email, wendy.password);
    await view.waitForURL((u) => u.pathname === `/sessions/${sessionId}`);
    await expect.poll(() => view.locator('.title-row').textContent(), { timeout: 30_000 }).toContain('view only');
    // A viewer may see who watches, but not manage it.
    await view.getByRole('tab', { name: /Viewers and sharing/ }).click();
    await expect.poll(() => view.getByRole('list', { name: 'Viewers' }).textContent()).toContain('Wendy Watcher');
    expect(await view.getByRole('button', { name: /^Disconnect/ }).count()).toBe(0);
    expect(await view.getByRole('list', { name: 'Open links' }).count()).toBe(0);

    const viewers = pane.getByRole('list', { name: 'Viewers' });
    await expect.poll(() => viewers.textContent(), { timeout: 10_000 }).toContain('Wendy Watcher');
    await expect.poll(() => links.textContent()).toContain('1 used');
    // No button to disconnect oneself.
    expect(await viewers.getByRole('button', { name: `Disconnect ${admin.email}` }).count()).toBe(0);
    await viewers.getByRole('button', { name: 'Disconnect Wendy Watcher' }).click();
    await expectAccessible(page, 'session sharing, confirming a disconnection');
    await viewers.getByRole('group', { name: 'Confirm disconnecting Wendy Watcher' }).getByRole('button', { name: 'Yes, disconnect' }).click();

    await expect.poll(() => view.getByRole('alert').filter({ hasText: 'You were disconnected' }).textContent(), { timeout: 10_000 }).toContain("The session's owner disconnected you");
    await expectAccessible(view, 'the disconnected viewer');
    await expect.poll(() => viewers.textContent(), { timeout: 10_000 }).not.toContain('Wendy Watcher');
    // Her access is withdrawn: the link is refused to her now.
    // (A fresh token: hers from before the workspace grant names no workspace.)
    const fresh = (await signIn(server.url, wendy.email, wendy.password)).body.token as string;
    const again = await http(server.url, 'POST', `/df/api/session-invites/${new URL(link).pathname.split('/').pop()}/accept`, { token: fresh });
    expect(again.status, JSON.stringify(again.body)).toBe(403);
    expect(again.body.code).toBe('SESSION_ACCESS_WITHDRAWN');
    await watcher.close();
  });

  it("tells a reader of the workspace who was not invited that only the owner, invitees and reviewers see the screen, and shows no broken pane", async () => {
    const org = client(server.url, admin.token);
    const roles = (await org.get('/roles')).body as { id: number; name: string }[];
    const rita = await createActiveUser(server.url, org, smtp.mails, { email: `rita-${process.pid}@example.test`, name: 'Rita Reader', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
    expect((await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: rita.id })).status).toBe(200);
    const reader = await signedIn(browser, server.url, rita.email, rita.password);
    await reader.page.goto(`${server.url}/sessions/${sessionId}`);
    const note = reader.page.getByRole('status').filter({ hasText: "Only the session's owner, the people it is shared with and reviewers can see its screen." });
    await note.waitFor({ timeout: 30_000 });
    // The record is there; the screen, the logs and the replay are not.
    expect(await reader.page.locator('.title-row').textContent()).toContain('its record only');
    expect(await reader.page.locator('canvas').isVisible()).toBe(false);
    expect(await reader.page.getByRole('tab').allTextContents()).toEqual(['Activity', 'Notes', expect.stringMatching(/^Viewers and sharing/)]);
    expect(await reader.page.getByRole('alert').count()).toBe(0);
    await expectAccessible(reader.page, 'a session page without its content');
    await reader.context.close();
  });

  it('revokes the link after a confirmation; the API no longer lists it', async () => {
    const { page } = owner;
    const pane = page.getByRole('tabpanel');
    const links = pane.getByRole('list', { name: 'Open links' });
    const revoke = links.getByRole('button', { name: /^Revoke the link made/ });
    await revoke.click();
    await links.getByRole('group', { name: /^Confirm revoking the link made/ }).getByRole('button', { name: 'Keep it' }).click();
    expect(await links.getByRole('listitem').count()).toBe(1);
    await revoke.click();
    await links.getByRole('group', { name: /^Confirm revoking the link made/ }).getByRole('button', { name: 'Yes, revoke' }).click();
    await pane.getByText('No link is open.').waitFor();
    const listed = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/invitations/links`, { token: admin.token });
    expect(listed.body).toEqual([]);
  });
});
