import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyEvidence } from '#shared/audit/session-evidence.js';
import { eventually } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The session page on a phone: the in-process host's emulated Pixel 7 (a browser device showing a
 * page of our own, a data: address), and Debian's Chromium driving the console in a 1280×800 window.
 * The phone's screen is drawn at a readable size; a typed word is one activity entry; the replay's
 * marks say what happened; an accessibility audit starts from the page, shows its progress and links
 * to its report; ending the session asks inline and the header says it ended; the ended session's
 * signed evidence is offered and downloads as a document that verifies.
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let owner: { context: BrowserContext; page: Page };
let sessionId = '';
const dialogs: string[] = [];

// A field to type into and a button whose presses change the page (so the device sends new frames).
// The field has no label and the button's text is faint: the audit has something to find.
const PAGE = `<!doctype html><title>Phone page</title><meta name="viewport" content="width=device-width"><body style="margin:0;font:20px sans-serif"><input id="field" autofocus style="margin:20px;width:300px;font-size:24px"><button id="go" style="margin:20px;width:300px;height:120px;color:#ccc;background:#fff" onclick="n++;this.textContent='Pressed '+n;document.body.style.background=n%2?'#cde':'#edc'">Press me</button><script>var n=0</script></body>`;

interface Activity {
  id: string;
  kind: string;
  at: string;
  detail: Record<string, unknown>;
}
const activities = async () => (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/activities?size=200`, { token: admin.token })).body.content as Activity[];
const typed = async () => (await activities()).filter((a) => a.detail.action === 'text');

beforeAll(async () => {
  // A host that cannot encode videos: its recordings keep the screen's frames, which the replay's frame
  // player shows (a host with ffmpeg records a video instead: df-video and console-inspect).
  server = await startTestServer({ AGENT_VIDEO_ENABLED: 'false' });
  // The first company to sign up gets the in-process host's devices: a desktop and a Pixel 7.
  admin = await signUpCompany(server.url, 'console-session-page');
  browser = await launchBrowser();
  const phone = await eventually(
    async () => {
      const d = await http(server.url, 'GET', '/df/api/devices?size=10', { token: admin.token });
      return (d.body.content as { id: string; status: string; type: string }[]).find((x) => x.type === 'phone' && x.status === 'available')?.id;
    },
    { timeoutMs: 60_000, what: 'the available phone' },
  );
  const started = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId: phone } });
  expect(started.status).toBe(201);
  sessionId = started.body.id;
  const opened = await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: admin.token, body: { action: 'openUrl', url: `data:text/html,${encodeURIComponent(PAGE)}` } });
  expect(opened.status).toBe(200);
  owner = await signedIn(browser, server.url, admin.email, admin.password);
  // Nothing on this page may ask through the browser's own dialogs.
  owner.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await owner.page.goto(`${server.url}/sessions/${sessionId}`);
  await owner.page.getByRole('toolbar', { name: 'Device controls' }).waitFor();
  await owner.page.waitForFunction("Number(document.querySelector('canvas.screen')?.dataset.frames) > 0", undefined, { timeout: 30_000 });
}, 180_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
  expect(dialogs.splice(0)).toEqual([]);
});

afterAll(async () => {
  if (sessionId) await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token: admin.token });
  await browser?.close();
  await server?.stop();
});

/** The canvas's drawn size, and its pixels' size. */
const canvasSize = (page: Page) =>
  page.getByRole('img', { name: /Device screen/ }).evaluate((c) => {
    const el = c as unknown as { width: number; height: number; getBoundingClientRect(): { width: number; height: number } };
    const r = el.getBoundingClientRect();
    return { cssWidth: r.width, cssHeight: r.height, width: el.width, height: el.height };
  });

describe('the session page', { timeout: 240_000 }, () => {
  it("paints the first frame at once even when it came before the session's record (a still screen sends no second one)", async () => {
    // A still page: after its first frame the screen sends nothing new.
    const still = `<!doctype html><title>Still</title><body style="margin:0;background:#3a6">still</body>`;
    expect((await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: admin.token, body: { action: 'openUrl', url: `data:text/html,${encodeURIComponent(still)}` } })).status).toBe(200);
    const viewer = await signedIn(browser, server.url, admin.email, admin.password);
    try {
      const { page } = viewer;
      await page.addInitScript(`(() => {
        window.__framesIn = 0;
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) { super(...args); this.addEventListener('message', (e) => { if (typeof e.data !== 'string') window.__framesIn++; }); }
        };
      })()`);
      // The session's record is held back until the page's socket has brought a frame.
      let framesAtRelease = -1;
      await page.route(`**/df/api/sessions/${sessionId}`, async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        await page.waitForFunction('window.__framesIn > 0', undefined, { timeout: 30_000 });
        framesAtRelease = (await page.evaluate('window.__framesIn')) as number;
        await route.continue();
      });
      await page.goto(`${server.url}/sessions/${sessionId}`);
      await page.waitForFunction("Number(document.querySelector('canvas.screen')?.dataset.frames) > 0", undefined, { timeout: 30_000 });
      expect(framesAtRelease).toBeGreaterThan(0);
      // The canvas shows the frame that waited for it; no newer frame had to come.
      expect(await page.evaluate('window.__framesIn')).toBe(framesAtRelease);
      expect(await page.evaluate("performance.getEntriesByName('df:first-paint').length")).toBe(1);
    } finally {
      await viewer.context.close();
      await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: admin.token, body: { action: 'openUrl', url: `data:text/html,${encodeURIComponent(PAGE)}` } });
    }
  });

  it("draws a phone's screen at a readable height, in its own proportions", async () => {
    const { page } = owner;
    const size = await canvasSize(page);
    expect(size.height).toBeGreaterThan(size.width);
    expect(size.cssHeight).toBeGreaterThanOrEqual(500);
    // The box is the frame's shape: nothing is stretched, and no empty bands sit beside the frame.
    expect(Math.abs(size.cssWidth / size.cssHeight - size.width / size.height)).toBeLessThan(0.02);
    // It fits the window: the whole screen is visible without scrolling the page.
    const box = (await page.getByRole('img', { name: /Device screen/ }).boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    await expectAccessible(page, 'session page of a phone');
    // A lower window (a laptop's 720 px): still readable (the page scrolls a little to show it all).
    await page.setViewportSize({ width: 1280, height: 720 });
    await expect.poll(async () => (await canvasSize(page)).cssHeight).toBeGreaterThanOrEqual(500);
    expect((await canvasSize(page)).cssHeight).toBeLessThan(720);
    // A taller window: the screen grows with it, up to the window's bottom less the typing bar.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await expect.poll(async () => (await canvasSize(page)).cssHeight).toBeGreaterThan(size.cssHeight + 150);
    const tall = (await page.getByRole('img', { name: /Device screen/ }).boundingBox())!;
    expect(tall.y + tall.height).toBeLessThanOrEqual(1000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await canvasSize(page)).cssHeight).toBe(size.cssHeight);
  });

  it('shows a word typed on the screen as one activity entry, with its length and not its text', async () => {
    const { page } = owner;
    const before = await typed();
    const canvas = page.getByRole('img', { name: /Device screen/ });
    await canvas.focus();
    await page.keyboard.type('hello');
    await expect.poll(async () => (await typed()).length, { timeout: 30_000 }).toBe(before.length + 1);
    await expect.poll(async () => (await typed()).at(-1)!.detail.characters, { timeout: 30_000 }).toBe(5);
    const entry = (await typed()).at(-1)!;
    expect(entry.detail).toMatchObject({ text: '[5 characters]', inputs: 5, via: 'viewer' });
    expect(JSON.stringify(entry)).not.toContain('hello');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const pane = page.getByRole('tabpanel');
    await expect.poll(() => pane.getByText('Text typed (5 characters)').count(), { timeout: 15_000 }).toBe(1);
    expect(await pane.textContent()).not.toContain('hello');
    await expectAccessible(page, 'session activity');
  });

  it('names every replay mark by what happened and when, with a tooltip on hover and focus', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording' }).waitFor();
    const tree = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/ui-tree`, { token: admin.token });
    const go = (tree.body.root.children as { id?: string; bounds: { x: number; y: number; width: number; height: number } }[]).find((n) => n.id === 'go')!;
    const taps = async () => (await activities()).filter((a) => a.detail.action === 'tap').length;
    const tapsBefore = await taps();
    const canvas = page.getByRole('img', { name: /Device screen/ });
    const box = (await canvas.boundingBox())!;
    const size = await canvasSize(page);
    const screen = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: admin.token })).body.screen as { width: number; height: number };
    await page.mouse.click(box.x + ((go.bounds.x + go.bounds.width / 2) / screen.width) * size.cssWidth, box.y + ((go.bounds.y + go.bounds.height / 2) / screen.height) * size.cssHeight);
    await expect.poll(taps, { timeout: 60_000 }).toBe(tapsBefore + 1);
    await canvas.focus();
    await page.keyboard.type('abc');
    const tapAt = (await activities()).filter((a) => a.detail.action === 'tap').at(-1)!.at;
    const sinceTap = async () => (await typed()).filter((a) => a.at >= tapAt).map((a) => a.detail.characters);
    await expect.poll(sinceTap, { timeout: 30_000 }).toEqual([3]);
    await expect.poll(async () => (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/recording/status`, { token: admin.token })).body.frames, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.getByRole('button', { name: 'Start recording' }).waitFor();

    await page.getByRole('tab', { name: 'Replay' }).click();
    const marks = page.getByRole('region', { name: 'Replay' }).getByRole('group', { name: 'Activities on the timeline' }).getByRole('button');
    await marks.filter({ has: page.getByText(/^Tap at \d/) }).first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Tap at \d/ }).first().waitFor();
    const text = page.getByRole('button', { name: /^Text typed \(3 characters\) at \d/ });
    await text.waitFor();
    // Every mark has a name that says what happened, never the bare kind.
    const names = await marks.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-label') ?? ''));
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const n of names) expect(n).toMatch(/^[A-Z].* at \d/);
    // The tooltip shows on hover and on keyboard focus, with the same words.
    const tip = text.locator('.replay-tip');
    expect(await tip.isVisible()).toBe(false);
    await text.hover();
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toBe(await text.getAttribute('aria-label'));
    await page.mouse.move(0, 0);
    await text.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => tip.isVisible()).toBe(true);
    await expectAccessible(page, 'session replay marks');
  });

  it('runs an accessibility audit of the screen, shows its progress, and links to its report', async () => {
    const { page } = owner;
    const before = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/accessibility/audits`, { token: admin.token })).body as unknown[];
    await page.getByRole('button', { name: 'Run accessibility audit' }).click();
    const region = page.getByRole('region', { name: 'Accessibility audit' });
    // While it runs: the button waits, a progress bar and a status say so.
    await region.getByRole('status').waitFor();
    await expect.poll(() => region.getByRole('status').textContent(), { timeout: 90_000 }).toContain('Accessibility audit complete');
    expect(await region.getByRole('status').textContent()).toMatch(/1 scan · \d+ findings/);
    expect(await region.getByRole('progressbar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Run accessibility audit' }).isEnabled()).toBe(true);
    const audits = (await http(server.url, 'GET', `/df/api/sessions/${sessionId}/accessibility/audits`, { token: admin.token })).body as { id: string; status: string; scanCount: number; name: string }[];
    expect(audits).toHaveLength(before.length + 1);
    const audit = audits.find((a) => !(before as { id: string }[]).some((b) => b.id === a.id))!;
    expect(audit).toMatchObject({ status: 'completed', scanCount: 1 });
    await expectAccessible(page, 'session page after an audit');

    await region.getByRole('link', { name: 'Open the accessibility report' }).click();
    await page.waitForURL((u) => u.pathname === `/accessibility/${audit.id}`);
    await page.getByRole('heading', { name: audit.name, level: 1 }).waitFor();
    // The unlabelled field is among the findings.
    await page.getByRole('table', { name: 'Findings' }).getByText('#field').first().waitFor();
    await page.goBack();
    await page.getByRole('toolbar', { name: 'Device controls' }).waitFor();
  });

  it('shows the audit’s progress while the scan runs', async () => {
    const { page } = owner;
    // The scan is one request to the device: hold its answer, so the page is seen mid-run.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/accessibility/audits/*/scans', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Run accessibility audit' }).click();
    const region = page.getByRole('region', { name: 'Accessibility audit' });
    await expect.poll(() => region.getByRole('status').textContent()).toContain('Scanning the screen');
    expect(await region.getByRole('progressbar', { name: 'Accessibility audit in progress' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Run accessibility audit' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'session page during an audit');
    release();
    await expect.poll(() => region.getByRole('status').textContent(), { timeout: 90_000 }).toContain('Accessibility audit complete');
    await page.unroute('**/accessibility/audits/*/scans');
  });

  it('ends the session after an inline confirmation; the header then says ended', async () => {
    const { page } = owner;
    const header = page.locator('.title-row');
    expect(await header.textContent()).toContain('in control');
    // An open session has no evidence yet (the API answers 409 SESSION_OPEN): nothing offers it.
    expect(await page.getByRole('button', { name: 'Download evidence' }).count()).toBe(0);
    await page.getByRole('button', { name: 'End session' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm ending the session' });
    await confirm.waitFor();
    // The safe answer has the focus; keeping it changes nothing.
    await expect.poll(() => confirm.getByRole('button', { name: 'Keep it' }).evaluate((b) => b === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    await expectAccessible(page, 'ending a session, asked');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect(await confirm.count()).toBe(0);
    expect((await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: admin.token })).body.status).toBe('active');

    await page.getByRole('button', { name: 'End session' }).click();
    // A double click on the yes ends the session with one request: the button is held while it runs.
    const ends: string[] = [];
    const countEnds = (request: { method(): string; url(): string }) => {
      if (request.method() === 'DELETE' && new URL(request.url()).pathname === `/df/api/sessions/${sessionId}`) ends.push(request.url());
    };
    page.on('request', countEnds);
    await page.getByRole('group', { name: 'Confirm ending the session' }).getByRole('button', { name: 'Yes, end the session' }).dblclick();
    await expect.poll(() => header.textContent(), { timeout: 30_000 }).toContain('ended');
    page.off('request', countEnds);
    expect(ends).toHaveLength(1);
    expect(await header.textContent()).not.toContain('in control');
    expect((await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: admin.token })).body.status).toBe('ended');
    expect(await page.getByRole('toolbar', { name: 'Device controls' }).count()).toBe(0);
    await expectAccessible(page, 'an ended session');
  });

  it("offers the ended session's signed evidence to download, which verifies offline", async () => {
    const { page } = owner;
    const button = page.getByRole('button', { name: 'Download evidence' });
    await button.waitFor();
    await expectAccessible(page, 'an ended session with its evidence offered');
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(file.suggestedFilename()).toBe(`session-evidence-${sessionId}.json`);
    const evidence = JSON.parse(readFileSync((await file.path())!, 'utf8')) as { manifest: { sessionId: string } };
    expect(evidence.manifest.sessionId).toBe(sessionId);
    expect(await verifyEvidence(evidence)).toMatchObject({ ok: true, sessionId });
  });

  it('shows the test outcome a runner set, and opens the replay from the link runners print', async () => {
    const { page } = owner;
    const set = await http(server.url, 'PUT', `/df/api/sessions/${sessionId}/outcome`, { token: admin.token, body: { outcome: 'failed', reason: 'Checkout › pays: expected 2 items, got 1' } });
    expect(set.status).toBe(200);
    await page.goto(`${server.url}/sessions/${sessionId}?pane=replay`);
    const header = page.locator('.title-row');
    await header.getByText("Test failed", { exact: true }).waitFor();
    expect(await header.textContent()).toContain('Checkout › pays: expected 2 items, got 1');
    expect(await page.getByRole('tab', { name: 'Replay' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('region', { name: 'Replay' }).waitFor();
    await expectAccessible(page, 'a failed test session, replay open');
  });
});
