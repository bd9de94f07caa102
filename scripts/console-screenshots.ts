/**
 * Screenshots of the web console's main pages at 1280×800 (two on a tablet, 820×1180, and two on a
 * phone, 390×844), for the
 * README and docs/console.md:
 * `npx tsx scripts/console-screenshots.ts` (writes docs/console/*.png). It starts the server as the
 * end-to-end tests do (its in-process host with two Chromium browser devices, a temporary data
 * directory), seeds a little data through the public API, signs in through the form and visits each
 * page in Debian's Chromium. Nothing leaves the machine: every address is loopback.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { client, createActiveUser, signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

const OUT = join(process.cwd(), 'docs', 'console');
const CHROMIUM = '/usr/lib/chromium/chromium';

function check(r: { status: number; body: unknown }, what: string): void {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Signs in through the form of the sign-in page `p` shows, and waits for the device grid's address. */
async function signIn(p: Page, who: { email: string; password: string }): Promise<void> {
  await p.getByLabel('E-mail or username').fill(who.email);
  await p.getByLabel('Password').fill(who.password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.waitForURL((u) => u.pathname === '/devices');
}

// A small shop page for the browser devices to show (and for the accessibility scan to find faults in).
const site = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(`<!doctype html><html lang="en"><title>Shop</title><body style="font-family:sans-serif;margin:0">
<header style="background:#1f5fbf;color:#fff;padding:24px"><h1 style="margin:0">Example shop</h1></header>
<main style="padding:24px"><p>Spring collection: 12 items.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="120" height="80" style="background:#ddd">
<p><button style="font-size:20px;padding:12px 24px">Add to basket</button></p></main></body></html>`);
});

type Server = Awaited<ReturnType<typeof startTestServer>>;
type Browser = Awaited<ReturnType<typeof chromium.launch>>;
type Person = Awaited<ReturnType<typeof createActiveUser>>;
/** What the seeding made that the screenshots show or visit. */
interface Seeded {
  admin: Awaited<ReturnType<typeof signUpCompany>>;
  token: string;
  people: Person[];
  first: { id: string };
  audit: { id: string };
  earlier: { id: string };
}

/**
 * Seeds a little of everything through the public API: people, an invitation, a role, a team, a
 * second workspace, hosts, a finished session with two accessibility reports, bookings, a file, a key.
 */
