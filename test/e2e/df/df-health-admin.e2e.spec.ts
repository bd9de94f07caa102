import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import type { AndroidDevice } from '#agent/android/device.js';
import { startConnectedPeer } from '#test/helpers/adb.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';
import { enrolHost, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signUpCompany } from '#test/helpers/org-api.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startWebhookReceiver } from '#test/helpers/webhook-receiver.js';

/**
 * Device health as an administrator runs it, end to end: the started server, its in-process agent and an
 * adbd test device behind Debian's adb. A device whose sessions fail three in a row (the company's
 * `failedSessionsMax`) is quarantined — the count read from the sessions' read model, so it survives a
 * restart of the server on the same data directory — said by webhook and mail, refused to the next
 * session naming why, and put back by an administrator's release. A maintenance tells the bookings of the
 * device it falls in (webhook, the booking's warning, a mail to its holder), keeps them, and lifts the
 * warning when it ends — also when a quarantine takes its place; so is a booking made or moved into it
 * while it is under way, and moved out its warning is lifted.
 * An administrator re-takes a device's settings baseline — from the API and from the console's device
 * page (Chromium, axe) — and the next session's end puts the new one back at the device, also after the
 * agent restarted (the service gives it back the recorded baseline as the device joins). From the same
 * page an administrator starts and ends a maintenance (a past end refused beside its field) and releases a
 * quarantined device; someone who may not manage devices sees none of it.
 * Every wait is a poll with a deadline.
 */
const ADMIN = { email: 'health-admin-ops@example.com', password: 'health-admin-password-1' };
let dataDir: string;
let env: Record<string, string>;
let server: TestServer;
let android: Awaited<ReturnType<typeof startConnectedPeer>>;
let token: string;
let deviceId: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let workspaceId: number;

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};
type Health = { state: string; reasons: string[] } | null;
const healthOf = async (): Promise<Health> => (await api('GET', `/devices/${deviceId}`)).body.health;
/** A mail's text with its quoted-printable soft breaks and escapes undone. */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** A `datetime-local` value `offsetMs` from now in the browser's own zone (what a person types). */
const browserLocal = (page: Page, offsetMs: number) =>
  page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, offsetMs);

