import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';
import { eventually } from '#test/helpers/df-farm.js';
import { startIosFarm, WDA_BUNDLE_ID } from '#test/helpers/ios-farm.js';
import { http, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, type UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer } from '#test/usbmuxd/wda.js';

/**
 * iOS device health end to end: the test usbmuxd (test/usbmuxd) with two iPhones whose battery and
 * storage the test scripts (lockdown's battery and disk-usage domains), the server's in-process agent
 * reading them every 500 ms (`AGENT_HEALTH_INTERVAL`) through appium-ios-device. The readings show in the
 * health API and on the device's page; a low battery not charging holds the iPhone (`charging`) and a
 * session on it is refused naming why, until it charges; storage below the company's bound degrades it.
 * Every wait is a poll of the API until a state, with a deadline.
 */
const ADMIN = { email: 'ios-health-admin@example.com', password: 'ios-health-password-1' };
const MB = 1024 * 1024;
let server: TestServer;
let peer: UsbmuxdPeer;
let token: string;
let phoneId: string;
let bareId: string;
const screen = testScreen(60, 120);
const phone = new PeerDevice({
  udid: '00008130-00HEA17H10500001',
  name: 'Health iPhone',
  productType: 'iPhone17,3',
  productVersion: '18.1',
  deviceClass: 'iPhone',
  screenshot: screen,
  health: { batteryLevel: 80, charging: false, externalConnected: false, dataFreeBytes: 8_000 * MB },
});
new WdaPeer({ size: { width: 393, height: 852, scale: 3 }, tree: sampleTree(393, 852), screenshot: screen, bundleId: WDA_BUNDLE_ID }).install(phone);
// An iPhone without WebDriverAgent: its readings say so, and why.
const bare = new PeerDevice({ udid: '00008030-00HEA17H10500002', name: 'Health iPhone SE', productType: 'iPhone14,6', productVersion: '16.7.10', deviceClass: 'iPhone', screenshot: screen });

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};
type Health = { state: string; reasons: string[]; battery?: { level: number; charging: boolean }; storageFreeMb?: number; checkedAt: string };
type Sample = { battery?: { level: number; charging: boolean }; storageFreeMb?: number; osVersion?: string; wda?: { answering: boolean; reason?: string }; checkedAt: string };
const healthOf = async (deviceId: string): Promise<Health | null> => (await api('GET', `/devices/${deviceId}`)).body.health;
/** Polls the device record until its health is `state`. */
const healthBecomes = (deviceId: string, state: string, timeoutMs = 20_000) =>
  eventually(async () => {
    const h = await healthOf(deviceId);
    return h?.state === state ? h : undefined;
  }, { what: `device health ${state}`, timeoutMs });
/** The device's newest reading. */
const newest = async (deviceId: string): Promise<Sample | undefined> => ((await api('GET', `/devices/${deviceId}/health`)).body.samples as Sample[]).at(-1);

