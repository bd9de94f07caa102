import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { SERVICE_NAMES } from '#services/app.js';

/**
 * The web console end to end: the real server (its in-process host with two Chromium browser
 * devices), a real SMTP listener, and Debian's Chromium driven by playwright-core as the person.
 */
const CHROMIUM = '/usr/lib/chromium/chromium';

// What the functions passed to page.evaluate see in the browser (the project's types have no DOM).
interface Canvas {
  width: number;
  height: number;
  dataset: Record<string, string | undefined>;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
declare const document: { querySelector(selector: 'canvas'): Canvas; activeElement: unknown };
declare const window: unknown;
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const localStorage: { getItem(key: string): string | null };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let site: TestSite;
let browser: Browser;
let admin: SignedUpCompany;

/** The link of the newest mail to `to`, its quoted-printable soft breaks undone, on this server. */
function mailedLink(to: string, path: string): string {
  const mail = [...smtp.mails].reverse().find((m) => m.to.includes(to));
  if (!mail) throw new Error(`no mail to ${to}`);
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const link = new RegExp(`https?://[^\\s"<>]*${path}\\?token=[A-Za-z0-9_-]+`).exec(text)?.[0];
  if (!link) throw new Error(`no ${path} link in the mail to ${to}`);
  const url = new URL(link);
  return `${server.url}${url.pathname}${url.search}`;
}

/** axe-core in the page: no critical or serious violation. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}

/** Uncaught errors of every page the tests open; each test ends with none. */
const pageErrors: string[] = [];
async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

async function signInThroughPage(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel('E-mail or username').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A hash of a rectangle of the canvas, in fractions of its size. */
function canvasRegion(page: Page, region: { x: number; y: number; w: number; h: number }): Promise<string> {
  return page.evaluate((r) => {
    const c = document.querySelector('canvas')!;
    const data = c.getContext('2d')!.getImageData(Math.floor(r.x * c.width), Math.floor(r.y * c.height), Math.ceil(r.w * c.width), Math.ceil(r.h * c.height)).data;
    let h = 0;
    for (let i = 0; i < data.length; i += 4) h = (h * 31 + data[i]! + data[i + 1]! * 7 + data[i + 2]! * 13) | 0;
    return `${c.width}x${c.height}:${h}`;
  }, region);
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  // The API keys page lists the client packages the server hands out.
  execFileSync(process.execPath, ['scripts/build-clients.mjs'], { stdio: 'inherit' });
  smtp = await startSmtpListener();
  site = await startTestSite();
  server = await startTestServer({ SMTP_URL: smtp.url });
  // The first company to sign up gets the in-process host's devices.
  admin = await signUpCompany(server.url, 'console');
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
  await smtp?.stop();
});

describe('serving', { timeout: 120_000 }, () => {
  it('answers a browser navigation to a console path with the application, and API paths with JSON 404s', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    for (const path of ['/', '/devices', '/reset-password?token=x', '/device-farm/session-invite/abc']) {
      const r = await http(server.url, 'GET', path, { headers: html });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(String(r.body)).toContain('<div id="app">');
    }
    for (const path of ['/df/api/nowhere', '/api/v1/nowhere', '/docs/nowhere.json', '/v1/nowhere', '/.well-known/nowhere']) {
      const r = await http(server.url, 'GET', path, { headers: html, token: admin.token });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).toContain('json');
    }
    // An API client asking for an unknown path keeps its JSON 404; so does a missing asset.
    const apiClient = await http(server.url, 'GET', '/nowhere');
    expect(apiClient.status).toBe(404);
    expect(apiClient.body.code).toBe('ROUTE_NOT_FOUND');
    const asset = await http(server.url, 'GET', '/assets/missing.js', { headers: html });
    expect(asset.status).toBe(404);
  });
});

