import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, testApk, type AdbServer } from '#test/helpers/adb.js';
import { referenceApks } from '#test/helpers/apps.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The session page's Apps and Files panes, end to end: the real server with an agent whose Android
 * device is the adbd protocol peer behind Debian's adb server, and Debian's Chromium driving the
 * console. What the panes do is checked on the device (the peer's packages and files).
 */
const ADMIN = { email: 'console-device@example.com', password: 'console-device-1' };
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let browser: Browser;
let token = '';
let sessionId = '';
let owner: { context: BrowserContext; page: Page };

const activities = async () => {
  const a = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/activities?size=100`, { token });
  return (a.body.content as { kind: string; detail: { action?: string } }[]).filter((x) => x.kind === 'control').map((x) => x.detail.action);
};

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Console Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 }));
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'console-android-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  const deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?platform=android', { token });
    return r.body.content?.[0]?.id as string | undefined;
  }, { what: 'the android device', timeoutMs: 30_000 });
  // A real APK in the workspace's app catalog (the presigned flow: sign, PUT the bytes, confirm).
  const apk = readFileSync(referenceApks().settings);
  const signed = await http(server.url, 'POST', '/df/api/files/presigned-upload', { token, body: { name: 'settings.apk', size: apk.length, contentType: 'application/vnd.android.package-archive' } });
  expect(signed.status).toBe(201);
  expect((await fetch(signed.body.url, { method: 'PUT', headers: signed.body.headers, body: new Uint8Array(apk) })).status).toBe(200);
  expect((await http(server.url, 'POST', `/df/api/files/${signed.body.fileId}/confirm`, { token })).body.kind).toBe('app');
  const started = await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId } });
  expect(started.status).toBe(201);
  sessionId = started.body.id;
  browser = await launchBrowser();
  owner = await signedIn(browser, server.url, ADMIN.email, ADMIN.password, { acceptDownloads: true });
  await owner.page.goto(`${server.url}/sessions/${sessionId}`);
  await owner.page.getByRole('toolbar', { name: 'Device controls' }).waitFor();
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (sessionId) await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token });
  await browser?.close();
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

describe("the session page's apps and files panes", { timeout: 240_000 }, () => {
  it('installs an APK chosen on this computer, lists it, and uninstalls it after a confirmation', async () => {
    const { page } = owner;
    // Android devices have an accessibility scan: the page offers an audit.
    // (The toolbar shows it once the device's capabilities are known: waited for, then counted.)
    const audit = page.getByRole('toolbar', { name: 'Device controls' }).getByRole('button', { name: 'Run accessibility audit' });
    await audit.first().waitFor();
    expect(await audit.count()).toBe(1);
    await page.getByRole('tab', { name: 'Apps' }).click();
    const pane = page.getByRole('tabpanel');
    await pane.getByText('No app installed besides the system’s.').waitFor();
    await pane.getByLabel(/^APK file/).setInputFiles({ name: 'console.apk', mimeType: 'application/vnd.android.package-archive', buffer: testApk('com.example.consoleapp') });
    await pane.getByRole('button', { name: 'Install', exact: true }).click();
    await pane.getByRole('status').filter({ hasText: 'Installed com.example.consoleapp.' }).waitFor();
    expect(peer.record.installs).toEqual([expect.objectContaining({ packageName: 'com.example.consoleapp' })]);
    const row = pane.getByRole('row').filter({ hasText: 'com.example.consoleapp' });
    await row.waitFor();
    // System apps show on request, without an uninstall button.
    await pane.getByLabel('Show system apps').check();
    const settings = pane.getByRole('row').filter({ hasText: 'com.android.settings' });
    await settings.waitFor();
    expect(await settings.getByRole('button').count()).toBe(0);
    await pane.getByLabel('Show system apps').uncheck();
    await expectAccessible(page, 'session page, apps pane');

    await row.getByRole('button', { name: 'Uninstall com.example.consoleapp' }).click();
    await pane.getByRole('group', { name: 'Confirm uninstalling com.example.consoleapp' }).getByRole('button', { name: 'Yes, uninstall' }).click();
    await pane.getByText('No app installed besides the system’s.').waitFor();
    const listed = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/apps?thirdPartyOnly=true`, { token });
    expect(listed.body.apps).toEqual([]);
    expect(await activities()).toEqual(expect.arrayContaining(['installApp', 'uninstallApp']));
  });

  it('installs a version of the app catalog, following its operation to the end', async () => {
    const { page } = owner;
    await page.getByRole('tab', { name: 'Apps' }).click();
    const form = page.getByRole('form', { name: 'Install from the app catalog' });
    const catalog = await http(server.url, 'GET', '/df/api/files/apps?platform=android', { token });
    const app = (catalog.body.content as { id: string; identifier: string }[]).find((a) => a.identifier === 'io.appium.settings')!;
    await form.getByLabel('App of the catalog').selectOption({ value: app.id });
    await expect.poll(() => form.getByLabel('Version').locator('option').count()).toBe(1);
    await form.getByRole('button', { name: 'Install this version' }).click();
    await page.getByRole('tabpanel').getByRole('status').filter({ hasText: 'Installed io.appium.settings.' }).waitFor();
    expect(peer.record.installs.at(-1)).toMatchObject({ packageName: 'io.appium.settings' });
    await page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'io.appium.settings' }).waitFor();
  });

  it("browses the device's folders, makes one, uploads into it, downloads the file back and deletes it", async () => {
    const { page } = owner;
    await page.getByRole('tab', { name: 'Files' }).click();
    const pane = page.getByRole('tabpanel');
    await pane.getByRole('table', { name: 'Contents of /sdcard' }).waitFor();
    await pane.getByLabel('Folder name').fill('console');
    await pane.getByRole('button', { name: 'Create folder' }).click();
    await pane.getByRole('button', { name: 'Open the folder console' }).click();
    await pane.getByText('This folder is empty.').waitFor();
    expect(peer.files.get('/sdcard/console')?.type).toBe('dir');

    const text = 'written from the console\n';
    await pane.getByLabel('File to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await pane.getByRole('button', { name: 'Upload', exact: true }).click();
    const row = pane.getByRole('table', { name: 'Contents of /sdcard/console' }).getByRole('row').filter({ hasText: 'notes.txt' });
    await row.waitFor();
    expect(peer.files.get('/sdcard/console/notes.txt')?.data.toString()).toBe(text);
    await expectAccessible(page, 'session page, files pane');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download notes.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(readFileSync(await download.path())).toEqual(Buffer.from(text));

    await row.getByRole('button', { name: 'Delete notes.txt' }).click();
    await pane.getByRole('group', { name: 'Confirm deleting notes.txt' }).getByRole('button', { name: 'Yes, delete' }).click();
    await pane.getByText('This folder is empty.').waitFor();
    expect(peer.files.has('/sdcard/console/notes.txt')).toBe(false);
    await pane.getByRole('button', { name: 'Up', exact: true }).click();
    await pane.getByRole('button', { name: 'Open the folder console' }).waitFor();
    expect(await activities()).toEqual(expect.arrayContaining(['makeFolder', 'pushFile', 'pullFile', 'deleteFile']));
  });
});
