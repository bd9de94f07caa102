import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { eventually } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * Test sessions in the console: the list, a session's page with the current result of each case,
 * and its "Import JUnit results" upload, which answers what it matched, created and skipped and
 * shows the imported results in the session, a failed one linking to the replay of its device session
 * and to that session's video.
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let context: BrowserContext;
let page: Page;
let sessionId: string;
let video: { bytes: number; durationMs: number };

/** The device session a failed test ran in (recorded into a video), as the Playwright fixture prints its replay link into system-out. */
let deviceSession: string;
const report = () => `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="checkout">
  <testsuite name="checkout.spec.ts" tests="4">
    <testcase classname="checkout.spec.ts" name="pays by card" time="0.250"/>
    <testcase classname="checkout.spec.ts" name="pays by invoice" time="1.5"/>
    <testcase classname="checkout.spec.ts" name="refunds" time="0.1"><system-out>[qa-platform] checkout.spec.ts › refunds failed; replay: http://127.0.0.1/sessions/${deviceSession}?pane=replay</system-out><failure message="expected 200, got 500" type="AssertionError">at refunds (checkout.spec.ts:20:5)</failure></testcase>
    <testcase classname="checkout.spec.ts" name="ships abroad"><skipped/></testcase>
  </testsuite>
</testsuites>`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUpCompany(server.url, 'console-tmt');
  const v1 = async (method: string, path: string, body?: unknown) => {
    const r = await http(server.url, method, path, { token: admin.token, headers: { 'x-workspace-id': String(admin.workspaceId) }, ...(body !== undefined ? { body } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body.data;
  };
  const project = await v1('POST', '/v1/projects', { name: 'Shop', key: 'SHOP' });
  const card = await v1('POST', '/v1/test-cases', { title: 'checkout.spec.ts › pays by card', projectId: project.id });
  sessionId = (await v1('POST', '/v1/test-sessions', { name: 'Nightly checkout', projectId: project.id, testCases: [card.id] })).id;
  // The device session of the failed test, on the server's own browser device (its host is the first company's), with a short video.
  const df = async (method: string, path: string, body?: unknown) => {
    const r = await http(server.url, method, `/df/api${path}`, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const device = await eventually(async () => (await df('GET', '/devices?status=available&type=desktop')).content?.[0] as { id: string } | undefined, { what: 'the desktop browser device', timeoutMs: 60_000 });
  deviceSession = (await df('POST', '/sessions', { deviceId: device.id, name: 'refunds on desktop' })).id;
  await df('POST', `/sessions/${deviceSession}/recording/start`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  video = (await df('POST', `/sessions/${deviceSession}/recording/stop`)).video;
  expect(video).toMatchObject({ format: 'mp4', bytes: expect.any(Number) });
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
}, 180_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (deviceSession) await http(server.url, 'DELETE', `/df/api/sessions/${deviceSession}`, { token: admin.token });
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('test sessions in the console', { timeout: 240_000 }, () => {
  it('lists the sessions and opens one, its cases untested', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Test sessions' }).click();
    const list = page.getByRole('table', { name: 'Test sessions' });
    await list.getByRole('link', { name: 'Nightly checkout' }).click();
    await page.getByRole('heading', { name: 'Nightly checkout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/test-sessions/${sessionId}`);
    const results = page.getByRole('table', { name: 'Results' });
    await expect.poll(() => results.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('checkout.spec.ts › pays by card')]);
    expect(await results.locator('tbody tr').first().textContent()).toContain('untested');
    await expectAccessible(page, 'a test session with its JUnit import form');
  });

  it('imports a JUnit report: the answer counts matched, created and skipped, and the session shows the results with the device session of the failed one', async () => {
    const form = page.getByRole('form', { name: 'Import JUnit results' });
    await form.getByLabel('JUnit XML report').setInputFiles({ name: 'junit.xml', mimeType: 'application/xml', buffer: Buffer.from(report()) });
    await form.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 4 results: 1 matched, 3 created, 1 skipped.' }).waitFor();
    const imported = page.getByRole('table', { name: 'Imported testcases' });
    expect(await imported.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/pays by card.*Matched.*passed.*250 ms/),
      expect.stringMatching(/pays by invoice.*Created.*passed.*1\.5 s/),
      expect.stringMatching(/refunds.*Created.*failed/),
      expect.stringMatching(/ships abroad.*Created.*skipped/),
    ]);
    const results = page.getByRole('table', { name: 'Results' });
    await expect.poll(() => results.locator('tbody tr').count()).toBe(4);
    const rows = await results.locator('tbody tr').allTextContents();
    expect(rows[2]).toMatch(/checkout\.spec\.ts › refunds.*failed.*AssertionError: expected 200, got 500/);
    expect(rows[3]).toMatch(/ships abroad.*skipped/);
    const replay = results.getByRole('link', { name: 'Replay of checkout.spec.ts › refunds' });
    expect(await replay.getAttribute('href')).toBe(`/sessions/${deviceSession}?pane=replay`);
    expect(await results.getByRole('link', { name: /^Replay of/ }).count()).toBe(1);
    // The device session's video, as the result's attachment: its signed link serves the MP4.
    const videoLink = results.getByRole('link', { name: /^Video · \d+(\.\d)? (s|ms) · \d+\.\d MB of checkout\.spec\.ts › refunds$/ });
    expect(await results.getByRole('link', { name: /^Video · / }).count()).toBe(1);
    const served = await fetch(new URL((await videoLink.getAttribute('href'))!, server.url), { headers: { range: 'bytes=0-7' } });
    expect([served.status, served.headers.get('content-range')]).toEqual([206, `bytes 0-7/${video.bytes}`]);
    // An MP4 begins with its `ftyp` box.
    expect(Buffer.from(await served.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp');
    expect(await page.getByText('In progress · 4 test cases').count()).toBe(1);
    await expectAccessible(page, 'a test session after a JUnit import, a result linking to its device session and its video');
  });

  it('a file that is not well-formed XML is refused with its line, and the session stays as it was', async () => {
    const form = page.getByRole('form', { name: 'Import JUnit results' });
    await form.getByLabel('JUnit XML report').setInputFiles({ name: 'broken.xml', mimeType: 'application/xml', buffer: Buffer.from('<testsuites>\n<testsuite name="a">\n<testcase name="b">\n</testsuites>') });
    await form.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/not well-formed XML: line 4, column \d+/);
    expect(await page.getByRole('table', { name: 'Results' }).locator('tbody tr').count()).toBe(4);
    const session = await http(server.url, 'GET', `/v1/test-sessions/${sessionId}/results?history=true`, { token: admin.token, headers: { 'x-workspace-id': String(admin.workspaceId) } });
    expect(session.body.pagination.total).toBe(4);
    await expectAccessible(page, 'the JUnit import form with its refusal');
  });
});
