import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

/** Automation test events of a session, through the started server, on a simulated device. */
let server: TestServer;
let token: string;
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer({
    AGENT_CONFIG: writeAgentConfig({ heartbeatMs: 500, devices: [{ provider: 'simulated', name: 'Sim (automation)' }, { provider: 'simulated', name: 'Sim 2 (automation)' }] }),
  });
  token = (await signUpCompany(server.url, 'auto')).token;
  const deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?sortBy=name', { token });
    return r.body.content?.length === 2 ? (r.body.content[0].id as string) : undefined;
  }, { what: 'two devices' });
  const created = await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId, type: 'automation', buildName: 'nightly-7' } });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const events = (path = '', init: { method?: string; body?: unknown; as?: string } = {}) =>
  http(server.url, init.method ?? 'GET', `/df/api/automation/sessions/${sessionId}/test-events${path}`, { token: init.as ?? token, ...(init.body !== undefined ? { body: init.body } : {}) });

describe('automation test events', () => {
  it('accepts one event or a batch, lists them in order, filters by type, and reports progress by test', async () => {
    const one = await events('', { method: 'POST', body: { type: 'suite_started', name: 'Checkout', metadata: { tests: 4 } } });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ accepted: 1 });
    const batch = await events('', {
      method: 'POST',
      body: [
        { type: 'test_started', name: 'adds to cart', suite: 'Checkout', timestamp: '2026-01-01T10:00:00Z' },
        { type: 'test_passed', name: 'adds to cart', suite: 'Checkout', durationMs: 1200 },
        { type: 'test_started', name: 'pays', suite: 'Checkout' },
        { type: 'test_failed', name: 'pays', suite: 'Checkout', durationMs: 800, error: { message: 'expected 200, got 500', stack: 'at pay()' } },
        { type: 'test_started', name: 'pays', suite: 'Checkout' },
        { type: 'test_skipped', name: 'refunds', suite: 'Checkout' },
        { type: 'test_started', name: 'ships', suite: 'Checkout' },
      ],
    });
    expect(batch.status).toBe(201);
    expect(batch.body.accepted).toBe(7);
    expect(batch.body.ids).toHaveLength(7);

    const all = await events('?size=100');
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(8);
    expect(all.body.content.map((e: { type: string }) => e.type)).toEqual(['suite_started', 'test_started', 'test_passed', 'test_started', 'test_failed', 'test_started', 'test_skipped', 'test_started']);
    expect(all.body.content[1]).toMatchObject({ name: 'adds to cart', suite: 'Checkout', timestamp: '2026-01-01T10:00:00.000Z' });
    expect(all.body.content[4]).toMatchObject({ type: 'test_failed', durationMs: 800, error: { message: 'expected 200, got 500', stack: 'at pay()' } });

    const failed = await events('?type=test_failed&type=test_skipped');
    expect(failed.body.content.map((e: { name: string }) => e.name)).toEqual(['pays', 'refunds']);
    const paged = await events('?size=3&page=2');
    expect(paged.body).toMatchObject({ page: 2, size: 3, totalElements: 8, totalPages: 3 });
    expect(paged.body.content).toHaveLength(2);

    // "pays" was retried and is running again; "ships" runs; 4 tests declared, 2 finished.
    const progress = await events('/progress');
    expect(progress.status).toBe(200);
    expect(progress.body).toEqual({ total: 4, started: 4, passed: 1, failed: 0, skipped: 1, running: 2, percent: 50 });
    await events('', { method: 'POST', body: [{ type: 'test_failed', name: 'pays', suite: 'Checkout' }, { type: 'test_passed', name: 'ships', suite: 'Checkout' }, { type: 'suite_finished', name: 'Checkout' }] });
    expect((await events('/progress')).body).toEqual({ total: 4, started: 4, passed: 2, failed: 1, skipped: 1, running: 0, percent: 100 });
  });

  it('puts every event on the session timeline', async () => {
    const timeline = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/activities?kind=custom&size=200`, { token });
    const automation = timeline.body.content.filter((a: { detail: { source?: string } }) => a.detail.source === 'automation');
    expect(automation).toHaveLength(11);
    expect(automation[0].detail).toMatchObject({ type: 'suite_started', name: 'Checkout' });
  });

  it('refuses bad events with 400 and changes nothing', async () => {
    const before = (await events()).body.totalElements;
    const cases: unknown[] = [
      { type: 'test_exploded', name: 'x' },
      { type: 'test_passed' },
      { type: 'test_passed', name: '' },
      { type: 'test_passed', name: 'x', durationMs: -1 },
      { type: 'test_passed', name: 'x', timestamp: 'yesterday' },
      [],
      Array.from({ length: 501 }, () => ({ type: 'test_passed', name: 'x' })),
      [{ type: 'test_passed', name: 'ok' }, { type: 'nope', name: 'x' }],
    ];
    for (const body of cases) {
      const r = await events('', { method: 'POST', body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await events('?type=bogus')).status).toBe(400);
    expect((await events()).body.totalElements).toBe(before);
  });

  it('answers 404 for another company\'s session and for an unknown one, and 409 once the session ended', async () => {
    const rival = await signUpCompany(server.url, 'rival');
    expect((await events('', { as: rival.token })).status).toBe(404);
    expect((await events('/progress', { as: rival.token })).status).toBe(404);
    const foreignPost = await events('', { method: 'POST', body: { type: 'test_passed', name: 'x' }, as: rival.token });
    expect(foreignPost.status).toBe(404);
    expect(errorCode(foreignPost)).toBe('NOT_FOUND');
    const unknown = await http(server.url, 'GET', '/df/api/automation/sessions/00000000-0000-4000-8000-000000000000/test-events', { token });
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('NOT_FOUND');

    expect((await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token })).body.status).toBe('ended');
    const late = await events('', { method: 'POST', body: { type: 'test_passed', name: 'late' } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('SESSION_NOT_ACTIVE');
    // Reading stays possible after the end.
    expect((await events()).body.totalElements).toBe(11);
  });

  it('accepts a device-testing API key (X-Api-Key), as CI reporters send', async () => {
    const key = (await http(server.url, 'POST', '/df/api/keys', { token, body: { name: 'ci reporter' } })).body.key as string;
    // A session of its own, on the second device (the first session has ended by now).
    const devices = (await http(server.url, 'GET', '/df/api/devices?sortBy=name', { token })).body.content as { id: string }[];
    const own = await http(server.url, 'POST', '/df/api/sessions', { headers: { 'x-api-key': key }, body: { deviceId: devices[1]!.id, type: 'automation' } });
    expect(own.status).toBe(201);
    const path = `/df/api/automation/sessions/${own.body.id}/test-events`;
    const posted = await http(server.url, 'POST', path, { headers: { 'x-api-key': key }, body: { type: 'test_skipped', name: 'reported by CI', suite: 'Keys' } });
    expect(posted.status).toBe(201);
    const read = await http(server.url, 'GET', `${path}?type=test_skipped`, { headers: { 'x-api-key': key } });
    expect(read.body.content.map((e: { name: string }) => e.name)).toContain('reported by CI');
    expect((await http(server.url, 'GET', path, { headers: { 'x-api-key': 'dfk_not-a-key' } })).status).toBe(401);
  });
});
