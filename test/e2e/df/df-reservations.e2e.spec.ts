import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Device reservations over real HTTP on simulated devices: exclusive bookings under concurrency, a
 * booked device refusing other users' sessions (REST and WebDriver) while its holder uses it, and the
 * ticker's activation, expiry and end. Time is moved by replacing the platform clock and driving one
 * ticker step (`df.reservations.step()`), never by sleeping.
 */
const GRACE_MS = 10 * 60_000;
const MIN = 60_000;
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let other: SignedUpCompany;
let member: { id: number; token: string };
let watcherToken: string;
let devices: string[];

const realNow = () => new Date();
/** Moves the server's clock `ms` ahead of the real one. */
const shiftClock = (ms: number) => {
  server.process.platform.now = () => new Date(Date.now() + ms);
};
const tick = () => server.process.df!.reservations.step();
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

const as = (token: string, workspaceId?: number) => {
  const headers: Record<string, string> = workspaceId ? { 'x-workspace-id': String(workspaceId) } : {};
  return {
    get: (path: string) => http(server.url, 'GET', `/df/api${path}`, { token, headers }),
    post: (path: string, body: unknown = {}) => http(server.url, 'POST', `/df/api${path}`, { token, body, headers }),
    put: (path: string, body: unknown) => http(server.url, 'PUT', `/df/api${path}`, { token, body, headers }),
    delete: (path: string) => http(server.url, 'DELETE', `/df/api${path}`, { token, headers }),
  };
};
let A: ReturnType<typeof as>;
let B: ReturnType<typeof as>;

const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(errorCode(res)).toBe(code);
};
const book = (api: ReturnType<typeof as>, deviceId: string, from: number, to: number, note?: string) =>
  api.post('/reservations', { deviceId, startAt: iso(from), endAt: iso(to), ...(note ? { note } : {}) });
const deviceStatus = async (api: ReturnType<typeof as>, deviceId: string) => (await api.get(`/devices/${deviceId}`)).body.status as string;
const endSession = async (api: ReturnType<typeof as>, sessionId: string) => expectStatus(await api.delete(`/sessions/${sessionId}`), 200);

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    DF_RESERVATION_GRACE: `${GRACE_MS}ms`,
    DF_SESSION_IDLE_TIMEOUT: '1d',
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'booking-node',
      heartbeatMs: 300,
      devices: Array.from({ length: 5 }, (_, i) => ({ provider: 'simulated' as const, name: `Bookable ${i + 1}`, prepareMs: 20 })),
    }),
  });
  // The first company signed up: the one that sees the in-process agent's devices.
  a = await signUpCompany(server.url, 'res');
  const admin = client(server.url, a.token);
  const role = await admin.post('/roles', { name: 'Device tester', permissions: ['df:device:read', 'df:session:read', 'df:session:create', 'df:reservation:manage'] });
  expect(role.status).toBe(201);
  const user = await createActiveUser(server.url, admin, smtp.mails, { email: `booker-${process.pid}@res.test`, roleIds: [role.body.id] });
  expect((await admin.post(`/workspaces/${a.workspaceId}/access/users`, { userId: user.id })).status).toBeLessThan(300);
  member = { id: user.id, token: user.token };
  const readRole = await admin.post('/roles', { name: 'Device watcher', permissions: ['df:device:read'] });
  const watcher = await createActiveUser(server.url, admin, smtp.mails, { email: `watcher-${process.pid}@res.test`, roleIds: [readRole.body.id] });
  expect((await admin.post(`/workspaces/${a.workspaceId}/access/users`, { userId: watcher.id })).status).toBeLessThan(300);
  watcherToken = watcher.token;
  other = await signUpCompany(server.url, 'res-other');
  A = as(a.token);
  B = as(member.token, a.workspaceId);
  devices = await eventually(async () => {
    const r = await A.get('/devices?status=available&sortBy=name');
    return r.body.totalElements === 5 ? (r.body.content as { id: string }[]).map((d) => d.id) : undefined;
  }, { what: 'five simulated devices', timeoutMs: 30_000 });
}, 120_000);