async function seed(server: Server, smtp: Awaited<ReturnType<typeof startSmtpListener>>, siteUrl: string): Promise<Seeded> {
  // The first company gets the in-process host's devices.
  const admin = await signUpCompany(server.url, 'screens');
  const token = admin.token;
  const org = client(server.url, token);
  const roles = (await org.get('/roles')).body as { id: number; name: string }[];
  const member = roles.find((r) => r.name === 'Member')!.id;
  const people = [];
  for (const [name, email] of [
    ['Maya Patel', 'maya'],
    ['Tom Becker', 'tom'],
    ['Wendy Watcher', 'wendy'],
  ] as const) {
    const u = await createActiveUser(server.url, org, smtp.mails, { email: `${email}@example.test`, name, roleIds: [member] });
    check(await org.post(`/workspaces/${admin.workspaceId}/access/users`, { userId: u.id }), 'grant');
    people.push(u);
  }
  check(await org.post('/users/invite', { email: 'new.hire@example.test', roleIds: [member] }), 'invite');
  check(await org.post('/roles', { name: 'Release testers', description: 'Run sessions and read reports', permissions: ['df:device:read', 'df:session:read', 'df:session:create', 'df:report:read'] }), 'role');
  const team = (await org.post('/teams', { name: 'Mobile QA', description: 'Android and iOS releases' })).body as { id: number };
  for (const p of people.slice(0, 2)) check(await org.post(`/teams/${team.id}/members/${p.id}`, {}), 'member');
  const lab = (await org.post('/workspaces', { name: 'Device lab', description: 'Shared phones and browsers' })).body as { id: number };
  check(await org.post(`/workspaces/${lab.id}/access/teams`, { teamId: team.id }), 'team grant');
  const releaseRole = ((await org.get('/roles')).body as { id: number; name: string }[]).find((r) => r.name === 'Release testers')!;
  check(await org.post(`/workspaces/${lab.id}/members/roles`, { userId: people[0]!.id, roleIds: [releaseRole.id] }), 'member role');
  check(await http(server.url, 'POST', '/df/api/hosts', { token, body: { name: 'Rack 1 (Berlin)' } }), 'host');
  check(await http(server.url, 'POST', '/df/api/hosts', { token, body: { name: 'Rack 2 (Lisbon)', workspaceIds: [admin.workspaceId] } }), 'host');

  const devices = await until(async () => {
    const d = await http(server.url, 'GET', '/df/api/devices?size=10', { token });
    const list = d.body.content as { id: string; status: string }[];
    return list.filter((x) => x.status === 'available').length >= 2 ? list : undefined;
  }, 'two available devices');
  const [first, second] = devices as [{ id: string }, { id: string }];

  // A finished session for the reports, and an accessibility report of the shop page.
  const done = (await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId: second.id } })).body as { id: string };
  check(await http(server.url, 'POST', `/df/api/sessions/${done.id}/device/control`, { token, body: { action: 'openUrl', url: siteUrl } }), 'open');
  const audit = (await http(server.url, 'POST', `/df/api/sessions/${done.id}/accessibility/audits`, { token, body: { name: 'Shop, spring release' } })).body as { id: string };
  check(await http(server.url, 'POST', `/df/api/sessions/${done.id}/accessibility/audits/${audit.id}/scans`, { token }), 'scan');
  const earlier = (await http(server.url, 'POST', `/df/api/sessions/${done.id}/accessibility/audits`, { token, body: { name: 'Shop, winter release' } })).body as { id: string };
  check(await http(server.url, 'POST', `/df/api/sessions/${done.id}/accessibility/audits/${earlier.id}/scans`, { token }), 'scan');
  await http(server.url, 'DELETE', `/df/api/sessions/${done.id}`, { token });

  // Bookings this week on the first device, in the browser's zone (the machine's).
  const hour = (days: number, h: number) => {
    const d = new Date();
    d.setDate(d.getDate() + days);
    d.setHours(h, 0, 0, 0);
    return d;
  };
  for (const [days, from, to, note] of [
    [1, 9, 11, 'release smoke test'],
    [2, 13, 16, 'payment flow'],
    [3, 10, 12, 'accessibility pass'],
  ] as const) {
    check(await http(server.url, 'POST', '/df/api/reservations', { token, body: { deviceId: first.id, startAt: hour(days, from).toISOString(), endAt: hour(days, to).toISOString(), note } }), 'booking');
  }
  const file = Buffer.from('device farm notes\n'.repeat(400));
  const signed = (await http(server.url, 'POST', '/df/api/files/presigned-upload', { token, body: { name: 'release-notes.txt', size: file.length, contentType: 'text/plain' } })).body as { fileId: string; url: string; headers?: Record<string, string> };
  await fetch(new URL(signed.url, server.url), { method: 'PUT', headers: signed.headers ?? { 'content-type': 'text/plain' }, body: file });
  check(await http(server.url, 'POST', `/df/api/files/${signed.fileId}/confirm`, { token }), 'confirm');
  check(await http(server.url, 'POST', '/api/v1/api-keys', { token, body: { name: 'CI pipeline', scopes: ['read', 'write'] } }), 'api key');

  return { admin, token, people, first, audit, earlier };
}

/** Saves a screenshot of `p` as docs/console/{name}.png once no request is in flight for a moment. */
async function shoot(p: Page, name: string): Promise<void> {
  await p.waitForLoadState('networkidle');
  await p.screenshot({ path: join(OUT, `${name}.png`) });
  process.stdout.write(`docs/console/${name}.png\n`);
}

/** Waits until the live screen of `p` has drawn a frame. */
const firstFrame = (p: Page) => until(async () => ((await p.locator('canvas').getAttribute('data-frames')) ? true : undefined), 'frames');

