import { test as base, chromium, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import { parseChapters, replayLink, runnerCall, SessionReport, testInVideo, videoBytes, videoChaptersVtt, videoLink, videoTime, videoTrouble, waitForVideo, type TestEvent } from '@qa-platform/client';
import { openSession, platformOf, type Platform, type QaPlatformOptions } from './platform.js';

export { expect } from '@playwright/test';
export { QaPlatformApiError } from '@qa-platform/client';
export type { QaPlatformOptions } from './platform.js';

/**
 * The option the fixture adds to a config's `use`, for a typed config:
 * `defineConfig<QaPlatformTestOptions>({ use: { qaPlatform: { build: '...' } } })`.
 */
export interface QaPlatformTestOptions {
  qaPlatform: QaPlatformOptions;
}

/** The platform session a test runs in. */
export interface QaSession {
  id: string;
  browser: Browser;
  replayLink: string;
}

// Colour codes of Playwright's error messages have no place in the platform's record.
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The test's place: its describe blocks and its title (the file left out). */
const pathOf = (info: TestInfo) => info.titlePath.slice(1);

/** The test's end as the platform records it: its event, and the session's outcome (none for a skipped test). */
function ending(info: TestInfo): { event: TestEvent; outcome: { outcome: 'passed' | 'failed'; reason?: string } | null } {
  const [name, suite] = [info.title, pathOf(info).slice(0, -1).join(' › ') || undefined];
  const base = { name, ...(suite ? { suite } : {}), durationMs: Math.round(info.duration), timestamp: new Date().toISOString() };
  if (info.status === 'skipped') return { event: { type: 'test_skipped', ...base }, outcome: null };
  if (info.status === info.expectedStatus) return { event: { type: 'test_passed', ...base }, outcome: { outcome: 'passed' } };
  const message = plain(info.error?.message ?? `the test ${info.status}`).slice(0, 10_000);
  const stack = info.error?.stack ? plain(info.error.stack).slice(0, 50_000) : undefined;
  return { event: { type: 'test_failed', ...base, error: { message, ...(stack ? { stack } : {}) } }, outcome: { outcome: 'failed', reason: `${name}: ${message}`.slice(0, 2_000) } };
}

/**
 * A failed test's video, once its session ended: waits (at most `videoTimeoutMs`, added to the test's
 * time-out) for the platform to store it, then prints its signed link and where the test starts in it
 * (the session's chapters), downloads it into the test's output and attaches it (`video`, as
 * Playwright's own recordings are) with its link (`video link`). A platform that is slow or refuses is
 * said, never made the test's failure.
 */
async function attachVideo(platform: Platform, id: string, info: TestInfo, name: string): Promise<void> {
  if (info.timeout > 0) info.setTimeout(info.timeout + platform.videoTimeoutMs + 30_000);
  const waited = await waitForVideo(platform, id, { timeoutMs: platform.videoTimeoutMs });
  if (!waited.video) {
    console.log(`[qa-platform] ${name}: no video (${waited.why})`);
    return;
  }
  try {
    const link = await videoLink(platform, id);
    const place = testInVideo(parseChapters(await videoChaptersVtt(platform, id)), info.title);
    const at = place ? `the test starts at ${videoTime(place.startMs)}` : 'the test is not in its chapters';
    console.log(`[qa-platform] ${name} failed; video: ${link.url} (${at}; the link is valid until ${link.expiresAt})`);
    await info.attach('video link', { body: `${link.url}\n${at}; valid until ${link.expiresAt}\n`, contentType: 'text/plain' });
    const path = info.outputPath('qa-platform-video.mp4');
    await writeFile(path, await videoBytes(platform, id));
    await info.attach('video', { path, contentType: 'video/mp4' });
  } catch (err) {
    console.log(`[qa-platform] ${name}: the video could not be fetched (${videoTrouble(err)}); see the replay`);
  }
}

/**
 * Playwright Test's `test`, with `context` and `page` on a QA Platform browser device: each test opens
 * an automation session named after it, drives the device's Chromium over `/df/devtools`, reports its
 * start and end as test events, sets the session's outcome, ends the session, and when it failed prints
 * the link to its replay and to its video, and attaches the video to the test's report.
 */
export const test = base.extend<QaPlatformTestOptions & { qaSession: QaSession }>({
  qaPlatform: [{}, { option: true }],

  qaSession: async ({ qaPlatform }, use, info) => {
    const platform = platformOf(qaPlatform);
    const path = pathOf(info);
    // Waiting for a free device is queueing, not the test: the wait is added to the test's time-out.
    const started = Date.now();
    if (info.timeout > 0) info.setTimeout(info.timeout + platform.deviceTimeoutMs);
    const id = await openSession(platform, path.join(' › '));
    if (info.timeout > 0) info.setTimeout(info.timeout - platform.deviceTimeoutMs + (Date.now() - started));
    // The test's events and outcome are queued and sent in order; trouble reaching the platform is said,
    // never made the test's own failure.
    const report = new SessionReport(platform, id);
    let failed = false;
    try {
      const browser = await chromium.connectOverCDP(new URL(`df/devtools/${id}`, platform.base).toString(), { headers: platform.headers });
      const suite = path.slice(0, -1).join(' › ');
      report.event({ type: 'test_started', name: info.title, ...(suite ? { suite } : {}), timestamp: new Date().toISOString() });
      await use({ id, browser, replayLink: replayLink(platform, id) });
      const { event, outcome } = ending(info);
      report.event(event);
      if (outcome) report.outcome(outcome.outcome, outcome.reason);
      for (const unsent of await report.settled()) console.warn(`[qa-platform] ${unsent}`);
      failed = outcome?.outcome === 'failed';
      if (failed) console.log(`[qa-platform] ${path.join(' › ')} failed; replay: ${replayLink(platform, id)}`);
      await browser.close();
    } finally {
      await runnerCall(platform, 'DELETE', `/df/api/sessions/${id}`);
    }
    // The video is whole once the session ended.
    if (failed) await attachVideo(platform, id, info, path.join(' › '));
  },

  context: async ({ qaSession }, use) => {
    await use(qaSession.browser.contexts()[0] as BrowserContext);
  },

  page: async ({ context }, use) => {
    await use((context.pages()[0] ?? (await context.newPage())) as Page);
  },
});
