import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn, startSessionByTap } from '#test/helpers/console-browser.js';

/**
 * The console on a phone: a touch screen at 390×844. No page scrolls sideways (a wide table scrolls
 * in its own box), the main navigation sits behind a menu button that a finger and a keyboard open,
 * what a finger presses is at least 44×44 CSS pixels, axe passes, and on the session page the live
 * screen comes first, fits the width, and has its controls under it.
 */
let server: TestServer;
let site: TestSite;
let browser: Browser;
let admin: SignedUpCompany;

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

beforeAll(async () => {
  server = await startTestServer();
  site = await startTestSite();
  admin = await signUpCompany(server.url, 'console-phone');
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

/** Each page, and the page its menu goes to next (any other page of the menu would do). */
const PAGES: [string, string][] = [
  ['/devices', 'Reservations'],
  ['/reservations', 'Devices'],
  ['/org/users', 'Devices'],
  ['/org/roles', 'Reservations'],
  ['/org/teams', 'Devices'],
  ['/org/workspaces', 'Reservations'],
  ['/org/audit', 'Devices'],
];

/** The page's sideways scroll width, and the controls smaller than 44×44 a finger would press. */
async function measure(page: Page): Promise<{ scroll: number; small: string[] }> {
  return page.evaluate(() => {
    interface El {
      tagName: string;
      textContent: string | null;
      getAttribute(n: string): string | null;
      getBoundingClientRect(): { width: number; height: number };
      closest(s: string): unknown;
    }
    const targets = Array.from(
      document.querySelectorAll("button, select, input:not([type='checkbox']):not([type='radio']):not([type='range']):not([type='hidden']), .topbar a, .subnav a"),
    ) as unknown as El[];
    const small = targets
      // The calendar's half-hour slots and the replay's marks are fine-grained by nature; each has a larger way in.
      .filter((el) => !el.closest('.calendar, .replay-marks'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && (r.width < 44 || r.height < 44);
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${el.tagName.toLowerCase()} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`;
      });
    return { scroll: document.documentElement.scrollWidth, small };
  });
}

async function settle(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.locator('main').getByText('Loading…').count(), { timeout: 30_000 }).toBe(0);
}

describe('the console on a phone (390×844, touch)', { timeout: 300_000 }, () => {
  it('fits each page to the width, with 44-pixel targets, passes axe, and its menu reaches another page', async () => {
    const { context, page } = await signedIn(browser, server.url, admin.email, admin.password, PHONE);
    try {
      for (const [path, next] of PAGES) {
        await page.goto(`${server.url}${path}`);
        await settle(page);
        const menu = page.getByRole('button', { name: 'Menu' });
        const nav = page.getByRole('navigation', { name: 'Main' });
        // Closed: the navigation is out of the way and the page fits.
        await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
        expect(await nav.isVisible(), `${path}: the navigation shows while the menu is closed`).toBe(false);
        const closed = await measure(page);
        expect(closed.scroll, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(390);
        expect(closed.small, `${path}: targets under 44×44`).toEqual([]);
        await expectAccessible(page, `phone, ${path}`);

        // Open: the links are on screen, large enough, and one of them goes elsewhere.
        await menu.tap();
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
        await nav.waitFor();
        const open = await measure(page);
        expect(open.scroll, `${path}: the open menu scrolls sideways`).toBeLessThanOrEqual(390);
        expect(open.small, `${path}: targets under 44×44 in the open menu`).toEqual([]);
        await expectAccessible(page, `phone, ${path}, menu open`);
        const before = new URL(page.url()).pathname;
        await nav.getByRole('link', { name: next, exact: true }).tap();
        await page.waitForURL((u) => u.pathname !== before && u.pathname.startsWith(`/${next.toLowerCase()}`));
        await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
        expect(await nav.isVisible()).toBe(false);
      }
    } finally {
      await context.close();
    }
  });

  it('opens and closes the menu from the keyboard', async () => {
    const { context, page } = await signedIn(browser, server.url, admin.email, admin.password, PHONE);
    try {
      await settle(page);
      const menu = page.getByRole('button', { name: 'Menu' });
      await menu.focus();
      await page.keyboard.press('Enter');
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      // The navigation follows the button in the tab order.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document as unknown as { activeElement: { textContent: string } }).activeElement.textContent)).toBe('Devices');
      await page.keyboard.press('Escape');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await menu.evaluate((b) => b === (document as unknown as { activeElement: unknown }).activeElement)).toBe(true);
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
      await page.keyboard.press('Space');
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Space');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
    } finally {
      await context.close();
    }
  });

  it('puts the live screen first on the session page, fitting the width, with the controls under it', async () => {
    const { context, page } = await signedIn(browser, server.url, admin.email, admin.password, PHONE);
    try {
      const canvas = await startSessionByTap(page, server.url, admin.token);
      const screen = (await canvas.boundingBox())!;
      expect(screen.x).toBeGreaterThanOrEqual(0);
      expect(screen.x + screen.width).toBeLessThanOrEqual(390);
      expect(screen.height).toBeLessThanOrEqual(844);
      for (const control of [page.getByRole('toolbar', { name: 'Device controls' }), page.getByLabel('Open an address'), page.getByRole('tablist', { name: 'Session panes' })]) {
        const box = (await control.boundingBox())!;
        expect(box.y, 'a control above the screen').toBeGreaterThanOrEqual(screen.y + screen.height);
      }
      const m = await measure(page);
      expect(m.scroll).toBeLessThanOrEqual(390);
      expect(m.small, 'session: targets under 44×44').toEqual([]);
      await expectAccessible(page, 'phone, session');
      // A finger on the screen still reaches the device.
      await page.getByLabel('Open an address').fill(site.url);
      await page.getByRole('button', { name: 'Open', exact: true }).tap();
      await site.waitForEvent((e) => e.kind === 'storage');
    } finally {
      await context.close();
    }
  });
});
