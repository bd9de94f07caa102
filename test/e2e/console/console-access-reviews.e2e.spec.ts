import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The access review workflow in the console, in Chromium with axe: from the access review page an
 * administrator opens "Access reviews", starts a review of a workspace, marks each grant keep or revoke
 * (a note on one), completes it once every grant is decided (asked first), sees what came of each
 * revocation, and downloads the evidence as CSV and JSON. The API agrees: the revoked grants are gone,
 * the kept ones remain. A person without AUDIT_READ is offered none of it.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let context: BrowserContext;
let page: Page;
const ids = { workspace: 0, team: 0, rita: 0, sam: 0 };
let vera: { id: number; email: string; password: string };
const WORKSPACE = 'Audited payments';

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  admin = await signUpCompany(server.url, 'console-reviews');
  org = client(server.url, admin.token);
  const roles = (await org.get('/roles')).body as { id: number; name: string }[];
  const checkers = (await org.post('/roles', { name: 'Release checkers', permissions: ['TMT_READ'] })).body.id as number;
  const person = (name: string, roleIds: number[]) => createActiveUser(server.url, org, smtp.mails, { email: `${name.toLowerCase()}-${process.pid}@reviews.test`, name, roleIds });
  ids.rita = (await person('Rita', [checkers])).id;
  ids.sam = (await person('Sam', [])).id;
  vera = await person('Vera', [roles.find((r) => r.name === 'Viewer')!.id]);
  ids.workspace = (await org.post('/workspaces', { name: WORKSPACE })).body.id;
  ids.team = (await org.post('/teams', { name: 'Checkers' })).body.id;
  const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  ok(await org.post(`/teams/${ids.team}/members/${ids.sam}`));
  ok(await org.post(`/workspaces/${ids.workspace}/access/users`, { userId: ids.rita }));
  ok(await org.post(`/workspaces/${ids.workspace}/access/teams`, { teamId: ids.team }));
  // Vera (a Viewer, without AUDIT_READ) may enter the company's first workspace.
  ok(await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: vera.id }));
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
}, 180_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

const grants = () => page.getByRole('table', { name: `Grants of ${WORKSPACE} under review` });
/** The row of the grant whose words contain `text`. */
const row = (text: string) => grants().getByRole('row').filter({ hasText: text });

