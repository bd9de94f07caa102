import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The session page's recording, replay and UI-tree inspector, end to end: the real server, its
 * in-process host's browser device showing a page of our own (a data: address, so no traffic leaves
 * the machine), and Debian's Chromium driving the console.
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let owner: { context: BrowserContext; page: Page };
let sessionId = '';

// Each press changes the page, so the device sends a new frame.
const PAGE = `<!doctype html><title>Inspect me</title><body style="margin:0;font:24px sans-serif"><h1 id="title" style="margin:20px">Inspect me</h1><button id="go" style="margin:20px;width:320px;height:160px;font-size:28px" onclick="n++;this.textContent='Pressed '+n;document.body.style.background=n%2?'#cde':'#edc'">Press me</button><script>var n=0</script></body>`;

interface Node {
  role: string;
  id?: string;
  text?: string;
  bounds: { x: number; y: number; width: number; height: number };
  children: Node[];
}
const find = (n: Node, id: string): Node | undefined => (n.id === id ? n : n.children.map((c) => find(c, id)).find(Boolean));

async function buttonBounds(): Promise<Node['bounds']> {
  const tree = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/ui-tree`, { token: admin.token });
  expect(tree.status).toBe(200);
  return find(tree.body.root as Node, 'go')!.bounds;
}

/** The page point over a device point: the canvas draws the frame contained in its box. */
async function screenPoint(page: Page, device: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const canvas = page.getByRole('img', { name: /Device screen/ });
  const box = (await canvas.boundingBox())!;
  const size = await canvas.evaluate((c) => ({ w: (c as unknown as { width: number }).width, h: (c as unknown as { height: number }).height }));
  const s = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: admin.token })).body.screen as { width: number; height: number };
  const scale = Math.min(box.width / size.w, box.height / size.h);
  const left = box.x + (box.width - size.w * scale) / 2;
  const top = box.y + (box.height - size.h * scale) / 2;
  return { x: left + (device.x / s.width) * size.w * scale, y: top + (device.y / s.height) * size.h * scale };
}

const controlTaps = async () => {
  const a = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/activities?size=100`, { token: admin.token });
  return (a.body.content as { kind: string; detail: { action?: string } }[]).filter((x) => x.kind === 'control' && x.detail.action === 'tap').length;
};

beforeAll(async () => {
  server = await startTestServer();
  // The first company to sign up gets the in-process host's devices.
  admin = await signUpCompany(server.url, 'console-inspect');
  browser = await launchBrowser();
  const deviceId = await availableDevice(server.url, admin.token);
  const started = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId } });
  expect(started.status).toBe(201);
  sessionId = started.body.id;
  const opened = await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: admin.token, body: { action: 'openUrl', url: `data:text/html,${encodeURIComponent(PAGE)}` } });
  expect(opened.status).toBe(200);
  owner = await signedIn(browser, server.url, admin.email, admin.password);
  await owner.page.goto(`${server.url}/sessions/${sessionId}`);
  await owner.page.getByRole('toolbar', { name: 'Device controls' }).waitFor();
  // The first frame has been drawn: the canvas has the device's size and the page on it.
  await owner.page.waitForFunction("Number(document.querySelector('canvas.screen')?.dataset.frames) > 0", undefined, { timeout: 30_000 });
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (sessionId) await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token: admin.token });
  await browser?.close();
  await server?.stop();
});