afterEach(() => {
  server.process.platform.now = realNow;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('booking', () => {
  it('gives 20 concurrent overlapping bookings of one device exactly one winner; the rest are told its range and holder', async () => {
    const device = devices[0]!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(i % 2 === 0 ? A : B, device, 60 * MIN + i * MIN, 120 * MIN + i * MIN, `race ${i}`)),
    );
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    const winner = won[0]!.body;
    expect(winner).toMatchObject({ deviceId: device, status: 'scheduled', workspaceId: a.workspaceId });
    expect(Object.keys(winner).sort()).toEqual(['createdAt', 'deviceId', 'endAt', 'id', 'maintenanceConflict', 'note', 'startAt', 'status', 'userId', 'workspaceId']);
    for (const r of lost) {
      expect(errorCode(r)).toBe('RESERVATION_OVERLAP');
      expect(r.body.details[0]).toMatchObject({ reservationId: winner.id, startAt: winner.startAt, endAt: winner.endAt, userId: winner.userId });
    }
    // The device's booking stream agrees: one booking.
    const events = await server.process.platform.store.readStream(`device-bookings-${device}`);
    expect(events.filter((e) => e.type === 'DeviceReservationScheduled')).toHaveLength(1);
    // A scheduled booking does not hold the device yet.
    expect(await deviceStatus(B, device)).toBe('available');
    const holder = winner.userId === a.userId ? A : B;
    expect((await holder.delete(`/reservations/${winner.id}`)).body.status).toBe('cancelled');
  });

  it('refuses bad ranges with 400 VALIDATION_FAILED, an unknown device with 404, and another company the reservation with 404', async () => {
    const device = devices[4]!;
    expectStatus(await book(A, device, 2 * 60 * MIN, 60 * MIN), 400, 'VALIDATION_FAILED');
    expectStatus(await book(A, device, -3 * 60 * MIN, -2 * 60 * MIN), 400, 'VALIDATION_FAILED');
    expectStatus(await book(A, device, 60 * MIN, 8 * 24 * 60 * MIN), 400, 'VALIDATION_FAILED');
    expectStatus(await A.post('/reservations', { deviceId: device, startAt: '2030-01-01T10:00:00', endAt: '2030-01-01T11:00:00' }), 400, 'VALIDATION_FAILED');
    expectStatus(await book(A, 'no-such-device', 60 * MIN, 120 * MIN), 404, 'NOT_FOUND');
    const mine = await book(A, device, 60 * MIN, 120 * MIN);
    expectStatus(mine, 201);
    expectStatus(await as(other.token).get(`/reservations/${mine.body.id}`), 404, 'NOT_FOUND');
    expectStatus(await as(other.token).delete(`/reservations/${mine.body.id}`), 404, 'NOT_FOUND');
    expectStatus(await A.put(`/reservations/${mine.body.id}`, {}), 400, 'VALIDATION_FAILED');
    expectStatus(await A.delete(`/reservations/${mine.body.id}`), 200);
  });
});

describe('a refused booking', () => {
  it('names the booking in the way by its range, and by its holder\'s name to callers who may see the company\'s users or hold it', async () => {
    const device = devices[3]!;
    const adminName = (await client(server.url, a.token).get('/users/me')).body.name as string;
    const memberName = `booker-${process.pid}@res.test`;
    const first = await book(A, device, 60 * MIN, 120 * MIN);
    expectStatus(first, 201);
    const second = await book(B, device, 180 * MIN, 240 * MIN);
    expectStatus(second, 201);
    try {
      // The member may not see the company's users: the range and holder id, no name.
      const hidden = await book(B, device, 90 * MIN, 150 * MIN);
      expectStatus(hidden, 409, 'RESERVATION_OVERLAP');
      expect(hidden.body.details).toHaveLength(1);
      expect(hidden.body.details[0]).toMatchObject({ reservationId: first.body.id, startAt: first.body.startAt, endAt: first.body.endAt, userId: a.userId });
      expect(hidden.body.details[0]).not.toHaveProperty('holderName');
      expect(new Date(hidden.body.details[0].startAt).toISOString()).toBe(hidden.body.details[0].startAt);
      // Its own booking in the way is named to it.
      const own = await book(B, device, 200 * MIN, 210 * MIN);
      expect(own.body.details[0]).toMatchObject({ reservationId: second.body.id, holderName: memberName });
      // The administrator (USER_READ) is told every holder's name, the earliest booking first.
      const both = await book(A, device, 100 * MIN, 200 * MIN);
      expectStatus(both, 409, 'RESERVATION_OVERLAP');
      expect(both.body.details.map((d: { reservationId: string; holderName: string }) => [d.reservationId, d.holderName])).toEqual([
        [first.body.id, adminName],
        [second.body.id, memberName],
      ]);
      // Moving a booking onto another one is refused the same way.
      const moved = await A.put(`/reservations/${first.body.id}`, { endAt: iso(200 * MIN) });
      expectStatus(moved, 409, 'RESERVATION_OVERLAP');
      expect(moved.body.details[0]).toMatchObject({ reservationId: second.body.id, holderName: memberName });
    } finally {
      await A.delete(`/reservations/${first.body.id}`);
      await B.delete(`/reservations/${second.body.id}`);
    }
  });

  it('refuses a start in the past with 400 VALIDATION_FAILED naming startAt, and books nothing', async () => {
    const device = devices[3]!;
    const before = (await A.get(`/reservations?deviceId=${device}`)).body.totalElements as number;
    const past = await book(A, device, -10 * MIN, 60 * MIN);
    expectStatus(past, 400, 'VALIDATION_FAILED');
    expect(past.body.details).toEqual([expect.objectContaining({ path: 'startAt', message: 'must not be in the past' })]);
    expect((await A.get(`/reservations?deviceId=${device}`)).body.totalElements).toBe(before);
  });
});

