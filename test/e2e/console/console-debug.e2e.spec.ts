import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * The console's debugging page end to end: the adbd test device behind a real adb server (Debian's
 * adb) and the agent's Android driver, the real server, and Debian's Chromium driven by
 * playwright-core. A person opens a session on the Android device, requests adb, finds the device
 * among the targets with its `dfctl` command, and types into a shell on the device through xterm.js.
 */
const CHROMIUM = '/usr/lib/chromium/chromium';
const ADMIN = { email: 'console-debug@example.com', password: 'console-debug-password-1' };
// The picture is taken (it must render) into a directory of the test's own: pictures under docs/console
// come from scripts/console-screenshots.ts, never from a test run.
const SCREENSHOT = process.env.CONSOLE_SCREENSHOTS === '0' ? null : join(mkdtempSync(join(tmpdir(), 'console-debug-')), 'debugging.png');

declare const window: unknown;
declare const navigator: { clipboard: { readText(): Promise<string> } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let browser: Browser;
let page: Page;

async function expectAccessible(what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}

/** The terminal's rendered rows as text (xterm's DOM renderer), spaces made plain. */
const terminalRows = () => page.locator('.xterm-rows > div').evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()));

/** Every address the page asked for, in order (to see when the terminal's code is fetched). */
const requested: string[] = [];
const xtermFetched = () => requested.some((u) => /\/assets\/debug-xterm-[^/]*\.js$/.test(u));

/** What the page sent on its viewer sockets (`/df/ws/sessions/…`), parsed. */
const sent: { type: string; cols?: number; rows?: number; data?: string }[] = [];

const pageErrors: string[] = [];
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Debug Phone', release: '14' }));
  peer.addJdwpProcess(4242, 'com.example.debuggable');
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'console-debug-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [{ provider: 'browser', name: 'Debug Chromium', profile: 'desktop' }] }),
  });
  const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
  await eventually(async () => ((await http(server.url, 'GET', '/df/api/devices?platform=android', { token })).body.content?.[0]?.status === 'available' ? true : undefined), {
    what: 'the android device available',
    timeoutMs: 30_000,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.on('request', (r) => void requested.push(r.url()));
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/df/ws/sessions/')) return;
    ws.on('framesent', (frame) => {
      if (typeof frame.payload === 'string') sent.push(JSON.parse(frame.payload) as (typeof sent)[number]);
    });
  });
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('E-mail or username').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/devices');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

