import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, testApk, type AdbServer } from '#test/helpers/adb.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { freshDfctlConfig, runDfctl } from '#test/helpers/dfctl.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startWebhookReceiver } from '#test/helpers/webhook-receiver.js';
import { HealthReport, PROTOCOL_VERSION, encode, subjects } from '#shared/wire/index.js';
import { QuarantineMailer } from '#services/df/health/index.js';

/**
 * Device health end to end: an adbd test device behind Debian's adb, the server's in-process agent
 * reading its health every 500 ms (`AGENT_HEALTH_INTERVAL`), and the device's script changed by the
 * test. A hot device is held `cooling` and refused to a session and to a WebDriver session, naming the
 * reason, and released on its own when it cools; a low battery not charging holds it until it charges;
 * a failed battery quarantines it until an administrator releases it; an administrator's maintenance
 * holds it until ended or until its end time. Webhooks hear of each change. Bad input changes nothing. Every wait is a poll of
 * the API until a state, with a deadline.
 */
const ADMIN = { email: 'health-admin@example.com', password: 'health-password-1' };
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let deviceId: string;
let serial: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let fragile: AdbdPeer | undefined;
let mender: AdbdPeer | undefined;
let sleeper: AdbdPeer | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};
type Health = { state: string; reasons: string[]; battery?: { level: number; charging: boolean; temperatureC?: number }; storageFreeMb?: number; checkedAt: string };
const healthOf = async (): Promise<Health | null> => (await api('GET', `/devices/${deviceId}`)).body.health;
/** Polls the device record until its health is `state`. */
const healthBecomes = (state: string, timeoutMs = 20_000) =>
  eventually(async () => {
    const h = await healthOf();
    return h?.state === state ? h : undefined;
  }, { what: `device health ${state}`, timeoutMs });
/** Waits until the device has answered `n` more readings than now (the agent read it again). */
const readAgain = async (n = 2) => {
  const start = peer.health.readings;
  await eventually(async () => (peer.health.readings >= start + n ? true : undefined), { what: `${n} more health readings` });
};
/** A multipart upload through the started server (an APK to install, a file to push). */
async function upload(path: string, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(new URL(`/df/api${path}`, server.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
}
const openSession = () => api('POST', '/sessions', { deviceId, name: 'health e2e' });
const wdSession = () => http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { 'df:deviceId': deviceId } } } });
/** A mail's text with its quoted-printable soft breaks and escapes undone. */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/** The quarantine mails the administrator has received so far. */
const quarantineMails = () => smtp.mails.filter((m) => m.to.includes(ADMIN.email)).map((m) => mailText(m.raw)).filter((t) => t.includes('Device quarantined'));
const hookSeen = (type: string, match: (d: Record<string, unknown>) => boolean) => receiver.seen(type, match);

