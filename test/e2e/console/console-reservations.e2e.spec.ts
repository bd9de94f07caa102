import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { eventually } from '#test/helpers/df-farm.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * A device's week of bookings, end to end, for a person in Tokyo (UTC+9 all year, so the test does
 * not depend on the machine's zone): a booking shows at its Tokyo hours, and a free hour chosen with
 * the keyboard and then the mouse books the device at that Tokyo time. Then the booking form for a
 * person in New York: a refusal names the booking in the way at New York times, the past is not
 * offered, and a booking made is confirmed at its New York time.
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

/** Wall-clock facts of an instant in a zone (Node's own ICU, independent of the machine's zone). */
function wallClock(instant: Date, timeZone: string): { input: string; clock: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { input: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`, clock: `${parts.hour}:${parts.minute}` };
}

describe('the booking form for a person in New York', { timeout: 120_000 }, () => {
  it('names the booking in the way in New York time, does not offer the past, and confirms a booking', async () => {
    const ZONE = 'America/New_York';
    const ny = await signedIn(browser, server.url, admin.email, admin.password, { timezoneId: ZONE, locale: 'en-GB' });
    try {
      const p = ny.page;
      const adminName = (await http(server.url, 'GET', '/api/v1/users/me', { token: admin.token })).body.name as string;
      const deviceName = await eventually(async () => {
        const d = await http(server.url, 'GET', `/df/api/devices/${deviceId}`, { token: admin.token });
        return (d.body.alias ?? d.body.name) as string;
      });
      // A booking three days on at 15:00 to 17:00 UTC (10:00 or 11:00 in New York, never 15:00).
      const day = new Date(Date.now() + 3 * 86_400_000);
      const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 15));
      const end = new Date(start.getTime() + 2 * 3_600_000);
      const theirs = await http(server.url, 'POST', '/df/api/reservations', { token: admin.token, body: { deviceId, startAt: start.toISOString(), endAt: end.toISOString(), note: 'in the way' } });
      expect(theirs.status).toBe(201);
      const posts: string[] = [];
      p.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/df/api/reservations') posts.push(r.url());
      });

      await p.goto(`${server.url}/reservations?deviceId=${deviceId}`);
      const form = p.getByRole('form', { name: 'Book a device' });
      const startField = form.getByLabel(/^Starts/);
      await startField.waitFor();
      expect(await form.textContent()).toContain(ZONE);
      // The field offers nothing before now (New York's wall clock, to the minute).
      const min = (await startField.getAttribute('min'))!;
      const before = wallClock(new Date(Date.now() - 120_000), ZONE).input;
      const after = wallClock(new Date(Date.now() + 60_000), ZONE).input;
      expect(min >= before && min <= after, `min ${min} is now in New York`).toBe(true);

      // Overlapping the booking: refused, naming it at its New York hours and its holder.
      await startField.fill(wallClock(new Date(start.getTime() + 30 * 60_000), ZONE).input);
      await form.getByRole('button', { name: 'Book' }).click();
      const refusal = form.getByRole('alert');
      await refusal.waitFor();
      const text = (await refusal.textContent())!;
      expect(text).toContain('already booked');
      expect(text).toContain(wallClock(start, ZONE).clock);
      expect(text).toContain(wallClock(end, ZONE).clock);
      expect(text).toContain(`(${ZONE} time)`);
      expect(text).toContain(`by ${adminName}`);
      expect(text).not.toContain('15:00');
      expect(text).not.toContain(start.toISOString());
      await expectAccessible(p, 'the booking form with a refusal');

      // The past: the browser refuses it before anything is sent.
      const sent = posts.length;
      await startField.fill(wallClock(new Date(Date.now() - 2 * 3_600_000), ZONE).input);
      await form.getByRole('button', { name: 'Book' }).click();
      expect(await startField.evaluate((el) => (el as unknown as { validity: { rangeUnderflow: boolean } }).validity.rangeUnderflow)).toBe(true);
      expect(posts.length).toBe(sent);

      // A free time: booked, and confirmed on the page with the device and its New York time.
      const free = new Date(start.getTime() + 24 * 3_600_000);
      await startField.fill(wallClock(free, ZONE).input);
      await form.getByLabel('For').selectOption('60');
      await form.getByRole('button', { name: 'Book' }).click();
      const confirmation = p.getByRole('status').filter({ hasText: /^Booked / });
      await confirmation.waitFor();
      const confirmed = (await confirmation.textContent())!;
      expect(confirmed).toContain(deviceName);
      expect(confirmed).toContain(wallClock(free, ZONE).clock);
      expect(confirmed).toContain(wallClock(new Date(free.getTime() + 3_600_000), ZONE).clock);
      expect(confirmed).toContain(`(${ZONE} time)`);
      expect(posts.length).toBe(sent + 1);
      await expectAccessible(p, 'the booking form with a confirmation');
      const mine = await http(server.url, 'GET', `/df/api/reservations?deviceId=${deviceId}&status=scheduled&size=100`, { token: admin.token });
      const made = (mine.body.content as { id: string; startAt: string }[]).find((r) => new Date(r.startAt).getTime() === free.getTime());
      expect(made).toBeTruthy();
      for (const id of [theirs.body.id as string, made!.id]) await http(server.url, 'DELETE', `/df/api/reservations/${id}`, { token: admin.token });
    } finally {
      await ny.context.close();
    }
  });
});

describe('a booking a maintenance of its device falls in', { timeout: 120_000 }, () => {
  it('shows the warning with the maintenance’s end and reason in the booking list, axe-clean, and none once the maintenance ends', async () => {
    const hour = 3_600_000;
    const booked = await http(server.url, 'POST', '/df/api/reservations', {
      token: admin.token,
      body: { deviceId, startAt: new Date(Date.now() + hour).toISOString(), endAt: new Date(Date.now() + 2 * hour).toISOString(), note: 'during the update' },
    });
    expect(booked.status).toBe(201);
    const until = new Date(Date.now() + 3 * hour);
    const started = await http(server.url, 'POST', `/df/api/devices/${deviceId}/maintenance`, { token: admin.token, body: { reason: 'firmware update', until: until.toISOString() } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    try {
      await page.goto(`${server.url}/reservations?deviceId=${deviceId}`);
      const mine = page.getByRole('table', { name: 'My bookings' });
      const row = mine.getByRole('row').filter({ hasText: 'during the update' });
      const warning = row.getByText(/The device is in maintenance until .* \(firmware update\)\. The booking stands/);
      await warning.waitFor();
      // Tokyo's wall clock (the page's zone), not the instant as the API sends it.
      expect(await warning.textContent()).not.toContain(until.toISOString());
      // Only the booking the maintenance falls in is warned.
      expect(await mine.getByRole('row').filter({ hasText: 'release check' }).getByText(/in maintenance/).count()).toBe(0);
      await expectAccessible(page, 'the booking list with a maintenance warning');
    } finally {
      expect((await http(server.url, 'DELETE', `/df/api/devices/${deviceId}/maintenance`, { token: admin.token })).status).toBe(200);
    }
    await page.reload();
    const row = page.getByRole('table', { name: 'My bookings' }).getByRole('row').filter({ hasText: 'during the update' });
    await row.waitFor();
    expect(await row.getByText(/in maintenance/).count()).toBe(0);
    expect((await http(server.url, 'DELETE', `/df/api/reservations/${booked.body.id}`, { token: admin.token })).status).toBe(200);
  });

  it('says so when a booking is made into a maintenance under way: the confirmation and the list warn, axe-clean', async () => {
    const until = new Date(Date.now() + 3 * 3_600_000);
    const started = await http(server.url, 'POST', `/df/api/devices/${deviceId}/maintenance`, { token: admin.token, body: { reason: 'screen replacement', until: until.toISOString() } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    let made: { id: string } | undefined;
    try {
      await page.goto(`${server.url}/reservations?deviceId=${deviceId}`);
      const form = page.getByRole('form', { name: 'Book a device' });
      // The form's own start (the next full hour) for an hour: inside the maintenance.
      await form.getByLabel('Note').fill('booked into the repair');
      await form.getByRole('button', { name: 'Book' }).click();
      const confirmation = page.getByRole('status').filter({ hasText: /^Booked / });
      await confirmation.waitFor();
      expect(await confirmation.textContent()).toMatch(/The device is in maintenance until .*\(Asia\/Tokyo time; screen replacement\): the booking stands/);
      const row = page.getByRole('table', { name: 'My bookings' }).getByRole('row').filter({ hasText: 'booked into the repair' });
      await row.getByText(/The device is in maintenance until .* \(screen replacement\)\. The booking stands/).waitFor();
      await expectAccessible(page, 'a booking made into a maintenance, confirmed with its warning');
      const mine = await http(server.url, 'GET', `/df/api/reservations?deviceId=${deviceId}&status=scheduled&size=100`, { token: admin.token });
      made = (mine.body.content as { id: string; note: string; maintenanceConflict: unknown }[]).find((r) => r.note === 'booked into the repair');
      expect(made).toMatchObject({ maintenanceConflict: { reason: 'screen replacement', until: until.toISOString() } });
    } finally {
      expect((await http(server.url, 'DELETE', `/df/api/devices/${deviceId}/maintenance`, { token: admin.token })).status).toBe(200);
      if (made) expect((await http(server.url, 'DELETE', `/df/api/reservations/${made.id}`, { token: admin.token })).status).toBe(200);
    }
  });
});
