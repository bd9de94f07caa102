import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjection } from '#projections/runner.js';
import { AppError } from '#shared/errors.js';
import { createOrganizationModule } from '#services/organization/index.js';
import { createTmtModule, tmtProjections } from '#services/tmt/index.js';
import { deviceSessionsForResults } from '#services/df/index.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type JsonResponse, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/** The read models of the /v1 set. */
const v1Projections = tmtProjections.filter((p) => ['tmt-projects', 'tmt-test-cases', 'tmt-test-sessions'].includes(p.name));

/**
 * The /v1 set over real HTTP: projects, test cases, test sessions with results, users; the /v1
 * envelope for answers and errors; permissions; and the read models rebuilt from zero.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let A: Client;
let member: { id: number; token: string };
let viewer: { id: number; token: string };

type Call = (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
const as =
  (token: string | undefined, workspaceId: number): Call =>
  (method, path, body) =>
    http(server.url, method, path, { ...(token ? { token } : {}), headers: { 'x-workspace-id': String(workspaceId) }, ...(body !== undefined ? { body } : {}) });

let admin: Call;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  a = await signUpCompany(server.url, 'tmt-v1');
  A = client(server.url, a.token);
  const roles = Object.fromEntries((await A.get('/roles')).body.map((r: { name: string; id: number }) => [r.name, r.id]));
  member = await createActiveUser(server.url, A, smtp.mails, { email: 'member@tmt-v1.test', roleIds: [roles.Member] });
  viewer = await createActiveUser(server.url, A, smtp.mails, { email: 'viewer@tmt-v1.test', roleIds: [roles.Viewer] });
  for (const u of [member, viewer]) await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: u.id });
  admin = as(a.token, a.workspaceId);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const expectError = (r: JsonResponse, status: number, code: string) => {
  expect({ status: r.status, body: r.body }).toMatchObject({ status, body: { success: false, error: { code } } });
  expect(typeof r.body.error.message).toBe('string');
};

async function newProject(key: string, call: Call = admin) {
  const r = await call('POST', '/v1/projects', { name: `Project ${key}`, key, description: 'd' });
  expect(r.status).toBe(201);
  return r.body.data as { id: string; key: string };
}

async function newCase(projectId: string, body: Record<string, unknown> = {}, call: Call = admin) {
  const r = await call('POST', '/v1/test-cases', { title: 'A case', projectId, priority: 'medium', steps: [], ...body });
  expect(r.status).toBe(201);
  return r.body.data as { id: string };
}

describe('/v1 envelope', () => {
  it('answers errors of the access control, routing and validation as {success: false, error: {code, message}}', async () => {
    expectError(await http(server.url, 'GET', '/v1/projects'), 401, 'UNAUTHORIZED');
    expectError(await http(server.url, 'GET', '/v1/projects', { token: a.token, headers: { 'x-workspace-id': '999999' } }), 403, 'INVALID_WORKSPACE');
    expectError(await admin('GET', '/v1/no-such-thing'), 404, 'ROUTE_NOT_FOUND');
    const bad = await admin('POST', '/v1/projects', { name: 'x', key: 'lower' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error.message).toContain('key');
    // Everything else keeps the platform's shape.
    const org = await http(server.url, 'GET', '/api/v1/users/999999', { token: a.token });
    expect(org.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('documents the /v1 routes with the V1Error schema', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    const responses = doc.paths['/v1/test-cases'].get.responses;
    expect(JSON.stringify(responses['4XX'])).toContain('V1Error');
    expect(JSON.stringify(doc.paths['/api/v1/users'].get.responses['4XX'])).toContain('ErrorResponse');
  });
});

describe('/v1/projects', () => {
  it('creates, reads, lists, changes and deletes a project; a deleted key is free again', async () => {
    const p = await newProject('WEB1');
    expect(p).toMatchObject({ key: 'WEB1', name: 'Project WEB1', description: 'd' });
    expect((await admin('GET', `/v1/projects/${p.id}`)).body).toEqual({ success: true, data: p });
    const list = await admin('GET', '/v1/projects?limit=100');
    expect(list.body.success).toBe(true);
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 100 });
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(p.id);

    const changed = await admin('PUT', `/v1/projects/${p.id}`, { name: 'Web', key: 'WEB2' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Web', key: 'WEB2' });
    // The old key was released by the change, the new one is held.
    const reuse = await newProject('WEB1');
    expectError(await admin('POST', '/v1/projects', { name: 'x', key: 'WEB2' }), 409, 'PROJECT_KEY_TAKEN');

    const del = await admin('DELETE', `/v1/projects/${p.id}`);
    expect(del.body).toEqual({ success: true, data: { id: p.id } });
    expectError(await admin('GET', `/v1/projects/${p.id}`), 404, 'NOT_FOUND');
    expectError(await admin('PUT', `/v1/projects/${p.id}`, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await admin('DELETE', `/v1/projects/${p.id}`), 404, 'NOT_FOUND');
    expect((await admin('POST', '/v1/projects', { name: 'again', key: 'WEB2' })).status).toBe(201);
    await admin('DELETE', `/v1/projects/${reuse.id}`);
  });

  it('refuses bad keys and a key used in another workspace of the company', async () => {
    for (const key of ['A', 'abc', 'ABCDEFGHIJK', 'AB-C', '']) expectError(await admin('POST', '/v1/projects', { name: 'x', key }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', '/v1/projects', { key: 'NONAME' }), 400, 'VALIDATION_FAILED');
    await newProject('DUP');
    const ws2 = (await A.post('/workspaces', { name: 'Second space' })).body.id;
    await A.put(`/workspaces/${ws2}/modules`, { modules: ['TMT'] });
    expectError(await as(a.token, ws2)('POST', '/v1/projects', { name: 'x', key: 'DUP' }), 409, 'PROJECT_KEY_TAKEN');
    expectError(await admin('GET', `/v1/projects/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await admin('GET', '/v1/projects/not-a-uuid'), 400, 'VALIDATION_FAILED');
  });

  it('pages 1-based with limit at most 100', async () => {
    const all = (await admin('GET', '/v1/projects?limit=100')).body;
    const total = all.pagination.total;
    expect(total).toBe(all.data.length);
    const page2 = (await admin('GET', '/v1/projects?page=2&limit=1')).body;
    expect(page2.data).toEqual([all.data[1]]);
    expect(page2.pagination).toEqual({ page: 2, limit: 1, total });
    expect((await admin('GET', '/v1/projects')).body.pagination.limit).toBe(20);
    expectError(await admin('GET', '/v1/projects?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await admin('GET', '/v1/projects?page=0'), 400, 'VALIDATION_FAILED');
  });

  it('lists the workspace projects under /tmt/company/api/v1/projects in the page shape', async () => {
    const all = (await admin('GET', '/v1/projects?limit=100')).body.data;
    const r = await admin('GET', '/tmt/company/api/v1/projects?size=200');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ content: all, page: 0, size: 200, totalElements: all.length, totalPages: 1 });
    const denied = await as(viewer.token, a.workspaceId)('GET', '/tmt/company/api/v1/projects');
    expect(denied.status).toBe(200);
  });

  it('needs TMT_WRITE to create and change, TMT_DELETE to delete', async () => {
    const p = await newProject('PERM');
    expectError(await as(viewer.token, a.workspaceId)('POST', '/v1/projects', { name: 'x', key: 'VIEW' }), 403, 'FORBIDDEN');
    expectError(await as(viewer.token, a.workspaceId)('PUT', `/v1/projects/${p.id}`, { name: 'x' }), 403, 'FORBIDDEN');
    expect((await as(viewer.token, a.workspaceId)('GET', `/v1/projects/${p.id}`)).status).toBe(200);
    expectError(await as(member.token, a.workspaceId)('DELETE', `/v1/projects/${p.id}`), 403, 'FORBIDDEN');
    expect((await as(member.token, a.workspaceId)('PUT', `/v1/projects/${p.id}`, { description: 'by member' })).status).toBe(200);
    expect((await admin('GET', `/v1/projects/${p.id}`)).body.data.description).toBe('by member');
  });
});

describe('/v1/test-cases', () => {
  it('creates, reads, changes and deletes a case', async () => {
    const p = await newProject('CASES');
    const created = await admin('POST', '/v1/test-cases', {
      title: 'Log in',
      projectId: p.id,
      priority: 'high',
      steps: [{ action: 'open /login', expected: 'a form' }],
      description: 'happy path',
    });
    expect(created.status).toBe(201);
    // Where the write's time went, per step (docs/api-conventions.md, "Server-Timing").
    expect((created.headers.get('server-timing') ?? '').split(', ').map((m) => m.split(';dur=')[0])).toEqual(['project', 'append', 'settle', 'read']);
    const c = created.body.data;
    expect(c).toMatchObject({ title: 'Log in', projectId: p.id, priority: 'high', status: 'draft', description: 'happy path', steps: [{ action: 'open /login', expected: 'a form' }] });
    expect((await admin('GET', `/v1/test-cases/${c.id}`)).body).toEqual({ success: true, data: c });
    const changed = await admin('PUT', `/v1/test-cases/${c.id}`, { status: 'ready', priority: 'critical', steps: [] });
    expect(changed.body.data).toMatchObject({ status: 'ready', priority: 'critical', steps: [], title: 'Log in' });
    expect((await admin('DELETE', `/v1/test-cases/${c.id}`)).body).toEqual({ success: true, data: { id: c.id } });
    expectError(await admin('GET', `/v1/test-cases/${c.id}`), 404, 'NOT_FOUND');
    expectError(await admin('PUT', `/v1/test-cases/${c.id}`, { title: 'x' }), 404, 'NOT_FOUND');
    expectError(await admin('DELETE', `/v1/test-cases/${c.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad enums and missing fields with 400 and an unknown project with 404, creating nothing', async () => {
    const p = await newProject('BADC');
    expectError(await admin('POST', '/v1/test-cases', { title: 'x', projectId: p.id, priority: 'urgent' }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', '/v1/test-cases', { title: 'x', projectId: p.id, status: 'done' }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', '/v1/test-cases', { projectId: p.id }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', '/v1/test-cases', { title: 'x', projectId: p.id, steps: [{ action: 1 }] }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', '/v1/test-cases', { title: 'x', projectId: randomUUID() }), 404, 'NOT_FOUND');
    expectError(await admin('GET', '/v1/test-cases?priority=urgent'), 400, 'VALIDATION_FAILED');
    expect((await admin('GET', `/v1/test-cases?projectId=${p.id}`)).body.pagination.total).toBe(0);
  });

  it('filters by project, priority, status and title, and pages with exact totals', async () => {
    const p = await newProject('FILT');
    const q = await newProject('FILT2');
    const made: { id: string; priority: string; status: string }[] = [];
    const priorities = ['low', 'medium', 'high', 'critical'];
    for (let i = 0; i < 12; i++) {
      const body = { title: i % 3 === 0 ? `Checkout ${i}` : `Search ${i}`, priority: priorities[i % 4], status: i % 2 === 0 ? 'ready' : 'draft' };
      made.push({ ...(await newCase(p.id, body)), priority: body.priority!, status: body.status });
    }
    await newCase(q.id, { priority: 'high' });
    const list = async (query: string) => (await admin('GET', `/v1/test-cases?${query}`)).body;

    const inP = await list(`projectId=${p.id}&limit=100`);
    expect(inP.data.map((c: { id: string }) => c.id)).toEqual(made.map((c) => c.id));
    expect(inP.pagination.total).toBe(12);
    const high = await list(`projectId=${p.id}&priority=high`);
    expect(high.data.map((c: { id: string }) => c.id)).toEqual(made.filter((c) => c.priority === 'high').map((c) => c.id));
    expect(high.pagination.total).toBe(3);
    const readyHigh = await list(`projectId=${p.id}&priority=high&status=ready`);
    expect(readyHigh.pagination.total).toBe(made.filter((c) => c.priority === 'high' && c.status === 'ready').length);
    expect((await list(`projectId=${p.id}&search=checkout`)).pagination.total).toBe(4);
    expect((await list(`projectId=${p.id}&search=checkout&priority=low`)).pagination.total).toBe(made.filter((c, i) => i % 3 === 0 && c.priority === 'low').length);
    expect((await list('search=100%25')).pagination.total).toBe(0);
    const allHigh = await list('priority=high&limit=100');
    expect(allHigh.data.every((c: { priority: string }) => c.priority === 'high')).toBe(true);
    expect(allHigh.data.some((c: { projectId: string }) => c.projectId === q.id)).toBe(true);

    const page2 = await list(`projectId=${p.id}&page=2&limit=5`);
    expect(page2.data.map((c: { id: string }) => c.id)).toEqual(made.slice(5, 10).map((c) => c.id));
    expect(page2.pagination).toEqual({ page: 2, limit: 5, total: 12 });
    expect((await list(`projectId=${p.id}&page=4&limit=5`)).data).toEqual([]);

    // A change of priority moves the case between filters and their totals.
    await admin('PUT', `/v1/test-cases/${made[0]!.id}`, { priority: 'high' });
    expect((await list(`projectId=${p.id}&priority=high`)).pagination.total).toBe(4);
    expect((await list(`projectId=${p.id}&priority=low`)).pagination.total).toBe(2);
    await admin('DELETE', `/v1/test-cases/${made[0]!.id}`);
    expect((await list(`projectId=${p.id}&priority=high`)).pagination.total).toBe(3);
    expect((await list(`projectId=${p.id}`)).pagination.total).toBe(11);
    // Deleting a project takes its cases along.
    await admin('DELETE', `/v1/projects/${p.id}`);
    expect((await list(`projectId=${p.id}`)).pagination.total).toBe(0);
    expectError(await admin('GET', `/v1/test-cases/${made[1]!.id}`), 404, 'NOT_FOUND');
  });

  it('needs TMT_READ, TMT_WRITE and TMT_DELETE', async () => {
    const p = await newProject('CPERM');
    const c = await newCase(p.id);
    const v = as(viewer.token, a.workspaceId);
    const m = as(member.token, a.workspaceId);
    expect((await v('GET', `/v1/test-cases/${c.id}`)).status).toBe(200);
    expectError(await v('POST', '/v1/test-cases', { title: 'x', projectId: p.id }), 403, 'FORBIDDEN');
    expectError(await v('PUT', `/v1/test-cases/${c.id}`, { title: 'x' }), 403, 'FORBIDDEN');
    expect((await m('PUT', `/v1/test-cases/${c.id}`, { title: 'by member' })).status).toBe(200);
    expectError(await m('DELETE', `/v1/test-cases/${c.id}`), 403, 'FORBIDDEN');
    expect((await admin('GET', `/v1/test-cases/${c.id}`)).body.data.title).toBe('by member');
  });
});

describe('/v1/test-sessions', () => {
  it('plans a session, records results one by one and in bulk, keeps the current result and the history', async () => {
    const p = await newProject('SESS');
    const cases = [await newCase(p.id), await newCase(p.id), await newCase(p.id)];
    const other = await newCase((await newProject('SESS2')).id);
    expectError(await admin('POST', '/v1/test-sessions', { name: 'x', projectId: p.id, testCases: [cases[0]!.id, other.id] }), 400, 'UNKNOWN_TEST_CASE');
    expectError(await admin('POST', '/v1/test-sessions', { name: 'x', projectId: randomUUID(), testCases: [] }), 404, 'NOT_FOUND');

    const created = await admin('POST', '/v1/test-sessions', { name: 'Smoke', projectId: p.id, testCases: cases.map((c) => c.id) });
    expect(created.status).toBe(201);
    const s = created.body.data;
    expect(s).toMatchObject({ name: 'Smoke', projectId: p.id, status: 'planned', testCases: cases.map((c) => c.id), results: [], completedAt: null });

    const one = await admin('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: cases[0]!.id, status: 'failed', notes: 'boom', durationMs: 40 });
    expect(one.status).toBe(201);
    expect(one.body).toEqual({ success: true, data: { recorded: 1, sessionStatus: 'in_progress' } });
    const bulk = await admin('POST', `/v1/test-sessions/${s.id}/results`, [
      { testCaseId: cases[0]!.id, status: 'passed' },
      { testCaseId: cases[1]!.id, status: 'blocked', notes: 'env' },
      { testCaseId: cases[1]!.id, status: 'retest' },
    ]);
    expect(bulk.body.data.recorded).toBe(3);

    const got = (await admin('GET', `/v1/test-sessions/${s.id}`)).body.data;
    expect(got.status).toBe('in_progress');
    expect(got.results.map((r: { testCaseId: string; status: string }) => [r.testCaseId, r.status])).toEqual([
      [cases[0]!.id, 'passed'],
      [cases[1]!.id, 'retest'],
    ]);
    expect(got.results[0].recordedBy).toEqual({ userId: a.userId });
    const current = (await admin('GET', `/v1/test-sessions/${s.id}/results`)).body;
    expect(current.data).toEqual(got.results);
    const history = (await admin('GET', `/v1/test-sessions/${s.id}/results?history=true`)).body;
    expect(history.pagination.total).toBe(4);
    expect(history.data.map((r: { status: string }) => r.status)).toEqual(['failed', 'passed', 'blocked', 'retest']);
    expect(history.data[0]).toMatchObject({ notes: 'boom', durationMs: 40 });
    const historyPage = (await admin('GET', `/v1/test-sessions/${s.id}/results?history=true&page=2&limit=3`)).body;
    expect(historyPage.data.map((r: { status: string }) => r.status)).toEqual(['retest']);
  });

  it('refuses a whole bulk when one element is bad, naming its index, and records nothing', async () => {
    const p = await newProject('BULK');
    const c = await newCase(p.id);
    const outside = await newCase(p.id);
    const s = (await admin('POST', '/v1/test-sessions', { name: 'Bulk', projectId: p.id, testCases: [c.id] })).body.data;
    const before = (await admin('GET', `/v1/test-sessions/${s.id}/results?history=true`)).body;

    const badEnum = await admin('POST', `/v1/test-sessions/${s.id}/results`, [
      { testCaseId: c.id, status: 'passed' },
      { testCaseId: c.id, status: 'green' },
    ]);
    expectError(badEnum, 400, 'VALIDATION_FAILED');
    expect(badEnum.body.error.message).toContain('results[1]');
    const notInSession = await admin('POST', `/v1/test-sessions/${s.id}/results`, [
      { testCaseId: c.id, status: 'passed' },
      { testCaseId: c.id, status: 'passed' },
      { testCaseId: outside.id, status: 'passed' },
    ]);
    expectError(notInSession, 400, 'TEST_CASE_NOT_IN_SESSION');
    expect(notInSession.body.error.message).toContain('results[2]');
    const tooMany = Array.from({ length: 1001 }, () => ({ testCaseId: c.id, status: 'passed' }));
    expectError(await admin('POST', `/v1/test-sessions/${s.id}/results`, tooMany), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', `/v1/test-sessions/${s.id}/results`, []), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: c.id }), 400, 'VALIDATION_FAILED');
    expectError(await admin('POST', `/v1/test-sessions/${randomUUID()}/results`, { testCaseId: c.id, status: 'passed' }), 404, 'NOT_FOUND');

    expect((await admin('GET', `/v1/test-sessions/${s.id}/results?history=true`)).body).toEqual(before);
    expect((await admin('GET', `/v1/test-sessions/${s.id}`)).body.data.status).toBe('planned');
    const full = Array.from({ length: 1000 }, (_, i) => ({ testCaseId: c.id, status: 'passed', durationMs: i }));
    expect((await admin('POST', `/v1/test-sessions/${s.id}/results`, full)).body.data.recorded).toBe(1000);
    expect((await admin('GET', `/v1/test-sessions/${s.id}`)).body.data.results[0].durationMs).toBe(999);
  }, 60_000);

  it('moves planned → in_progress → completed only; a completed session takes no results and keeps its cases', async () => {
    const p = await newProject('FLOW');
    const [c1, c2] = [await newCase(p.id), await newCase(p.id)];
    const s = (await admin('POST', '/v1/test-sessions', { name: 'Flow', projectId: p.id, testCases: [c1.id] })).body.data;
    expectError(await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'completed' }), 409, 'INVALID_TRANSITION');
    expectError(await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'finished' }), 400, 'VALIDATION_FAILED');
    const renamed = await admin('PUT', `/v1/test-sessions/${s.id}`, { name: 'Flow 2', testCases: [c1.id, c2.id] });
    expect(renamed.body.data).toMatchObject({ name: 'Flow 2', testCases: [c1.id, c2.id], status: 'planned' });
    expect((await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'in_progress' })).body.data.status).toBe('in_progress');
    expectError(await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'planned' }), 409, 'INVALID_TRANSITION');
    await admin('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: c2.id, status: 'passed' });
    const done = await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'completed' });
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.completedAt).not.toBeNull();
    expectError(await admin('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: c1.id, status: 'passed' }), 409, 'SESSION_COMPLETED');
    expectError(await admin('PUT', `/v1/test-sessions/${s.id}`, { testCases: [c1.id] }), 409, 'SESSION_COMPLETED');
    expectError(await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'in_progress' }), 409, 'INVALID_TRANSITION');
    expect((await admin('GET', `/v1/test-sessions/${s.id}`)).body.data.results).toHaveLength(1);
    expectError(await admin('PUT', `/v1/test-sessions/${randomUUID()}`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('lists sessions filtered by project and status, paged', async () => {
    const p = await newProject('SLIST');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await admin('POST', '/v1/test-sessions', { name: `S${i}`, projectId: p.id, testCases: [] })).body.data.id);
    await admin('PUT', `/v1/test-sessions/${ids[1]}`, { status: 'in_progress' });
    const list = async (q: string) => (await admin('GET', `/v1/test-sessions?${q}`)).body;
    expect((await list(`projectId=${p.id}`)).data.map((s: { id: string }) => s.id)).toEqual(ids);
    expect((await list(`projectId=${p.id}&status=planned`)).data.map((s: { id: string }) => s.id)).toEqual([ids[0], ids[2]]);
    expect((await list(`projectId=${p.id}&status=in_progress`)).pagination.total).toBe(1);
    expect(await list(`projectId=${p.id}&page=2&limit=2`)).toMatchObject({ data: [{ id: ids[2] }], pagination: { page: 2, limit: 2, total: 3 } });
    expectError(await admin('GET', '/v1/test-sessions?status=done'), 400, 'VALIDATION_FAILED');
  });

  it('needs TMT_READ to read and TMT_WRITE to plan, change and record', async () => {
    const p = await newProject('SPERM');
    const c = await newCase(p.id);
    const s = (await admin('POST', '/v1/test-sessions', { name: 'P', projectId: p.id, testCases: [c.id] })).body.data;
    const v = as(viewer.token, a.workspaceId);
    expect((await v('GET', `/v1/test-sessions/${s.id}`)).status).toBe(200);
    expect((await v('GET', '/v1/test-sessions')).status).toBe(200);
    expectError(await v('POST', '/v1/test-sessions', { name: 'x', projectId: p.id }), 403, 'FORBIDDEN');
    expectError(await v('PUT', `/v1/test-sessions/${s.id}`, { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await v('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: c.id, status: 'passed' }), 403, 'FORBIDDEN');
    expect((await as(member.token, a.workspaceId)('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: c.id, status: 'passed' })).status).toBe(201);
  });

  it('records results for a principal that is not a user through the exported function, with the same errors', async () => {
    const { platform } = server.process;
    const tmt = createTmtModule(platform, { organization: createOrganizationModule(platform), deviceSessions: deviceSessionsForResults(platform) });
    const p = await newProject('ENGINE');
    const c = await newCase(p.id);
    const s = (await admin('POST', '/v1/test-sessions', { name: 'E', projectId: p.id, testCases: [c.id] })).body.data;
    const scope = { companyId: a.companyId, workspaceId: a.workspaceId, actor: { engineId: 'engine-1' } };
    const done = await tmt.testSessions.recordResults(scope, s.id, [{ testCaseId: c.id, status: 'failed', durationMs: 5 }]);
    expect(done.recorded).toBe(1);
    expect(typeof done.position).toBe('bigint');
    const seen = (await admin('GET', `/v1/test-sessions/${s.id}`)).body.data;
    expect(seen.results[0]).toMatchObject({ status: 'failed', recordedBy: { engineId: 'engine-1' } });
    expect(await tmt.testSessions.get(scope, s.id)).toMatchObject({ id: s.id, status: 'in_progress' });
    const codeOf = async (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof AppError ? e.code : String(e)));
    expect(await codeOf(tmt.testSessions.recordResults({ ...scope, workspaceId: a.workspaceId + 1000 }, s.id, [{ testCaseId: c.id, status: 'passed' }]))).toBe('NOT_FOUND');
    expect(await codeOf(tmt.testSessions.recordResults(scope, 'nope', [{ testCaseId: c.id, status: 'passed' }]))).toBe('NOT_FOUND');
    expect(await codeOf(tmt.testSessions.recordResults(scope, s.id, [{ testCaseId: randomUUID(), status: 'passed' }]))).toBe('TEST_CASE_NOT_IN_SESSION');
    expect(await codeOf(tmt.testSessions.recordResults(scope, s.id, [{ testCaseId: c.id, status: 'bad' as 'passed' }]))).toBe('VALIDATION_FAILED');
    expect(await tmt.testSessions.get({ companyId: a.companyId + 1000, workspaceId: a.workspaceId }, s.id)).toBeNull();
    await admin('PUT', `/v1/test-sessions/${s.id}`, { status: 'completed' });
    expect(await codeOf(tmt.testSessions.recordResults(scope, s.id, [{ testCaseId: c.id, status: 'passed' }]))).toBe('SESSION_COMPLETED');
  });
});

describe('test-session report download', () => {
  it('hands out a session report as a signed link that works without a token, as CSV with the current results', async () => {
    const p = await newProject('REPORT');
    const cases = [await newCase(p.id, { title: '=cmd|calc', priority: 'high' }), await newCase(p.id, { title: 'Checkout, "guest"' })];
    const s = (await admin('POST', '/v1/test-sessions', { name: 'Nightly run', projectId: p.id, testCases: cases.map((c) => c.id) })).body.data;
    expect((await admin('POST', `/v1/test-sessions/${s.id}/results`, { testCaseId: cases[0]!.id, status: 'passed', notes: 'ok', durationMs: 12 })).status).toBe(201);
    const link = await admin('POST', '/tmt/api/v1/downloads', { kind: 'test-session-report', id: s.id });
    expect(link.status).toBe(201);
    const res = await fetch(new URL(link.body.url, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`Nightly run-${s.id}.csv`);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('testCaseId,title,priority,status,notes,durationMs,recordedAt,recordedBy');
    const [id, title, priority, status, notes, duration, at, by] = lines[1]!.split(',');
    expect({ id, title, priority, status, notes, duration, by }).toEqual({ id: cases[0]!.id, title: `"'=cmd|calc"`, priority: 'high', status: 'passed', notes: 'ok', duration: '12', by: `user:${a.userId}` });
    expect(Number.isNaN(Date.parse(at!))).toBe(false);
    expect(lines[2]).toBe(`${cases[1]!.id},"Checkout, ""guest""",medium,untested,,,,`);
    // Another company cannot link this session (404).
    const b = await signUpCompany(server.url, 'tmt-v1-report');
    const foreign = await http(server.url, 'POST', '/tmt/api/v1/downloads', { token: b.token, headers: { 'x-workspace-id': String(b.workspaceId) }, body: { kind: 'test-session-report', id: s.id } });
    expect(foreign.status).toBe(404);
    expect(errorCode(foreign)).toBe('NOT_FOUND');
  });
});

describe('/v1/users', () => {
  it('lists and reads users of the company; invites with a role name', async () => {
    const list = (await admin('GET', '/v1/users?limit=100')).body;
    expect(list.success).toBe(true);
    expect(list.data.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining([a.email, 'member@tmt-v1.test']));
    expect(list.pagination.total).toBe(list.data.length);
    const one = (await admin('GET', `/v1/users/${member.id}`)).body.data;
    expect(one).toMatchObject({ id: member.id, email: 'member@tmt-v1.test', roles: ['Member'], status: 'active' });

    const invited = await admin('POST', '/v1/users/invite', { email: 'new@tmt-v1.test', role: 'Viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email: 'new@tmt-v1.test', status: 'passive', roles: ['Viewer'] });
    expect(smtp.mails.some((m) => m.to.includes('new@tmt-v1.test'))).toBe(true);
    expectError(await admin('POST', '/v1/users/invite', { email: 'other@tmt-v1.test', role: 'Wizard' }), 400, 'UNKNOWN_ROLE');
    expectError(await admin('POST', '/v1/users/invite', { email: 'not-an-email', role: 'Member' }), 400, 'VALIDATION_FAILED');
    expect((await admin('GET', '/v1/users?limit=100')).body.data.some((u: { email: string }) => u.email === 'other@tmt-v1.test')).toBe(false);
    expectError(await admin('GET', '/v1/users/999999'), 404, 'NOT_FOUND');
  });

  it('changes a user, their role, and deletes them', async () => {
    const invited = (await admin('POST', '/v1/users/invite', { email: 'change@tmt-v1.test', role: 'Member' })).body.data;
    const changed = await admin('PUT', `/v1/users/${invited.id}`, { name: 'Changed', title: 'QA', role: 'Viewer' });
    expect(changed.body.data).toMatchObject({ name: 'Changed', title: 'QA', roles: ['Viewer'] });
    expectError(await admin('PUT', `/v1/users/${invited.id}`, { role: 'Wizard' }), 400, 'UNKNOWN_ROLE');
    expect((await admin('DELETE', `/v1/users/${invited.id}`)).body).toEqual({ success: true, data: { id: invited.id } });
    expectError(await admin('GET', `/v1/users/${invited.id}`), 404, 'NOT_FOUND');
    expectError(await admin('DELETE', `/v1/users/${a.userId}`), 409, 'CONFLICT');
  });

  it('applies the organization permission keys', async () => {
    const v = as(viewer.token, a.workspaceId);
    const m = as(member.token, a.workspaceId);
    expect((await v('GET', '/v1/users')).status).toBe(200);
    expectError(await v('POST', '/v1/users/invite', { email: 'x@tmt-v1.test', role: 'Viewer' }), 403, 'FORBIDDEN');
    expectError(await m('PUT', `/v1/users/${viewer.id}`, { name: 'x' }), 403, 'FORBIDDEN');
    expect((await m('PUT', `/v1/users/${member.id}`, { title: 'Self-made' })).body.data.title).toBe('Self-made');
    expectError(await m('PUT', `/v1/users/${member.id}`, { role: 'Admin' }), 403, 'FORBIDDEN');
    expectError(await m('DELETE', `/v1/users/${viewer.id}`), 403, 'FORBIDDEN');
  });
});

describe('/v1 read models', () => {
  it('rebuild from zero to exactly the same rows', async () => {
    const { runner, platform } = server.process;
    await runner!.waitFor(await platform.store.headPosition());
    await runner!.stop();
    const tables = async () => {
      const out: Record<string, string[]> = {};
      for (const p of v1Projections) {
        for (const table of p.tables) out[table] = (await platform.db.query(`SELECT * FROM ${table}`)).rows.map((r) => JSON.stringify(r)).sort();
      }
      return out;
    };
    const before = await tables();
    expect(before.tmt_projects!.length).toBeGreaterThan(5);
    expect(before.tmt_test_cases!.length).toBeGreaterThan(10);
    expect(before.tmt_test_case_counts!.length).toBeGreaterThan(3);
    expect(before.tmt_test_result_history!.length).toBeGreaterThan(1000);
    for (const p of v1Projections) expect((await rebuildProjection(platform.store, platform.db, p)).handedOver).toBe(false);
    expect(await tables()).toEqual(before);
  }, 120_000);
});
