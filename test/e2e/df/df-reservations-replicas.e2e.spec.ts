import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { client, createActiveUser } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * A booking's warning with two replicas of one deployment (one PostgreSQL database, Redis and NATS):
 * both run the reservation ticker. The viewers of the session on each replica are told, and the
 * session's timeline gets the warning once, not once per replica.
 */
const ADMIN = { email: 'farm-bookings@example.com', password: 'farm-password-5' };
const MIN = 60_000;
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let dataDir: string;
let a: TestServer;
let b: TestServer;
let admin: string;
let member: { token: string };
let workspaceId: number;

beforeAll(async () => {
  deployment = await sharedDeployment();
  smtp = await startSmtpListener();
  dataDir = mkdtempSync(join(tmpdir(), 'df-bookings-'));
  const shared = {
    ...deployment.env,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    DF_SESSION_IDLE_TIMEOUT: '1d',
  };
  a = await startTestServer({
    ...shared,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ hostId: `book-${randomBytes(3).toString('hex')}`, nodeName: 'book-node', heartbeatMs: 300, devices: [{ provider: 'simulated', name: 'Booked sim', prepareMs: 20 }] }),
  });
  b = await startTestServer({ ...shared, AGENT_ENABLED: 'false' });
  const login = (await http(a.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
  admin = login.token;
  const org = client(a.url, admin);
  workspaceId = ((await org.get('/workspaces/accessible')).body as { id: number }[])[0]!.id;
  const role = await org.post('/roles', { name: 'Device tester', permissions: ['df:device:read', 'df:session:read', 'df:session:create'] });
  expect(role.status).toBe(201);
  const user = await createActiveUser(a.url, org, smtp.mails, { email: `tester-${process.pid}@bookings.test`, roleIds: [role.body.id] });
  expect((await org.post(`/workspaces/${workspaceId}/access/users`, { userId: user.id })).status).toBeLessThan(300);
  member = { token: user.token };
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await smtp?.stop();
  await deployment?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (server: TestServer, token: string, method: string, path: string, body?: unknown) =>
  http(server.url, method, `/df/api${path}`, { token, headers: { 'x-workspace-id': String(workspaceId) }, ...(body !== undefined ? { body } : {}) });

describe('a booking coming up on a device in use, with two replicas', () => {
  it('tells the viewers on both replicas and writes the warning on the timeline once', async () => {
    const device = await eventually(async () => (await api(a, admin, 'GET', '/devices?status=available')).body.content?.[0] as { id: string } | undefined, { what: 'an available device', timeoutMs: 30_000 });
    const session = await api(a, member.token, 'POST', '/sessions', { deviceId: device.id });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const sessionId = session.body.id as string;
    const viewers = [a, b].map((server) => {
      const v = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}`);
      v.send({ type: 'auth', token: member.token, workspaceId });
      return v;
    });
    for (const v of viewers) await v.next((m) => m.type === 'hello');

    // Another person books the device from 3 minutes on: inside the warning window of every ticker.
    const booking = await api(a, admin, 'POST', '/reservations', { deviceId: device.id, startAt: new Date(Date.now() + 3 * MIN).toISOString(), endAt: new Date(Date.now() + 63 * MIN).toISOString() });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    // Both replicas take a step (their own tickers run too); each tells the viewers connected to it.
    await Promise.all([a.process.df!.reservations.step(), b.process.df!.reservations.step()]);
    for (const [i, v] of viewers.entries()) {
      const server = i === 0 ? a : b;
      const told = await eventually(
        async () => {
          await server.process.df!.reservations.step();
          return v.messages.find((m) => m.type === 'reservation');
        },
        { what: `the warning on replica ${i === 0 ? 'a' : 'b'}`, timeoutMs: 30_000 },
      );
      expect(told).toMatchObject({ event: 'reservation-upcoming', reservationId: booking.body.id });
    }

    // Every replica has passed its warning step for this session (each writes, if it does, before it
    // tells its viewers). A tap after that, once on the timeline, shows every earlier entry is there too.
    expect((await api(a, member.token, 'POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 1, y: 1 })).status).toBe(200);
    const activities = await eventually(
      async () => {
        const list = (await api(b, member.token, 'GET', `/sessions/${sessionId}/activities?size=100`)).body.content as { kind: string; detail: Record<string, unknown> }[];
        return list.some((x) => x.detail.action === 'tap') ? list : undefined;
      },
      { what: 'the tap on the timeline', timeoutMs: 30_000 },
    );
    expect(activities.filter((x) => x.detail.event === 'reservation-upcoming')).toHaveLength(1);
    for (const v of viewers) v.socket.close();
    expect((await api(a, member.token, 'DELETE', `/sessions/${sessionId}`)).status).toBe(200);
  });
});