describe('device health', () => {
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startSmtpListener();
    adb = await startAdbServer();
    const started = await startPeer({ model: 'Health Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    peer = started.peer;
    serial = await adb.connect(started.port);
    server = await startTestServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      AGENT_HEALTH_INTERVAL: '500ms',
      // A reboot of mending is waited out this long (the adb server connects a network device again every few seconds).
      AGENT_REBOOT_WAIT: '30s',
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'health-node', heartbeatMs: 500, startAhead: false, appium: { enabled: false }, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }),
    });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    const workspaceId = (await http(server.url, 'GET', '/api/v1/workspaces/accessible', { token })).body[0].id as number;
    const hook = await http(server.url, 'POST', `/api/v1/workspaces/${workspaceId}/webhooks`, {
      token,
      body: { url: receiver.url, events: ['device.health_changed', 'device.quarantined', 'device.recovered'] },
    });
    expectStatus(hook, 201);
    deviceId = await eventually(async () => ((await api('GET', '/devices?platform=android')).body.content as { id: string }[])[0]?.id, { what: 'the android device', timeoutMs: 60_000 });
    await healthBecomes('healthy');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await adb?.stop();
    await peer?.close();
    await receiver?.close();
    await smtp?.stop();
    await fragile?.close();
    await mender?.close();
    await sleeper?.close();
  });

  it('refuses thresholds out of range, a maintenance in the past and another company’s device, changing nothing', async () => {
    const before = (await api('GET', '/fleet/health-rules')).body;
    expect(before).toEqual({ batteryMinPercent: 15, temperatureMaxC: 45, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true });
    for (const bad of [{ ...before, batteryMinPercent: 150 }, { ...before, temperatureMaxC: 5 }, { ...before, storageMinMb: -1 }, { batteryMinPercent: 20 }, { ...before, rebootAllowed: 'yes' }, { ...before, rebootAllowed: 1 }]) {
      expectStatus(await api('PUT', '/fleet/health-rules', bad), 400, 'VALIDATION_FAILED');
    }
    const notBoolean = await api('PUT', '/fleet/health-rules', { ...before, rebootAllowed: 'yes' });
    expect(JSON.stringify(notBoolean.body.details)).toContain('rebootAllowed');
    expect((await api('GET', '/fleet/health-rules')).body).toEqual(before);
    const past = await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'cable', until: new Date(Date.now() - 60_000).toISOString() });
    expectStatus(past, 400, 'MAINTENANCE_END_IN_PAST');
    expect((await healthOf())?.state).toBe('healthy');
    expectStatus(await api('DELETE', `/devices/${deviceId}/maintenance`), 409, 'DEVICE_NOT_IN_MAINTENANCE');
    expectStatus(await api('POST', `/devices/${deviceId}/release-quarantine`), 409, 'DEVICE_NOT_QUARANTINED');
    const other = await signUpCompany(server.url, 'health-other');
    expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'mine now', until: new Date(Date.now() + 3_600_000).toISOString() }, other.token), 404, 'NOT_FOUND');
    expectStatus(await api('POST', `/devices/${deviceId}/release-quarantine`, undefined, other.token), 404, 'NOT_FOUND');
    expectStatus(await api('GET', `/devices/${deviceId}/health`, undefined, other.token), 404, 'NOT_FOUND');
    expect((await healthOf())?.state).toBe('healthy');
    // Another host's word about this device (a scorching reading) is dropped: only its own host speaks for it.
    const forged = { checkedAt: new Date().toISOString(), battery: { level: 50, charging: false, temperatureC: 99 } };
    await server.process.platform.bus.publish(subjects.health('intruder-host'), encode(HealthReport, { protocol: PROTOCOL_VERSION, hostId: 'intruder-host', deviceId, sample: forged }));
    // Nor can it fail mending steps on the device's behalf (three would quarantine it).
    for (const attempt of [1, 2, 3]) {
      const mending = { step: 'reconnect' as const, attempt, result: 'failed' as const, error: 'forged', at: new Date().toISOString() };
      await server.process.platform.bus.publish(subjects.health('intruder-host'), encode(HealthReport, { protocol: PROTOCOL_VERSION, hostId: 'intruder-host', deviceId, mending }));
    }
    await readAgain();
    expect((await healthOf())?.state).toBe('healthy');
    const series = await api('GET', `/devices/${deviceId}/health`);
    expect((series.body.samples as { battery?: { temperatureC?: number } }[]).some((x) => x.battery?.temperatureC === 99)).toBe(false);
    expect(series.body.mending).toEqual([]);
    const set = await api('PUT', '/fleet/health-rules', { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500 });
    expectStatus(set, 200);
    expect((await api('GET', '/fleet/health-rules')).body).toEqual({ batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true });
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-health-rules&size=50', { token });
      return r.body.content?.length >= 1 ? r.body.content : undefined;
    }, { what: 'the rules change in the audit' });
    expect(audit[0]).toMatchObject({ eventType: 'DfHealthRulesSet' });
  });

  it('holds a device that heats above the threshold (cooling), refuses a session and a WebDriver session naming why, and releases it when it cools', async () => {
    peer.health.set({ temperatureC: 46 });
    const hot = await healthBecomes('cooling');
    expect(hot.reasons).toContain('battery temperature 46.0 °C above 40 °C');
    expect(hot.battery).toMatchObject({ temperatureC: 46, charging: false });
    const refused = await openSession();
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('cooling: battery temperature 46.0 °C above 40 °C');
    const wd = await wdSession();
    expect(wd.status).toBe(500);
    expect(wd.body.value).toMatchObject({ error: 'session not created', data: { code: 'DEVICE_UNHEALTHY' } });
    expect(wd.body.value.message).toContain('battery temperature 46.0 °C');
    // Asked by platform rather than by device: the only Android device is held, so it is said at once, not queued.
    const byPlatform = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { platformName: 'Android', 'df:queueTimeoutSeconds': 60 } } } });
    expect(byPlatform.body.value).toMatchObject({ error: 'session not created', data: { code: 'DEVICE_UNHEALTHY' } });
    const series = await api('GET', `/devices/${deviceId}/health?from=${encodeURIComponent(new Date(Date.now() - 600_000).toISOString())}`);
    expectStatus(series, 200);
    expect((series.body.samples as { battery?: { temperatureC?: number } }[]).some((s) => s.battery?.temperatureC === 46)).toBe(true);
    expect(await hookSeen('device.health_changed', (d) => d.state === 'cooling' && d.from === 'healthy')).toBeTruthy();

    // 38 °C is below the limit but within the 3 °C margin: still held after two more readings.
    peer.health.set({ temperatureC: 38 });
    await readAgain();
    expect((await healthOf())?.state).toBe('cooling');
    peer.health.set({ temperatureC: 33 });
    await healthBecomes('healthy');
    expect(await hookSeen('device.recovered', (d) => d.from === 'cooling')).toBeTruthy();
    const opened = await openSession();
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
  });

  it('holds a battery below the threshold while not charging, until it charges', async () => {
    peer.health.set({ batteryLevel: 10, charging: false });
    const low = await healthBecomes('charging');
    expect(low.reasons).toEqual(['battery 10 % below 20 % and not charging']);
    const refused = await openSession();
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('battery 10 % below 20 %');
    peer.health.set({ charging: true });
    const back = await healthBecomes('healthy');
    expect(back.battery).toMatchObject({ level: 10, charging: true });
    peer.health.set({ batteryLevel: 80, charging: false });
  });

  it('quarantines a failed battery until an administrator releases it, and says so by webhook and by one mail to the administrators', async () => {
    const mailsBefore = quarantineMails().length;
    peer.health.set({ batteryHealth: 4 });
    const q = await healthBecomes('quarantined');
    expect(q.reasons).toEqual(['battery health dead']);
    expect(await hookSeen('device.quarantined', (d) => d.state === 'quarantined')).toBeTruthy();
    const mail = await eventually(async () => quarantineMails()[mailsBefore], { what: 'the quarantine mail to the administrator' });
    expect(mail).toContain('Subject: Device quarantined: Health Phone');
    expect(mail).toContain(deviceId);
    expect(mail).toContain('- battery health dead');
    expect(mail).toContain('cause: sample');
    expect(mail).toContain(`/devices/${deviceId}`);
    // A replay of the whole log (a mailer that lost its position) mails no quarantine a second time.
    const { platform } = server.process;
    await platform.db.query(`UPDATE df_health_mail_position SET position = '0'`);
    const head = (await platform.store.readStream(`device-health-${deviceId}`)).at(-1)!.position;
    const replay = new QuarantineMailer(platform);
    await replay.start();
    await eventually(async () => (BigInt((await platform.db.query<{ position: string }>(`SELECT position FROM df_health_mail_position`)).rows[0]!.position) >= head ? true : undefined), { what: 'the replay past the quarantine' });
    await replay.stop();
    // The battery is replaced: readings alone never end a quarantine.
    peer.health.set({ batteryHealth: 2 });
    await readAgain();
    expect((await healthOf())?.state).toBe('quarantined');
    expectStatus(await openSession(), 409, 'DEVICE_UNHEALTHY');
    const released = await api('POST', `/devices/${deviceId}/release-quarantine`);
    expectStatus(released, 200);
    expect(released.body.health).toMatchObject({ state: 'healthy', reasons: [] });
    expect(await hookSeen('device.recovered', (d) => d.from === 'quarantined')).toBeTruthy();
    // One quarantine, one mail: the readings that came while it was held and the release sent no other.
    expect(quarantineMails().length).toBe(mailsBefore + 1);
    const opened = await openSession();
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
  });

  it('puts the settings and the clipboard a session changed back to the baseline at its end and removes its app and file, checked at the device; a reset that fails quarantines it', async () => {
    const baseline = new Map(peer.settings);
    const first = await openSession();
    expectStatus(first, 201);
    // The session changes animations, font scale, locale, airplane mode, Wi-Fi and the clipboard on the device, installs an app and pushes a file.
    const changed = { 'global/window_animation_scale': '0.0', 'global/animator_duration_scale': '0.0', 'system/font_scale': '1.3', 'system/system_locales': 'fr-FR', 'global/airplane_mode_on': '1', 'global/wifi_on': '0' };
    for (const [k, v] of Object.entries(changed)) peer.settings.set(k, v);
    peer.settings.set('global/time_zone', 'Europe/Paris');
    peer.clipboard = 'one-time code 482913';
    const installed = await upload(`/sessions/${first.body.id}/apps/install`, { name: 'leftover.apk', bytes: testApk('com.example.leftover') });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const pushed = await upload(`/sessions/${first.body.id}/files/push`, { name: 'notes.txt', bytes: Buffer.from('session notes') }, { path: '/sdcard/Download/notes.txt' });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(201);
    expect(peer.packages.has('com.example.leftover')).toBe(true);
    expect(peer.files.has('/sdcard/Download/notes.txt')).toBe(true);
    const commandsBefore = peer.record.commands.length;
    expectStatus(await api('DELETE', `/sessions/${first.body.id}`), 200);
    for (const k of [...Object.keys(changed), 'global/time_zone']) expect(peer.settings.get(k), k).toBe(baseline.get(k));
    const reset = peer.record.commands.slice(commandsBefore).filter((c) => c.startsWith('settings put') || c.startsWith('settings delete'));
    expect(reset.join('; ')).toContain("settings put system font_scale '1.0'");
    expect(reset.join('; ')).toContain('settings delete global time_zone');
    expect(peer.clipboard).toBe('');
    expect(peer.record.commands.slice(commandsBefore)).toContain("cmd clipboard set text ''");
    expect(peer.packages.has('com.example.leftover')).toBe(false);
    expect(peer.files.has('/sdcard/Download/notes.txt')).toBe(false);
    // A reading during the session may have seen airplane mode on (degraded): the next one sees the baseline.
    await healthBecomes('healthy');

    // A device that keeps a setting whatever it is told is quarantined at the session's end, naming it, not handed out.
    const second = await openSession();
    expectStatus(second, 201);
    peer.stuckSettings.add('system/font_scale');
    peer.settings.set('system/font_scale', '2.0');
    expectStatus(await api('DELETE', `/sessions/${second.body.id}`), 200);
    const q = await healthBecomes('quarantined');
    expect(q.reasons[0]).toContain('system/font_scale');
    expect(await hookSeen('device.quarantined', (d) => d.cause === 'reset-failed')).toBeTruthy();
    const mail = await eventually(async () => quarantineMails().find((t) => t.includes('cause: reset-failed')), { what: 'the mail of the quarantine after the failed reset' });
    expect(mail).toContain('system/font_scale');
    const refused = await openSession();
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('font_scale');
    peer.stuckSettings.clear();
    peer.settings.set('system/font_scale', baseline.get('system/font_scale')!);
    expectStatus(await api('POST', `/devices/${deviceId}/release-quarantine`), 200);

    // A clipboard the device will not empty fails the reset too: quarantined, naming it, not handed out.
    const third = await openSession();
    expectStatus(third, 201);
    peer.clipboard = 'a copied password';
    peer.refused.add('cmd clipboard set');
    expectStatus(await api('DELETE', `/sessions/${third.body.id}`), 200);
    const kept = await healthBecomes('quarantined');
    expect(kept.reasons[0]).toBe('reset after the session failed: clipboard not cleared: it still holds 17 characters');
    expect(peer.clipboard).toBe('a copied password');
    expectStatus(await openSession(), 409, 'DEVICE_UNHEALTHY');
    peer.refused.clear();
    peer.clipboard = '';
    expectStatus(await api('POST', `/devices/${deviceId}/release-quarantine`), 200);
    expect((await api('GET', `/devices/${deviceId}`)).body.status).toBe('available');
  });

  it('holds a device an administrator takes into maintenance, naming the reason, until the maintenance is ended', async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const started = await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'replace the USB cable', until });
    expectStatus(started, 200);
    expect(started.body.health).toMatchObject({ state: 'maintenance', reasons: [`maintenance until ${new Date(until).toISOString()}: replace the USB cable`] });
    const refused = await openSession();
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('replace the USB cable');
    // Readings go on but do not end it.
    await readAgain();
    expect((await healthOf())?.state).toBe('maintenance');
    // The list's "needs attention" filter and `dfctl devices --unhealthy` show it, with its state and reason.
    const attention = await api('GET', '/devices?needsAttention=true');
    expect(attention.body.totalElements).toBe(1);
    expect(attention.body.content[0]).toMatchObject({ id: deviceId, health: { state: 'maintenance' } });
    expect((await api('GET', '/devices?needsAttention=false')).body.totalElements).toBe(0);
    expectStatus(await api('GET', '/devices?needsAttention=maybe'), 400, 'VALIDATION_FAILED');
    const dfctl = { DFCTL_CONFIG: freshDfctlConfig() };
    const login = await runDfctl(['login', '--server', server.url, '--email', ADMIN.email, '--password-stdin'], { input: ADMIN.password, env: dfctl });
    expect(login.code, login.stderr).toBe(0);
    const listed = await runDfctl(['devices', '--unhealthy'], { env: dfctl });
    expect(listed.code, listed.stderr).toBe(0);
    const [header, row, ...rest] = listed.stdout.trim().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+PLATFORM\s+STATUS\s+HEALTH\s+CHECKED\s+REASONS\s+HOST/);
    expect(rest).toEqual([]);
    expect(row).toContain(deviceId);
    expect(row).toMatch(/\bmaintenance\b.*replace the USB cable/);
    const ended = await api('DELETE', `/devices/${deviceId}/maintenance`);
    expectStatus(ended, 200);
    expect(ended.body.health.state).toBe('healthy');
    const none = await runDfctl(['devices', '--unhealthy'], { env: dfctl });
    expect(none.stdout.trim()).toBe('Every device is healthy.');
    expect((await api('GET', '/devices?needsAttention=true')).body.totalElements).toBe(0);
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', `/api/v1/audit/events?resourceType=device-health&size=100`, { token });
      const entries = (r.body.content ?? []) as { eventType: string; payload: { cause?: string } }[];
      return entries.some((e) => e.payload?.cause === 'maintenance-ended') ? entries : undefined;
    }, { what: 'the maintenance in the audit' });
    expect(audit.some((e) => e.eventType === 'DeviceHealthChanged' && e.payload.cause === 'maintenance-started')).toBe(true);
    const opened = await openSession();
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
  });

  it('ends a maintenance at its end time by itself (the service sweeps every 5 s), and says the device recovered', async () => {
    const until = new Date(Date.now() + 3_000).toISOString();
    const started = await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'short check', until });
    expectStatus(started, 200);
    expect(started.body.health).toMatchObject({ state: 'maintenance', until });
    await healthBecomes('healthy', 20_000);
    expect(await hookSeen('device.recovered', (d) => d.from === 'maintenance' && d.cause === 'maintenance-ended')).toBeTruthy();
  });

  type Mending = { step: string; attempt: number; result: string; error?: string; at: string };
  const mendingOf = async (id: string): Promise<Mending[]> => (await api('GET', `/devices/${id}/health`)).body.mending;
  const statusOf = async (id: string): Promise<string> => (await api('GET', `/devices/${id}`)).body.status;

  it('mends a dropped link: the agent connects the device again, the step is recorded, shown and audited, and the device serves again', async () => {
    const before = (await mendingOf(deviceId)).length;
    // The adb server drops the device's link (as a network device's does when its connection breaks).
    await adb.disconnect(serial);
    const step = await eventually(async () => {
      const m = await mendingOf(deviceId);
      return m.length > before ? m[0] : undefined;
    }, { what: 'the recorded reconnect step' });
    expect(step).toMatchObject({ step: 'reconnect', attempt: 1, result: 'ok' });
    await eventually(async () => ((await statusOf(deviceId)) === 'available' ? true : undefined), { what: 'the device available again' });
    expect((await healthOf())?.state).toBe('healthy');
    const opened = await openSession();
    expectStatus(opened, 201);
    expectStatus(await api('DELETE', `/sessions/${opened.body.id}`), 200);
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', `/api/v1/audit/events?resourceType=device-health&size=100`, { token });
      return ((r.body.content ?? []) as { eventType: string; actorId?: string; payload: { step?: string } }[]).find((e) => e.eventType === 'DeviceMendingStep');
    }, { what: 'the mending step in the audit' });
    expect(audit.payload.step).toBe('reconnect');
  });

  it('carries the signals shown, not judged, from the device to the health API: memory, Wi-Fi, lock screen, uptime, /sdcard, the reading\'s time and the link reconnect', async () => {
    peer.health.set({ memTotalMb: 5_632, memAvailableMb: 2_048, uptimeS: 3 * 86_400 + 4 * 3_600, keyguardShowing: true, wifiConnected: false, sdcardFreeMb: 700 });
    type Signals = { memory?: unknown; wifi?: unknown; screenLocked?: boolean; uptimeS?: number; sdcardFreeMb?: number; lastCommandMs?: number; linkReconnects?: number };
    const latest = await eventually(async () => {
      const samples = (await api('GET', `/devices/${deviceId}/health`)).body.samples as Signals[];
      const last = samples.at(-1);
      return last?.screenLocked === true && last.sdcardFreeMb === 700 ? last : undefined;
    }, { what: 'a reading with the lock screen showing' });
    expect(latest).toMatchObject({ memory: { totalMb: 5_632, availableMb: 2_048 }, wifi: { on: true, connected: false }, screenLocked: true, sdcardFreeMb: 700 });
    expect(latest.uptimeS).toBeGreaterThanOrEqual(3 * 86_400 + 4 * 3_600);
    expect(latest.lastCommandMs).toEqual(expect.any(Number));
    // The link the test before dropped came back once since the agent started.
    expect(latest.linkReconnects).toBe(1);
    // Shown, not judged: a locked screen and Wi-Fi without a connection leave the device healthy.
    expect((await healthOf())?.state).toBe('healthy');
    peer.health.set({ keyguardShowing: false, wifiConnected: true, sdcardFreeMb: null });
  });

  it('shows a held device with its health badge in the grid, the "needs attention" filter, and its state, reasons, charts (battery and temperature, free storage) and mending history on its page, in Chromium, axe-clean', async () => {
    expectStatus(await api('POST', `/devices/${deviceId}/maintenance`, { reason: 'battery swap', until: new Date(Date.now() + 3_600_000).toISOString() }), 200);
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/devices`);
      const card = page.locator('.device-card', { hasText: 'Health Phone' });
      await card.getByText('In maintenance').waitFor();
      await expectAccessible(page, 'the device grid with a held device');
      // "Needs attention" counts the device that is not healthy and shows only such devices.
      const attention = page.getByRole('checkbox', { name: /Needs attention/ });
      await page.locator('label', { has: attention }).getByText('1', { exact: true }).waitFor();
      await attention.check();
      await page.waitForURL(/needsAttention=true/);
      await card.getByText('In maintenance').waitFor();
      await expectAccessible(page, 'the device grid filtered to devices that need attention');
      // The storage drops from 16,384 MB to 12,288 MB: the chart's scale stays the largest seen, its label says the last.
      peer.health.set({ dataFreeMb: 12_288 });
      await readAgain();
      await page.goto(`${server.url}/devices/${deviceId}`);
      await page.getByRole('heading', { name: 'Health', exact: true }).waitFor();
      await page.getByText(/battery swap/).first().waitFor();
      // The newest reading's signals shown beside the state (the peer booted 3 days and 4 hours ago, the test before).
      const facts = page.locator('dl.facts');
      await facts.locator('dt:text-is("Up for") + dd', { hasText: '3 d 4 h' }).waitFor();
      await facts.locator('dt:text-is("Memory") + dd', { hasText: '2048 MB available of 5632 MB' }).waitFor();
      await facts.locator('dt:text-is("Wi-Fi") + dd', { hasText: 'On, connected' }).waitFor();
      await facts.locator('dt:text-is("Link reconnects") + dd', { hasText: '1 since the agent started' }).waitFor();
      await page.getByRole('img', { name: /Battery and temperature over \d+ readings/ }).waitFor();
      // Every reading of the peer has its free storage (`df /data`), drawn in GB on a 0–20 GB scale (16 GB the largest).
      const storage = page.getByRole('img', { name: /^Free storage over \d+ readings since .+; last: 12 GB \(12288 MB\) free$/ });
      await storage.waitFor();
      expect(await storage.locator('text.tick').allTextContents()).toEqual(['20 GB', '0']);
      await page.locator('figcaption', { hasText: 'Free storage GB' }).waitFor();
      // The reconnect of the dropped link (the test before) in the device's mending history.
      const history = page.getByRole('table', { name: 'Mending history' });
      await history.getByRole('row', { name: /Reconnect the link 1 worked/ }).first().waitFor();
      expect(await page.getByRole('button', { name: 'Start a session' }).isDisabled()).toBe(true);
      await expectAccessible(page, "a held device's page with its health and storage charts");
      expectStatus(await api('DELETE', `/devices/${deviceId}/maintenance`), 200);
      await page.goto(`${server.url}/devices?needsAttention=true`);
      await page.getByText('No device matches these filters.').waitFor();
      await page.locator('label', { has: attention }).getByText('0', { exact: true }).waitFor();
      expect(await attention.isChecked()).toBe(true);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
      peer.health.set({ dataFreeMb: 16_384 });
      if ((await healthOf())?.state === 'maintenance') expectStatus(await api('DELETE', `/devices/${deviceId}/maintenance`), 200);
    }
  });

  it('quarantines a device whose link cannot be mended after three failed steps, says so by webhook and mail, and an administrator releases it', async () => {
    const started = await startPeer({ model: 'Fragile Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    fragile = started.peer;
    const fragileSerial = await adb.connect(started.port);
    const fragileId = await eventually(async () => ((await api('GET', '/devices?search=Fragile')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, { what: 'the fragile device', timeoutMs: 30_000 });
    const mailsBefore = quarantineMails().length;
    // Its link drops and the device is gone for good: every reconnect is refused.
    await adb.disconnect(fragileSerial);
    await fragile.close();
    const q = await eventually(async () => {
      const h = (await api('GET', `/devices/${fragileId}`)).body.health as Health | null;
      return h?.state === 'quarantined' ? h : undefined;
    }, { what: 'the fragile device quarantined', timeoutMs: 30_000 });
    expect(q.reasons[0]).toMatch(/^mending failed 3 steps in a row, the last reconnect \(attempt 3\)/);
    const steps = await mendingOf(fragileId);
    expect(steps.map((m) => `${m.step}#${m.attempt}:${m.result}`)).toEqual(['reconnect#3:failed', 'reconnect#2:failed', 'reconnect#1:failed']);
    expect(steps[0]!.error).toBeTruthy();
    expect(await hookSeen('device.quarantined', (d) => d.deviceId === fragileId && d.cause === 'mending-failed')).toBeTruthy();
    const mail = await eventually(async () => quarantineMails().slice(mailsBefore).find((t) => t.includes(fragileId)), { what: 'the mail of the mending quarantine' });
    expect(mail).toContain('Device quarantined: Fragile Phone');
    expect(mail).toContain('cause: mending-failed');
    const released = await api('POST', `/devices/${fragileId}/release-quarantine`);
    expectStatus(released, 200);
    expect(released.body.health).toMatchObject({ state: 'healthy', reasons: [] });
  });

  it('mends a device short of storage in steps — helpers restarted, leftovers removed, a reboot only where the rules allow it, waited out until the device is back — and quarantines it when the steps run out, said by webhook and mail, until an administrator releases it', { timeout: 120_000 }, async () => {
    const started = await startPeer({ model: 'Mender Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    mender = started.peer;
    await adb.connect(started.port);
    const menderId = await eventually(async () => ((await api('GET', '/devices?search=Mender')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, { what: 'the mender device', timeoutMs: 30_000 });
    const healthOfMender = async () => (await api('GET', `/devices/${menderId}`)).body.health as Health | null;
    const quarantinedAgain = (cause: RegExp) =>
      eventually(async () => {
        const h = await healthOfMender();
        return h?.state === 'quarantined' && cause.test(h.reasons[0] ?? '') ? h : undefined;
      }, { what: 'the mender device quarantined', timeoutMs: 30_000 });
    const stepsOf = async () => (await mendingOf(menderId)).map((m) => `${m.step}:${m.result}`);
    // Released, its next reading (storage still short) may make it degraded at once: the webhook says the release happened.
    const releases = () => receiver.hooks.filter((h) => h.type === 'device.recovered' && h.data.deviceId === menderId && h.data.from === 'quarantined' && h.data.cause === 'quarantine-released').length;
    const release = async () => {
      const before = releases();
      expectStatus(await api('POST', `/devices/${menderId}/release-quarantine`), 200);
      await eventually(async () => (releases() > before ? true : undefined), { what: 'the release heard by webhook' });
    };
    const mailsBefore = quarantineMails().length;
    // What a session's release that never finished left behind, and a file that is not the platform's.
    mender.mkdir('/data/local/tmp/df-session-dead0001');
    mender.writeFile('/data/local/tmp/df-session-dead0001/shot.png', Buffer.alloc(4096));
    mender.writeFile('/data/local/tmp/upload-1a2b3c4d.apk', Buffer.alloc(4096));
    mender.writeFile('/data/local/tmp/someone-elses.txt', Buffer.from('keep me'));
    expectStatus(await api('PUT', '/fleet/health-rules', { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: false }), 200);

    // 1. minicap no longer starts and the storage stays short whatever is removed; the rules allow no reboot.
    mender.options.minicapCrashes = true;
    mender.health.set({ dataFreeMb: 100 });
    const ranOut = await quarantinedAgain(/^mending did not mend it: /);
    expect(ranOut.reasons[0]).toContain('helpers did not come back: minicap did not start');
    expect(ranOut.reasons[0]).toContain('storage 100 MB free below 500 MB; the last step reboot skipped');
    expect(await stepsOf()).toEqual(['reboot:skipped', 'free-storage:failed', 'restart-helpers:failed']);
    expect(mender.files.has('/data/local/tmp/df-session-dead0001')).toBe(false);
    expect(mender.files.has('/data/local/tmp/df-session-dead0001/shot.png')).toBe(false);
    expect(mender.files.has('/data/local/tmp/upload-1a2b3c4d.apk')).toBe(false);
    expect(mender.files.get('/data/local/tmp/someone-elses.txt')?.data.toString()).toBe('keep me');
    expect(mender.record.reboots).toEqual([]);
    expect(await hookSeen('device.quarantined', (d) => d.deviceId === menderId && d.cause === 'mending-failed')).toBeTruthy();
    const mail = await eventually(async () => quarantineMails().slice(mailsBefore).find((t) => t.includes(menderId)), { what: 'the mail of the quarantine after mending' });
    expect(mail).toContain('Device quarantined: Mender Phone');
    expect(mail).toContain('cause: mending-failed');
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', `/api/v1/audit/events?resourceType=device-health&size=100`, { token });
      return ((r.body.content ?? []) as { eventType: string; payload: { deviceId?: string; step?: string } }[]).find((e) => e.eventType === 'DeviceMendingStep' && e.payload.deviceId === menderId && e.payload.step === 'free-storage');
    }, { what: 'the free-storage step in the audit' });
    expect(audit).toBeTruthy();

    // 2. Now the rules allow a reboot, but the device refuses it: three failed steps in a row quarantine it.
    expectStatus(await api('PUT', '/fleet/health-rules', { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: true }), 200);
    mender.refused.add('reboot');
    await release();
    const three = await quarantinedAgain(/^mending failed 3 steps in a row, the last reboot \(attempt 1\)/);
    expect(three.reasons[0]).toBeTruthy();
    expect((await stepsOf()).slice(0, 3)).toEqual(['reboot:failed', 'free-storage:failed', 'restart-helpers:failed']);
    expect(mender.record.reboots).toEqual([]);
    await eventually(async () => (quarantineMails().slice(mailsBefore).filter((t) => t.includes(menderId)).length >= 2 ? true : undefined), { what: 'the second mail' });

    // 3. minicap starts again and the device accepts the reboot: it goes down (its connection ends), and the
    // step waits for it. It comes back with its storage freed (as a reboot that cleared caches gives), booting
    // (`sys.boot_completed` 0, then 1): the step is ok only now, the device mended and given back.
    mender.options.minicapCrashes = false;
    mender.refused.clear();
    // Signed in beforehand: the device is shown while it is down, within the agent's wait for it.
    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await release();
      await mender.wentDown();
      expect(mender.record.reboots).toEqual(['']);
      // While the reboot is waited out the device is listed mending, the step said, and a session asked for it is refused naming it.
      const listed = await eventually(async () => {
        const d = (await api('GET', `/devices/${menderId}`)).body as { status: string; mending: { step: string | null; since: string; until: string } | null };
        return d.status === 'mending' && d.mending?.step === 'reboot' ? d : undefined;
      }, { what: 'the mender device listed mending, rebooting' });
      expect(Date.parse(listed.mending!.until)).toBeGreaterThan(Date.parse(listed.mending!.since));
      expect(((await api('GET', '/devices?status=mending')).body.content as { id: string }[]).map((d) => d.id)).toEqual([menderId]);
      const refused = await api('POST', '/sessions', { deviceId: menderId, name: 'during the reboot' });
      expectStatus(refused, 409, 'DEVICE_MENDING');
      expect(refused.body.message).toContain('being mended (rebooting)');
      // A WebDriver request for it is not refused at once (as for a held device): it waits in the queue, here until its own time-out.
      const queued = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { 'df:deviceId': menderId, 'df:queueTimeoutSeconds': 1 } } } });
      expect(queued.body.value).toMatchObject({ error: 'session not created' });
      expect(queued.body.value.message).toMatch(/^No matching device became free within 1 s/);
      expect((await stepsOf())[0]).not.toBe('reboot:ok');
      await page.goto(`${server.url}/devices?search=Mender`);
      await page.locator('.device-card', { hasText: 'Mender Phone' }).getByText('Mending — rebooting').waitFor();
      await expectAccessible(page, 'the device grid with a device being mended');
      await page.goto(`${server.url}/devices/${menderId}`);
      await page.locator('.title-row').getByText('Mending — rebooting').waitFor();
      expect(await page.getByRole('button', { name: 'Start a session' }).isDisabled()).toBe(true);
      await expectAccessible(page, "the page of a device being mended");
      mender.health.set({ dataFreeMb: 16_384 });
      await mender.comeBack();
      await eventually(async () => ((await stepsOf())[0] === 'reboot:ok' ? true : undefined), { what: 'the reboot recorded once the device is back' });
      expect((await stepsOf()).slice(0, 3)).toEqual(['reboot:ok', 'free-storage:failed', 'restart-helpers:ok']);
      expect(mender.properties['sys.boot_completed']).toBe('1');
      await eventually(async () => ((await healthOfMender())?.state === 'healthy' ? true : undefined), { what: 'the mender device healthy' });
      // The mending's end given back the device: available again, no mending, and the page says so.
      await eventually(async () => ((await api('GET', `/devices/${menderId}`)).body.status === 'available' ? true : undefined), { what: 'the mender device available again' });
      expect((await api('GET', `/devices/${menderId}`)).body.mending).toBeNull();
      const mendingEvents = await eventually(async () => {
        const r = await http(server.url, 'GET', `/api/v1/audit/events?resourceType=device-health&size=200`, { token });
        const types = ((r.body.content ?? []) as { eventType: string; payload: { deviceId?: string } }[]).filter((e) => e.payload.deviceId === menderId).map((e) => e.eventType);
        return types.includes('DeviceMendingEnded') && types.includes('DeviceMendingStepBegun') ? types : undefined;
      }, { what: 'the mending started, its steps begun and its end in the audit' });
      expect(mendingEvents).toContain('DeviceMendingStarted');
      await page.reload();
      await page.locator('.title-row').getByText('available', { exact: true }).waitFor();
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
    const session = await api('POST', '/sessions', { deviceId: menderId, name: 'after mending' });
    expectStatus(session, 201);
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
  });
  it('ends a mending past its time-out with no answer from the host (the device no longer mending), and quarantines a device that does not come back from its reboot within the agent\'s wait, the step saying so, by webhook and mail', { timeout: 120_000 }, async () => {
    const started = await startPeer({ model: 'Sleeper Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
    sleeper = started.peer;
    await adb.connect(started.port);
    const sleeperId = await eventually(async () => ((await api('GET', '/devices?search=Sleeper')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, { what: 'the sleeper device', timeoutMs: 30_000 });
    expectStatus(await api('PUT', '/fleet/health-rules', { batteryMinPercent: 20, temperatureMaxC: 40, storageMinMb: 500, rebootAllowed: true }), 200);
    const mailsBefore = quarantineMails().length;
    // The service's clock is 6 minutes behind while it decides to mend: once it is right again the mending's
    // until (its 5-minute time-out) is past with no answer from the host — as for a process that asked and
    // stopped — and the sweep ends it timed-out: the device is no longer listed mending.
    const realNow = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() - 6 * 60_000);
    try {
      sleeper.health.set({ dataFreeMb: 100 });
      await sleeper.wentDown();
      await eventually(async () => ((await statusOf(sleeperId)) === 'mending' ? true : undefined), { what: 'the sleeper device mending' });
    } finally {
      server.process.platform.now = realNow;
    }
    await eventually(async () => ((await api('GET', `/devices/${sleeperId}`)).body.mending === null ? true : undefined), { what: 'the mending over at its time-out' });
    expect(await statusOf(sleeperId)).not.toBe('mending');
    const ended = (await server.process.platform.store.readStream(`device-health-${sleeperId}`)).filter((e) => e.type === 'DeviceMendingEnded');
    expect(ended.map((e) => (e.payload as { outcome: string }).outcome)).toEqual(['timed-out']);
    // It never comes back: the step fails when the agent's wait (AGENT_REBOOT_WAIT) ends, and the mending with it.
    const quarantined = await eventually(async () => {
      const h = (await api('GET', `/devices/${sleeperId}`)).body.health as Health | null;
      return h?.state === 'quarantined' ? h : undefined;
    }, { what: 'the sleeper device quarantined', timeoutMs: 60_000 });
    expect(quarantined.reasons[0]).toMatch(/^mending did not mend it: storage 100 MB free below 500 MB; the last step reboot failed \(did not come back within 30 s \(adb (lists it offline|does not list it)\)\)$/);
    const steps = await mendingOf(sleeperId);
    expect(steps.slice(0, 3).map((m) => `${m.step}:${m.result}`)).toEqual(['reboot:failed', 'free-storage:failed', 'restart-helpers:ok']);
    expect(steps[0]!.error).toMatch(/^did not come back within 30 s/);
    expect(sleeper.record.reboots).toEqual(['']);
    expect(await hookSeen('device.quarantined', (d) => d.deviceId === sleeperId && d.cause === 'mending-failed')).toBeTruthy();
    const mail = await eventually(async () => quarantineMails().slice(mailsBefore).find((t) => t.includes(sleeperId)), { what: 'the mail of the quarantine' });
    expect(mail).toContain('did not come back within 30 s');
    // The agent withdrew it once the wait was over (offline), and the quarantine refuses it to a session.
    await eventually(async () => ((await statusOf(sleeperId)) === 'offline' ? true : undefined), { what: 'the sleeper device offline' });
    const refused = await api('POST', '/sessions', { deviceId: sleeperId, name: 'never back' });
    expectStatus(refused, 409, 'DEVICE_UNHEALTHY');
    expect(refused.body.message).toContain('did not come back within 30 s');
  });
});
