import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn, startSessionByTap } from '#test/helpers/console-browser.js';

/**
 * The console on a tablet: a touch screen at 820×1180 (portrait) and 1180×820 (landscape). Every main
 * page fits the width (nothing makes the page scroll sideways; a wide table scrolls inside its own
 * box), the main navigation is on screen, axe passes, and on the session page a finger's tap on the
 * live screen reaches the device.
 */
let server: TestServer;
let site: TestSite;
let browser: Browser;
let admin: SignedUpCompany;

beforeAll(async () => {
  server = await startTestServer();
  site = await startTestSite();
  admin = await signUpCompany(server.url, 'console-tablet');
  browser = await launchBrowser();
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

// What the functions passed to page.evaluate see in the browser (the project's types have no DOM).
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(s: string): ArrayLike<unknown>;
};

const PAGES = ['/devices', '/reservations', '/files', '/accessibility', '/reports', '/hosts', '/org/users', '/org/roles', '/org/teams', '/org/workspaces', '/org/audit', '/api-keys', '/profile'];

/**
 * What sticks out on the right of the viewport: the page's own sideways scroll, and the outermost
 * elements past the right edge (each named by its tag, class and first words), leaving out what sits
 * in a box that scrolls sideways on purpose (a wide table, the calendar, a log).
 */
async function overflow(page: Page): Promise<{ scroll: number; width: number; outside: string[] }> {
  return page.evaluate(() => {
    interface El {
      tagName: string;
      className: string;
      textContent: string | null;
      parentElement: El | null;
      getBoundingClientRect(): { right: number; width: number };
      closest(s: string): unknown;
    }
    const width = document.documentElement.clientWidth;
    const past = (el: El | null) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > width + 1;
    };
    const outside = (Array.from(document.querySelectorAll('body *')) as unknown as El[])
      .filter((el) => past(el) && !past(el.parentElement) && !el.closest('.table-wrap, .calendar, .logs'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    return { scroll: document.documentElement.scrollWidth, width, outside };
  });
}

describe('the console on a tablet', { timeout: 240_000 }, () => {
  for (const viewport of [
    { width: 820, height: 1180, name: 'portrait' },
    { width: 1180, height: 820, name: 'landscape' },
  ]) {
    it(`fits every main page to the width in ${viewport.name} (${viewport.width}×${viewport.height}), with the navigation on screen`, async () => {
      const { context, page } = await signedIn(browser, server.url, admin.email, admin.password, { viewport: { width: viewport.width, height: viewport.height }, hasTouch: true });
      try {
        for (const path of PAGES) {
          await page.goto(`${server.url}${path}`);
          await page.locator('main h1').first().waitFor();
          // Lists have arrived (or said they are empty) before measuring.
          await expect.poll(() => page.locator('main').getByText('Loading…').count(), { timeout: 30_000 }).toBe(0);
          const o = await overflow(page);
          expect(o.outside, `${path}: elements past the right edge`).toEqual([]);
          expect(o.scroll, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(o.width);
          const nav = page.getByRole('navigation', { name: 'Main' });
          for (const link of await nav.getByRole('link').all()) {
            const box = (await link.boundingBox())!;
            expect(box.x + box.width, `${path}: the link ${await link.textContent()} is off screen`).toBeLessThanOrEqual(viewport.width);
          }
          // A table scrolled inside its box must be reachable by keyboard too (axe checks it).
          await expectAccessible(page, `${viewport.name} tablet, ${path}`);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('takes a finger tap on the live screen in portrait and sends it to the device', async () => {
    const { context, page } = await signedIn(browser, server.url, admin.email, admin.password, { viewport: { width: 820, height: 1180 }, hasTouch: true });
    try {
      const canvas = await startSessionByTap(page, server.url, admin.token);
      await page.getByLabel('Open an address').fill(site.url);
      await page.getByRole('button', { name: 'Open', exact: true }).tap();
      await site.waitForEvent((e) => e.kind === 'storage');
      // The screen fits the tablet's width, and the controls are under it, reachable.
      const box = (await canvas.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(820);
      expect((await overflow(page)).scroll).toBeLessThanOrEqual(820);
      await expectAccessible(page, 'portrait tablet, session');

      // "Tap me" fills the top 200 CSS pixels of the device's page.
      const session = await http(server.url, 'GET', `/df/api/sessions/${new URL(page.url()).pathname.split('/').pop()}`, { token: admin.token });
      const cssHeight = session.body.screen.height / session.body.screen.scale;
      await page.touchscreen.tap(box.x + box.width / 2, box.y + (100 / cssHeight) * box.height);
      const tap = await site.waitForEvent((e) => e.kind === 'tap');
      expect(tap.detail).toMatch(/^\d+,\d+$/);
    } finally {
      await context.close();
    }
  });
});