describe('a person at the console', { timeout: 120_000 }, () => {
  let owner: BrowserContext;
  let page: Page;
  let shareLink = '';
  let coworker: { id: number; email: string; password: string };

  it('signs in and filters the device grid', async () => {
    owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await openPage(owner);
    await page.goto(`${server.url}/devices`);
    // Not signed in: sent to the sign-in page, which then comes back here.
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    await expectAccessible(page, 'sign-in');
    await signInThroughPage(page, admin.email, admin.password);
    const grid = page.getByRole('list', { name: 'Devices' });
    await grid.getByRole('listitem').first().waitFor();
    expect(await grid.getByRole('listitem').count()).toBe(2);
    await expectAccessible(page, 'devices');

    const filters = page.getByRole('complementary', { name: 'Filters' });
    await filters.getByRole('group', { name: 'Type' }).getByRole('checkbox', { name: /phone/ }).check();
    await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => grid.getByRole('listitem').first().textContent()).toContain('phone');
    expect(new URL(page.url()).searchParams.getAll('type')).toEqual(['phone']);
    // The facet counts follow the filter: one phone.
    await expect.poll(() => filters.getByRole('group', { name: 'Platform' }).textContent()).toMatch(/web\s*1/);
  });

  it('opens a browser device, sees the live canvas change after clicking on it, and types into the page', async () => {
    await page.getByRole('list', { name: 'Devices' }).getByRole('link').first().click();
    await page.getByRole('button', { name: 'Start a session' }).click();
    await page.waitForURL(/\/sessions\/[^/]+$/);
    const canvas = page.locator('canvas');
    await expect.poll(() => canvas.evaluate((c) => Number((c as unknown as Canvas).dataset.frames ?? 0)), { timeout: 30_000 }).toBeGreaterThan(0);
    await expectAccessible(page, 'session');

    await page.getByLabel('Open an address').fill(site.url);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await site.waitForEvent((e) => e.kind === 'storage');
    // The test page: "Tap me" fills the top 200 CSS pixels, and "taps: N" is a line under the field.
    const status = { x: 0, y: 0, w: 0.5, h: 0 };
    const screen = await page.evaluate(() => ({ w: document.querySelector('canvas')!.width, h: document.querySelector('canvas')!.height }));
    const session = await http(server.url, 'GET', `/df/api/sessions/${new URL(page.url()).pathname.split('/').pop()}`, { token: admin.token });
    const cssHeight = session.body.screen.height / session.body.screen.scale;
    status.y = 305 / cssHeight;
    status.h = 40 / cssHeight;
    expect(screen.h).toBeGreaterThan(0);
    // Wait for the page to be painted on the canvas (the button's blue at the top).
    await expect.poll(() => page.evaluate(() => { const d = document.querySelector('canvas')!.getContext('2d')!.getImageData(5, 5, 1, 1).data; return d[2]! > 150 && d[0]! < 120; }), { timeout: 15_000 }).toBe(true);
    const before = await canvasRegion(page, status);

    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + (100 / cssHeight) * box.height);
    const tap = await site.waitForEvent((e) => e.kind === 'tap');
    expect(tap.detail).toMatch(/^\d+,\d+$/);
    // "taps: 0" became "taps: 1" on the device, and the canvas shows it.
    await expect.poll(() => canvasRegion(page, status), { timeout: 15_000 }).not.toBe(before);

    // Tap the field, then type with the keyboard while the screen has focus, and press Enter.
    await page.mouse.click(box.x + box.width / 2, box.y + (250 / cssHeight) * box.height);
    await expect.poll(() => canvas.evaluate((c) => document.activeElement === c)).toBe(true);
    await page.keyboard.type('hello farm');
    await page.keyboard.press('Enter');
    const entered = await site.waitForEvent((e) => e.kind === 'enter');
    expect(entered.detail).toBe('hello farm');
    // The activity timeline lists the inputs.
    await expect.poll(() => page.getByRole('tabpanel').textContent(), { timeout: 10_000 }).toContain('tap');
  });

  it('shares the session by link; a second person accepts it and watches without controls', async () => {
    // A coworker with the Viewer role in the workspace: she may watch only because the link says so.
    const org = client(server.url, admin.token);
    const roles = (await org.get('/roles')).body as { id: number; name: string }[];
    coworker = await createActiveUser(server.url, org, smtp.mails, { email: `watcher-${process.pid}@example.test`, name: 'Wendy Watcher', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
    expect((await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: coworker.id })).status).toBe(200);
    await page.getByRole('tab', { name: /Viewers and sharing/ }).click();
    await page.getByRole('radio', { name: 'View' }).check();
    await page.getByRole('button', { name: 'Make a link' }).click();
    shareLink = await page.getByLabel('Shareable link').inputValue();
    expect(shareLink).toMatch(/\/device-farm\/session-invite\/dfs_/);
    await expectAccessible(page, 'session sharing');

    const watcher = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const view = await openPage(watcher);
    await view.goto(`${server.url}${new URL(shareLink).pathname}`);
    await expect.poll(() => new URL(view.url()).pathname).toBe('/sign-in');
    await signInThroughPage(view, coworker.email, coworker.password);
    await view.waitForURL(/\/sessions\/[^/]+$/);
    expect(new URL(view.url()).pathname).toBe(new URL(page.url()).pathname);
    await expect.poll(() => view.locator('canvas').evaluate((c) => Number((c as unknown as Canvas).dataset.frames ?? 0)), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => view.locator('.title-row').textContent()).toContain('view only');
    expect(await view.getByRole('toolbar', { name: 'Device controls' }).count()).toBe(0);
    expect(await view.getByLabel('Type on the device').count()).toBe(0);
    expect(await view.getByRole('button', { name: 'End session' }).count()).toBe(0);
    // The owner sees the watcher among the viewers.
    await expect.poll(() => page.getByRole('list', { name: 'Viewers' }).textContent(), { timeout: 10_000 }).toContain('Wendy Watcher');
    await watcher.close();
  });

  afterAll(async () => {
    await owner?.close();
  });
});

