import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * Editing the organization from the console, end to end: a role's name and keys and its deletion,
 * a team's members, name and deletion, a workspace's modules, access grants, archiving and its
 * members' roles there; every change checked through the API, and the controls absent for a person
 * without the keys.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let tom: { id: number; email: string; password: string };
let viewer: { id: number; email: string; password: string };
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  admin = await signUpCompany(server.url, 'console-org');
  org = client(server.url, admin.token);
  const roles = (await org.get('/roles')).body as { id: number; name: string }[];
  tom = await createActiveUser(server.url, org, smtp.mails, { email: `tom-${process.pid}@example.test`, name: 'Tom Tester', roleIds: [roles.find((r) => r.name === 'Member')!.id] });
  viewer = await createActiveUser(server.url, org, smtp.mails, { email: `vera-${process.pid}@example.test`, name: 'Vera Viewer', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
  expect((await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: viewer.id })).status).toBe(200);
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

const orgNav = () => page.getByRole('navigation', { name: 'Organization' });

describe('editing the organization', { timeout: 240_000 }, () => {
  it('renames a custom role, changes its keys, and deletes it after a confirmation', async () => {
    const made = await org.post('/roles', { name: 'Testers', description: 'runs tests', permissions: ['USER_READ', 'TEAM_READ'] });
    expect(made.status).toBe(201);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await orgNav().getByRole('link', { name: 'Roles' }).click();
    await page.locator('summary').filter({ hasText: 'Testers' }).click();
    const form = page.getByRole('form', { name: 'Edit the role Testers' });
    expect(await form.getByRole('checkbox', { name: 'TEAM_READ' }).isChecked()).toBe(true);
    // A built-in role offers no editing.
    expect(await page.getByRole('form', { name: 'Edit the role Admin' }).count()).toBe(0);
    await form.getByLabel('Name').fill('QA testers');
    await form.getByRole('checkbox', { name: 'TEAM_READ' }).uncheck();
    await form.getByRole('checkbox', { name: 'ROLE_READ' }).check();
    await expectAccessible(page, 'roles, editing one');
    await form.getByRole('button', { name: 'Save the role' }).click();
    // Once saved, the list is fetched again and the editor takes the new name (it stays open, keyed by the role's id).
    const edit = page.getByRole('form', { name: 'Edit the role QA testers' });
    await edit.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const role = (await org.get(`/roles/${made.body.id}`)).body as { name: string; permissions: string[] };
    expect(role.name).toBe('QA testers');
    expect([...role.permissions].sort()).toEqual(['ROLE_READ', 'USER_READ']);

    await page.locator('summary').filter({ hasText: 'QA testers' }).waitFor();
    await edit.getByRole('button', { name: 'Delete the role' }).click();
    await edit.getByRole('group', { name: 'Confirm deleting the role QA testers' }).getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.locator('summary').filter({ hasText: 'QA testers' }).count()).toBe(0);
    expect((await org.get(`/roles/${made.body.id}`)).status).toBe(404);
  });

  it("changes a user's roles, deactivates them after a confirmation (their sign-in stops) and reactivates them", async () => {
    const roles = (await org.get('/roles')).body as { id: number; name: string }[];
    const id = (name: string) => roles.find((r) => r.name === name)!.id;
    const tomToken = (await org.post('/auth/login', { email: tom.email, password: tom.password })).body.token as string;
    await page.goto(`${server.url}/org/users`);
    const row = page.getByRole('row').filter({ hasText: tom.email });
    await row.getByRole('button', { name: 'Change the roles of Tom Tester' }).click();
    const form = row.getByRole('form', { name: 'Roles of Tom Tester' });
    expect(await form.getByRole('checkbox', { name: 'Member' }).isChecked()).toBe(true);
    await form.getByRole('checkbox', { name: 'Viewer' }).check();
    await form.getByRole('checkbox', { name: 'Member' }).uncheck();
    await expectAccessible(page, 'users, changing roles');
    await form.getByRole('button', { name: 'Save the roles' }).click();
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Viewer');
    expect(((await org.get(`/users/${tom.id}`)).body as { roleIds: number[] }).roleIds).toEqual([id('Viewer')]);

    await row.getByRole('button', { name: 'Deactivate Tom Tester' }).click();
    await row.getByRole('group', { name: 'Confirm deactivating Tom Tester' }).getByRole('button', { name: 'Yes, deactivate' }).click();
    await row.getByRole('button', { name: 'Reactivate Tom Tester' }).waitFor();
    expect((await org.get(`/users/${tom.id}`)).body.status).toBe('deactivated');
    expect((await client(server.url, tomToken).get('/users/me')).status).toBe(401);
    await row.getByRole('button', { name: 'Reactivate Tom Tester' }).click();
    await row.getByRole('button', { name: 'Deactivate Tom Tester' }).waitFor();
    expect((await org.get(`/users/${tom.id}`)).body.status).toBe('active');
    // One's own row offers no deactivation.
    expect(await page.getByRole('row').filter({ hasText: admin.email }).getByRole('button', { name: /Deactivate/ }).count()).toBe(0);
    // Back as it was, for the tests after this one.
    expect((await org.put(`/users/${tom.id}/roles`, { roleIds: [id('Member')] })).status).toBe(200);
  });

  it("adds and removes a team's member, renames the team and deletes it", async () => {
    await orgNav().getByRole('link', { name: 'Teams' }).click();
    await page.getByText('No team yet.').waitFor();
    const form = page.getByRole('form', { name: 'New team' });
    await form.getByLabel('Name').fill('Mobile');
    await form.getByRole('button', { name: 'Create the team' }).click();
    const card = page.getByRole('article', { name: 'Team Mobile' });
    await card.waitFor();
    const teamId = ((await org.get('/teams')).body as { id: number; name: string }[]).find((t) => t.name === 'Mobile')!.id;

    await card.getByRole('combobox', { name: 'Add a member' }).selectOption({ label: `Tom Tester (${tom.email})` });
    await card.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => card.getByRole('list', { name: 'Members of Mobile' }).textContent()).toContain('Tom Tester');
    expect((await org.get(`/teams/${teamId}`)).body.memberIds).toEqual([tom.id]);
    await expectAccessible(page, 'teams with a member');

    await card.getByRole('button', { name: 'Remove Tom Tester from Mobile' }).click();
    await card.getByRole('group', { name: 'Confirm removing Tom Tester from Mobile' }).getByRole('button', { name: 'Yes, remove' }).click();
    await card.getByText('No member yet.').waitFor();
    expect((await org.get(`/teams/${teamId}`)).body.memberIds).toEqual([]);

    await card.getByRole('button', { name: 'Rename the team Mobile' }).click();
    await card.getByLabel('Team name').fill('Mobile QA');
    await card.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('article', { name: 'Team Mobile QA' });
    await renamed.waitFor();
    expect((await org.get(`/teams/${teamId}`)).body.name).toBe('Mobile QA');

    await renamed.getByRole('button', { name: 'Delete the team Mobile QA' }).click();
    await renamed.getByRole('group', { name: 'Confirm deleting the team Mobile QA' }).getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No team yet.').waitFor();
    expect((await org.get(`/teams/${teamId}`)).status).toBe(404);
  });

  it("changes a workspace's modules, grants and revokes access, archives and restores it", async () => {
    const made = await org.post('/workspaces', { name: 'Lab', description: 'the lab' });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    await orgNav().getByRole('link', { name: 'Workspaces' }).click();
    const card = page.getByRole('article', { name: 'Workspace Lab' });
    await card.waitFor();

    const modules = card.getByRole('form', { name: 'Modules of Lab' });
    const before = ((await org.get(`/workspaces/${id}/modules`)).body as { modules: string[] }).modules;
    expect(before).toContain('HEALTHCHECK');
    await modules.getByRole('checkbox', { name: 'Health checks' }).uncheck();
    await modules.getByRole('button', { name: 'Save the modules' }).click();
    await modules.getByRole('status').waitFor();
    const after = ((await org.get(`/workspaces/${id}/modules`)).body as { modules: string[] }).modules;
    expect(after).not.toContain('HEALTHCHECK');
    expect(after.filter((m) => m !== 'ORGANIZATION').sort()).toEqual(before.filter((m) => m !== 'ORGANIZATION' && m !== 'HEALTHCHECK').sort());

    await card.getByRole('combobox', { name: 'Grant access to' }).selectOption({ label: `Tom Tester (${tom.email})` });
    await card.getByRole('button', { name: 'Grant' }).click();
    const grants = card.getByRole('list', { name: 'Access to Lab' });
    await expect.poll(() => grants.textContent()).toContain('Tom Tester');
    expect(((await org.get(`/workspaces/${id}/access`)).body as { users: { id: number }[] }).users.map((u) => u.id)).toEqual([tom.id]);
    await expectAccessible(page, 'workspaces with a grant');
    await grants.getByRole('button', { name: 'Revoke the access of Tom Tester to Lab' }).click();
    await grants.getByRole('group', { name: 'Confirm revoking the access of Tom Tester' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await card.getByText('No grant: administrators only.').waitFor();
    expect(((await org.get(`/workspaces/${id}/access`)).body as { users: unknown[] }).users).toEqual([]);

    await card.getByRole('button', { name: 'Archive Lab' }).click();
    await card.getByRole('group', { name: 'Confirm archiving Lab' }).getByRole('button', { name: 'Yes, archive' }).click();
    await card.getByRole('button', { name: 'Restore Lab' }).waitFor();
    expect((await org.get(`/workspaces/${id}`)).body.archived).toBe(true);
    // An archived workspace is read-only: no module or grant controls.
    expect(await card.getByRole('form').count()).toBe(0);
    await card.getByRole('button', { name: 'Restore Lab' }).click();
    await card.getByRole('button', { name: 'Archive Lab' }).waitFor();
    expect((await org.get(`/workspaces/${id}`)).body.archived).toBe(false);
  });

  it('gives a workspace member a role there and takes it back', async () => {
    const made = await org.post('/workspaces', { name: 'Bench', description: '' });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    expect((await org.post(`/workspaces/${id}/access/users`, { userId: tom.id })).status).toBe(200);
    const rolesHere = async () => ((await org.get(`/workspaces/${id}/members`)).body as { userId: number; roles: { name: string }[] }[]).find((m) => m.userId === tom.id)!.roles.map((r) => r.name);
    await page.goto(`${server.url}/org/workspaces`);
    const card = page.getByRole('article', { name: 'Workspace Bench' });
    await card.getByText('Members and their roles in Bench').click();
    const give = card.getByRole('form', { name: 'Give Tom Tester a role in Bench' });
    await give.getByRole('combobox', { name: 'Role to give Tom Tester' }).selectOption({ label: 'Viewer' });
    await give.getByRole('button', { name: 'Give' }).click();
    const held = card.getByRole('list', { name: 'Roles of Tom Tester in Bench' });
    await expect.poll(() => held.textContent()).toContain('Viewer');
    expect(await rolesHere()).toEqual(['Viewer']);
    await expectAccessible(page, 'workspace members');
    await held.getByRole('button', { name: 'Take the role Viewer from Tom Tester in Bench' }).click();
    await card.getByRole('row', { name: /Tom Tester/ }).getByText('company roles only').waitFor();
    expect(await rolesHere()).toEqual([]);
  });

  it("sets the signed-in workspace's session recording: automation recording and how long videos are kept", async () => {
    const defaults = async () => (await fetch(`${server.url}/df/api/settings/session-defaults`, { headers: { authorization: `Bearer ${admin.token}` } })).json() as Promise<{ recordAutomation: boolean; videoRetentionDays: number | null }>;
    expect(await defaults()).toMatchObject({ recordAutomation: true, videoRetentionDays: null });
    await page.goto(`${server.url}/org/workspaces`);
    const form = page.getByRole('article', { name: 'Workspace Default' }).getByRole('form', { name: 'Session recording of Default' });
    await form.getByRole('checkbox', { name: /Record automation sessions/ }).uncheck();
    await form.getByRole('spinbutton', { name: /Keep session videos for/ }).fill('30');
    await form.getByRole('button', { name: 'Save the recording settings' }).click();
    await form.getByRole('status').waitFor();
    expect(await defaults()).toMatchObject({ recordAutomation: false, videoRetentionDays: 30 });
    await expectAccessible(page, 'workspace session recording');
    await form.getByRole('spinbutton', { name: /Keep session videos for/ }).fill('');
    await form.getByRole('button', { name: 'Save the recording settings' }).click();
    await expect.poll(async () => (await defaults()).videoRetentionDays).toBeNull();
  });

  it('offers no editing to a person without the manage keys', async () => {
    await org.post('/teams', { name: 'Readers', description: '' });
    const v = await signedIn(browser, server.url, viewer.email, viewer.password);
    try {
      for (const [section, what] of [
        ['Roles', 'Admin'],
        ['Teams', 'Readers'],
        ['Workspaces', 'Default'],
      ] as const) {
        await v.page.goto(`${server.url}/org/${section.toLowerCase()}`);
        await expect.poll(() => v.page.locator('main').textContent()).toContain(what);
        expect(await v.page.locator('main').getByRole('button', { name: /Delete|Rename|Archive|Revoke|Save|Add|Grant|Create/ }).count(), section).toBe(0);
      }
      // The members of a workspace are readable, with no control to give or take a role.
      const card = v.page.getByRole('article', { name: 'Workspace Default' });
      await card.getByText('Members and their roles in Default').click();
      await card.getByRole('table', { name: 'Members of Default' }).waitFor();
      expect(await card.getByRole('button', { name: /Give|Take the role/ }).count()).toBe(0);
      await expectAccessible(v.page, 'workspaces, read only');
    } finally {
      await v.context.close();
    }
    await context.close();
  });
});
