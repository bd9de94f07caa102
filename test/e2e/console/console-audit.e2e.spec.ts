import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The audit history in the console: its event-type filter is a list of the audit's types in words,
 * filtering by one shows only those entries, and every entry names its resource (a session with its
 * device, a workspace) and the person a viewer disconnection cut off; "Verify history" checks the
 * company's chain and downloads its bundle.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let context: BrowserContext;
let page: Page;
let deviceName: string;

beforeAll(async () => {
  smtp = await startSmtpListener();
  // A SIEM collector that is not there: the audit page says the shipping is failing and what waits.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const collectorPort = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  server = await startTestServer({
    SMTP_URL: smtp.url,
    AUDIT_HTTP_URL: `http://127.0.0.1:${collectorPort}/collector`,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'audit-console-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Audit Pixel', profile: 'pixel-7', width: 360, height: 640, scale: 2 }] }),
  });
  // The first company of the server sees the in-process agent's device.
  admin = await signUpCompany(server.url, 'console-audit');
  org = client(server.url, admin.token);
  const roles = (await org.get('/roles')).body as { id: number; name: string }[];
  const vera = await createActiveUser(server.url, org, smtp.mails, { email: `vera-${process.pid}@audit.test`, name: 'Vera Viewer', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
  expect((await org.post('/workspaces', { name: 'Audited space' })).status).toBe(201);
  const deviceId = await availableDevice(server.url, admin.token);
  const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: admin.token, ...(body !== undefined ? { body } : {}) });
  deviceName = (await df('GET', `/devices/${deviceId}`)).body.name;
  const session = await df('POST', '/sessions', { deviceId, name: 'Checkout run' });
  expect(session.status).toBe(201);
  expect((await df('DELETE', `/sessions/${session.body.id}/viewers/${vera.id}`)).status).toBe(200);
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

describe('the audit history in the console', { timeout: 240_000 }, () => {
  it('offers the event types in words, grouped by resource, and narrows them to a chosen resource', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit history' }).click();
    await page.getByRole('table', { name: 'Audit events' }).waitFor();
    const filters = page.getByRole('form', { name: 'Audit filters' });
    const eventType = filters.getByRole('combobox', { name: 'Event type' });
    await expect.poll(() => eventType.locator('option').count()).toBeGreaterThan(50);
    const labels = await eventType.locator('option').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Any', 'User invited', 'Session started', 'Viewer disconnected', 'File uploaded', 'App installed on a device']));
    // Words, not the events' type names.
    expect(labels.filter((l) => /^[A-Z][a-z]+[A-Z]/.test(l))).toEqual([]);
    expect(await eventType.locator('optgroup[label="Device session viewer"] option').allTextContents()).toEqual(['Viewer joined', 'Viewer disconnected']);
    const siem = page.getByRole('region', { name: 'Shipping to the SIEM' });
    await expect.poll(() => siem.textContent(), { timeout: 20_000 }).toMatch(/Shipped to the SIEM \(HTTP collector, 127\.0\.0\.1:\d+\): \d+ events waiting.*failing: /);
    await expectAccessible(page, 'audit history with its filters');
    await filters.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Workspace' });
    await expect.poll(() => eventType.locator('optgroup').count()).toBe(1);
    expect(await eventType.locator('option').allTextContents()).toContain('Workspace created');
    expect(await eventType.locator('option').allTextContents()).not.toContain('User invited');
  });

  it('filters by a type chosen by its label, each entry naming its resource', async () => {
    const filters = page.getByRole('form', { name: 'Audit filters' });
    const table = page.getByRole('table', { name: 'Audit events' });
    await filters.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Workspace' });
    await filters.getByRole('combobox', { name: 'Event type' }).selectOption({ label: 'Workspace created' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    // The sign-up's Default workspace and the one made here.
    await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).length).toBe(2);
    const rows = await table.locator('tbody tr').allTextContents();
    for (const row of rows) expect(row).toContain('Workspace created');
    expect(rows.join('\n')).toContain('Audited space');

    await filters.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Any' });
    await filters.getByRole('combobox', { name: 'Event type' }).selectOption({ label: 'Session requested' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => table.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining(`Checkout run (${deviceName})`)]);
  });

  it('names the viewer a disconnection cut off, and who cut them off', async () => {
    const filters = page.getByRole('form', { name: 'Audit filters' });
    const table = page.getByRole('table', { name: 'Audit events' });
    await filters.getByRole('combobox', { name: 'Event type' }).selectOption({ label: 'Viewer disconnected' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => table.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Viewer disconnected')]);
    const row = table.locator('tbody tr').first();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Viewer disconnected');
    const resource = await row.getByRole('cell').nth(2).textContent();
    expect(resource).toContain(`Vera Viewer on Checkout run (${deviceName})`);
    expect(resource).toContain('About: Vera Viewer');
    expect(await row.getByRole('cell').nth(3).textContent()).toContain(admin.email);
    await expectAccessible(page, 'audit history filtered to a viewer disconnection');
  });

  it('verifies the history, downloads its bundle, and shows where a changed event breaks the chain', async () => {
    const verify = page.getByRole('region', { name: 'Verify history' });
    await verify.getByRole('button', { name: 'Verify history' }).click();
    await expect.poll(() => verify.getByRole('status').textContent()).toMatch(/^Intact: \d+ events and \d+ signed checkpoints verified\.$/);
    await expectAccessible(page, 'audit history with the verification result');
    const [file] = await Promise.all([page.waitForEvent('download'), verify.getByRole('button', { name: 'Download bundle' }).click()]);
    const bundle = readFileSync((await file.path())!, 'utf8').split('\n');
    expect(JSON.parse(bundle[0]!)).toMatchObject({ format: 'qa-audit-bundle/1', chain: `company:${admin.companyId}` });
    // An administrator with SQL access changes one event: the console names where the chain breaks.
    const { db } = server.process.platform;
    const target = (await db.query<{ p: string }>(`SELECT position::text AS p FROM es_events WHERE chain = $1 AND type = 'WorkspaceCreated' ORDER BY chain_seq LIMIT 1`, [`company:${admin.companyId}`])).rows[0]!.p;
    await db.query(`UPDATE es_events SET payload = payload || '{"name": "Forged"}' WHERE position = $1::bigint`, [target]);
    await verify.getByRole('button', { name: 'Verify history' }).click();
    await expect.poll(() => verify.getByRole('status').textContent()).toContain(`Broken at position ${target}`);
    await expectAccessible(page, 'audit history with a broken chain');
  });
});
