import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * Erasing a person's personal data from the console's users page, end to end: the action is absent on
 * one's own row; it asks first (and "keep it" erases nothing); a refusal of the API (a migration still
 * pending) shows in an alert; confirmed, a status says so, the person leaves the list, the API no longer
 * knows them and the audit log records the erasure.
 */
const NAME = 'Ulrike Quellwasser';
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let person: { id: number; email: string };
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  admin = await signUpCompany(server.url, 'console-erase');
  org = client(server.url, admin.token);
  person = await createActiveUser(server.url, org, smtp.mails, { email: `ulrike-${process.pid}@example.test`, name: NAME });
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

const usersTable = () => page.getByRole('table', { name: 'Users' });
const rowOf = (text: string) => usersTable().getByRole('row').filter({ hasText: text });
const eraseButton = () => rowOf(person.email).getByRole('button', { name: `Erase personal data of ${NAME}` });
const confirmation = () => rowOf(person.email).getByRole('group', { name: `Confirm erasing the personal data of ${NAME}` });

describe("erasing a person's personal data from the console", { timeout: 240_000 }, () => {
  it("offers the erasure on another person's row, not on one's own; keeping it erases nothing", async () => {
    await page.goto(`${server.url}/org/users`);
    await eraseButton().waitFor();
    expect(await rowOf(admin.email).getByRole('button', { name: /Erase/ }).count()).toBe(0);

    await eraseButton().click();
    const group = confirmation();
    await group.waitFor();
    // The question describes the group, and the safe choice has the focus.
    type Doc = { getElementById(id: string): { textContent: string | null } | null; activeElement: unknown };
    const description = await group.evaluate((g) => (g.ownerDocument as unknown as Doc).getElementById(g.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    for (const said of ['deletes the account', 'name, e-mail address, sign-in addresses and notes', 'cannot be undone', 'history stays verifiable']) expect(description).toContain(said);
    const keep = group.getByRole('button', { name: 'Keep it' });
    await expect.poll(() => keep.evaluate((b) => b === (b.ownerDocument as unknown as Doc).activeElement)).toBe(true);
    await expectAccessible(page, 'the users page asking to confirm an erasure');
    await keep.click();
    await eraseButton().waitFor();
    expect((await org.get(`/users/${person.id}`)).status).toBe(200);
  });

  it("shows the API's refusal in an alert while events await sealing (npm run pii:migrate), and erases nothing", async () => {
    const db = server.process.platform.db;
    const { rows } = await db.query<{ p: string | null }>(`SELECT pending_through::text AS p FROM pii_migration`);
    expect(rows).toEqual([{ p: null }]);
    await db.query(`UPDATE pii_migration SET pending_through = 1`);
    try {
      await eraseButton().click();
      await confirmation().getByRole('button', { name: 'Yes, erase for good' }).click();
      const alert = rowOf(person.email).getByRole('alert');
      await alert.filter({ hasText: 'npm run pii:migrate' }).waitFor();
      await expectAccessible(page, 'the users page showing a refused erasure');
      expect((await org.get(`/users/${person.id}`)).status).toBe(200);
      await confirmation().getByRole('button', { name: 'Keep it' }).click();
    } finally {
      await db.query(`UPDATE pii_migration SET pending_through = NULL`);
    }
  });

  it('erases after the confirmation: a status says so, the person leaves the list, the API and the audit log agree', async () => {
    await eraseButton().click();
    await confirmation().getByRole('button', { name: 'Yes, erase for good' }).click();
    await page.getByRole('status').filter({ hasText: `Personal data of ${NAME} erased.` }).waitFor();
    await expect.poll(() => rowOf(person.email).count()).toBe(0);
    expect(await usersTable().textContent()).not.toContain('Quellwasser');
    await rowOf(admin.email).waitFor();
    await expectAccessible(page, 'the users page after an erasure');

    expect((await org.get(`/users/${person.id}`)).status).toBe(404);
    const audit = (await org.get('/audit/events?size=200')).body.content as { eventType: string; resourceType: string; resourceId: string }[];
    expect(audit.filter((e) => e.eventType === 'UserErased').map((e) => [e.resourceType, e.resourceId])).toEqual([['user', String(person.id)]]);
  });
});