describe('recording, replay and the inspector on the session page', { timeout: 240_000 }, () => {
  it('records two taps into the session video; the replay pane shows the video, not a frame player', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording' }).waitFor();
    const b = await buttonBounds();
    const at = await screenPoint(page, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    await page.mouse.click(at.x, at.y);
    await expect.poll(controlTaps, { timeout: 60_000 }).toBe(1);
    await page.mouse.click(at.x, at.y);
    await expect.poll(controlTaps, { timeout: 60_000 }).toBe(2);
    await expectAccessible(page, 'session page while recording');
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.getByRole('button', { name: 'Start recording' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Recording' }).count()).toBe(0);

    // The host encodes the video: no JPEG frame was kept (the frame player is for hosts that cannot).
    const status = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/recording/status`, { token: admin.token })).body;
    expect(status).toMatchObject({ frames: 0, video: { format: 'mp4', expired: false } });
    await page.getByRole('tab', { name: 'Replay' }).click();
    await page.getByRole('region', { name: 'Video' }).waitFor();
    expect(await page.getByRole('slider', { name: 'Scrub through the recording' }).count()).toBe(0);
    await expectAccessible(page, 'session replay');
  });

  it('plays the session video beside its timeline: an entry seeks the video to its moment, and the entry shown follows the video', async () => {
    const { page } = owner;
    const status = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/recording/status`, { token: admin.token })).body;
    expect(status.video).toMatchObject({ format: 'mp4', bytes: expect.any(Number) });
    const replay = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/replay`, { token: admin.token })).body as {
      recordings: { startedAt: string }[];
      activities: { kind: string; at: string; detail: { action?: string } }[];
    };
    const startedAt = Date.parse(replay.recordings.at(-1)!.startedAt);
    const taps = replay.activities.filter((a) => a.kind === 'control' && a.detail.action === 'tap');
    const section = page.getByRole('region', { name: 'Video' });
    const video = section.locator('video');
    const time = () => video.evaluate((v) => (v as unknown as { currentTime: number }).currentTime);
    await expect.poll(() => video.evaluate((v) => (v as unknown as { readyState: number }).readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const entries = section.getByRole('list', { name: 'Timeline of the video' }).getByRole('button', { name: /Tap$/ });
    await expect.poll(() => entries.count()).toBe(2);

    // Clicking the second tap seeks the video to that tap's time (within half a second), and marks it.
    await entries.nth(1).click();
    const want = (Date.parse(taps[1]!.at) - startedAt) / 1000;
    await expect.poll(async () => Math.abs((await time()) - want) < 0.5, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => entries.nth(1).getAttribute('aria-current')).toBe('true');
    // The entry shown follows the video: back before the second tap, the first one is marked.
    await entries.nth(0).click();
    await expect.poll(() => entries.nth(0).getAttribute('aria-current')).toBe('true');
    expect(await entries.nth(1).getAttribute('aria-current')).toBeNull();
    expect(await section.getByRole('link', { name: 'Download the video (MP4)' }).getAttribute('href')).toContain('/df/api/files/blobs/');
    await expectAccessible(page, 'session video and its timeline');
  });

  it('records the session again: the replay offers both recordings, the latest shown, and the chosen one plays beside its own timeline', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording' }).waitFor();
    const b = await buttonBounds();
    const tapped = await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: admin.token, body: { action: 'tap', x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) } });
    expect(tapped.status).toBe(200);
    await expect.poll(controlTaps, { timeout: 60_000 }).toBe(3);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.getByRole('button', { name: 'Start recording' }).waitFor();

    const videos = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/videos`, { token: admin.token })).body.videos as { recordingId: string }[];
    expect(videos).toHaveLength(2);
    const section = page.getByRole('region', { name: 'Video' });
    const chooser = section.getByRole('combobox', { name: 'Recording' });
    await chooser.waitFor();
    expect(await chooser.locator('option').allTextContents()).toEqual([expect.stringMatching(/^Recording 1 — .+, \d+ s$/), expect.stringMatching(/^Recording 2 — .+, \d+ s$/)]);
    const video = section.locator('video');
    const source = async () => decodeURIComponent((await video.getAttribute('src')) ?? '');
    const entries = section.getByRole('list', { name: 'Timeline of the video' }).getByRole('button', { name: /Tap$/ });
    // The latest is shown by default, beside its one tap.
    expect(await chooser.inputValue()).toBe(videos[1]!.recordingId);
    await expect.poll(source).toContain(`/videos/${videos[1]!.recordingId}/`);
    await expect.poll(() => entries.count()).toBe(1);
    await expectAccessible(page, 'session replay of a session recorded twice');

    // The first one, chosen, plays beside its own timeline: its two taps, placed from its start.
    await chooser.selectOption(videos[0]!.recordingId);
    await expect.poll(source).toContain(`/videos/${videos[0]!.recordingId}/`);
    await expect.poll(() => entries.count()).toBe(2);
    const replay = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/replay`, { token: admin.token })).body as {
      recordings: { recordingId: string; startedAt: string }[];
      activities: { kind: string; at: string; detail: { action?: string } }[];
    };
    const startedAt = Date.parse(replay.recordings.find((r) => r.recordingId === videos[0]!.recordingId)!.startedAt);
    const taps = replay.activities.filter((a) => a.kind === 'control' && a.detail.action === 'tap');
    await expect.poll(() => video.evaluate((v) => (v as unknown as { readyState: number }).readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await entries.nth(1).click();
    const want = (Date.parse(taps[1]!.at) - startedAt) / 1000;
    await expect.poll(async () => Math.abs((await video.evaluate((v) => (v as unknown as { currentTime: number }).currentTime)) - want) < 0.5, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => entries.nth(1).getAttribute('aria-current')).toBe('true');
    await expectAccessible(page, 'the first recording of the session chosen');
  });

  it('inspects the page: hovering shows an element, the tree is keyboard navigable, clicks do not tap', async () => {
    const { page } = owner;
    const before = await controlTaps();
    const toggle = page.getByRole('button', { name: 'Inspect' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const panel = page.getByRole('region', { name: 'Inspector' });
    const tree = panel.getByRole('tree', { name: 'UI tree' });
    await tree.getByRole('treeitem', { name: /#go$/ }).waitFor();

    const b = await buttonBounds();
    const at = await screenPoint(page, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    await page.mouse.move(at.x, at.y);
    const details = panel.getByRole('definition');
    await expect.poll(() => panel.getByLabel('Element details').textContent()).toContain('#go');
    const text = await panel.getByLabel('Element details').textContent();
    expect(text).toContain('button');
    expect(text).toContain(`Pressed ${before}`);
    expect(text).toContain(`${b.x}, ${b.y} · ${b.width} × ${b.height}`);
    expect(await details.nth(3).textContent()).toBe('go');
    expect(await page.locator('.inspect-outline').count()).toBe(1);
    await expectAccessible(page, 'session page inspecting');

    // A click selects the element instead of tapping the device.
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => tree.getByRole('treeitem', { name: /#go$/ }).getAttribute('aria-selected')).toBe('true');

    // Keyboard: Up from the button is the heading before it; Left is the parent (the body).
    await page.mouse.move(0, 0);
    await tree.getByRole('treeitem', { name: /#go$/ }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => tree.getByRole('treeitem', { name: /#title$/ }).getAttribute('aria-selected')).toBe('true');
    expect(await details.nth(3).textContent()).toBe('title');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tree.getByRole('treeitem', { selected: true }).getAttribute('aria-level')).toBe('1');
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await tree.getByRole('treeitem', { name: /#go$/ }).waitFor();

    // Inspect off: the canvas taps again. The viewer sends inputs in order, so had the inspecting
    // click tapped, it would be counted before this one.
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await panel.count()).toBe(0);
    await page.mouse.click(at.x, at.y);
    await expect.poll(controlTaps, { timeout: 60_000 }).toBeGreaterThan(before);
    expect(await controlTaps()).toBe(before + 1);
  });
});