describe('account links from mails', { timeout: 120_000 }, () => {
  it('an invited user follows the mailed activation link, activates and signs in', async () => {
    const email = `invitee-${process.pid}@example.test`;
    const invited = await client(server.url, admin.token).post('/users/invite', { email });
    expect(invited.status).toBe(201);
    await smtp.waitForMail(email);
    const link = mailedLink(email, '/activate');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await openPage(context);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await expectAccessible(page, 'activation');
    await page.getByLabel('Your name').fill('Ivy Invitee');
    await page.getByLabel('Password').fill('ivy password 1');
    await page.getByRole('button', { name: 'Activate my account' }).click();
    await page.waitForURL(/\/devices$/);
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Ivy Invitee');
    // Signed out, then in again with the password just chosen.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await signInThroughPage(page, email, 'ivy password 1');
    await page.waitForURL(/\/devices$/);
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Ivy Invitee');
    await context.close();
  });

  it('a reset-password link sets a new password that signs in', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await openPage(context);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'on its way' }).waitFor();
    await smtp.waitForMail(admin.email);
    await page.goto(mailedLink(admin.email, '/reset-password'));
    await expectAccessible(page, 'reset password');
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.waitForURL(/\/sign-in/);
    // The old password no longer works; the message of the error body is shown.
    await signInThroughPage(page, admin.email, admin.password);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/\S/);
    await signInThroughPage(page, admin.email, 'a brand new password');
    await page.waitForURL(/\/devices$/);
    admin.password = 'a brand new password';
    await context.close();
  });
});