/** The desktop screenshots (1280×800): sign-in, devices, a live session and its sharing, and every section. */
async function shootDesktop(browser: Browser, server: Server, seeded: Seeded, siteUrl: string): Promise<void> {
  const { admin, first, audit, earlier } = seeded;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const shot = (name: string) => shoot(page, name);
  const visit = async (path: string, ready: (p: Page) => Promise<unknown>) => {
    await page.goto(`${server.url}${path}`);
    await ready(page);
  };

  await page.goto(`${server.url}/sign-in`);
  await shot('sign-in');
  await signIn(page, admin);
  await page.getByRole('list', { name: 'Devices' }).getByRole('listitem').first().waitFor();
  await shot('devices');
  await visit(`/devices/${first.id}`, (p) => p.getByRole('button', { name: 'Start a session' }).waitFor());
  await shot('device');

  await shootLiveSession(browser, server, seeded, page, siteUrl);
  await visit(`/reservations?deviceId=${first.id}`, (p) => p.getByRole('note').first().waitFor());
  await page.getByRole('region', { name: /^Week of / }).evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
  await page.evaluate(() => (globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(0, -130));
  await shot('reservations');
  await visit('/org/users', (p) => p.getByRole('table', { name: 'Users' }).waitFor());
  await shot('users');
  await visit('/org/roles', (p) => p.locator('summary').filter({ hasText: 'Release testers' }).click());
  await shot('roles');
  await visit('/org/teams', (p) => p.getByRole('list', { name: 'Members of Mobile QA' }).waitFor());
  await shot('teams');
  await visit('/org/workspaces', (p) => p.getByRole('list', { name: 'Access to Device lab' }).waitFor());
  await shot('workspaces');
  const labCard = page.getByRole('article', { name: 'Workspace Device lab' });
  await labCard.getByText('Members and their roles in Device lab').click();
  await labCard.getByRole('table', { name: 'Members of Device lab' }).evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'center' }));
  await shot('workspace-members');
  await visit('/org/audit', (p) => p.getByRole('table', { name: 'Audit events' }).waitFor());
  await shot('audit');
  await visit('/api-keys', (p) => p.getByRole('table', { name: 'API keys' }).waitFor());
  await shot('api-keys');
  await visit('/hosts', (p) => p.getByRole('row').filter({ hasText: 'Rack 2' }).waitFor());
  await shot('hosts');
  await visit('/files', (p) => p.getByRole('row').filter({ hasText: 'release-notes.txt' }).filter({ hasText: 'ready' }).waitFor());
  await shot('files');
  await visit('/reports', (p) => p.getByRole('table', { name: 'Sessions report' }).waitFor());
  // The range and the sessions chart in view (the figures and quotas are above them).
  await page.getByRole('form', { name: 'Report range' }).evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'start' }));
  await page.evaluate(() => (globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(0, -120));
  await shot('reports');
  await visit(`/accessibility/${audit.id}`, (p) => p.getByRole('table', { name: 'Findings' }).waitFor());
  await page.getByLabel('Earlier report').selectOption({ value: earlier.id });
  await page.getByRole('button', { name: 'Compare' }).click();
  await page.getByRole('region', { name: 'Unchanged findings' }).waitFor();
  await shot('accessibility');
  await context.close();
}

