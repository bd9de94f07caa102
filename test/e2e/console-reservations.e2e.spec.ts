import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from './console-browser.js';

/**
 * A device's week of bookings, end to end, for a person in Tokyo (UTC+9 all year, so the test does
 * not depend on the machine's zone): a booking shows at its Tokyo hours, and a free hour chosen with
 * the keyboard and then the mouse books the device at that Tokyo time.
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let context: BrowserContext;
let page: Page;
let deviceId = '';
const TOKYO = 9 * 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUpCompany(server.url, 'console-reservations');
  deviceId = await availableDevice(server.url, admin.token);
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password, { timezoneId: 'Asia/Tokyo', locale: 'en-GB' }));
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Tokyo's calendar day `days` from today, as [year, month, date, weekday Monday=0]. */
function tokyoDay(days: number): [number, number, number, number] {
  const d = new Date(Date.now() + TOKYO + days * 86_400_000);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), (d.getUTCDay() + 6) % 7];
}
/** The instant of a Tokyo wall-clock hour. */
const tokyoInstant = ([y, m, d]: [number, number, number, number], hour: number) => new Date(Date.UTC(y, m, d, hour) - TOKYO);
/** Whether Tokyo's day `days` from today falls in next week (the calendar opens on this week). */
const nextWeek = (days: number) => tokyoDay(0)[3] + days > 6;

describe('the week calendar of a device', { timeout: 120_000 }, () => {
  it('shows a booking at its hours in the person’s zone and books a free hour', async () => {
    const tomorrow = tokyoDay(1);
    const booked = await http(server.url, 'POST', '/df/api/reservations', {
      token: admin.token,
      body: { deviceId, startAt: tokyoInstant(tomorrow, 10).toISOString(), endAt: tokyoInstant(tomorrow, 12).toISOString(), note: 'release check' },
    });
    expect(booked.status).toBe(201);

    await page.goto(`${server.url}/reservations?deviceId=${deviceId}`);
    const week = page.getByRole('region', { name: /^Week of / });
    await week.waitFor();
    if (nextWeek(1)) await week.getByRole('button', { name: 'Next week' }).click();
    const block = week.getByRole('note', { name: /release check/ });
    await block.waitFor();
    // 10:00 to 12:00 in Tokyo: 10 hours of 28 px down its day, two hours tall.
    expect(await block.evaluate((el) => [(el as unknown as { style: { top: string; height: string } }).style.top, (el as unknown as { style: { height: string } }).style.height])).toEqual(['280px', '56px']);
    expect(await block.textContent()).toContain('10:00');
    expect(await block.textContent()).toContain('12:00');
    // The booked hours offer no slot.
    expect(await week.locator(`[data-slot="${tomorrow[3]}-10"], [data-slot="${tomorrow[3]}-11"]`).count()).toBe(0);
    await expectAccessible(page, 'the week calendar');

    // The free hours are one tab stop; the arrow keys move between them. (In the week after next,
    // where every hour is free and in the future, so the moves do not depend on the time of day.)
    await week.getByRole('button', { name: 'This week' }).click();
    await week.getByRole('button', { name: 'Next week' }).click();
    await week.getByRole('button', { name: 'Next week' }).click();
    const stop = week.locator('.cal-slot[tabindex="0"]');
    await expect.poll(() => stop.getAttribute('data-slot')).toBe('0-0');
    expect(await week.locator('.cal-slot').count()).toBe(7 * 24);
    await stop.focus();
    const focused = () => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute('data-slot'));
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('0-1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe('1-1');
    await expect.poll(() => week.locator('.cal-slot[tabindex="0"]').getAttribute('data-slot')).toBe('1-1');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Book this hour' }).getByRole('button', { name: 'Cancel' }).click();
    await week.getByRole('button', { name: 'This week' }).click();

    // Two days on (possibly next week), 15:00 Tokyo: chosen, booked, and stored as that instant.
    const later = tokyoDay(2);
    if (nextWeek(2)) await week.getByRole('button', { name: 'Next week' }).click();
    await week.locator(`[data-slot="${later[3]}-15"]`).click();
    const form = page.getByRole('form', { name: 'Book this hour' });
    expect(await form.textContent()).toContain('15:00');
    await form.getByLabel('For').selectOption('120');
    await form.getByLabel('Note').fill('from the calendar');
    await expectAccessible(page, 'the week calendar, booking an hour');
    await form.getByRole('button', { name: 'Book it' }).click();
    await week.getByRole('note', { name: /from the calendar/ }).waitFor();
    const mine = await http(server.url, 'GET', `/df/api/reservations?deviceId=${deviceId}&status=scheduled`, { token: admin.token });
    const made = (mine.body.content as { startAt: string; endAt: string; note: string }[]).find((r) => r.note === 'from the calendar');
    expect(made && new Date(made.startAt).toISOString()).toBe(tokyoInstant(later, 15).toISOString());
    expect(made && new Date(made.endAt).toISOString()).toBe(tokyoInstant(later, 17).toISOString());
  });
});
