import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signIn, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { AuditChain } from '#services/organization/audit/index.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The audit history in the console: its event-type filter is a list of the audit's types in words,
 * filtering by one shows only those entries, and every entry names its resource (a session with its
 * device, a workspace) and the person a viewer disconnection cut off; "Verify history" checks the
 * company's chain and downloads its bundle. The access review beside it shows who could enter a
 * workspace at a moment of the past, who could use a key then, and downloads the same as CSV; a person
 * without AUDIT_READ finds neither. The company's device health rules (their changes audited) are set
 * from the device grid: kept across a reload, and a value out of range refused beside its field.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let context: BrowserContext;
let page: Page;
let deviceName: string;
let vera: { id: number; email: string; password: string };

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
  vera = await createActiveUser(server.url, org, smtp.mails, { email: `vera-${process.pid}@audit.test`, name: 'Vera Viewer', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
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

  it('verifies the history, downloads its bundle and the signing keys to pin, and shows where a changed event breaks the chain', async () => {
    // A checkpoint signed now, as the installation's checkpointer signs one every so many events or minutes:
    // the signing key exists from then on (on a busy machine the server's own first pass may come later).
    await new AuditChain(server.process.platform).checkpoints.pass(true);
    const verify = page.getByRole('region', { name: 'Verify history' });
    await verify.getByRole('button', { name: 'Verify history' }).click();
    await expect.poll(() => verify.getByRole('status').textContent()).toMatch(/^Intact: \d+ events and \d+ signed checkpoints verified\.$/);
    await expectAccessible(page, 'audit history with the verification result');
    const [file] = await Promise.all([page.waitForEvent('download'), verify.getByRole('button', { name: 'Download bundle' }).click()]);
    const bundle = readFileSync((await file.path())!, 'utf8').split('\n');
    expect(JSON.parse(bundle[0]!)).toMatchObject({ format: 'qa-audit-bundle/1', chain: `company:${admin.companyId}` });
    // The signing keys to pin (dfctl audit verify --keys): the published set, holding the keys the bundle carries.
    const [keysFile] = await Promise.all([page.waitForEvent('download'), verify.getByRole('button', { name: 'Download signing keys' }).click()]);
    expect(keysFile.suggestedFilename()).toBe('audit-keys.json');
    const keys = JSON.parse(readFileSync((await keysFile.path())!, 'utf8')) as { keys: { kid: string; kty: string; crv: string }[] };
    expect(keys.keys.length).toBeGreaterThan(0);
    for (const k of keys.keys) expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(keys.keys.map((k) => k.kid).sort()).toEqual((JSON.parse(bundle[0]!).keys.keys as { kid: string }[]).map((k) => k.kid).sort());
    // An administrator with SQL access changes one event: the console names where the chain breaks.
    const { db } = server.process.platform;
    const target = (await db.query<{ p: string }>(`SELECT position::text AS p FROM es_events WHERE chain = $1 AND type = 'WorkspaceCreated' ORDER BY chain_seq LIMIT 1`, [`company:${admin.companyId}`])).rows[0]!.p;
    await db.query(`UPDATE es_events SET payload = payload || '{"name": "Forged"}' WHERE position = $1::bigint`, [target]);
    await verify.getByRole('button', { name: 'Verify history' }).click();
    await expect.poll(() => verify.getByRole('status').textContent()).toContain(`Broken at position ${target}`);
    await expectAccessible(page, 'audit history with a broken chain');
  });
});

