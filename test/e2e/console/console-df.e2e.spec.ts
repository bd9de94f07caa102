import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * The console's device-testing pages end to end (hosts, files, reports, accessibility): the real
 * server and Debian's Chromium driven by playwright-core as an administrator.
 */
const CHROMIUM = '/usr/lib/chromium/chromium';

declare const window: unknown;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let browser: Browser;
let admin: SignedUpCompany;
let context: BrowserContext;
let page: Page;

function expectAccessible(what: string): Promise<void> {
  return expectAccessibleOn(page, what);
}

async function expectAccessibleOn(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}

const pageErrors: string[] = [];
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  admin = await signUpCompany(server.url, 'console-df');
  browser = await chromium.launch({ executablePath: CHROMIUM });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('E-mail or username').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/devices');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

describe('device-testing pages', { timeout: 120_000 }, () => {
  it('enrols a host, shows its token once, renames and revokes it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hosts' }).click();
    await page.getByRole('heading', { name: 'Hosts', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Enrol a host' });
    await form.getByLabel('Name').fill('Lab rack 7');
    await form.getByRole('button', { name: 'Enrol' }).click();
    const shown = page.getByRole('region', { name: 'New host token' });
    const token = await shown.getByLabel('Token').inputValue();
    expect(token).toMatch(/^dfh_/);
    expect(await shown.locator('code').textContent()).toContain(`AGENT_HOST_TOKEN=${token}`);
    const row = page.getByRole('row').filter({ hasText: 'Lab rack 7' });
    await row.waitFor();
    expect(await row.textContent()).toContain('all');
    // No agent has connected with its token yet.
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('waiting for its first connection');
    expect(await row.textContent()).not.toContain('active');
    await expectAccessible('hosts');
    // The token is never listed again.
    const listed = await http(server.url, 'GET', '/df/api/hosts', { token: admin.token });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'New host token' }).count()).toBe(0);
    expect(await page.content()).not.toContain(token);

    await row.getByRole('button', { name: 'Rename Lab rack 7' }).click();
    await page.getByLabel('New name').fill('Lab rack 8');
    await page.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('row').filter({ hasText: 'Lab rack 8' });
    await renamed.waitFor();

    await renamed.getByRole('button', { name: 'Revoke Lab rack 8' }).click();
    await renamed.getByRole('group', { name: 'Confirm revoking Lab rack 8' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Lab rack 8' }).count()).toBe(0);
    const all = await http(server.url, 'GET', '/df/api/hosts?includeRevoked=true', { token: admin.token });
    const host = (all.body.content as { name: string; status: string }[]).find((h) => h.name === 'Lab rack 8');
    expect(host?.status).toBe('revoked');
  });
  it('uploads a small file through the presigned flow, sees it ready, downloads its bytes, and deletes it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'Files and apps', level: 1 }).waitFor();
    await page.getByText('No app in the catalog yet').waitFor();
    await expectAccessible('files (empty)');
    const form = page.getByRole('form', { name: 'Upload a file' });
    await form.getByLabel(/^File/).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the console\n') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'notes.txt uploaded.' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'notes.txt' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('ready');
    expect(await row.textContent()).toContain('23 B');
    await expectAccessible('files');
    // Its download button gives back its bytes, under its name.
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download notes.txt' }).click()]);
    expect(file.suggestedFilename()).toBe('notes.txt');
    expect(readFileSync((await file.path())!, 'utf8')).toBe('hello from the console\n');
    await row.getByRole('button', { name: 'Delete notes.txt' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'notes.txt' }).count()).toBe(0);
    const files = await http(server.url, 'GET', '/df/api/files', { token: admin.token });
    expect(files.body.content).toEqual([]);
  });
  it('shows the dashboard, the quotas as bars and a sessions report with its CSV', async () => {
    // One session of the in-process host's devices, ended, for the report to count.
    let deviceId = '';
    await expect
      .poll(async () => {
        const d = await http(server.url, 'GET', '/df/api/devices?size=10', { token: admin.token });
        deviceId = (d.body.content as { id: string; status: string }[]).find((x) => x.status === 'available')?.id ?? '';
        return deviceId;
      }, { timeout: 60_000 })
      .not.toBe('');
    const session = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId } });
    expect(session.status).toBe(201);
    expect((await http(server.url, 'DELETE', `/df/api/sessions/${session.body.id}`, { token: admin.token })).status).toBeLessThan(300);

    expect((await http(server.url, 'PUT', '/df/api/quotas', { token: admin.token, body: { limits: { storageBytes: 1_000_000 } } })).status).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const quotas = page.getByRole('region', { name: 'Quotas' });
    await quotas.getByText('Concurrent sessions').waitFor();
    expect(await quotas.getByRole('progressbar', { name: 'Storage' }).getAttribute('max')).toBe('1000000');
    expect(await quotas.getByRole('progressbar').count()).toBe(1);
    const report = page.getByRole('table', { name: 'Sessions report' });
    await expect.poll(async () => (await report.count()) > 0 && (await report.getByRole('row').count()) >= 2, { timeout: 30_000 }).toBe(true);
    expect(await report.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toBe('1');
    // The bar chart of sessions per day says what it shows.
    expect(await page.getByRole('img', { name: /^Sessions per day: 1 in all over 30 days, most on \d{4}-\d{2}-\d{2} \(1\)$/ }).count()).toBe(1);
    await expectAccessible('reports');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV of the sessions report' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^sessions-.*\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('period');

    // The device-usage report: a row for the device that was in session, and its CSV.
    const usage = page.getByRole('table', { name: 'Device usage report' });
    await usage.waitFor();
    const usageRows = usage.locator('tbody tr');
    expect(await usageRows.count()).toBe(1);
    expect(await usageRows.first().getByRole('cell').nth(2).textContent()).toBe('1');
    const [usageFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV of the device usage report' }).click()]);
    expect(usageFile.suggestedFilename()).toMatch(/^device-usage-.*\.csv$/);
    const usageCsv = readFileSync((await usageFile.path())!, 'utf8').trim().split(/\r?\n/);
    expect(usageCsv[0]).toBe('period,deviceId,deviceName,sessions,minutesInSession,minutesOnline,utilisation');
    expect(usageCsv).toHaveLength(2);
    expect(usageCsv[1]).toContain(deviceId);

    // The reservations report: empty first, then one booking starting tomorrow.
    const reservations = page.getByRole('region', { name: 'Reservations report' });
    await reservations.getByText('No booking starts in this range.').waitFor();
    const start = new Date(Date.now() + 86_400_000);
    start.setMinutes(0, 0, 0);
    const booked = await http(server.url, 'POST', '/df/api/reservations', { token: admin.token, body: { deviceId, startAt: start.toISOString(), endAt: new Date(start.getTime() + 2 * 3_600_000).toISOString() } });
    expect(booked.status).toBe(201);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByRole('form', { name: 'Report range' }).getByLabel('To', { exact: true }).fill(`${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`);
    const bookings = reservations.getByRole('table', { name: 'Reservations report' });
    await bookings.waitFor();
    expect(await bookings.locator('tbody tr').count()).toBe(1);
    const cells = await bookings.locator('tbody tr').first().getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual(['1', '2', '0', '0', '0']);
    await expectAccessible('reports with all three');
    expect((await http(server.url, 'DELETE', `/df/api/reservations/${booked.body.id}`, { token: admin.token })).status).toBeLessThan(300);
  });
  it('lists accessibility reports (empty first), opens one and triages a finding', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accessibility' }).click();
    await page.getByRole('heading', { name: 'Accessibility', level: 1 }).waitFor();
    await page.getByText('No accessibility report yet').waitFor();
    await expectAccessible('accessibility (empty)');

    // A page with an image without a text alternative, opened on a browser device and scanned.
    const site: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html lang="en"><title>Shop</title><main><h1>Shop</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"></main></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
      const devices = await http(server.url, 'GET', '/df/api/devices?size=10', { token: admin.token });
      const deviceId = (devices.body.content as { id: string; status: string }[]).find((x) => x.status === 'available')!.id;
      const session = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId } });
      expect(session.status).toBe(201);
      const open = await http(server.url, 'POST', `/df/api/sessions/${session.body.id}/device/control`, { token: admin.token, body: { action: 'openUrl', url: siteUrl } });
      expect(open.status).toBeLessThan(300);
      const audit = await http(server.url, 'POST', `/df/api/sessions/${session.body.id}/accessibility/audits`, { token: admin.token, body: { name: 'Shop audit' } });
      expect(audit.status).toBe(201);
      const scan = await http(server.url, 'POST', `/df/api/sessions/${session.body.id}/accessibility/audits/${audit.body.id}/scans`, { token: admin.token });
      expect(scan.status).toBe(201);
      const finding = (scan.body.findings as { ruleId: string; element: { selector: string } }[]).find((f) => f.ruleId === 'image-alt')!;
      expect(finding).toBeTruthy();
      await http(server.url, 'DELETE', `/df/api/sessions/${session.body.id}`, { token: admin.token });

      await page.reload();
      await page.getByRole('link', { name: 'Shop audit' }).click();
      await page.getByRole('heading', { name: 'Shop audit', level: 1 }).waitFor();
      const control = page.getByLabel(`Triage of image-alt on ${finding.element.selector}`);
      await control.waitFor();
      expect(await control.inputValue()).toBe('open');
      await expectAccessible('accessibility report');
      await control.selectOption('wont_fix');
      await expect
        .poll(async () => {
          const f = await http(server.url, 'GET', `/df/api/accessibility/audits/${audit.body.id}/findings`, { token: admin.token });
          return (f.body as { ruleId: string; triage: { status: string } | null }[]).find((x) => x.ruleId === 'image-alt')?.triage?.status;
        })
        .toBe('wont_fix');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
  it('narrows the device grid as one types in the search, without pressing a button', async () => {
    const listed = await http(server.url, 'GET', '/df/api/devices?size=10', { token: admin.token });
    const names = (listed.body.content as { name: string }[]).map((d) => d.name);
    expect(names.length).toBeGreaterThan(1);
    // A word of a device's name that finds some devices, not all (as the API's search finds them).
    let word = '';
    let matching: string[] = [];
    for (const w of names.flatMap((n) => n.split(/\s+/))) {
      const found = await http(server.url, 'GET', `/df/api/devices?size=10&search=${encodeURIComponent(w)}`, { token: admin.token });
      matching = (found.body.content as { name: string }[]).map((d) => d.name);
      if (matching.length > 0 && matching.length < names.length) {
        word = w;
        break;
      }
    }
    expect(word).not.toBe('');
    await page.goto(`${server.url}/devices`);
    const grid = page.getByRole('list', { name: 'Devices' });
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(names.length);
    const searches: string[] = [];
    const watch = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname === '/df/api/devices' && url.searchParams.get('search')) searches.push(url.searchParams.get('search')!);
    };
    page.on('request', watch);
    await page.getByRole('searchbox', { name: 'Search' }).pressSequentially(word, { delay: 20 });
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(matching.length);
    for (const name of matching) expect(await grid.textContent()).toContain(name);
    page.off('request', watch);
    // The grid asked for the whole word once the typing paused; nothing was pressed.
    expect(searches.at(-1)).toBe(word);
    expect(new URL(page.url()).searchParams.get('search')).toBe(word);
    await expectAccessible('devices, filtered by typing');
  });
  it("tells a person without df:device:read why the grid is empty, and asks nothing of the device list", async () => {
    const org = client(server.url, admin.token);
    const role = await org.post('/roles', { name: 'Files only', permissions: ['df:session:read'] });
    expect(role.status).toBe(201);
    const reader = await createActiveUser(server.url, org, smtp.mails, { email: `files-only-${process.pid}@example.test`, roleIds: [role.body.id] });
    expect((await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: reader.id })).status).toBeLessThan(300);
    const held = (await http(server.url, 'GET', '/api/v1/users/me/permissions', { token: reader.token, headers: { 'x-workspace-id': String(admin.workspaceId) } })).body as string[];
    expect(held).toContain('df:session:read');
    expect(held).not.toContain('df:device:read');
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await other.newPage();
      p.on('pageerror', (e) => pageErrors.push(`${p.url()}: ${e.message}`));
      const deviceCalls: string[] = [];
      p.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/df/api/devices')) deviceCalls.push(r.url());
      });
      await p.goto(`${server.url}/sign-in`);
      await p.getByLabel('E-mail or username').fill(reader.email);
      await p.getByLabel('Password').fill(reader.password);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.waitForURL((u) => u.pathname === '/devices');
      await expect
        .poll(() => p.locator('main').textContent())
        .toContain('Seeing devices needs the permission key df:device:read in this workspace. Ask an administrator of your company to give you a role that has it.');
      // The page is settled (its permissions came); no device list was asked for.
      await p.reload();
      await p.getByText('needs the permission key df:device:read').waitFor();
      expect(deviceCalls).toEqual([]);
      await expectAccessibleOn(p, 'devices without the permission');
    } finally {
      await other.close();
    }
  });
  it('leaves out the pages whose permission keys a person lacks', async () => {
    const org = client(server.url, admin.token);
    const roles = (await org.get('/roles')).body as { id: number; name: string }[];
    const viewer = await createActiveUser(server.url, org, smtp.mails, { email: `viewer-df-${process.pid}@example.test`, roleIds: [roles.find((r) => r.name === 'Viewer')!.id], workspaceIds: [admin.workspaceId] });
    const perms = (await http(server.url, 'GET', '/api/v1/users/me/permissions', { token: viewer.token })).body as string[];
    expect(perms).not.toContain('df:host:manage');
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await other.newPage();
    p.on('pageerror', (e) => pageErrors.push(`${p.url()}: ${e.message}`));
    await p.goto(`${server.url}/sign-in`);
    await p.getByLabel('E-mail or username').fill(viewer.email);
    await p.getByLabel('Password').fill(viewer.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL((u) => u.pathname === '/devices');
    const nav = p.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Devices' }).waitFor();
    // The sections come with the person's permissions, all at once: wait for one this person holds.
    const held = ([['Files', 'df:session:read'], ['Reports', 'df:report:read']] as const).find(([, key]) => perms.includes(key));
    expect(held).toBeDefined();
    await nav.getByRole('link', { name: held![0] }).waitFor();
    expect(await nav.getByRole('link', { name: 'Hosts' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Reports' }).count()).toBe(perms.includes('df:report:read') ? 1 : 0);
    await p.goto(`${server.url}/hosts`);
    await p.getByText('needs the permission key df:host:manage').waitFor();
    await other.close();
  });
});