describe('the access review workflow in the console', { timeout: 240_000 }, () => {
  it('is reached from the access review page and starts a review of a workspace, listing its grants undecided', async () => {
    await page.goto(`${server.url}/org/access-review`);
    await page.locator('p').getByRole('link', { name: 'Access reviews' }).click();
    await page.waitForURL((u) => u.pathname === '/org/access-reviews');
    await page.getByText('No access review yet.').waitFor();
    await expectAccessible(page, 'access reviews, none yet');

    const start = page.getByRole('form', { name: 'Start an access review' });
    await start.getByRole('combobox', { name: 'Workspace to review' }).selectOption({ label: WORKSPACE });
    await start.getByRole('button', { name: 'Start review' }).click();
    await page.waitForURL((u) => u.pathname === '/org/access-reviews' && u.searchParams.has('review'));
    await grants().waitFor();
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toMatch(new RegExp(`^Review #\\d+ of ${WORKSPACE}$`));
    await row('Rita').first().waitFor();
    expect(await row('may enter').allTextContents()).toEqual([expect.stringContaining('Rita'), expect.stringContaining('Team Checkers may enter')]);
    expect(await row('is a member of team Checkers').textContent()).toContain('Sam');
    expect(await row('holds the company role Release checkers').textContent()).toContain('Keys: TMT_READ');
    for (const text of await grants().locator('tbody tr td:nth-child(3)').allTextContents()) expect(text).toBe('Undecided');
    expect(await page.getByRole('button', { name: 'Complete the review' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'an access review just started');
  });

  it('marks each grant keep or revoke, with a note, and completes the review: the revoked grants are gone', async () => {
    const reviewId = Number(new URL(page.url()).searchParams.get('review'));
    const revoke = [`${WORKSPACE} (granted to them)`, 'is a member of team Checkers'];
    await row(revoke[0]!).getByRole('textbox').fill('Left the project');
    const rows = await grants().locator('tbody tr').count();
    for (let n = 0; n < rows; n++) {
      const r = grants().locator('tbody tr').nth(n);
      const text = (await r.textContent()) ?? '';
      const decision = revoke.some((t) => text.includes(t)) ? 'Revoke' : 'Keep';
      await r.getByRole('button', { name: decision, exact: true }).click();
      await expect.poll(() => r.getByRole('button', { name: decision, exact: true }).getAttribute('aria-pressed')).toBe('true');
    }
    await expect.poll(() => page.getByRole('button', { name: 'Complete the review' }).isDisabled()).toBe(false);
    await expectAccessible(page, 'an access review with every grant decided');

    await page.getByRole('button', { name: 'Complete the review' }).click();
    const confirm = page.getByRole('group', { name: 'Complete the review' });
    expect(await confirm.textContent()).toContain('Revoke the 2 grants marked revoke');
    await confirm.getByRole('button', { name: 'Complete and revoke' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Started' }).textContent()).toMatch(/Completed .+ by /);
    expect(await row(revoke[0]!).locator('td').nth(3).textContent()).toBe('Revoked');
    expect(await row(revoke[0]!).locator('td').nth(1).textContent()).toBe('RevokeLeft the project');
    expect(await row(revoke[1]!).locator('td').nth(3).textContent()).toBe('Revoked');
    expect(await row('Team Checkers may enter').locator('td').nth(3).textContent()).toBe('Kept');
    expect(await grants().getByRole('button').count()).toBe(0);
    await expectAccessible(page, 'a completed access review');

    const access = (await org.get(`/workspaces/${ids.workspace}/access`)).body as { users: { id: number }[]; teams: { id: number }[] };
    expect(access.users).toEqual([]);
    expect(access.teams.map((t) => t.id)).toEqual([ids.team]);
    expect((await org.get(`/teams/${ids.team}`)).body.memberIds).toEqual([]);
    const review = (await org.get(`/access-reviews/${reviewId}`)).body;
    expect(review.status).toBe('completed');
  });

  it('downloads the evidence as CSV and JSON, every decision in it', async () => {
    const reviewId = Number(new URL(page.url()).searchParams.get('review'));
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download evidence (CSV)' }).click()]);
    expect(csv.suggestedFilename()).toBe(`access-review-${reviewId}-evidence.csv`);
    const lines = readFileSync((await csv.path())!, 'utf8').trimEnd().split('\r\n');
    const header = lines[0]!.split(',');
    const count = await grants().locator('tbody tr').count();
    expect(lines).toHaveLength(count + 1);
    const decisions = lines.slice(1).map((l) => l.split(',')[header.indexOf('decision')]);
    expect(decisions.filter((d) => d === 'revoke')).toHaveLength(2);
    expect(decisions.filter((d) => d === 'keep')).toHaveLength(count - 2);
    expect(lines.find((l) => l.includes('Left the project'))).toContain(',revoked,');

    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download evidence (JSON)' }).click()]);
    expect(json.suggestedFilename()).toBe(`access-review-${reviewId}-evidence.json`);
    const evidence = JSON.parse(readFileSync((await json.path())!, 'utf8'));
    expect(evidence).toMatchObject({ id: reviewId, status: 'completed', startedBy: { email: admin.email }, completedBy: { email: admin.email } });
    expect(evidence.items.every((i: { decision: string; decidedBy: { email: string } }) => i.decision !== null && i.decidedBy.email === admin.email)).toBe(true);
  });

  it('lists the review, completed, among the reviews', async () => {
    await page.getByRole('link', { name: 'All reviews' }).click();
    const list = page.getByRole('table', { name: 'Access reviews' });
    await list.waitFor();
    const entry = list.getByRole('row').filter({ hasText: WORKSPACE });
    // The list the page kept from the review's start shows until its refetch answers: wait for the new one.
    await expect.poll(async () => (await entry.textContent()) ?? '').toContain('Completed');
    const text = (await entry.textContent()) ?? '';
    expect(text).toMatch(/\d+ keep, 2 revoke$/);
    await expectAccessible(page, 'the list of access reviews');
  });

  it('is neither in the navigation nor open to a person without AUDIT_READ', async () => {
    const v = await signedIn(browser, server.url, vera.email, vera.password);
    try {
      await v.page.goto(`${server.url}/org/access-reviews`);
      await expect.poll(() => v.page.locator('main').textContent()).toContain('You do not hold the permission for this page.');
      const orgNav = v.page.getByRole('navigation', { name: 'Organization' });
      await orgNav.getByRole('link', { name: 'Users' }).waitFor();
      expect(await orgNav.getByRole('link', { name: 'Access reviews' }).count()).toBe(0);
      expect(await v.page.getByRole('form', { name: 'Start an access review' }).count()).toBe(0);
    } finally {
      await v.context.close();
    }
  });
});