describe('the access review in the console', { timeout: 240_000 }, () => {
  const HOUR = 3_600_000;
  let rita: { id: number; email: string };
  let workspaceId: number;
  const form = () => page.getByRole('form', { name: 'Access review' });
  /** A `datetime-local` value in the browser's zone, to the second. */
  const localAt = (ms: number) =>
    page.evaluate((t) => {
      const d = new Date(t);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    }, ms);
  const review = async (at: number | 'now', permissionKey = '') => {
    await form().getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Reviewed space' });
    if (at === 'now') await form().getByRole('button', { name: 'Now' }).click();
    else await form().getByLabel('As of').fill(await localAt(at));
    await form().getByRole('combobox', { name: 'Permission key' }).selectOption(permissionKey);
    await form().getByRole('button', { name: 'Review' }).click();
  };

  beforeAll(async () => {
    // Two hours ago (the platform's clock set back): a workspace, a role with keys, Rita given the role
    // and access to the workspace. Now: her access revoked.
    const clock = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() - 2 * HOUR);
    try {
      const past = client(server.url, (await signIn(server.url, admin.email, admin.password)).body.token);
      const role = await past.post('/roles', { name: 'Release checkers', permissions: ['TMT_READ', 'TMT_WRITE'] });
      expect(role.status).toBe(201);
      workspaceId = (await past.post('/workspaces', { name: 'Reviewed space' })).body.id;
      rita = await createActiveUser(server.url, past, smtp.mails, { email: `rita-${process.pid}@audit.test`, name: 'Rita Reviewed', roleIds: [role.body.id] });
      expect((await past.post(`/workspaces/${workspaceId}/access/users`, { userId: rita.id })).status).toBeLessThan(300);
    } finally {
      server.process.platform.now = clock;
    }
    const now = client(server.url, (await signIn(server.url, admin.email, admin.password)).body.token);
    expect((await now.delete(`/workspaces/${workspaceId}/access/users/${rita.id}`)).status).toBeLessThan(300);
    // Vera (a Viewer, without AUDIT_READ) may enter the company's first workspace.
    expect((await now.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: vera.id })).status).toBeLessThan(300);
  });

  it('shows who could enter a workspace an hour ago (a grant since revoked), and that they cannot now', async () => {
    await page.goto(`${server.url}/org/audit`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Access review', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/org/access-review');
    await review(Date.now() - HOUR);
    const people = page.getByRole('table', { name: 'People with access to Reviewed space' });
    const rows = () => people.locator('tbody tr').allTextContents();
    await expect.poll(async () => (await rows()).join('\n')).toContain('Rita Reviewed');
    const row = people.getByRole('row').filter({ hasText: rita.email });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Granted to them');
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Release checkers (company role)');
    await row.getByRole('cell').nth(4).getByText('2 keys').click();
    expect(await row.getByRole('cell').nth(4).textContent()).toContain('TMT_READ, TMT_WRITE');
    await expectAccessible(page, 'access review an hour ago');

    const result = page.locator('#access-review-result');
    const before = await result.textContent();
    await review('now');
    // The answer for now has come when the moment named above the table has changed.
    await expect.poll(async () => ((await result.count()) === 1 ? result.textContent() : before)).not.toBe(before);
    expect(await page.locator('main').textContent()).not.toContain('Rita Reviewed');
    // The browser offers no moment after now.
    const at = form().getByLabel('As of');
    await at.fill(await localAt(Date.now() + 24 * HOUR));
    expect(await at.evaluate((el) => (el as unknown as { validity: { rangeOverflow: boolean } }).validity.rangeOverflow)).toBe(true);
  });

  it('names who could use a key then and through what, and downloads the review as CSV', async () => {
    await review(Date.now() - HOUR, 'TMT_WRITE');
    const holders = page.getByRole('table', { name: 'Who could use TMT_WRITE' });
    const row = holders.getByRole('row').filter({ hasText: rita.email });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Release checkers (company role)');
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Granted to them');
    await expectAccessible(page, 'access review of a permission key');

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(file.suggestedFilename()).toMatch(new RegExp(`^access-review-${workspaceId}-.+\\.csv$`));
    const lines = readFileSync((await file.path())!, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('at,workspaceId,userId,name,email,status,grant,grantId,grantName,via,permissions');
    expect(lines.filter((l) => l.includes(rita.email)).map((l) => l.split(',')[6])).toEqual(expect.arrayContaining(['workspace-access', 'company-role']));
  });

  it("says so when the server's clock is behind the moment asked for", async () => {
    const clock = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() - 10 * 60_000);
    try {
      await review(Date.now() - 60_000);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('That moment is in the future');
    } finally {
      server.process.platform.now = clock;
    }
  });

  it('is neither in the navigation nor open to a person without AUDIT_READ', async () => {
    const v = await signedIn(browser, server.url, vera.email, vera.password);
    try {
      const perms = (await http(server.url, 'GET', '/api/v1/users/me/permissions', { token: (await signIn(server.url, vera.email, vera.password)).body.token })).body as string[];
      expect(perms).not.toContain('AUDIT_READ');
      await v.page.goto(`${server.url}/org/access-review`);
      await expect.poll(() => v.page.locator('main').textContent()).toContain('You do not hold the permission for this page.');
      // The organization's navigation, once her keys are known, names her pages but not this one.
      const orgNav = v.page.getByRole('navigation', { name: 'Organization' });
      await orgNav.getByRole('link', { name: 'Users' }).waitFor();
      expect(await orgNav.getByRole('link', { name: 'Access review' }).count()).toBe(0);
      expect(await v.page.getByRole('link', { name: 'Access review' }).count()).toBe(0);
      expect(await v.page.getByRole('table').count()).toBe(0);
    } finally {
      await v.context.close();
    }
  });
});

