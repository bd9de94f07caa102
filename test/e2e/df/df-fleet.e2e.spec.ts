import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * Fleet insight and limits through the started server, on 20 simulated devices: plan limits enforced
 * atomically (20 concurrent creates against a limit of 3), the storage limit refusing a store and
 * storing nothing, session defaults applied and audited, and the dashboard and the three reports
 * agreeing with a history scripted through the API under an injected clock (no sleeps: the clock is
 * replaced and the reservation ticker stepped).
 */
const DEVICES = 20;
const MIN = 60_000;
let server: TestServer;
let a: SignedUpCompany;
let devices: { id: string; name: string }[];
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
/** A member of the company who tests devices: no reports, no settings, not an administrator. */
let tester: { id: number; token: string };

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  http(server.url, method, `/df/api${path}`, { token: a.token, headers, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(errorCode(res)).toBe(code);
};
const setLimits = async (limits: Record<string, number | null>) => {
  const res = await api('PUT', '/quotas', { limits });
  expectStatus(res, 200);
  return res.body;
};
let clock: Date | null = null;
const at = (iso: string) => {
  clock = new Date(iso);
};

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    DF_RESERVATION_GRACE: '10m',
    DF_SESSION_IDLE_TIMEOUT: '1d',
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'fleet-node',
      heartbeatMs: 300,
      devices: Array.from({ length: DEVICES }, (_, i) => ({ provider: 'simulated' as const, name: `Fleet ${String(i).padStart(2, '0')}`, prepareMs: 10 })),
    }),
  });
  server.process.platform.now = () => clock ?? new Date();
  a = await signUpCompany(server.url, 'fleet');
  const admin = client(server.url, a.token);
  const role = await admin.post('/roles', { name: 'Fleet tester', permissions: ['df:device:read', 'df:session:read', 'df:session:create'] });
  expect(role.status).toBe(201);
  const user = await createActiveUser(server.url, admin, smtp.mails, { email: `tester-${process.pid}@fleet.test`, roleIds: [role.body.id] });
  expect((await admin.post(`/workspaces/${a.workspaceId}/access/users`, { userId: user.id })).status).toBeLessThan(300);
  tester = { id: user.id, token: user.token };
  devices = await eventually(async () => {
    const r = await api('GET', `/devices?status=available&sortBy=name&size=${DEVICES}`);
    return r.body.totalElements === DEVICES ? (r.body.content as { id: string; name: string }[]) : undefined;
  }, { what: `${DEVICES} devices`, timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('quotas', () => {
  it('shows the plan (no limits by default) and live usage', async () => {
    const res = await api('GET', '/quotas');
    expectStatus(res, 200);
    expect(res.body).toEqual({
      plan: 'default',
      limits: { concurrentSessions: null, sessionMinutesPerMonth: null, reservationHoursPerMonth: null, storageBytes: null, apiKeys: null },
      usage: { concurrentSessions: 0, sessionMinutesPerMonth: 0, reservationHoursPerMonth: 0, storageBytes: 0, apiKeys: 0 },
    });
  });

  it('gives exactly 3 of 20 concurrent session creates against a limit of 3 concurrent sessions', async () => {
    const plan = await setLimits({ concurrentSessions: 3 });
    expect(plan.limits.concurrentSessions).toBe(3);
    const answers = await Promise.all(devices.map((d) => api('POST', '/sessions', { deviceId: d.id })));
    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expectStatus(r, 403, 'QUOTA_EXCEEDED');
      expect(r.body.details).toEqual([expect.objectContaining({ limit: 'concurrentSessions', value: 3 })]);
    }
    const open = await api('GET', '/sessions?status=active&status=starting&size=50');
    expect(open.body.totalElements).toBe(3);
    expect((await api('GET', '/quotas')).body.usage.concurrentSessions).toBe(3);
    // A refused create took no device: every other device is still available.
    expect((await api('GET', '/devices?status=available&size=1')).body.totalElements).toBe(DEVICES - 3);
    // Ending one frees its slot for the next create.
    expectStatus(await api('DELETE', `/sessions/${created[0]!.body.id}`), 200);
    const next = await api('POST', '/sessions', { deviceId: devices.find((d) => !created.some((c) => c.body.deviceId === d.id))!.id });
    expectStatus(next, 201);
    expectStatus(await api('POST', '/sessions', { deviceId: devices.find((d) => !created.some((c) => c.body.deviceId === d.id) && d.id !== next.body.deviceId)!.id }), 403, 'QUOTA_EXCEEDED');
    for (const s of [...created.slice(1), next]) expectStatus(await api('DELETE', `/sessions/${s.body.id}`), 200);
    expect((await api('GET', '/quotas')).body.usage.concurrentSessions).toBe(0);
    await setLimits({ concurrentSessions: null });
  }, 60_000);

  it('refuses a store over the storage limit and stores nothing', async () => {
    const session = await api('POST', '/sessions', { deviceId: devices[0]!.id });
    expectStatus(session, 201);
    const before = (await api('GET', '/quotas')).body.usage.storageBytes as number;
    const folder = `df/company-${a.companyId}`;
    expect(await server.process.platform.blobs.usage(folder)).toBe(before);
    await setLimits({ storageBytes: before + 10 });
    const refused = await api('GET', `/sessions/${session.body.id}/screenshot`);
    expectStatus(refused, 403, 'QUOTA_EXCEEDED');
    expect(refused.body.details).toEqual([expect.objectContaining({ limit: 'storageBytes', value: before + 10 })]);
    expect((await api('GET', `/sessions/${session.body.id}/artifacts`)).body).toEqual([]);
    expect(await server.process.platform.blobs.usage(folder)).toBe(before);
    // Recording would store frames: refused too once the storage is full.
    await setLimits({ storageBytes: before });
    expectStatus(await api('POST', `/sessions/${session.body.id}/recording/start`), 403, 'QUOTA_EXCEEDED');
    expect(await server.process.platform.blobs.usage(folder)).toBe(before);
    // An upload over the limit is refused before it is signed, single or multipart: nothing is stored.
    await setLimits({ storageBytes: before + 1_000 });
    const single = await api('POST', '/files/presigned-upload', { name: 'big.bin', size: 1_001, contentType: 'application/octet-stream' });
    expectStatus(single, 403, 'QUOTA_EXCEEDED');
    expect(single.body.details).toEqual([expect.objectContaining({ limit: 'storageBytes', value: before + 1_000 })]);
    expectStatus(await api('POST', '/files/multipart/initiate', { name: 'big.bin', size: 5_000, contentType: 'application/octet-stream' }), 403, 'QUOTA_EXCEEDED');
    expect((await api('GET', '/files')).body.totalElements ?? (await api('GET', '/files')).body.length).toBe(0);
    expect(await server.process.platform.blobs.usage(folder)).toBe(before);
    expectStatus(await api('POST', '/files/presigned-upload', { name: 'small.bin', size: 1_000, contentType: 'application/octet-stream' }), 201);
    // Raised again, the same store succeeds and is counted.
    await setLimits({ storageBytes: null });
    const shot = await http(server.url, 'GET', `/df/api/sessions/${session.body.id}/screenshot`, { token: a.token });
    expect(shot.status).toBe(200);
    expect((await api('GET', `/sessions/${session.body.id}/artifacts`)).body).toHaveLength(1);
    expect((await api('GET', '/quotas')).body.usage.storageBytes).toBeGreaterThan(before);
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
  }, 60_000);

  it('limits API keys and reserved hours, and only company administrators change limits', async () => {
    await setLimits({ apiKeys: 1, reservationHoursPerMonth: 2 });
    expectStatus(await api('POST', '/keys', { name: 'first' }), 201);
    const second = await api('POST', '/keys', { name: 'second' });
    expectStatus(second, 403, 'QUOTA_EXCEEDED');
    expect(second.body.details).toEqual([expect.objectContaining({ limit: 'apiKeys', value: 1, usage: 1 })]);
    const start = new Date(Date.now() + 3_600_000);
    // Within the same UTC month as the booking's start.
    const iso = (ms: number) => new Date(start.getTime() + ms).toISOString();
    const first = await api('POST', '/reservations', { deviceId: devices[5]!.id, startAt: iso(0), endAt: iso(90 * MIN) });
    expectStatus(first, 201);
    const over = await api('POST', '/reservations', { deviceId: devices[6]!.id, startAt: iso(0), endAt: iso(60 * MIN) });
    expectStatus(over, 403, 'QUOTA_EXCEEDED');
    expect(over.body.details).toEqual([expect.objectContaining({ limit: 'reservationHoursPerMonth', value: 2 })]);
    expectStatus(await api('DELETE', `/reservations/${first.body.id}`), 200);
    expectStatus(await api('POST', '/reservations', { deviceId: devices[6]!.id, startAt: iso(0), endAt: iso(60 * MIN) }).then(async (r) => (await api('DELETE', `/reservations/${r.body.id}`), r)), 201);
    const audit = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-quota-plan&size=50', { token: a.token });
    expect(audit.status).toBe(200);
    expect(audit.body.content.length).toBeGreaterThanOrEqual(1);
    expect(audit.body.content[0].eventType).toBe('DfQuotaPlanSet');
    await setLimits({ apiKeys: null, reservationHoursPerMonth: null });
    // Another company's administrator changes only their own company's plan.
    const other = await signUpCompany(server.url, 'fleet-other');
    expectStatus(await http(server.url, 'PUT', '/df/api/quotas', { token: other.token, body: { limits: { concurrentSessions: 1 } } }), 200);
    expect((await api('GET', '/quotas')).body.limits.concurrentSessions).toBeNull();
  }, 60_000);

  it('refuses sessions once the month’s session minutes are used up', async () => {
    await setLimits({ sessionMinutesPerMonth: 0 });
    const refused = await api('POST', '/sessions', { deviceId: devices[7]!.id });
    expectStatus(refused, 403, 'QUOTA_EXCEEDED');
    expect(refused.body.details).toEqual([expect.objectContaining({ limit: 'sessionMinutesPerMonth', value: 0 })]);
    await setLimits({ sessionMinutesPerMonth: null });
    const session = await api('POST', '/sessions', { deviceId: devices[7]!.id });
    expectStatus(session, 201);
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
  });

  it('keeps quotas, reports and settings to those allowed: df:report:read, df:settings:manage, company administrators', async () => {
    const as = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: tester.token, headers: { 'x-workspace-id': String(a.workspaceId) }, ...(body !== undefined ? { body } : {}) });
    for (const path of ['/quotas', '/reports/sessions', '/reports/device-usage', '/reports/reservations', '/dashboard/stats', '/dashboard/activity', '/dashboard/most-used-devices']) {
      expectStatus(await as('GET', path), 403, 'FORBIDDEN');
    }
    expectStatus(await as('PUT', '/quotas', { limits: { concurrentSessions: 100 } }), 403, 'FORBIDDEN');
    expectStatus(await as('GET', '/settings/session-defaults'), 200);
    expectStatus(await as('PUT', '/settings/session-defaults', { idleTimeoutSeconds: 60, maxSessionSeconds: 600, recordByDefault: false, screenshotFormat: 'png' }), 403, 'FORBIDDEN');
    // A holder of df:report:read who is not an administrator reads the quotas but cannot change them.
    const admin = client(server.url, a.token);
    const role = await admin.post('/roles', { name: 'Fleet reader', permissions: ['df:report:read'] });
    expect((await admin.put(`/users/${tester.id}/roles`, { roleIds: [role.body.id] })).status).toBeLessThan(300);
    await eventually(async () => ((await as('GET', '/quotas')).status === 200 ? true : undefined), { what: 'the new role in force' });
    expectStatus(await as('PUT', '/quotas', { limits: { concurrentSessions: 100 } }), 403, 'FORBIDDEN');
    expect((await api('GET', '/quotas')).body.limits.concurrentSessions).toBeNull();
  });
});