/** A live session showing the shop, with a viewer, an invitation and a link; the viewer then disconnected. */
async function shootLiveSession(browser: Browser, server: Server, seeded: Seeded, page: Page, siteUrl: string): Promise<void> {
  const { token, people } = seeded;
  await page.getByRole('button', { name: 'Start a session' }).click();
  await page.waitForURL(/\/sessions\/[^/]+$/);
  const sessionId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByLabel('Open an address').fill(siteUrl);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await firstFrame(page);
  // The shop's blue header painted on the device and its frame drawn.
  await until(
    () =>
      page.evaluate(() => {
        const c = (globalThis as unknown as { document: { querySelector(s: string): { getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } } } }).document.querySelector('canvas');
        const d = c.getContext('2d').getImageData(5, 5, 1, 1).data;
        return d[2]! > 150 && d[0]! < 120 ? true : undefined;
      }),
    'the shop on the live screen',
    20_000,
  );
  await shoot(page, 'session');
  const wendy = people[2]!;
  check(await http(server.url, 'POST', `/df/api/sessions/${sessionId}/invitations`, { token, body: { email: wendy.email, access: 'view' } }), 'invitation');
  const link = (await http(server.url, 'POST', `/df/api/sessions/${sessionId}/invitations`, { token, body: { link: true, access: 'view' } })).body as { url: string };
  const watcher = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const view = await watcher.newPage();
  await view.goto(`${server.url}/sign-in`);
  await signIn(view, people[0]!);
  await view.goto(`${server.url}${new URL(link.url).pathname}`);
  await view.waitForURL(/\/sessions\//);
  await page.getByRole('tab', { name: /Viewers and sharing/ }).click();
  await page.getByRole('list', { name: 'Viewers' }).filter({ hasText: 'Maya Patel' }).waitFor();
  await page.getByRole('list', { name: 'Open links' }).waitFor();
  await shoot(page, 'session-sharing');
  await page.getByRole('list', { name: 'Viewers' }).getByRole('button', { name: 'Disconnect Maya Patel' }).click();
  await page.getByRole('button', { name: 'Yes, disconnect' }).click();
  await view.getByRole('alert').filter({ hasText: 'You were disconnected' }).waitFor();
  await shoot(view, 'session-disconnected');
  await watcher.close();
  await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token });
}

/** A tablet in portrait (820×1180, touch): the device grid and a live session; a phone: the grid and its menu. */
async function shootTouchScreens(browser: Browser, server: Server, seeded: Seeded, siteUrl: string): Promise<void> {
  const { admin, token, first } = seeded;
  // A touch screen of the given size, signed in, on the device grid once it has loaded.
  const onTouchScreen = async (options: { viewport: { width: number; height: number }; isMobile?: boolean }) => {
    const context = await browser.newContext({ ...options, hasTouch: true });
    const p = await context.newPage();
    await p.goto(`${server.url}/sign-in`);
    await signIn(p, admin);
    await p.getByRole('list', { name: 'Devices' }).getByRole('listitem').first().waitFor();
    await p.waitForLoadState('networkidle');
    return { context, p };
  };
  const { context: tablet, p: pad } = await onTouchScreen({ viewport: { width: 820, height: 1180 } });
  await shoot(pad, 'tablet-devices');
  await pad.goto(`${server.url}/devices/${first.id}`);
  await pad.getByRole('button', { name: 'Start a session' }).tap();
  await pad.waitForURL(/\/sessions\/[^/]+$/);
  await pad.getByLabel('Open an address').fill(siteUrl);
  await pad.getByRole('button', { name: 'Open', exact: true }).tap();
  await firstFrame(pad);
  await shoot(pad, 'tablet-session');
  await http(server.url, 'DELETE', `/df/api/sessions/${new URL(pad.url()).pathname.split('/').pop()}`, { token });
  await tablet.close();

  // A phone (390×844, touch): the device grid, and the same page with the menu open.
  const { context: phone, p: hand } = await onTouchScreen({ viewport: { width: 390, height: 844 }, isMobile: true });
  await shoot(hand, 'phone-devices');
  await hand.getByRole('button', { name: 'Menu' }).tap();
  await hand.getByRole('navigation', { name: 'Main' }).waitFor();
  await shoot(hand, 'phone-menu');
  await phone.close();
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const smtp = await startSmtpListener();
  const server = await startTestServer({ SMTP_URL: smtp.url });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const seeded = await seed(server, smtp, siteUrl);
    await shootDesktop(browser, server, seeded, siteUrl);
    await shootTouchScreens(browser, server, seeded, siteUrl);
  } finally {
    await browser.close();
    await server.stop();
    await smtp.stop();
    site.close();
  }
}

await main();