describe('the device health rules in the console', { timeout: 240_000 }, () => {
  const rules = async () => (await http(server.url, 'GET', '/df/api/fleet/health-rules', { token: (await signIn(server.url, admin.email, admin.password)).body.token })).body;
  const open = async () => {
    await page.locator('summary', { hasText: 'Health rules' }).click();
    return page.getByRole('form', { name: 'Health rules' });
  };

  it('changes the rules, rebootAllowed and the fast-path rule with them, and keeps them across a reload', async () => {
    await page.goto(`${server.url}/devices`);
    const form = await open();
    expect(await form.getByRole('checkbox', { name: /Mending may reboot/ }).isChecked()).toBe(false);
    await form.getByLabel('Lowest battery (%)').fill('22');
    await form.getByLabel('Highest battery temperature (°C)').fill('41.5');
    await form.getByLabel('Least free storage (MB)').fill('750');
    await form.getByLabel('Failed sessions in a row before quarantine').fill('3');
    await form.getByRole('checkbox', { name: /Mending may reboot/ }).check();
    const fastPaths = form.getByRole('checkbox', { name: /A fast path down/ });
    expect(await fastPaths.isChecked()).toBe(true);
    await fastPaths.uncheck();
    await form.getByRole('button', { name: 'Save the health rules' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await rules()).toEqual({ batteryMinPercent: 22, temperatureMaxC: 41.5, storageMinMb: 750, rebootAllowed: true, failedSessionsMax: 3, fastPathDownDegrades: false });
    await expectAccessible(page, 'device grid with the health rules saved');

    await page.reload();
    const again = await open();
    await expect.poll(() => again.getByLabel('Lowest battery (%)').inputValue()).toBe('22');
    expect(await again.getByLabel('Highest battery temperature (°C)').inputValue()).toBe('41.5');
    expect(await again.getByLabel('Least free storage (MB)').inputValue()).toBe('750');
    expect(await again.getByLabel('Failed sessions in a row before quarantine').inputValue()).toBe('3');
    expect(await again.getByRole('checkbox', { name: /Mending may reboot/ }).isChecked()).toBe(true);
    expect(await again.getByRole('checkbox', { name: /A fast path down/ }).isChecked()).toBe(false);
  });

  it("shows the server's refusal of a value out of range beside its field, and changes nothing", async () => {
    const form = page.getByRole('form', { name: 'Health rules' });
    const battery = form.getByLabel('Lowest battery (%)');
    await battery.fill('150');
    await form.getByRole('checkbox', { name: /Mending may reboot/ }).uncheck();
    await form.getByRole('button', { name: 'Save the health rules' }).click();
    await form.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    const message = await form.locator('#rule-batteryMinPercent-error').textContent();
    expect(message).toMatch(/100/);
    expect(await battery.getAttribute('aria-invalid')).toBe('true');
    expect(await battery.getAttribute('aria-describedby')).toContain('rule-batteryMinPercent-error');
    expect(await form.locator('#rule-temperatureMaxC-error').count()).toBe(0);
    expect(await form.getByRole('status').textContent()).toBe('');
    expect(await rules()).toEqual({ batteryMinPercent: 22, temperatureMaxC: 41.5, storageMinMb: 750, rebootAllowed: true, failedSessionsMax: 3, fastPathDownDegrades: false });
    await expectAccessible(page, 'health rules with a refused value');
  });

  it('offers no health rules to a person who may not change them', async () => {
    const v = await signedIn(browser, server.url, vera.email, vera.password);
    try {
      const perms = (await http(server.url, 'GET', '/api/v1/users/me/permissions', { token: (await signIn(server.url, vera.email, vera.password)).body.token })).body as string[];
      expect(perms).toContain('df:device:read');
      expect(perms).not.toContain('df:settings:manage');
      // Her keys are known once the main navigation is drawn; the grid is hers, the rules are not.
      await v.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).waitFor();
      await v.page.getByRole('list', { name: 'Devices' }).waitFor();
      expect(await v.page.locator('summary', { hasText: 'Health rules' }).count()).toBe(0);
      expect(await v.page.getByRole('form', { name: 'Health rules' }).count()).toBe(0);
    } finally {
      await v.context.close();
    }
  });
});