describe('session defaults', () => {
  it('are read, changed (audited) and taken by new sessions: recording, screenshot format, maximum length', async () => {
    const initial = await api('GET', '/settings/session-defaults');
    expectStatus(initial, 200);
    expect(initial.body).toEqual({ idleTimeoutSeconds: 86_400, maxSessionSeconds: 86_400, recordByDefault: false, recordAutomation: true, screenshotFormat: 'png', videoRetentionDays: null });
    expectStatus(await api('PUT', '/settings/session-defaults', { ...initial.body, screenshotFormat: 'gif' }), 400);
    const wanted = { idleTimeoutSeconds: 3_600, maxSessionSeconds: 600, recordByDefault: true, recordAutomation: false, screenshotFormat: 'jpeg', videoRetentionDays: 30 };
    const put = await api('PUT', '/settings/session-defaults', wanted);
    expectStatus(put, 200);
    expect(put.body).toEqual(wanted);
    expect((await api('GET', '/settings/session-defaults')).body).toEqual(wanted);

    const audit = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-session-defaults', { token: a.token });
    expect(audit.body.content.map((e: { eventType: string }) => e.eventType)).toEqual(['DfSessionDefaultsSet']);

    const t0 = Date.now();
    at(new Date(t0).toISOString());
    const session = await api('POST', '/sessions', { deviceId: devices[1]!.id });
    expectStatus(session, 201);
    const status = await api('GET', `/sessions/${session.body.id}/recording/status`);
    expect(status.body.recording).toBe(true);
    const shot = await http(server.url, 'GET', `/df/api/sessions/${session.body.id}/screenshot`, { token: a.token });
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toContain('image/jpeg');
    // Past its workspace's maximum length, the sweeper ends it.
    at(new Date(t0 + 9 * MIN).toISOString());
    await server.process.df!.fleetSweeper.sweep();
    expect((await api('GET', `/sessions/${session.body.id}`)).body.status).toBe('active');
    at(new Date(t0 + 11 * MIN).toISOString());
    await server.process.df!.fleetSweeper.sweep();
    const ended = await api('GET', `/sessions/${session.body.id}`);
    expect(ended.body.status).toBe('ended');
    expect(ended.body.endReason).toBe('max-duration');
    clock = null;
    expectStatus(await api('PUT', '/settings/session-defaults', initial.body), 200);
  }, 60_000);
});