/** Starts the server on the test's data directory (again, after a stop) and signs the administrator in. */
async function start(): Promise<void> {
  server = await startTestServer(env);
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => ((await api('GET', '/devices?platform=android')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, {
    what: 'the android device available',
    timeoutMs: 60_000,
  });
}

/** Opens a session on the device, sets its outcome (before or after its end) and ends it. */
async function session(outcome: 'passed' | 'failed' | null, reason: string | null, when: 'before-end' | 'after-end' = 'before-end'): Promise<void> {
  const opened = await api('POST', '/sessions', { deviceId, name: `health admin ${outcome ?? 'unjudged'}` });
  expectStatus(opened, 201);
  const id = opened.body.id as string;
  const judge = async () => expectStatus(await api('PUT', `/sessions/${id}/outcome`, { outcome, ...(reason ? { reason } : {}) }), 200);
  if (outcome && when === 'before-end') await judge();
  expectStatus(await api('DELETE', `/sessions/${id}`), 200);
  if (outcome && when === 'after-end') await judge();
}

describe('device health: administration', () => {
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startSmtpListener();
    android = await startConnectedPeer({ model: 'Admin Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    dataDir = mkdtempSync(join(tmpdir(), 'health-admin-'));
    env = {
      DATA_DIR: dataDir,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'health-admin-node', heartbeatMs: 500, startAhead: false, appium: { enabled: false }, android: { adbHost: '127.0.0.1', adbPort: android.adb.port, uiautomator2: false }, devices: [] }),
    };
    await start();
    workspaceId = (await http(server.url, 'GET', '/api/v1/workspaces/accessible', { token })).body[0].id as number;
    const hook = await http(server.url, 'POST', `/api/v1/workspaces/${workspaceId}/webhooks`, { token, body: { url: receiver.url, events: ['device.quarantined', 'device.recovered', 'reservation.maintenance_conflict'] } });
    expectStatus(hook, 201);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await android?.stop();
    await receiver?.close();
    await smtp?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a failedSessionsMax out of range or not an integer (400 naming the field), changing nothing; 0 by default', async () => {
    const before = (await api('GET', '/fleet/health-rules')).body;
    expect(before).toEqual({ batteryMinPercent: 15, temperatureMaxC: 45, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true });
    for (const bad of [101, -1, 2.5, '3', null]) {
      const refused = await api('PUT', '/fleet/health-rules', { ...before, failedSessionsMax: bad });
      expectStatus(refused, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(refused.body.details), String(bad)).toContain('failedSessionsMax');
    }
    expect((await api('GET', '/fleet/health-rules')).body).toEqual(before);
    // Another company cannot change this company's rules: its own are separate.
    const other = await signUpCompany(server.url, 'health-admin-other');
    expectStatus(await api('PUT', '/fleet/health-rules', { ...before, failedSessionsMax: 1 }, other.token), 200);
    expect((await api('GET', '/fleet/health-rules')).body).toEqual(before);
    const set = await api('PUT', '/fleet/health-rules', { ...before, failedSessionsMax: 3 });
    expectStatus(set, 200);
    expect(set.body.failedSessionsMax).toBe(3);
  });

  it('quarantines the device after three sessions in a row failed — a passed one starts the count again, a restart forgets nothing — refuses the next session naming why, and an administrator releases it', async () => {
    const mailsBefore = smtp.mails.length;
    await session('failed', 'login button missing');
    await session('passed', null);
    await session('failed', 'cart total wrong');
    // Ended by its user with no verdict: it neither counts nor breaks the run.
    await session(null, null);
    await session('failed', 'checkout timed out');
    expect((await healthOf())?.state ?? 'unread').not.toBe('quarantined');

    // The server stops and starts again on the same data: the two failures since the passed session are still counted.
    const before = deviceId;
    await server.stop();
    await start();
    expect(deviceId).toBe(before);
    // The third, judged only after its end (a runner that learns its result late): the outcome quarantines the device.
    await session('failed', 'payment declined', 'after-end');
    const held = await eventually(async () => {
      const h = await healthOf();
      return h?.state === 'quarantined' ? h : undefined;
    }, { what: 'the device quarantined' });
    expect(held.reasons).toEqual(['3 sessions in a row failed; the last: outcome failed: payment declined']);
    const hook = await receiver.seen('device.quarantined', (d) => d.deviceId === deviceId && d.cause === 'sessions-failed');
    expect(hook.data.reasons).toEqual(held.reasons);
    const mail = await eventually(async () => smtp.mails.slice(mailsBefore).map((m) => mailText(m.raw)).find((t) => t.includes('cause: sessions-failed')), { what: 'the quarantine mail' });
    expect(mail).toContain('Subject: Device quarantined: Admin Phone');
    expect(mail).toContain('- 3 sessions in a row failed; the last: outcome failed: payment declined');
    const refused = await api('POST', '/sessions', { deviceId, name: 'after three failures' });
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('quarantined: 3 sessions in a row failed');
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-health&size=100', { token });
      return ((r.body.content ?? []) as { eventType: string; actorName: string | null; payload: { cause?: string } }[]).find((e) => e.payload?.cause === 'sessions-failed');
    }, { what: 'the quarantine in the audit' });
    expect(audit.actorName).toBe('system:failed-sessions');

    const released = await api('POST', `/devices/${deviceId}/release-quarantine`);
    expectStatus(released, 200);
    expect(released.body.health).toMatchObject({ state: 'healthy', reasons: [] });
    await receiver.seen('device.recovered', (d) => d.deviceId === deviceId && d.from === 'quarantined');
    // The count starts again at the release: one more failed session does not quarantine it.
    await session('failed', 'one more');
    expect((await healthOf())?.state).not.toBe('quarantined');
    expect(smtp.mails.slice(mailsBefore).filter((m) => mailText(m.raw).includes('cause: sessions-failed')).length).toBe(1);
  });

  it('tells the bookings a maintenance falls in — kept, with a warning, heard by webhook, its holder mailed once — not one after it nor another company, and lifts the warning when it ends', async () => {
    const hour = 3_600_000;
    const mailsBefore = smtp.mails.length;
    const bookingMails = (id: string) => smtp.mails.slice(mailsBefore).filter((m) => m.to.includes(ADMIN.email)).map((m) => mailText(m.raw)).filter((t) => t.includes(`your booking ${id} `));
    const book = async (fromHours: number, toHours: number, note: string) => {
      const made = await api('POST', '/reservations', { deviceId, startAt: new Date(Date.now() + fromHours * hour).toISOString(), endAt: new Date(Date.now() + toHours * hour).toISOString(), note });
      expectStatus(made, 201);
      return made.body as { id: string; userId: number; startAt: string; endAt: string };
    };
    const inside = await book(1, 2, 'release check');
    const after = await book(5, 6, 'nightly');
    const until = new Date(Date.now() + 3 * hour).toISOString();
    expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'replace the battery', until }), 200);

    const hook = await receiver.seen('reservation.maintenance_conflict', (d) => d.reservationId === inside.id);
    expect(hook.data).toEqual({ reservationId: inside.id, deviceId, userId: inside.userId, startAt: inside.startAt, endAt: inside.endAt, reason: 'replace the battery', until, workspaceId: expect.any(Number) });
    const told = (await api('GET', `/reservations/${inside.id}`)).body;
    expect(told).toMatchObject({ status: 'scheduled', maintenanceConflict: { reason: 'replace the battery', until } });
    expect((await api('GET', `/reservations/${after.id}`)).body).toMatchObject({ status: 'scheduled', maintenanceConflict: null });
    // Its holder (the administrator booked it) is mailed: the device, the booking's range, why, until when, and where to see it.
    const mail = await eventually(async () => bookingMails(inside.id)[0], { what: 'the mail to the booker' });
    expect(mail).toContain('Subject: Maintenance in your booking of Admin Phone');
    expect(mail).toContain(`is in maintenance until ${until}, which falls in your booking ${inside.id} from ${inside.startAt} to ${inside.endAt}`);
    expect(mail).toContain('Why: replace the battery');
    expect(mail).toContain(`${server.url}/reservations?deviceId=${deviceId}`);
    // The device's booking stream says it once, of the booking inside the maintenance only.
    const stream = await server.process.platform.store.readStream(`device-bookings-${deviceId}`);
    expect(stream.filter((e) => e.type === 'DeviceReservationMaintenanceConflict').map((e) => (e.payload as { reservationId: string }).reservationId)).toEqual([inside.id]);
    expect(receiver.hooks.filter((h) => h.type === 'reservation.maintenance_conflict' && h.data.reservationId === after.id)).toEqual([]);
    // Another company sees neither the booking nor its warning.
    const other = await signUpCompany(server.url, 'health-admin-bookings');
    expectStatus(await api('GET', `/reservations/${inside.id}`, undefined, other.token), 404, 'NOT_FOUND');
    // The same maintenance asked again tells nobody twice.
    expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'replace the battery', until }), 200);
    expect((await server.process.platform.store.readStream(`device-bookings-${deviceId}`)).filter((e) => e.type === 'DeviceReservationMaintenanceConflict')).toHaveLength(1);

    // Ended early: the warning is lifted, the booking stands.
    expectStatus(await api('DELETE', `/devices/${deviceId}/maintenance`), 200);
    expect((await api('GET', `/reservations/${inside.id}`)).body).toMatchObject({ status: 'scheduled', maintenanceConflict: null });
    for (const id of [inside.id, after.id]) expectStatus(await api('DELETE', `/reservations/${id}`), 200);
    // One mail for the one maintenance, though it was asked twice; none for the booking after it.
    expect(bookingMails(inside.id)).toHaveLength(1);
    expect(bookingMails(after.id)).toEqual([]);
  });

  it('tells a booking made or moved into a maintenance under way — kept, with the warning, heard by webhook — lifts it when the booking moves out, and a booking of another company’s device is 404', async () => {
    const hour = 3_600_000;
    const range = (fromHours: number, toHours: number) => ({ startAt: new Date(Date.now() + fromHours * hour).toISOString(), endAt: new Date(Date.now() + toHours * hour).toISOString() });
    const until = new Date(Date.now() + 3 * hour).toISOString();
    const warning = { reason: 'firmware flashing', until };
    expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, warning), 200);
    const conflicts = () => server.process.platform.store.readStream(`device-bookings-${deviceId}`);

    // Made into it: the answer carries the warning, the booking stands, its workspace hears of it.
    const inside = await api('POST', '/reservations', { deviceId, ...range(1, 2), note: 'made inside' });
    expectStatus(inside, 201);
    expect(inside.body).toMatchObject({ status: 'scheduled', maintenanceConflict: warning });
    const heard = await receiver.seen('reservation.maintenance_conflict', (d) => d.reservationId === inside.body.id);
    expect(heard.data).toEqual({ reservationId: inside.body.id, deviceId, userId: inside.body.userId, startAt: inside.body.startAt, endAt: inside.body.endAt, reason: warning.reason, until, workspaceId: expect.any(Number) });
    // Made after it: not told.
    const later = await api('POST', '/reservations', { deviceId, ...range(5, 6), note: 'made after' });
    expectStatus(later, 201);
    expect(later.body.maintenanceConflict).toBeNull();

    // Moved into it: told, in the answer and by webhook.
    const movedIn = await api('PUT', `/reservations/${later.body.id}`, range(2.5, 3.5));
    expectStatus(movedIn, 200);
    expect(movedIn.body).toMatchObject({ status: 'scheduled', maintenanceConflict: warning });
    expect((await receiver.seen('reservation.maintenance_conflict', (d) => d.reservationId === later.body.id)).data).toMatchObject({ startAt: movedIn.body.startAt, endAt: movedIn.body.endAt, reason: warning.reason, until });
    // Moved out of it: the warning lifted, the booking stands; a change of its note alone says nothing again.
    const movedOut = await api('PUT', `/reservations/${inside.body.id}`, range(4, 4.5));
    expectStatus(movedOut, 200);
    expect(movedOut.body).toMatchObject({ status: 'scheduled', maintenanceConflict: null });
    expect((await api('GET', `/reservations/${inside.body.id}`)).body.maintenanceConflict).toBeNull();
    expectStatus(await api('PUT', `/reservations/${later.body.id}`, { note: 'still inside' }), 200);
    const events = (await conflicts()).filter((e) => [inside.body.id, later.body.id].includes((e.payload as { reservationId: string }).reservationId));
    expect(events.filter((e) => e.type.startsWith('DeviceReservationMaintenanceConflict')).map((e) => [e.type, (e.payload as { reservationId: string }).reservationId])).toEqual([
      ['DeviceReservationMaintenanceConflict', inside.body.id],
      ['DeviceReservationMaintenanceConflict', later.body.id],
      ['DeviceReservationMaintenanceConflictCleared', inside.body.id],
    ]);

    // Another company cannot book this device, nor move this company's booking: neither exists for it.
    const other = await signUpCompany(server.url, 'health-admin-booking-other');
    expectStatus(await api('POST', '/reservations', { deviceId, ...range(1, 2), note: 'not ours' }, other.token), 404, 'NOT_FOUND');
    expectStatus(await api('PUT', `/reservations/${later.body.id}`, range(7, 8), other.token), 404, 'NOT_FOUND');
    expect((await api('GET', `/reservations/${later.body.id}`)).body).toMatchObject({ startAt: movedIn.body.startAt, maintenanceConflict: warning });

    // The maintenance's end lifts what is left; the bookings stand.
    expectStatus(await api('DELETE', `/devices/${deviceId}/maintenance`), 200);
    expect((await api('GET', `/reservations/${later.body.id}`)).body).toMatchObject({ status: 'scheduled', maintenanceConflict: null });
    for (const id of [inside.body.id, later.body.id]) expectStatus(await api('DELETE', `/reservations/${id}`), 200);
  });

  it("re-takes the device's baseline on an administrator's word: the next session's end puts the new one back at the device; refused in a session, to another company and where the driver keeps none", async () => {
    const { peer } = android;
    const other = await signUpCompany(server.url, 'health-admin-baseline');
    expectStatus(await api('POST', `/devices/${deviceId}/baseline`, undefined, other.token), 404, 'NOT_FOUND');
    const busy = await api('POST', '/sessions', { deviceId, name: 'holding the device' });
    expectStatus(busy, 201);
    const refused = await api('POST', `/devices/${deviceId}/baseline`);
    expectStatus(refused, 409, 'DEVICE_BUSY');
    expect(refused.body.message).toContain(busy.body.id);
    expectStatus(await api('DELETE', `/sessions/${busy.body.id}`), 200);

    // Set up by hand between sessions (a larger font and another zone for this device), then made its baseline.
    peer.settings.set('system/font_scale', '1.15');
    peer.settings.set('global/time_zone', 'Europe/Berlin');
    const retaken = await api('POST', `/devices/${deviceId}/baseline`);
    expectStatus(retaken, 200);
    expect(retaken.body).toMatchObject({ deviceId, settings: { 'system/font_scale': '1.15', 'global/time_zone': 'Europe/Berlin' } });
    expect((await api('GET', `/devices/${deviceId}/health`)).body.baselineRetakenAt).toBe(retaken.body.at);
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-health&size=100', { token });
      return ((r.body.content ?? []) as { eventType: string; actorName: string | null; payload: { settings?: Record<string, string | null> } }[]).find((e) => e.eventType === 'DeviceBaselineRetaken');
    }, { what: 'the re-take in the audit' });
    expect(audit.payload.settings?.['system/font_scale']).toBe('1.15');
    expect(audit.actorName).not.toBeNull();

    // A session changes both; its end puts back the new baseline, not the old one.
    const session = await api('POST', '/sessions', { deviceId, name: 'after the re-take' });
    expectStatus(session, 201);
    peer.settings.set('system/font_scale', '2.0');
    peer.settings.set('global/time_zone', 'Asia/Tokyo');
    const before = peer.record.commands.length;
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
    expect(peer.settings.get('system/font_scale')).toBe('1.15');
    expect(peer.settings.get('global/time_zone')).toBe('Europe/Berlin');
    expect(peer.record.commands.slice(before).join('; ')).toContain("settings put system font_scale '1.15'");

    // A device whose driver keeps no baseline (a WebDriver device of another host of the company) says so.
    const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, token, 'baseline-less'), heartbeatMs: 300, devices: [] } });
    const agent = new AgentHost({ bus: server.process.platform.bus, config, logger: pino({ level: 'silent' }), providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: [{ name: 'Baseline-less fake' }] })] });
    await agent.start();
    try {
      const fakeId = await eventually(async () => ((await api('GET', '/devices?search=Baseline-less')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, { what: 'the WebDriver device' });
      const unsupported = await api('POST', `/devices/${fakeId}/baseline`);
      expectStatus(unsupported, 409, 'DEVICE_UNSUPPORTED');
      expect(unsupported.body.message).toContain('a settings baseline');
    } finally {
      await agent.stop();
    }
  });

  it("gives the device back its re-taken baseline when the agent restarts: a session's end puts back the administrator's, not the device as the agent found it", async () => {
    const { peer } = android;
    peer.settings.set('system/font_scale', '1.25');
    const retaken = await api('POST', `/devices/${deviceId}/baseline`);
    expectStatus(retaken, 200);
    expect(retaken.body.settings['system/font_scale']).toBe('1.25');
    // Changed by hand after the re-take: the device as the restarted agent finds it (the baseline it would take itself).
    peer.settings.set('system/font_scale', '1.0');
    const before = deviceId;
    await server.stop();
    await start();
    expect(deviceId).toBe(before);
    // The restarted agent's memory of the baseline is what the service gave it back as the device joined.
    const driver = () => server.process.agent?.driverOf(deviceId) as AndroidDevice | undefined;
    await eventually(async () => (driver()?.baseline.settings?.['system/font_scale'] === '1.25' ? true : undefined), { what: 'the re-taken baseline given back to the restarted agent' });
    const session = await api('POST', '/sessions', { deviceId, name: 'after the agent restarted' });
    expectStatus(session, 201);
    peer.settings.set('system/font_scale', '2.0');
    const commands = peer.record.commands.length;
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
    expect(peer.settings.get('system/font_scale')).toBe('1.25');
    expect(peer.record.commands.slice(commands).join('; ')).toContain("settings put system font_scale '1.25'");
    // Nothing else of the recorded baseline was lost either (the zone re-taken before the restart).
    expect(peer.settings.get('global/time_zone')).toBe(retaken.body.settings['global/time_zone']);
  });

  it("re-takes the baseline from the device's page in the console, which says when, in Chromium, axe-clean", async () => {
    const { peer } = android;
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/devices/${deviceId}`);
      const baseline = page.getByRole('region', { name: 'Settings baseline' });
      await baseline.getByText(/Last re-taken/).waitFor();
      await expectAccessible(page, "the device's page with its settings baseline");
      peer.settings.set('system/font_scale', '1.3');
      await baseline.getByRole('button', { name: 'Re-take the baseline' }).click();
      await baseline.getByRole('group', { name: 'Re-take the baseline' }).getByRole('button', { name: 'Re-take it' }).click();
      await baseline.getByRole('status').filter({ hasText: /Baseline re-taken .*: 12 settings kept\./ }).waitFor();
      await expectAccessible(page, 'the settings baseline re-taken');
      expect((await api('GET', `/devices/${deviceId}/health`)).body.baselineRetakenAt).not.toBeNull();
      // The next session's end puts back what the console made the baseline.
      const session = await api('POST', '/sessions', { deviceId, name: 'after the console re-take' });
      expectStatus(session, 201);
      peer.settings.set('system/font_scale', '1.0');
      expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
      expect(peer.settings.get('system/font_scale')).toBe('1.3');
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("starts and ends a maintenance from the device's page — a past end refused beside its field — and releases a quarantined device there, in Chromium, axe-clean in each state", async () => {
    const browser = await launchBrowser();
    const rules = (await api('GET', '/fleet/health-rules')).body;
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/devices/${deviceId}`);
      const maintenance = page.getByRole('region', { name: 'Maintenance' });
      const form = maintenance.getByRole('form', { name: 'Start maintenance' });
      await form.waitFor();
      await expectAccessible(page, "the device's page with the maintenance form");

      // An end in the past (the browser's own zone): refused beside its field, nothing changes.
      await form.getByLabel('Reason').fill('swap the USB cable');
      await form.getByLabel('Until').fill(await browserLocal(page, -3_600_000));
      await form.getByRole('button', { name: 'Start maintenance' }).click();
      await form.locator('#maintenance-until-error').filter({ hasText: 'Until: must be in the future' }).waitFor();
      await form.getByRole('alert').filter({ hasText: 'Not started' }).waitFor();
      expect(await form.getByLabel('Until').getAttribute('aria-invalid')).toBe('true');
      expect((await healthOf())?.state).not.toBe('maintenance');
      await expectAccessible(page, 'the maintenance form with its end refused');

      // Two hours ahead: the device is in maintenance, said on the page and by the API.
      await form.getByLabel('Until').fill(await browserLocal(page, 2 * 3_600_000));
      await form.getByRole('button', { name: 'Start maintenance' }).click();
      await maintenance.getByRole('status').filter({ hasText: /Maintenance started: the device is held until / }).waitFor();
      await maintenance.getByText(/^In maintenance until /).waitFor();
      await page.locator('.card .badge.health-maintenance', { hasText: 'In maintenance' }).waitFor();
      const held = await healthOf();
      expect(held).toMatchObject({ state: 'maintenance', reasons: [expect.stringContaining('swap the USB cable')] });
      expect(await form.count()).toBe(0);
      await expectAccessible(page, 'the device in maintenance');

      await maintenance.getByRole('button', { name: 'End maintenance' }).click();
      await maintenance.getByRole('status').filter({ hasText: /Maintenance ended: the device is / }).waitFor();
      await form.waitFor();
      expect((await healthOf())?.state).not.toBe('maintenance');
      expect(await page.locator('.badge.health-maintenance').count()).toBe(0);
      await expectAccessible(page, 'the maintenance ended');

      // Quarantined as the failed-sessions rule does it (one failure is enough here), then released from the page.
      expectStatus(await api('PUT', '/fleet/health-rules', { ...rules, failedSessionsMax: 1 }), 200);
      await session('failed', 'console quarantine');
      await eventually(async () => ((await healthOf())?.state === 'quarantined' ? true : undefined), { what: 'the device quarantined' });
      await maintenance.getByRole('button', { name: 'Release from quarantine' }).waitFor();
      expect(await form.count()).toBe(0);
      await expectAccessible(page, 'the device quarantined');
      await maintenance.getByRole('button', { name: 'Release from quarantine' }).click();
      await maintenance.getByRole('group', { name: 'Release from quarantine' }).getByRole('button', { name: 'Release it' }).click();
      await maintenance.getByRole('status').filter({ hasText: 'Released from quarantine: the device is healthy.' }).waitFor();
      expect((await healthOf())?.state).toBe('healthy');
      await receiver.seen('device.recovered', (d) => d.deviceId === deviceId && d.from === 'quarantined' && d.cause === 'quarantine-released');
      await form.waitFor();
      await expectAccessible(page, 'the device released from quarantine');
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
      expectStatus(await api('PUT', '/fleet/health-rules', rules), 200);
    }
  });

  it("shows no maintenance or release controls to someone who may only read devices; the API refuses them (403)", async () => {
    const admin = client(server.url, token);
    const role = await admin.post('/roles', { name: 'Device reader', permissions: ['df:device:read'] });
    expect(role.status).toBe(201);
    const reader = await createActiveUser(server.url, admin, smtp.mails, { email: `health-reader-${process.pid}@example.com`, roleIds: [role.body.id] });
    expect((await admin.post(`/workspaces/${workspaceId}/access/users`, { userId: reader.id })).status).toBeLessThan(300);
    const refused = await http(server.url, 'POST', `/df/api/devices/${deviceId}/maintenance`, { token: reader.token, headers: { 'x-workspace-id': String(workspaceId) }, body: { reason: 'not mine', until: new Date(Date.now() + 3_600_000).toISOString() } });
    expectStatus(refused, 403, 'FORBIDDEN');
    expect((await healthOf())?.state).not.toBe('maintenance');
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, reader.email, reader.password);
      await page.goto(`${server.url}/devices/${deviceId}`);
      await page.getByRole('heading', { name: 'Health' }).waitFor();
      expect(await page.getByRole('region', { name: 'Maintenance' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /maintenance|quarantine/i }).count()).toBe(0);
      await expectAccessible(page, "the device's page of a reader");
    } finally {
      await browser.close();
    }
  });

  it('lifts the warning of the bookings a maintenance told when a quarantine takes its place (a failed session judged during it)', async () => {
    const hour = 3_600_000;
    const rules = (await api('GET', '/fleet/health-rules')).body;
    // A session ended unjudged before the maintenance: it neither counts nor quarantines.
    expectStatus(await api('PUT', '/fleet/health-rules', { ...rules, failedSessionsMax: 1 }), 200);
    const opened = await api('POST', '/sessions', { deviceId, name: 'judged in the maintenance' });
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
    try {
      const made = await api('POST', '/reservations', { deviceId, startAt: new Date(Date.now() + hour).toISOString(), endAt: new Date(Date.now() + 2 * hour).toISOString(), note: 'warned, then quarantined' });
      expectStatus(made, 201);
      const warning = { reason: 'reseat the SIM', until: new Date(Date.now() + 3 * hour).toISOString() };
      expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, warning), 200);
      expect((await api('GET', `/reservations/${made.body.id}`)).body.maintenanceConflict).toMatchObject(warning);

      // Its runner judges it failed only now: the device is quarantined, and the maintenance ends with it.
      expectStatus(await api('PUT', `/sessions/${opened.body.id}/outcome`, { outcome: 'failed', reason: 'late verdict' }), 200);
      await receiver.seen('device.quarantined', (d) => d.deviceId === deviceId && d.from === 'maintenance' && d.cause === 'sessions-failed');
      const lifted = await eventually(async () => {
        const r = (await api('GET', `/reservations/${made.body.id}`)).body;
        return r.maintenanceConflict === null ? r : undefined;
      }, { what: "the booking's warning lifted" });
      expect(lifted.status).toBe('scheduled');
      expect((await healthOf())?.state).toBe('quarantined');
      const stream = await server.process.platform.store.readStream(`device-bookings-${deviceId}`);
      expect(stream.filter((e) => (e.payload as { reservationId?: string }).reservationId === made.body.id).map((e) => e.type)).toEqual([
        'DeviceReservationScheduled',
        'DeviceReservationMaintenanceConflict',
        'DeviceReservationMaintenanceConflictCleared',
      ]);
      expectStatus(await api('DELETE', `/reservations/${made.body.id}`), 200);
    } finally {
      if ((await healthOf())?.state === 'quarantined') expectStatus(await api('POST', `/devices/${deviceId}/release-quarantine`), 200);
      expectStatus(await api('PUT', '/fleet/health-rules', rules), 200);
    }
  });
});