describe('the debugging page', { timeout: 120_000 }, () => {
  let sessionId = '';

  it('opens from the session of an Android device and lists its protocols, none granted', async () => {
    const grid = page.getByRole('list', { name: 'Devices' });
    await grid.getByRole('link', { name: /Debug Phone/ }).click();
    await page.getByRole('button', { name: 'Start a session' }).click();
    await page.waitForURL(/\/sessions\/[^/]+$/);
    sessionId = new URL(page.url()).pathname.split('/').pop()!;
    // Nothing of the debugging page was fetched for the grid or the session page.
    expect(requested.filter((u) => u.includes('/assets/debug'))).toEqual([]);
    await page.getByRole('link', { name: 'Debug', exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/sessions/${sessionId}/debug`);
    await page.getByRole('heading', { name: 'Debugging', level: 1 }).waitFor();
    const protocols = page.getByRole('table', { name: 'Debug protocols' });
    await protocols.waitFor();
    const adbRow = protocols.getByRole('row').filter({ has: page.getByText('adb', { exact: true }) });
    expect(await adbRow.textContent()).toContain('available');
    await adbRow.getByRole('button', { name: 'Request access to adb' }).waitFor();
    await expectAccessible('debugging (nothing granted)');
    // xterm.js waits until a terminal is opened.
    expect(xtermFetched()).toBe(false);
  });

  it('shows the refusal when the terminal is opened without adb, and the way to request it', async () => {
    await page.getByRole('button', { name: 'Open the terminal' }).click();
    const refusal = page.getByRole('region', { name: 'Terminal' }).getByRole('alert');
    await expect.poll(() => refusal.textContent(), { timeout: 10_000 }).toContain('not been granted');
    expect(await refusal.textContent()).toContain('Request adb first');
    await page.getByRole('button', { name: 'Request adb access and open' }).waitFor();
    expect(xtermFetched()).toBe(true);
  });

  it('requests adb, sees the device among the targets with its dfctl command, and copies it', async () => {
    const protocols = page.getByRole('table', { name: 'Debug protocols' });
    await protocols.getByRole('button', { name: 'Request access to adb' }).click();
    const adbRow = protocols.getByRole('row').filter({ has: page.getByText('adb', { exact: true }) });
    await expect.poll(() => adbRow.textContent(), { timeout: 10_000 }).toContain('granted');
    await adbRow.getByRole('button', { name: 'Withdraw access to adb' }).waitFor();
    // The grant is the server's, not the page's.
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const caps = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/debug-capabilities`, { token });
    expect(caps.body.protocols.find((p: { name: string }) => p.name === 'adb').granted).toBe(true);

    await page.getByRole('button', { name: 'Refresh targets' }).click();
    const targets = page.getByRole('table', { name: 'Debug targets' });
    const device = targets.getByRole('row').filter({ hasText: 'device' }).filter({ hasText: `dfctl adb ${sessionId}` });
    await device.waitFor();
    const jdwpRow = targets.getByRole('row').filter({ hasText: 'com.example.debuggable' });
    expect(await jdwpRow.textContent()).toContain(`dfctl forward ${sessionId} 8700:jdwp:4242`);
    await device.getByRole('button', { name: /^Copy the command/ }).click();
    await device.getByRole('button', { name: /^Copied the command/ }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`dfctl adb ${sessionId}`);
  });

  it('opens the terminal, runs what is typed on the device and shows its output', async () => {
    await page.getByRole('button', { name: 'Open the terminal' }).click();
    // The device's prompt, rendered by xterm.js.
    await expect.poll(async () => (await terminalRows()).some((r) => r.endsWith('$')), { timeout: 15_000 }).toBe(true);
    const before = await terminalRows();
    expect(before.length).toBeGreaterThanOrEqual(5);
    await page.keyboard.type('echo hi');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await terminalRows()).includes('hi'), { timeout: 10_000 }).toBe(true);
    const rows = await terminalRows();
    const at = rows.indexOf('hi');
    expect(rows[at - 1]).toMatch(/\$ echo hi$/);
    expect(peer.record.commands).toContain('echo hi');
    await expectAccessible('debugging (terminal open)');
    if (SCREENSHOT) {
      // Focusing the terminal scrolled it into view; the picture shows the page from its top.
      await page.evaluate(() => (window as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await page.screenshot({ path: SCREENSHOT });
      expect(readFileSync(SCREENSHOT).subarray(1, 4).toString('latin1')).toBe('PNG');
      rmSync(dirname(SCREENSHOT), { recursive: true, force: true });
    }
    // Shift+Tab leaves the terminal (Tab itself belongs to the shell): no keyboard trap.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent)).toBe('Close the terminal');
  });

  it('follows its box: a narrower window sends terminal.resize with fewer columns', async () => {
    const opened = sent.filter((m) => m.type === 'terminal.open').at(-1)!;
    expect(opened.cols).toBeGreaterThan(40);
    // Typed keys went as terminal.input (Enter as a carriage return).
    expect(sent.filter((m) => m.type === 'terminal.input').map((m) => m.data).join('')).toBe('echo hi\r');
    await page.setViewportSize({ width: 1100, height: 800 });
    try {
      await expect.poll(() => sent.filter((m) => m.type === 'terminal.resize').at(-1)?.cols ?? opened.cols, { timeout: 10_000 }).toBeLessThan(opened.cols!);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('closes the terminal, says so, and reopens it', async () => {
    const panel = page.getByRole('region', { name: 'Terminal' });
    await panel.getByRole('button', { name: 'Close the terminal' }).click();
    await expect.poll(() => panel.getByRole('status').textContent(), { timeout: 10_000 }).toContain('The terminal is closed');
    await panel.getByRole('button', { name: 'Reopen' }).click();
    await panel.getByRole('button', { name: 'Close the terminal' }).waitFor();
    await expect.poll(async () => (await terminalRows()).some((r) => r.endsWith('$')), { timeout: 15_000 }).toBe(true);
    await page.keyboard.type('echo again');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await terminalRows()).includes('again'), { timeout: 10_000 }).toBe(true);
    expect(peer.record.commands).toContain('echo again');
  });

  it('offers a browser session its DevTools command and no terminal', async () => {
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const deviceId = await eventually(async () => (await http(server.url, 'GET', '/df/api/devices?platform=web', { token })).body.content?.find((d: { status: string }) => d.status === 'available')?.id as string | undefined, {
      what: 'the browser device available',
      timeoutMs: 30_000,
    });
    const created = await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId, name: 'browser debugging' } });
    expect(created.status).toBe(201);
    await page.goto(`${server.url}/sessions/${created.body.id}/debug`);
    const protocols = page.getByRole('table', { name: 'Debug protocols' });
    await protocols.waitFor();
    expect(await protocols.getByRole('row').count()).toBe(2);
    await protocols.getByRole('button', { name: 'Request access to cdp' }).click();
    await protocols.getByRole('button', { name: 'Withdraw access to cdp' }).waitFor();
    const page0 = page.getByRole('table', { name: 'Debug targets' }).getByRole('row').filter({ hasText: 'page' }).first();
    await expect.poll(() => page0.textContent(), { timeout: 10_000 }).toContain(`dfctl devtools ${created.body.id}`);
    expect(await page.getByRole('region', { name: 'Terminal' }).count()).toBe(0);
    await expectAccessible('debugging a browser session');
    expect((await http(server.url, 'DELETE', `/df/api/sessions/${created.body.id}`, { token })).status).toBe(200);
  });
});