describe('dashboard and reports agree with a scripted history', () => {
  // A day well ahead of the real clock, so nothing else falls in it.
  const base = new Date(Date.now() + 20 * 86_400_000);
  const D = `${base.toISOString().slice(0, 10)}`;
  const next = new Date(Date.parse(`${D}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const t = (hhmm: string, day = D) => `${day}T${hhmm}:00.000Z`;
  const range = `from=${t('00:00')}&to=${new Date(Date.parse(`${next}T00:00:00Z`) + 86_400_000).toISOString()}`;
  const tick = () => server.process.df!.reservations.step();
  const open = async (when: string, device: number, buildName?: string) => {
    at(when);
    const r = await api('POST', '/sessions', { deviceId: devices[device]!.id, ...(buildName ? { buildName } : {}) });
    expectStatus(r, 201);
    return r.body.id as string;
  };
  const close = async (when: string, id: string) => {
    at(when);
    expectStatus(await api('DELETE', `/sessions/${id}`), 200);
  };
  let r1: string;
  let r2: string;
  let r3: string;

  it('plays the history: five sessions (one across midnight), a used booking, a no-show and a cancellation', async () => {
    await close(t('09:30'), await open(t('09:00'), 0, 'b1'));
    await close(t('11:00'), await open(t('10:00'), 1, 'b2'));
    await close(t('13:15'), await open(t('13:00'), 0, 'b1'));
    at(t('12:00'));
    r1 = (await api('POST', '/reservations', { deviceId: devices[2]!.id, startAt: t('14:00'), endAt: t('15:00') })).body.id;
    r2 = (await api('POST', '/reservations', { deviceId: devices[3]!.id, startAt: t('16:00'), endAt: t('17:00') })).body.id;
    r3 = (await api('POST', '/reservations', { deviceId: devices[4]!.id, startAt: t('16:00'), endAt: t('18:00') })).body.id;
    expect([r1, r2, r3].every(Boolean)).toBe(true);
    const stats = await api('GET', '/dashboard/stats');
    expectStatus(stats, 200);
    expect(stats.body.bookingsToday).toBe(3);
    expectStatus(await api('DELETE', `/reservations/${r3}`), 200);
    at(t('14:00'));
    await tick();
    const s4 = await open(t('14:05'), 2);
    at(t('14:10'));
    const during = (await api('GET', '/dashboard/stats')).body;
    expect(during).toMatchObject({ sessionsRunning: 1, bookingsToday: 2, failuresLastDay: 0 });
    expect(during.devices.total).toBe(DEVICES);
    expect(during.devices.byStatus).toEqual(expect.arrayContaining([{ value: 'in_use', count: 1 }]));
    expect(during.devices.byHost).toEqual([{ value: 'fleet-node', count: DEVICES }]);
    await close(t('14:20'), s4);
    at(t('15:00'));
    await tick();
    at(t('16:11'));
    await tick();
    const s5 = await open(t('23:50'), 1, 'b2');
    await close(t('00:20', next), s5);
    const statuses = await Promise.all([r1, r2, r3].map(async (id) => (await api('GET', `/reservations/${id}`)).body.status));
    expect(statuses).toEqual(['ended', 'expired', 'cancelled']);
  }, 60_000);

  it('answers the sessions report (by period, and by build)', async () => {
    const res = await api('GET', `/reports/sessions?${range}`);
    expectStatus(res, 200);
    expect(res.body.rows).toEqual([{ period: D, group: null, sessions: 5, completed: 5, failed: 0, running: 0, totalMinutes: 150, averageMinutes: 30 }]);
    const byBuild = await api('GET', `/reports/sessions?${range}&by=build`);
    expect(byBuild.body.rows.map((r: { group: string | null; sessions: number; totalMinutes: number }) => [r.group, r.sessions, r.totalMinutes])).toEqual([
      [null, 1, 15],
      ['b1', 2, 45],
      ['b2', 2, 90],
    ]);
    const oneDevice = await api('GET', `/reports/sessions?${range}&deviceId=${devices[0]!.id}`);
    expect(oneDevice.body.rows).toEqual([expect.objectContaining({ sessions: 2, totalMinutes: 45 })]);
  });

  it('answers the device-usage report: minutes per device and day (split at midnight) and utilisation of online time', async () => {
    const res = await api('GET', `/reports/device-usage?${range}`);
    expectStatus(res, 200);
    const rows = res.body.rows.map((r: { period: string; deviceName: string; sessions: number; minutesInSession: number; minutesOnline: number; utilisation: number }) => [
      r.period, r.deviceName, r.sessions, r.minutesInSession, r.minutesOnline, r.utilisation,
    ]);
    expect(rows).toEqual([
      [D, 'Fleet 00', 2, 45, 1440, round(45 / 1440)],
      [D, 'Fleet 01', 2, 70, 1440, round(70 / 1440)],
      [D, 'Fleet 02', 1, 15, 1440, round(15 / 1440)],
      // The clock stands at 00:20 of the next day: online 20 minutes so far, all of them in session.
      [next, 'Fleet 01', 0, 20, 20, 1],
    ]);
    const most = await api('GET', `/dashboard/most-used-devices?${range}`);
    expect(most.body.map((d: { deviceName: string; minutesInSession: number; sessions: number }) => [d.deviceName, d.minutesInSession, d.sessions])).toEqual([
      ['Fleet 01', 90, 2],
      ['Fleet 00', 45, 2],
      ['Fleet 02', 15, 1],
    ]);
  });

  it('answers the reservations report: booked vs used vs no-show', async () => {
    const res = await api('GET', `/reports/reservations?${range}`);
    expectStatus(res, 200);
    expect(res.body.rows).toEqual([{ period: D, bookings: 3, bookedHours: 2, used: 1, noShows: 1, cancelled: 1 }]);
    const weekly = await api('GET', `/reports/reservations?${range}&groupBy=week`);
    expect(weekly.body.rows).toHaveLength(1);
    expect(weekly.body.rows[0]).toMatchObject({ bookings: 3, used: 1, noShows: 1 });
    // Weeks start on Monday.
    expect(new Date(`${weekly.body.rows[0].period}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('carries the same rows in CSV (format=csv or Accept: text/csv) as in JSON', async () => {
    for (const report of ['sessions', 'device-usage', 'reservations']) {
      const json = await api('GET', `/reports/${report}?${range}`);
      const byParam = await api('GET', `/reports/${report}?${range}&format=csv`);
      const byAccept = await api('GET', `/reports/${report}?${range}`, undefined, { accept: 'text/csv' });
      for (const csv of [byParam, byAccept]) {
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-type')).toContain('text/csv');
        const [header, ...lines] = (csv.body as string).trimEnd().split('\r\n');
        const columns = header!.split(',');
        expect(columns).toEqual(Object.keys(json.body.rows[0]));
        expect(lines.map((l) => l.split(','))).toEqual(json.body.rows.map((r: Record<string, unknown>) => columns.map((c) => (r[c] === null ? '' : String(r[c])))));
      }
    }
  });

  it('lists the activity, newest first', async () => {
    const res = await api('GET', '/dashboard/activity?size=200');
    expectStatus(res, 200);
    const mine = res.body.content.filter((e: { at: string }) => e.at >= t('00:00'));
    const kinds = mine.map((e: { kind: string }) => e.kind);
    const count = (k: string) => kinds.filter((x: string) => x === k).length;
    expect([count('session.started'), count('session.ended'), count('reservation.booked'), count('reservation.cancelled'), count('reservation.expired'), count('reservation.ended')]).toEqual([5, 5, 3, 1, 1, 1]);
    expect(kinds[0]).toBe('session.ended');
    expect(mine[0].sessionId).toBeTruthy();
    const filtered = await api('GET', '/dashboard/activity?kind=reservation.expired');
    expect(filtered.body.content.map((e: { reservationId: string }) => e.reservationId)).toEqual([r2]);
  });

  it('refuses bad report input with 400 naming the field', async () => {
    expectStatus(await api('GET', `/reports/sessions?from=${t('10:00')}&to=${t('09:00')}`), 400);
    expectStatus(await api('GET', '/reports/sessions?groupBy=month'), 400);
    expectStatus(await api('GET', '/reports/sessions?timeZone=Mars/Olympus'), 400);
    expectStatus(await api('GET', '/reports/sessions?from=yesterday'), 400);
  });

  it('cuts periods in the requested zone', async () => {
    // In Asia/Tokyo (UTC+9) the 23:50 session starts on the next local day.
    const res = await api('GET', `/reports/sessions?${range}&timeZone=Asia/Tokyo`);
    expect(res.body.rows.map((r: { period: string; sessions: number }) => [r.period, r.sessions])).toEqual([
      [D, 4],
      [next, 1],
    ]);
  });
});

const round = (x: number) => Math.round(x * 10_000) / 10_000;