describe('team and organization', { timeout: 120_000 }, () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await openPage(context);
    await page.goto(`${server.url}/sign-in`);
    await signInThroughPage(page, admin.email, admin.password);
    await page.waitForURL(/\/devices$/);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('a viewer of the audit history filters it and downloads the CSV', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit history' }).click();
    const table = page.getByRole('table', { name: 'Audit events' });
    await table.waitFor();
    await expectAccessible(page, 'audit history');
    const filters = page.getByRole('form', { name: 'Audit filters' });
    await filters.getByLabel('Resource').selectOption('user');
    await filters.getByLabel('Event type').selectOption({ label: 'User invited' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    // Two invitations so far (the watcher and the invitee); every row is one, naming who was invited.
    await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).length).toBe(2);
    const rows = await table.locator('tbody tr').allTextContents();
    for (const row of rows) expect(row).toContain('User invited');
    expect(rows.join('\n')).toContain(`invitee-${process.pid}@example.test`);

    const [download] = await Promise.all([page.waitForEvent('download'), filters.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('audit.csv');
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toMatch(/^occurredAt,eventType,resourceType,resourceId/);
    expect(csv).toHaveLength(3);
    for (const line of csv.slice(1)) expect(line.split(',').slice(1, 3)).toEqual(['UserInvited', 'user']);
  });

  it('lists users, roles, teams and workspaces, each passing axe', async () => {
    for (const [label, what] of [
      ['Users', 'Users'],
      ['Roles', 'Admin'],
      ['Teams', 'New team'],
      ['Workspaces', 'Default'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: label }).click();
      await expect.poll(() => page.locator('main').textContent()).toContain(what);
      await expectAccessible(page, label);
    }
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).textContent()).toContain('Ivy Invitee');
  });

  it('shows this installation’s observability to an administrator: metrics and tracing off here, and the page’s own request id', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/observability');
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Observability' }).click();
    const res = await answered;
    expect(res.status()).toBe(200);
    const requestId = res.headers()['x-request-id']!;
    expect(requestId).toBeTruthy();
    const facts = page.getByRole('definition');
    await expect.poll(() => page.locator('main dl').textContent()).toContain(requestId);
    const text = (await page.locator('main dl').textContent())!;
    // This test server sets neither METRICS_PORT nor METRICS_TOKEN, nor an OTLP endpoint.
    expect(text).toContain('Not served (neither METRICS_PORT nor METRICS_TOKEN is set)');
    expect(text).toContain('Off (no OTLP endpoint set, or disabled)');
    expect(text).toContain('none (tracing is off, or the request was not sampled)');
    expect(await facts.count()).toBe(4);
    // Every process of the installation: here the one test server runs every service and answered the page.
    const processes = page.getByRole('table', { name: /Processes of this installation/ });
    await expect.poll(() => processes.getByRole('row').count()).toBe(2);
    const row = (await processes.getByRole('row').nth(1).textContent())!;
    expect(row).toContain('df, gateway');
    expect(row).toContain('(answered this page)');
    expect(row).toContain('Not served');
    await expectAccessible(page, 'observability');
  });

  it('makes an API key whose value is shown once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('form', { name: 'New API key' }).getByLabel('Name', { exact: true }).fill('CI key');
    // An administrator gives the fleet's key a rate budget of its own.
    await page.getByRole('form', { name: 'New API key' }).getByLabel('Rate budget').fill('500');
    await page.getByRole('button', { name: 'Create the key' }).click();
    const value = (await page.getByLabel('New API key value').textContent())!.trim();
    expect(value).toMatch(/^qak_/);
    // The key works on /v1 within its budget, and the list shows only its beginning.
    const used = await http(server.url, 'GET', '/v1/projects', { token: value });
    expect(used.status).toBe(200);
    expect(used.headers.get('ratelimit-limit')).toBe('500');
    await expect.poll(() => page.getByRole('table', { name: 'API keys' }).textContent()).toContain('CI key');
    expect(await page.getByRole('table', { name: 'API keys' }).textContent()).not.toContain(value);
    const budget = page.getByRole('form', { name: 'Rate budget of CI key' });
    expect(await budget.getByRole('spinbutton').inputValue()).toBe('500');
    await budget.getByRole('spinbutton').fill('800');
    await budget.getByRole('button', { name: 'Set' }).click();
    await expect.poll(async () => (await http(server.url, 'GET', '/v1/projects', { token: value })).headers.get('ratelimit-limit')).toBe('800');
    await expectAccessible(page, 'API keys');
  });

  it('makes an OAuth client and a device key on the same page, each secret shown once and working', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    const clientForm = page.getByRole('form', { name: 'New OAuth client' });
    await clientForm.getByLabel('Client name').fill('CI tokens');
    await clientForm.getByRole('button', { name: 'Create the client' }).click();
    const secret = (await page.getByLabel('New OAuth client secret').textContent())!.trim();
    const clients = page.getByRole('table', { name: 'OAuth clients' });
    await expect.poll(() => clients.textContent()).toContain('CI tokens');
    const clientId = (await clients.getByRole('row').filter({ hasText: 'CI tokens' }).locator('code').textContent())!.trim();
    const token = await http(server.url, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect((await http(server.url, 'GET', '/v1/projects', { token: token.body.access_token })).status).toBe(200);

    const keyForm = page.getByRole('form', { name: 'New device key' });
    await keyForm.getByLabel('Device key name').fill('runner');
    await keyForm.getByRole('button', { name: 'Create the device key' }).click();
    const deviceKey = (await page.getByLabel('New device key value').textContent())!.trim();
    expect(deviceKey).toMatch(/^dfk_/);
    await expect.poll(() => page.getByRole('table', { name: 'Device keys' }).textContent()).toContain('runner');
    expect((await http(server.url, 'GET', '/df/api/devices', { headers: { 'x-api-key': deviceKey } })).status).toBe(200);
    await expectAccessible(page, 'API keys, OAuth clients and device keys');
  });

  it('offers the client packages beside the keys: names, versions and the npm install lines, each copied as shown', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    const table = page.getByRole('table', { name: 'Client packages' });
    await table.waitFor();
    const manifest = (await http(server.url, 'GET', '/df/api/client-config/packages-manifest', { token: (await signInToken()).token })).body as { packages: { name: string; version: string; install: string }[]; install: string };
    expect(manifest.packages.map((p) => p.name)).toEqual(['@qa-platform/client', '@qa-platform/wdio-service', '@qa-platform/playwright-fixture']);
    const rows = table.getByRole('row');
    for (const p of manifest.packages) {
      const row = rows.filter({ hasText: p.name });
      expect(await row.textContent()).toContain(p.version);
      expect(await row.locator('code').last().textContent()).toBe(`npm install ${server.url}/df/downloads/packages/${p.name.replace('@', '').replace('/', '-')}-${p.version}.tgz`);
    }
    await page.getByRole('button', { name: 'Copy the install command for @qa-platform/wdio-service' }).click();
    await page.getByRole('button', { name: 'Copied the install command for @qa-platform/wdio-service' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(manifest.packages[1]!.install);
    await page.getByRole('button', { name: 'Copy the install command for all three packages' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(manifest.install);
    expect(manifest.install).toBe(`npm install ${manifest.packages.map((p) => p.install.slice('npm install '.length)).join(' ')}`);
    await expectAccessible(page, 'API keys with the client packages');
  });

  it('books a device, sees it under my bookings and cancels it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reservations' }).click();
    const form = page.getByRole('form', { name: 'Book a device' });
    await form.getByLabel('Device').selectOption({ index: 0 });
    const later = new Date(Date.now() + 3 * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await form.getByLabel('Starts (your time)').fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:${pad(later.getMinutes())}`);
    await form.getByLabel('Note').fill('release check');
    await form.getByRole('button', { name: 'Book' }).click();
    const mine = page.getByRole('table', { name: 'My bookings' });
    await expect.poll(() => mine.textContent()).toContain('release check');
    expect(await mine.textContent()).toContain('scheduled');
    await expectAccessible(page, 'reservations');
    const listed = await http(server.url, 'GET', '/df/api/reservations?mine=true', { token: (await signInToken()).token });
    expect(listed.body.content.filter((r: { status: string }) => r.status === 'scheduled')).toHaveLength(1);
    await mine.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('You have no booking.');
  });

  it('shows organization pages only to whoever holds their permission keys', async () => {
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await openPage(viewer);
    await p.goto(`${server.url}/sign-in`);
    // Wendy has the Viewer role: she may read users, but not the audit history.
    const watcher = (await http(server.url, 'GET', '/api/v1/users?search=watcher', { token: (await signInToken()).token })).body.content[0];
    expect(watcher.name).toBe('Wendy Watcher');
    await signInThroughPage(p, watcher.email, 'member password 1');
    await p.waitForURL(/\/devices$/);
    const perms = await p.evaluate(async () => {
      const auth = JSON.parse(localStorage.getItem('qa.auth')!) as { token: string; workspaceId: number };
      const r = await fetch('/api/v1/users/me/permissions', { headers: { authorization: `Bearer ${auth.token}`, 'x-workspace-id': String(auth.workspaceId) } });
      return (await r.json()) as string[];
    });
    expect(perms).not.toContain('AUDIT_READ');
    const orgLink = p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' });
    if (perms.some((k) => ['USER_READ', 'ROLE_READ', 'TEAM_READ', 'WORKSPACE_READ'].includes(k))) {
      await orgLink.click();
      await p.getByRole('navigation', { name: 'Organization' }).waitFor();
      expect(await p.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit history' }).count()).toBe(0);
    } else {
      expect(await orgLink.count()).toBe(0);
    }
    await p.goto(`${server.url}/org/audit`);
    await expect.poll(() => p.locator('main').textContent()).toContain('You do not hold the permission for this page.');
    // Observability is for administrators (USER_ADMIN_MANAGE): neither the page nor its API route for her.
    expect(perms).not.toContain('USER_ADMIN_MANAGE');
    await p.goto(`${server.url}/org/observability`);
    await expect.poll(() => p.locator('main').textContent()).toContain('You do not hold the permission for this page.');
    const hers = (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: watcher.email, password: 'member password 1' } })).body.token as string;
    const refused = await http(server.url, 'GET', '/api/v1/observability', { token: hers });
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('FORBIDDEN');
    const mine = await http(server.url, 'GET', '/api/v1/observability', { token: (await signInToken()).token, headers: { 'x-request-id': 'observability-check' } });
    expect(mine.status).toBe(200);
    const off = { metrics: { served: false, port: null, tokenProtected: false }, tracing: { enabled: false, sampler: null, ratio: null, protocol: null, serviceName: null } };
    expect(mine.body).toEqual({
      ...off,
      processes: [{ ...off, instanceId: server.process.platform.processId, services: [...SERVICE_NAMES].sort(), thisProcess: true, startedAt: expect.any(String), seenAt: expect.any(String) }],
      request: { requestId: 'observability-check', traceId: null },
    });
    await viewer.close();
  });
});

async function signInToken(): Promise<{ token: string }> {
  const r = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: admin.email, password: admin.password } });
  return r.body;
}
