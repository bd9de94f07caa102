import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHealthcheckModule } from '#services/healthcheck/index.js';
import { createOrganizationModule } from '#services/organization/index.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';

/**
 * Health checks over real HTTP: API keys (X-API-KEY), checks and their push tokens, heartbeats and
 * metrics, the reaper turning an overdue check down and a heartbeat bringing it back, and the module
 * entitlement. Time is moved by replacing the platform clock the module reads (`platform.now`).
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
const HC = '/healthcheck/api/v1';

const as = (token: string, headers: Record<string, string> = {}) => ({
  get: (path: string) => http(server.url, 'GET', `${HC}${path}`, { token, headers }),
  post: (path: string, body: unknown = {}) => http(server.url, 'POST', `${HC}${path}`, { token, body, headers }),
  put: (path: string, body: unknown = {}) => http(server.url, 'PUT', `${HC}${path}`, { token, body, headers }),
  delete: (path: string) => http(server.url, 'DELETE', `${HC}${path}`, { token, headers }),
});
const withKey = (key: string) => ({
  get: (path: string) => http(server.url, 'GET', `${HC}${path}`, { headers: { 'x-api-key': key } }),
  post: (path: string, body: unknown = {}) => http(server.url, 'POST', `${HC}${path}`, { body, headers: { 'x-api-key': key } }),
  put: (path: string, body: unknown = {}) => http(server.url, 'PUT', `${HC}${path}`, { body, headers: { 'x-api-key': key } }),
  delete: (path: string) => http(server.url, 'DELETE', `${HC}${path}`, { headers: { 'x-api-key': key } }),
});
const push = (kind: 'heartbeat' | 'metrics', token: string, body?: unknown) =>
  http(server.url, 'POST', `${HC}/${kind}/${token}`, body === undefined ? {} : { body });

/** Polls `probe` until `done` holds, up to a deadline; returns the last value. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setImmediate(r));
  }
}

const realNow = () => new Date();
/** Moves the server's clock `ms` ahead of the real one. */
const shiftClock = (ms: number) => {
  server.process.platform.now = () => new Date(Date.now() + ms);
};

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url, AGENT_ENABLED: 'false', HEALTHCHECK_REAPER_INTERVAL: '50ms' });
  a = await signUpCompany(server.url, 'hc');
}, 120_000);