describe('a booked device', () => {
  it('is reserved to everyone else (sessions and WebDriver) while its holder opens, leaves, rejoins and ends', async () => {
    const device = devices[1]!;
    const booking = await book(A, device, 0, 60 * MIN, 'release check');
    expectStatus(booking, 201);
    expect(booking.body.status).toBe('active');
    const id = booking.body.id as string;
    expect(await deviceStatus(B, device)).toBe('reserved');
    expect((await B.get('/devices?size=50')).body.content.find((d: { id: string }) => d.id === device).status).toBe('reserved');

    const refused = await B.post('/sessions', { deviceId: device });
    expectStatus(refused, 409, 'DEVICE_RESERVED');
    expect(refused.body.details[0]).toMatchObject({ reservationId: id, userId: a.userId, startAt: booking.body.startAt, endAt: booking.body.endAt });
    const wd = await http(server.url, 'POST', '/df/wd/session', { token: member.token, headers: { 'x-workspace-id': String(a.workspaceId) }, body: { capabilities: { alwaysMatch: { 'df:deviceId': device } } } });
    expect(wd.status).toBe(500);
    expect(wd.body.value).toMatchObject({ error: 'session not created', data: { code: 'DEVICE_RESERVED' } });
    expect(wd.body.value.message).toContain('reserved');
    // A request the queue serves skips the booked device (it matches by name, so it waits, and gives up).
    const queued = await http(server.url, 'POST', '/df/wd/session', {
      token: member.token,
      headers: { 'x-workspace-id': String(a.workspaceId) },
      body: { capabilities: { alwaysMatch: { platformName: 'android', 'appium:deviceName': 'Bookable 2', 'df:queueTimeoutSeconds': 1 } } },
    });
    expect(queued.status).toBe(500);
    expect(queued.body.value).toMatchObject({ error: 'session not created' });
    expect(queued.body.value.message).toContain('became free');
    expect((await B.get(`/sessions?deviceId=${device}`)).body.totalElements).toBe(0);

    // The holder opens a session normally, leaves it, and the device stays reserved to others.
    const first = await A.post('/sessions', { deviceId: device });
    expectStatus(first, 201);
    await endSession(A, first.body.id);
    expect(await deviceStatus(B, device)).toBe('reserved');
    expectStatus(await B.post('/sessions', { deviceId: device }), 409, 'DEVICE_RESERVED');

    expectStatus(await B.post(`/reservations/${id}/rejoin`), 403, 'FORBIDDEN');
    const again = await A.post(`/reservations/${id}/rejoin`);
    expectStatus(again, 201);
    expect(again.body).toMatchObject({ deviceId: device, status: 'active' });
    expect((await A.get(`/devices/${device}`)).body.status).toBe('in_use');

    // Another user cannot end it; its holder can, and the device is free at once.
    expectStatus(await B.post(`/reservations/${id}/end`), 403, 'FORBIDDEN');
    const ended = await A.post(`/reservations/${id}/end`);
    expectStatus(ended, 200);
    expect(ended.body.status).toBe('ended');
    expect((await A.get(`/sessions/${again.body.id}`)).body).toMatchObject({ status: 'ended', endReason: 'reservation-ended' });
    expect(await deviceStatus(B, device)).toBe('available');
    expectStatus(await A.post(`/reservations/${id}/end`), 409, 'RESERVATION_NOT_ACTIVE');
    expectStatus(await A.post(`/reservations/${id}/rejoin`), 409, 'RESERVATION_NOT_ACTIVE');
    const theirs = await B.post('/sessions', { deviceId: device });
    expectStatus(theirs, 201);
    await endSession(B, theirs.body.id);
  });

  it('warns another user\'s session before the booking, ends it at the start (reserved), and ends the booking at its end', async () => {
    const device = devices[2]!;
    const theirs = await B.post('/sessions', { deviceId: device, name: 'running into a booking' });
    expectStatus(theirs, 201);
    const booking = await book(A, device, 3 * MIN, 63 * MIN);
    expectStatus(booking, 201);
    expect(booking.body.status).toBe('scheduled');
    const id = booking.body.id as string;
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${theirs.body.id}`);
    viewer.send({ type: 'auth', token: member.token, workspaceId: a.workspaceId });
    await viewer.next((m) => m.type === 'hello');

    await tick();
    expect(await viewer.next((m) => m.type === 'reservation')).toMatchObject({ event: 'reservation-upcoming', reservationId: id, startAt: booking.body.startAt, endAt: booking.body.endAt });
    const activities = await B.get(`/sessions/${theirs.body.id}/activities?size=50`);
    const warning = (activities.body.content as { kind: string; detail: Record<string, unknown> }[]).find((x) => x.detail.event === 'reservation-upcoming');
    expect(warning).toMatchObject({ kind: 'lifecycle', detail: { reservationId: id, startAt: booking.body.startAt } });
    expect((await B.get(`/sessions/${theirs.body.id}`)).body.status).toBe('active');

    shiftClock(3 * MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('active');
    expect((await B.get(`/sessions/${theirs.body.id}`)).body).toMatchObject({ status: 'ended', endReason: 'reserved' });
    expect(await viewer.next((m) => m.type === 'ended')).toMatchObject({ reason: 'reserved' });
    await viewer.closed;
    expect(await deviceStatus(B, device)).toBe('reserved');

    const mine = await A.post('/sessions', { deviceId: device });
    expectStatus(mine, 201);
    // Used: the grace passes without expiry.
    shiftClock(3 * MIN + GRACE_MS + MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('active');

    shiftClock(63 * MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('ended');
    expect((await A.get(`/sessions/${mine.body.id}`)).body).toMatchObject({ status: 'ended', endReason: 'reservation-ended' });
    expect(await deviceStatus(B, device)).toBe('available');
  });

  it('expires a booking whose holder never opens a session after the grace, and frees the device then', async () => {
    const device = devices[3]!;
    const booking = await book(A, device, 30 * MIN, 90 * MIN);
    expectStatus(booking, 201);
    const id = booking.body.id as string;
    // Free before its start.
    const before = await B.post('/sessions', { deviceId: device });
    expectStatus(before, 201);
    await endSession(B, before.body.id);

    shiftClock(30 * MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('active');
    expectStatus(await B.post('/sessions', { deviceId: device }), 409, 'DEVICE_RESERVED');

    shiftClock(30 * MIN + GRACE_MS - MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('active');

    shiftClock(30 * MIN + GRACE_MS);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('expired');
    expect(await deviceStatus(B, device)).toBe('available');
    const now = await B.post('/sessions', { deviceId: device });
    expectStatus(now, 201);
    await endSession(B, now.body.id);
  });

  it('counts a session the holder opened before the start as using the booking (no expiry)', async () => {
    const device = devices[0]!;
    const session = await A.post('/sessions', { deviceId: device, name: 'early' });
    expectStatus(session, 201);
    const booking = await book(A, device, 30 * MIN, 90 * MIN);
    expectStatus(booking, 201);
    const id = booking.body.id as string;
    shiftClock(30 * MIN);
    await tick();
    shiftClock(30 * MIN + GRACE_MS + MIN);
    await tick();
    expect((await A.get(`/reservations/${id}`)).body.status).toBe('active');
    expect((await A.get(`/sessions/${session.body.id}`)).body.status).toBe('active');
    expect((await A.delete(`/reservations/${id}`)).body.status).toBe('ended');
    expect((await A.get(`/sessions/${session.body.id}`)).body).toMatchObject({ status: 'ended', endReason: 'reservation-ended' });
    expect(await deviceStatus(B, device)).toBe('available');
  });
});

describe('changing bookings', () => {
  it('cancels a scheduled booking (its range is free again), reschedules under the overlap rule, and keeps others from changing it', async () => {
    const device = devices[4]!;
    const first = await book(A, device, 2 * 60 * MIN, 3 * 60 * MIN);
    expectStatus(first, 201);
    expectStatus(await book(B, device, 2 * 60 * MIN, 3 * 60 * MIN), 409, 'RESERVATION_OVERLAP');
    const cancelled = await A.delete(`/reservations/${first.body.id}`);
    expectStatus(cancelled, 200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await A.delete(`/reservations/${first.body.id}`)).body.status).toBe('cancelled');

    const theirs = await book(B, device, 2 * 60 * MIN, 3 * 60 * MIN, 'nightly');
    expectStatus(theirs, 201);
    const later = await book(A, device, 4 * 60 * MIN, 5 * 60 * MIN);
    expectStatus(later, 201);
    const moved = await B.put(`/reservations/${theirs.body.id}`, { endAt: iso(3.5 * 60 * MIN), note: 'nightly, longer' });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject({ note: 'nightly, longer', startAt: theirs.body.startAt });
    expect(Date.parse(moved.body.endAt)).toBeGreaterThan(Date.parse(theirs.body.endAt));
    const clash = await B.put(`/reservations/${theirs.body.id}`, { endAt: iso(4.5 * 60 * MIN) });
    expectStatus(clash, 409, 'RESERVATION_OVERLAP');
    expect(clash.body.details[0]).toMatchObject({ reservationId: later.body.id, userId: a.userId });
    // The member holds no df:session:manage: another user's booking is not theirs to change.
    expectStatus(await B.delete(`/reservations/${later.body.id}`), 403, 'FORBIDDEN');
    expectStatus(await B.put(`/reservations/${later.body.id}`, { note: 'mine now' }), 403, 'FORBIDDEN');
    // The company administrator may.
    expect((await A.put(`/reservations/${theirs.body.id}`, { note: 'checked' })).body.note).toBe('checked');
  });

  it('lists with filters (device, holder, status, time range, mine) and pages', async () => {
    const device = devices[4]!;
    const page = async (query: string) => (await A.get(`/reservations?${query}`)).body as { content: { id: string; userId: number; status: string; deviceId: string }[]; totalElements: number };
    const all = await page(`deviceId=${device}&size=100`);
    expect(all.totalElements).toBeGreaterThanOrEqual(4);
    expect(all.content.every((r) => r.deviceId === device)).toBe(true);
    expect((await page(`deviceId=${device}&userId=${member.id}`)).content.every((r) => r.userId === member.id)).toBe(true);
    expect((await page(`deviceId=${device}&status=cancelled`)).content.every((r) => r.status === 'cancelled')).toBe(true);
    const two = await page(`deviceId=${device}&status=cancelled&status=scheduled&size=100`);
    expect(new Set(two.content.map((r) => r.status))).toEqual(new Set(['cancelled', 'scheduled']));
    const mine = (await B.get(`/reservations?mine=true&deviceId=${device}`)).body;
    expect(mine.totalElements).toBe(1);
    expect(mine.content[0].userId).toBe(member.id);
    const window = await page(`deviceId=${device}&status=scheduled&from=${encodeURIComponent(iso(3.75 * 60 * MIN))}&to=${encodeURIComponent(iso(6 * 60 * MIN))}`);
    expect(window.content.map((r) => r.userId)).toEqual([a.userId]);
    const paged = await page(`deviceId=${device}&size=1&page=1`);
    expect(paged).toMatchObject({ totalElements: all.totalElements, content: [expect.objectContaining({ id: all.content[1]!.id })] });
    expectStatus(await A.get('/reservations?status=nope'), 400, 'VALIDATION_FAILED');
    expect((await as(other.token).get('/reservations')).body.totalElements).toBe(0);
  });

  it('lets df:device:read see bookings, and only df:reservation:manage make them', async () => {
    const watcher = as(watcherToken, a.workspaceId);
    const list = await watcher.get('/reservations?size=1');
    expectStatus(list, 200);
    expect(list.body.totalElements).toBeGreaterThan(0);
    expectStatus(await watcher.get(`/reservations/${list.body.content[0].id}`), 200);
    expectStatus(await book(watcher, devices[4]!, 20 * 60 * MIN, 21 * 60 * MIN), 403, 'FORBIDDEN');
    expectStatus(await watcher.delete(`/reservations/${list.body.content[0].id}`), 403, 'FORBIDDEN');
  });
});
