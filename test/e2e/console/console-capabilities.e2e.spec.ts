import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { freePort } from '#test/helpers/adb.js';
import { startIosFarm } from '#test/helpers/ios-farm.js';
import { http, type TestServer } from '#test/helpers/server.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, type UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * What the console says of how a device is driven (its `capabilities`): an iPhone without
 * WebDriverAgent (the usbmuxd protocol peer; go-ios cannot start the runner without testmanagerd) opens
 * a session that the page announces as view-only with the host's reason, and the device's page names
 * its screen and touch paths; a browser device's page names Chrome DevTools for both.
 */
const ADMIN = { email: 'console-capabilities@example.com', password: 'console-capabilities-1' };
let server: TestServer;
let peer: UsbmuxdPeer;
let browser: Browser;
let token = '';
let sessionId = '';
let owner: { context: BrowserContext; page: Page };
const se = new PeerDevice({ udid: '00008030-000C0C0C0C0C0C0C', name: 'Console iPhone SE', productType: 'iPhone14,6', productVersion: '16.7.10', deviceClass: 'iPhone', screenshot: testScreen(50, 90) });

const devices = async (platform: string) => (await http(server.url, 'GET', `/df/api/devices?platform=${platform}`, { token })).body.content as { id: string; capabilities: Record<string, string> | null }[];

beforeAll(async () => {
  ({ peer, server, token } = await startIosFarm({
    admin: ADMIN,
    devices: [se],
    nodeName: 'console-capabilities-node',
    wdaStartTimeoutMs: 10_000,
    goIos: { tunnel: 'off', tunnelInfoPort: await freePort() },
    agentDevices: [{ provider: 'browser', name: 'Console Chromium', profile: 'desktop' }],
  }));
  const deviceId = await eventually(async () => (await devices('ios'))[0]?.id, { what: 'the iPhone', timeoutMs: 30_000 });
  const started = await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId } });
  expect(started.status).toBe(201);
  sessionId = started.body.id;
  browser = await launchBrowser();
  owner = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
}, 180_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (sessionId) await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token });
  await browser?.close();
  await server?.stop();
  await peer?.close();
});

describe("a device's capabilities in the console", { timeout: 120_000 }, () => {
  it('reports an iPhone without WebDriverAgent as view-only, with the reason, once a session prepared it', async () => {
    const [iphone] = await eventually(async () => {
      const list = await devices('ios');
      return list[0]?.capabilities ? list : undefined;
    }, { what: "the iPhone's capabilities", timeoutMs: 30_000 });
    expect(iphone!.capabilities).toMatchObject({ screen: 'screenshotr', input: 'none' });
    expect(iphone!.capabilities!.reason).toMatch(/^View-only: .*testmanagerd/);
  });

  it('says on the session page that the device is view-only and why', async () => {
    const { page } = owner;
    await page.goto(`${server.url}/sessions/${sessionId}`);
    const note = page.getByRole('status').filter({ hasText: 'This device is view-only' });
    await note.waitFor();
    expect(await note.textContent()).toContain('testmanagerd');
    await expectAccessible(page, 'session page of a view-only device');
  });

  it("names the screen and touch paths on each device's page", async () => {
    const { page } = owner;
    const [iphone] = await devices('ios');
    await page.goto(`${server.url}/devices/${iphone!.id}`);
    // The device's facts (an iPhone's page also has its health card's).
    const facts = page.locator('dl.facts').filter({ hasText: 'screenshots (screenshotr)' });
    await facts.getByText('screenshots (screenshotr)').waitFor();
    await facts.getByText('none: view only').waitFor();
    expect(await facts.textContent()).toContain('testmanagerd');
    await expectAccessible(page, 'device page of a view-only device');

    const [chromium] = await devices('web');
    expect(chromium!.capabilities).toEqual({ screen: 'cdp', input: 'cdp' });
    await page.goto(`${server.url}/devices/${chromium!.id}`);
    await page.locator('dl.facts').getByText('Chrome DevTools screencast').waitFor();
  });
});