afterEach(() => {
  server.process.platform.now = realNow;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const newCheck = async (body: Record<string, unknown> = {}) => {
  const r = await as(a.token).post('/checks', { name: 'Nightly backup', intervalSeconds: 60, graceSeconds: 30, ...body });
  expect(r.status).toBe(201);
  return r.body as { id: string; token: string; status: string };
};

describe('health-check API keys', () => {
  it('creates a key shown once, lists it without its value, and a revoked key is refused with 401', async () => {
    const created = await as(a.token).post('/api-keys', { name: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^hck_[A-Za-z0-9_-]{40,}$/);
    expect(created.headers.get('cache-control')).toBe('no-store');

    const list = await as(a.token).get('/api-keys');
    expect(list.status).toBe(200);
    const listed = list.body.content.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'CI', prefix: created.body.prefix, revoked: false, createdBy: a.userId });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);

    // The key acts as its creator in its workspace.
    const check = await withKey(created.body.key).post('/checks', { name: 'by key', intervalSeconds: 10 });
    expect(check.status).toBe(201);
    expect(check.body.createdBy).toBe(a.userId);
    expect((await withKey(created.body.key).get('/checks')).status).toBe(200);

    expect((await as(a.token).delete(`/api-keys/${created.body.id}`)).status).toBe(204);
    const refused = await withKey(created.body.key).get('/checks');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    expect((await as(a.token).get('/api-keys')).body.content.find((k: { id: string }) => k.id === created.body.id).revoked).toBe(true);
  });

  it('refuses an unknown key, and a key cannot manage keys', async () => {
    expect((await withKey('hck_not-a-real-key-at-all-0000000000000000').get('/checks')).status).toBe(401);
    const key = (await as(a.token).post('/api-keys', { name: 'no minting' })).body.key as string;
    expect((await withKey(key).get('/api-keys')).status).toBe(401);
    expect((await withKey(key).post('/api-keys', { name: 'child' })).status).toBe(401);
  });

  it('needs HEALTHCHECK_MANAGE to manage keys and checks; HEALTHCHECK_READ to read', async () => {
    const roles = await client(server.url, a.token).get('/roles');
    const viewer = roles.body.find((r: { name: string }) => r.name === 'Viewer');
    const user = await createActiveUser(server.url, client(server.url, a.token), smtp.mails, { email: `viewer-${Date.now()}@hc.test`, roleIds: [viewer.id] });
    expect((await client(server.url, a.token).post(`/workspaces/${a.workspaceId}/access/users`, { userId: user.id })).status).toBeLessThan(300);
    const v = as(user.token, { 'x-workspace-id': String(a.workspaceId) });
    expect((await v.post('/api-keys', { name: 'x' })).body.code).toBe('FORBIDDEN');
    expect((await v.post('/checks', { name: 'x', intervalSeconds: 10 })).body.code).toBe('FORBIDDEN');
    expect((await v.get('/checks')).status).toBe(200);
  });

  it('rejects bad input with 400 and a stable code', async () => {
    const r = await as(a.token).post('/api-keys', { name: '' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
    const c = await as(a.token).post('/checks', { name: 'x', intervalSeconds: 0 });
    expect(c.status).toBe(400);
    expect(errorCode(c)).toBe('VALIDATION_FAILED');
    expect(c.body.details.map((d: { path: string }) => d.path)).toContain('intervalSeconds');
  });
});

describe('checks, heartbeats and metrics', () => {
  it('creates a check with a push token; a heartbeat turns it up and is listed', async () => {
    const check = await newCheck({ tags: ['ops'], description: 'db dump' });
    expect(check.status).toBe('new');
    expect(check.token).toMatch(/^hct_/);
    const hb = await push('heartbeat', check.token);
    expect(hb.status).toBe(202);
    const got = await until(
      () => as(a.token).get(`/checks/${check.id}`),
      (r) => r.body.status === 'up',
    );
    expect(got.body).toMatchObject({ status: 'up', heartbeatCount: 1, tags: ['ops'], description: 'db dump' });
    expect(got.body.lastHeartbeatAt).toBe(hb.body.receivedAt);
    expect(got.body.recentHeartbeats).toEqual([{ receivedAt: hb.body.receivedAt, status: 'up', message: null }]);
    const list = await as(a.token).get('/checks?status=up');
    expect(list.body.content.map((c: { id: string }) => c.id)).toContain(check.id);
  });

  it('answers 404 to a heartbeat or metrics push with an unknown token and records nothing', async () => {
    const check = await newCheck();
    await push('heartbeat', check.token);
    // The heartbeat is answered 202 before the check's read model has it: wait for it, or the list taken
    // as "before" could be the one from before the heartbeat.
    await until(
      () => as(a.token).get(`/checks/${check.id}`),
      (r) => r.body.status === 'up',
    );
    const before = await as(a.token).get('/checks?size=200');
    const samplesBefore = await as(a.token).get(`/checks/${check.id}/metrics`);
    for (const token of ['hct_unknownunknownunknownunknown', 'not-even-a-token', `${check.token}x`]) {
      const hb = await push('heartbeat', token, { status: 'up' });
      expect(hb.status).toBe(404);
      expect(hb.body.code).toBe('NOT_FOUND');
      expect((await push('metrics', token, { samples: [{ name: 'cpu', value: 1 }] })).status).toBe(404);
    }
    expect((await as(a.token).get('/checks?size=200')).body).toEqual(before.body);
    expect((await as(a.token).get(`/checks/${check.id}/metrics`)).body).toEqual(samplesBefore.body);
  });

  it('stores valid metric samples and reads them back by name and time', async () => {
    const check = await newCheck();
    const at = new Date(Date.now() - 60_000).toISOString();
    const r = await push('metrics', check.token, {
      samples: [
        { name: 'queue.depth', value: 12, unit: 'items', tags: { region: 'eu' }, at },
        { name: 'cpu', value: 0.5 },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.body.samples).toBe(2);
    const q = await as(a.token).get(`/checks/${check.id}/metrics?name=queue.depth&since=${encodeURIComponent(at)}`);
    expect(q.body.samples).toEqual([{ name: 'queue.depth', value: 12, unit: 'items', tags: { region: 'eu' }, at, receivedAt: r.body.receivedAt }]);
    expect((await as(a.token).get(`/checks/${check.id}/metrics?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.samples).toEqual([]);
    expect((await as(a.token).get(`/checks/${check.id}`)).body.recentSamples).toHaveLength(2);
  });

  it('rejects invalid metrics with 400 and details, recording nothing', async () => {
    const check = await newCheck();
    const bad: [unknown, string][] = [
      [{ samples: [{ name: '1bad name', value: 1 }] }, 'samples.0.name'],
      [{ samples: [{ name: 'ok', value: 'high' }] }, 'samples.0.value'],
      [{ samples: [{ name: 'ok', value: 1 }, { name: 'ok', value: 1, at: 'yesterday' }] }, 'samples.1.at'],
      [{ samples: [{ name: 'ok', value: 1, at: new Date(Date.now() + 3_600_000).toISOString() }] }, 'samples.0.at'],
      [{ samples: [] }, 'samples'],
      [{ samples: Array.from({ length: 501 }, () => ({ name: 'n', value: 1 })) }, 'samples'],
      [{}, 'samples'],
    ];
    for (const [body, path] of bad) {
      const r = await push('metrics', check.token, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    // 1e400 parses to Infinity: not a finite number.
    const inf = await http(server.url, 'POST', `${HC}/metrics/${check.token}`, { rawBody: '{"samples":[{"name":"x","value":1e400}]}', headers: { 'content-type': 'application/json' } });
    expect(inf.status).toBe(400);
    expect(errorCode(inf)).toBe('VALIDATION_FAILED');
    const big = await push('metrics', check.token, { samples: [{ name: 'x', value: 1, tags: { t: 'x'.repeat(200_000) } }] });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    const badBeat = await push('heartbeat', check.token, { status: 'sideways' });
    expect(badBeat.status).toBe(400);
    expect(errorCode(badBeat)).toBe('VALIDATION_FAILED');
    expect((await as(a.token).get(`/checks/${check.id}/metrics`)).body.samples).toEqual([]);
    expect((await as(a.token).get(`/checks/${check.id}`)).body.heartbeatCount).toBe(0);
  });

  it('turns an overdue check down (HealthCheckWentDown) and up again on the next heartbeat (HealthCheckRecovered)', { timeout: 60_000 }, async () => {
    const check = await newCheck({ intervalSeconds: 60, graceSeconds: 30 });
    expect((await push('heartbeat', check.token)).status).toBe(202);
    await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up');

    shiftClock(89_000);
    // Not yet overdue: a few reaper passes (50 ms) leave it up.
    const stillUp = await until(() => as(a.token).get(`/checks/${check.id}/history`), () => false, 300);
    expect(stillUp.body.content.map((e: { type: string }) => e.type)).not.toContain('HealthCheckWentDown');

    shiftClock(91_000);
    const down = await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'down');
    expect(down.body.status).toBe('down');

    expect((await push('heartbeat', check.token, { status: 'up', message: 'back' })).status).toBe(202);
    const up = await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up');
    expect(up.body.status).toBe('up');
    expect(up.body.recentHeartbeats[0]).toMatchObject({ status: 'up', message: 'back' });

    const history = await until(() => as(a.token).get(`/checks/${check.id}/history`), (r) => r.body.content.length >= 4);
    expect(history.body.content.map((e: { type: string }) => e.type)).toEqual(['HealthCheckCreated', 'HealthCheckWentUp', 'HealthCheckWentDown', 'HealthCheckRecovered']);
    expect(history.body.content[2].detail).toMatchObject({ reason: 'overdue', lastHeartbeatAt: up.body.recentHeartbeats[1].receivedAt });
    expect(JSON.stringify(history.body)).not.toContain('tokenHash');
  });

  it('a heartbeat with status "fail" turns the check down at once', async () => {
    const check = await newCheck();
    await push('heartbeat', check.token);
    await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up');
    expect((await push('heartbeat', check.token, { status: 'fail', message: 'disk full' })).status).toBe(202);
    const down = await until(() => as(a.token).get(`/checks/${check.id}/history`), (r) => r.body.content.length >= 3);
    expect(down.body.content[2]).toMatchObject({ type: 'HealthCheckWentDown', detail: { reason: 'failure-reported', message: 'disk full' } });
  });

  it('marks a check down exactly once when several reapers race (optimistic concurrency)', { timeout: 60_000 }, async () => {
    const check = await newCheck({ intervalSeconds: 10, graceSeconds: 0 });
    await push('heartbeat', check.token);
    await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up');
    // Replicas: more module instances on the same database and event store as the server's own.
    const platform = server.process.platform;
    const replicas = [1, 2, 3].map(() => createHealthcheckModule(platform, { organization: createOrganizationModule(platform) }));
    shiftClock(60_000);
    await Promise.all(replicas.map((r) => r.reapOnce()));
    const history = await until(() => as(a.token).get(`/checks/${check.id}/history`), (r) => r.body.content.length >= 3);
    await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'down');
    const after = await as(a.token).get(`/checks/${check.id}/history`);
    expect(after.body.content.filter((e: { type: string }) => e.type === 'HealthCheckWentDown')).toHaveLength(1);
    expect(history.body.content.length).toBe(3);
  });

  it('a paused check records heartbeats but never goes down; resume makes it new until the next heartbeat', { timeout: 60_000 }, async () => {
    const check = await newCheck({ intervalSeconds: 10, graceSeconds: 0 });
    await push('heartbeat', check.token);
    await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up');
    const paused = await as(a.token).post(`/checks/${check.id}/pause`);
    expect(paused.body.status).toBe('paused');
    expect((await push('heartbeat', check.token, { status: 'fail' })).status).toBe(202);
    shiftClock(120_000);
    const later = await until(() => as(a.token).get(`/checks/${check.id}`), () => false, 300);
    expect(later.body).toMatchObject({ status: 'paused', heartbeatCount: 2 });
    const resumed = await as(a.token).post(`/checks/${check.id}/resume`);
    expect(resumed.body.status).toBe('new');
    await push('heartbeat', check.token);
    expect((await until(() => as(a.token).get(`/checks/${check.id}`), (r) => r.body.status === 'up')).body.status).toBe('up');
  });

  it('changes a check, rotates its token (the old one stops at once) and deletes it', async () => {
    const check = await newCheck();
    const changed = await as(a.token).put(`/checks/${check.id}`, { name: 'Hourly backup', intervalSeconds: 3600 });
    expect(changed.body).toMatchObject({ name: 'Hourly backup', intervalSeconds: 3600, graceSeconds: 30 });
    const rotated = await as(a.token).post(`/checks/${check.id}/token/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(check.token);
    expect((await push('heartbeat', check.token)).status).toBe(404);
    expect((await push('heartbeat', rotated.body.token)).status).toBe(202);
    expect((await as(a.token).delete(`/checks/${check.id}`)).status).toBe(204);
    expect((await as(a.token).get(`/checks/${check.id}`)).status).toBe(404);
    expect((await push('heartbeat', rotated.body.token)).status).toBe(404);
  });
});

describe('module entitlement', () => {
  it('answers 403 MODULE_NOT_ENABLED in a workspace without HEALTHCHECK, for a user token and for an API key', async () => {
    const org = client(server.url, a.token);
    const ws = await org.post('/workspaces', { name: `No health ${Date.now()}`, modules: ['TMT', 'HEALTHCHECK'] });
    expect(ws.status).toBe(201);
    const inWs = as(a.token, { 'x-workspace-id': String(ws.body.id) });
    const key = (await inWs.post('/api-keys', { name: 'soon disabled' })).body.key as string;
    expect((await withKey(key).get('/checks')).status).toBe(200);
    expect((await org.put(`/workspaces/${ws.body.id}/modules`, { modules: ['TMT'] })).status).toBe(200);
    for (const r of [await inWs.get('/checks'), await inWs.post('/api-keys', { name: 'x' }), await withKey(key).get('/checks')]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('MODULE_NOT_ENABLED');
    }
  });

  it('push tokens stop when their workspace loses HEALTHCHECK, and an archived workspace refuses pushes', async () => {
    const org = client(server.url, a.token);
    const ws = await org.post('/workspaces', { name: `Pushes ${Date.now()}`, modules: ['HEALTHCHECK'] });
    const inWs = as(a.token, { 'x-workspace-id': String(ws.body.id) });
    const check = (await inWs.post('/checks', { name: 'cron', intervalSeconds: 60, graceSeconds: 30 })).body as { id: string; token: string };
    expect((await push('heartbeat', check.token)).status).toBe(202);
    expect((await org.put(`/workspaces/${ws.body.id}/archive`)).status).toBe(200);
    const archived = await push('heartbeat', check.token);
    expect(archived.status).toBe(409);
    expect(archived.body.code).toBe('WORKSPACE_ARCHIVED');
    expect((await org.put(`/workspaces/${ws.body.id}/unarchive`)).status).toBe(200);
    expect((await org.put(`/workspaces/${ws.body.id}/modules`, { modules: ['TMT'] })).status).toBe(200);
    expect((await push('heartbeat', check.token)).status).toBe(404);
    expect((await push('metrics', check.token, { samples: [{ name: 'x', value: 1 }] })).status).toBe(404);
    expect((await org.put(`/workspaces/${ws.body.id}/modules`, { modules: ['HEALTHCHECK'] })).status).toBe(200);
    const back = await inWs.get(`/checks/${check.id}`);
    expect(back.body.heartbeatCount).toBe(1);
  });
});

describe('tenant walls', () => {
  it("every endpoint called by company A with company B's ids answers 404 and changes nothing", { timeout: 60_000 }, async () => {
    const b = await signUpCompany(server.url, 'hc-b');
    const B = as(b.token);
    const bKey = (await B.post('/api-keys', { name: 'B key' })).body as { id: string; key: string };
    const bCheck = (await B.post('/checks', { name: 'B check', intervalSeconds: 60 })).body as { id: string; token: string };
    await push('heartbeat', bCheck.token);
    await push('metrics', bCheck.token, { samples: [{ name: 'cpu', value: 1 }] });
    await until(() => B.get(`/checks/${bCheck.id}`), (r) => r.body.status === 'up');
    const aKey = (await as(a.token).post('/api-keys', { name: 'A key' })).body.key as string;

    const snapshotOfB = async () => ({
      keys: (await B.get('/api-keys?size=200')).body,
      checks: (await B.get('/checks?size=200')).body,
      check: (await B.get(`/checks/${bCheck.id}`)).body,
      history: (await B.get(`/checks/${bCheck.id}/history`)).body,
      metrics: (await B.get(`/checks/${bCheck.id}/metrics`)).body,
    });
    const before = await snapshotOfB();

    for (const A of [as(a.token), withKey(aKey)]) {
      const calls: [string, () => Promise<{ status: number }>][] = [
        ['GET check', () => A.get(`/checks/${bCheck.id}`)],
        ['GET metrics', () => A.get(`/checks/${bCheck.id}/metrics`)],
        ['GET heartbeats', () => A.get(`/checks/${bCheck.id}/heartbeats`)],
        ['GET history', () => A.get(`/checks/${bCheck.id}/history`)],
        ['pause', () => A.post(`/checks/${bCheck.id}/pause`)],
        ['resume', () => A.post(`/checks/${bCheck.id}/resume`)],
        ['rotate', () => A.post(`/checks/${bCheck.id}/token/rotate`)],
        ['PUT check', () => A.put(`/checks/${bCheck.id}`, { name: 'Owned' })],
        ['DELETE check', () => A.delete(`/checks/${bCheck.id}`)],
      ];
      for (const [name, call] of calls) expect((await call()).status, name).toBe(404);
    }
    expect((await as(a.token).delete(`/api-keys/${bKey.id}`)).status).toBe(404);
    expect((await as(a.token).get('/checks?size=200')).body.content.map((c: { id: string }) => c.id)).not.toContain(bCheck.id);
    expect((await as(a.token).get('/api-keys?size=200')).body.content.map((k: { id: string }) => k.id)).not.toContain(bKey.id);
    // B's key naming A's workspace still acts only in B's own workspace.
    const aCheckIds = (await as(a.token).get('/checks?size=200')).body.content.map((c: { id: string }) => c.id) as string[];
    expect(aCheckIds.length).toBeGreaterThan(0);
    const crossed = await http(server.url, 'GET', `${HC}/checks?size=200`, { headers: { 'x-api-key': bKey.key, 'x-workspace-id': String(a.workspaceId) } });
    expect(crossed.status).toBe(200);
    expect(crossed.body.content.map((c: { id: string }) => c.id)).toEqual([bCheck.id]);
    expect(await snapshotOfB()).toEqual(before);
  });
});