describe('iOS device health', () => {
  beforeAll(async () => {
    ({ peer, server, token } = await startIosFarm({ admin: ADMIN, devices: [phone, bare], nodeName: 'ios-health-node', env: { AGENT_HEALTH_INTERVAL: '500ms' } }));
    const byName = async (name: string) => ((await api('GET', '/devices?platform=ios')).body.content as { id: string; name: string }[]).find((d) => d.name === name)?.id;
    phoneId = await eventually(() => byName('Health iPhone'), { what: 'the iPhone', timeoutMs: 60_000 });
    bareId = await eventually(() => byName('Health iPhone SE'), { what: 'the iPhone SE', timeoutMs: 60_000 });
    await healthBecomes(phoneId, 'healthy');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await peer?.close();
  });

  it('shows the battery, free storage, iOS version and WebDriverAgent’s answer of each iPhone, read in one lockdown session a reading', async () => {
    const health = await healthOf(phoneId);
    expect(health).toMatchObject({ state: 'healthy', reasons: [], battery: { level: 80, charging: false }, storageFreeMb: 8_000 });
    expect(await newest(phoneId)).toMatchObject({ battery: { level: 80, charging: false }, storageFreeMb: 8_000, osVersion: '18.1', wda: { answering: true } });
    const se = await eventually(() => newest(bareId), { what: 'a reading of the iPhone SE' });
    expect(se).toMatchObject({ battery: { level: 87, charging: true }, storageFreeMb: 42 * 1024, osVersion: '16.7.10', wda: { answering: false, reason: expect.stringMatching(/^WebDriverAgent does not answer on device port 8100/) } });
    // Each reading asks the battery, the storage and the version inside one session, nothing outside one.
    const asked = phone.record.getValues.filter((g) => g.domain === 'com.apple.mobile.battery');
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((g) => g.inSession)).toBe(true);
    const sessions = phone.record.sessions;
    const readings = asked.length;
    await eventually(async () => (phone.record.getValues.filter((g) => g.domain === 'com.apple.mobile.battery').length >= readings + 3 ? true : undefined), { what: 'three more readings' });
    const more = phone.record.getValues.filter((g) => g.domain === 'com.apple.mobile.battery').length - readings;
    expect(phone.record.sessions - sessions).toBeLessThanOrEqual(more + 1);
  });

  it('holds an iPhone whose battery is below the threshold while not charging, refuses a session naming why, and releases it once it charges', async () => {
    Object.assign(phone.health, { batteryLevel: 9, charging: false, externalConnected: false });
    const low = await healthBecomes(phoneId, 'charging');
    expect(low.reasons).toEqual(['battery 9 % below 15 % and not charging']);
    expect(low.battery).toEqual({ level: 9, charging: false });
    const refused = await api('POST', '/sessions', { deviceId: phoneId, name: 'low battery' });
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('charging: battery 9 % below 15 % and not charging');
    const attention = await api('GET', '/devices?platform=ios&needsAttention=true');
    expect(attention.body.content.map((d: { id: string }) => d.id)).toEqual([phoneId]);

    Object.assign(phone.health, { charging: true, externalConnected: true });
    const back = await healthBecomes(phoneId, 'healthy');
    expect(back.battery).toEqual({ level: 9, charging: true });
    const opened = await api('POST', '/sessions', { deviceId: phoneId, name: 'charging again' });
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
  });

  it('degrades an iPhone whose free storage is below the threshold, and it recovers when space is freed', async () => {
    phone.health.dataFreeBytes = 300 * MB;
    const short = await healthBecomes(phoneId, 'degraded');
    expect(short.reasons).toEqual(['storage 300 MB free below 500 MB']);
    expect(short.storageFreeMb).toBe(300);
    phone.health.dataFreeBytes = 8_000 * MB;
    expect((await healthBecomes(phoneId, 'healthy')).storageFreeMb).toBe(8_000);
  });

  it('shows the iOS readings in the console: a held iPhone’s badge in the grid and its battery, storage, iOS version and WebDriverAgent on its page, in Chromium, axe-clean', { timeout: 120_000 }, async () => {
    Object.assign(phone.health, { batteryLevel: 7, charging: false, externalConnected: false });
    await healthBecomes(phoneId, 'charging');
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/devices?platform=ios`);
      await page.locator('.device-card', { hasText: 'Health iPhone' }).filter({ hasNotText: 'SE' }).getByText('Charging', { exact: true }).waitFor();
      await expectAccessible(page, 'the device grid with a held iPhone');
      await page.goto(`${server.url}/devices/${phoneId}`);
      await page.getByRole('heading', { name: 'Health', exact: true }).waitFor();
      const facts = page.locator('.card', { has: page.getByRole('heading', { name: 'Health', exact: true }) }).locator('dl.facts');
      await facts.getByText('battery 7 % below 15 % and not charging').waitFor();
      await facts.getByText('7 %', { exact: true }).waitFor();
      await facts.getByText('8000 MB', { exact: true }).waitFor();
      await facts.locator('dt', { hasText: 'iOS version' }).waitFor();
      await facts.getByText('18.1', { exact: true }).waitFor();
      await facts.getByText('Answering', { exact: true }).waitFor();
      // lockdown gives no battery temperature: the chart is the battery's alone.
      await page.getByRole('img', { name: /^Battery over \d+ readings since .*; last: 7 %$/ }).waitFor();
      expect(await page.getByRole('button', { name: 'Start a session' }).isDisabled()).toBe(true);
      await expectAccessible(page, "a held iPhone's page with its health");
      await page.goto(`${server.url}/devices/${bareId}`);
      const bareFacts = page.locator('.card', { has: page.getByRole('heading', { name: 'Health', exact: true }) }).locator('dl.facts');
      await bareFacts.getByText(/^Not answering: WebDriverAgent does not answer on device port 8100/).waitFor();
      await bareFacts.getByText('16.7.10', { exact: true }).waitFor();
      await expectAccessible(page, "an iPhone's page whose WebDriverAgent does not answer");
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
      Object.assign(phone.health, { batteryLevel: 80, charging: true, externalConnected: true });
    }
  });
});
