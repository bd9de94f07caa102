import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';

/**
 * Test engines over real HTTP: registration with AUTORUNNER_MANAGE, the engine token (X-Engine-Token)
 * and what it may do, revocation and rotation, runs feeding a /v1 test session, the module
 * entitlement, and two companies that cannot see or touch each other's engines and runs.
 */
let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
const AR = '/autorunner/api/v1';

const user = (token: string, headers: Record<string, string> = {}) => ({
  get: (path: string) => http(server.url, 'GET', path.startsWith('/') && !path.startsWith(AR) && path.startsWith('/v1') ? path : `${AR}${path}`, { token, headers }),
  post: (path: string, body: unknown = {}) => http(server.url, 'POST', path.startsWith('/v1') ? path : `${AR}${path}`, { token, body, headers }),
  delete: (path: string) => http(server.url, 'DELETE', `${AR}${path}`, { token, headers }),
});
const engine = (token: string, headers: Record<string, string> = {}) => ({
  get: (path: string) => http(server.url, 'GET', `${AR}${path}`, { headers: { 'x-engine-token': token, ...headers } }),
  post: (path: string, body: unknown = {}) => http(server.url, 'POST', `${AR}${path}`, { body, headers: { 'x-engine-token': token, ...headers } }),
  delete: (path: string) => http(server.url, 'DELETE', `${AR}${path}`, { headers: { 'x-engine-token': token, ...headers } }),
});

/** A /v1 project with two test cases and a session over both, in the caller's workspace. */
async function sessionWithCases(token: string, key: string) {
  const u = user(token);
  const project = await u.post('/v1/projects', { name: `Project ${key}`, key, description: 'runs' });
  expect(project.status).toBe(201);
  const cases = [];
  for (const title of ['login works', 'logout works']) {
    const c = await u.post('/v1/test-cases', { title, projectId: project.body.data.id, priority: 'high', steps: [{ action: 'do', expected: 'done' }] });
    expect(c.status).toBe(201);
    cases.push(c.body.data.id as string);
  }
  const session = await u.post('/v1/test-sessions', { name: `Session ${key}`, projectId: project.body.data.id, testCases: cases });
  expect(session.status).toBe(201);
  return { sessionId: session.body.data.id as string, cases };
}

async function register(token: string, name = 'CI runner', headers: Record<string, string> = {}) {
  const r = await user(token, headers).post('/engines', { name, labels: ['linux', 'chrome'] });
  expect(r.status).toBe(201);
  return r.body as { id: string; token: string; workspaceId: number };
}

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  a = await signUpCompany(server.url, 'ar-a');
  b = await signUpCompany(server.url, 'ar-b');
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('engines and their tokens', () => {
  it('registers an engine with a token shown once; lists and reads it without the token', async () => {
    const e = await register(a.token);
    expect(e.token).toMatch(/^aet_[A-Za-z0-9_-]{40,}$/);
    const list = await user(a.token).get('/engines');
    expect(list.status).toBe(200);
    expect(list.body.content.map((x: { id: string }) => x.id)).toContain(e.id);
    expect(JSON.stringify(list.body)).not.toContain(e.token);
    const one = await user(a.token).get(`/engines/${e.id}`);
    expect(one.body).toMatchObject({ id: e.id, name: 'CI runner', labels: ['linux', 'chrome'], revoked: false, registeredBy: a.userId, workspaceId: a.workspaceId });
  });

  it('the engine token authenticates; a revoked one is 401 at once; rotation retires the old token', async () => {
    const e = await register(a.token);
    expect((await engine(e.token).get('/runs')).status).toBe(200);
    const rotated = await user(a.token).post(`/engines/${e.id}/token/rotate`);
    expect(rotated.status).toBe(200);
    expect((await engine(e.token).get('/runs')).status).toBe(401);
    expect((await engine(rotated.body.token).get('/runs')).status).toBe(200);
    expect((await user(a.token).delete(`/engines/${e.id}`)).status).toBe(204);
    const refused = await engine(rotated.body.token).get('/runs');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    expect((await user(a.token).get(`/engines/${e.id}`)).body.revoked).toBe(true);
    expect((await user(a.token).post(`/engines/${e.id}/token/rotate`)).status).toBe(409);
  });

  it('refuses an unknown token, and an engine token naming another workspace in X-Workspace-Id', async () => {
    expect((await engine('aet_unknown-unknown-unknown-unknown-unknown').get('/runs')).status).toBe(401);
    const e = await register(a.token);
    expect((await engine(e.token, { 'x-workspace-id': String(a.workspaceId) }).get('/runs')).status).toBe(200);
    const ws2 = await client(server.url, a.token).post('/workspaces', { name: `Second ${Date.now()}` });
    const other = await engine(e.token, { 'x-workspace-id': String(ws2.body.id) }).get('/runs');
    expect(other.status).toBe(401);
    expect(errorCode(other)).toBe('UNAUTHORIZED');
    const foreign = await engine(e.token, { 'x-workspace-id': String(b.workspaceId) }).get('/runs');
    expect(foreign.status).toBe(401);
    expect(errorCode(foreign)).toBe('UNAUTHORIZED');
  });

  it('an engine cannot manage engines, and a user cannot report runs', async () => {
    const e = await register(a.token);
    for (const r of [await engine(e.token).get('/engines'), await engine(e.token).post('/engines', { name: 'child' }), await engine(e.token).delete(`/engines/${e.id}`)]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    const { sessionId } = await sessionWithCases(a.token, 'NOREP');
    const r = await user(a.token).post('/runs', { testSessionId: sessionId });
    expect(r.status).toBe(403);
    expect(errorCode(r)).toBe('FORBIDDEN');
  });

  it('validates input with 400 and a stable code', async () => {
    const bad = await user(a.token).post('/engines', { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('runs feeding test sessions', () => {
  it('an engine starts a run, reports results that appear in the /v1 test session, and completes it', { timeout: 60_000 }, async () => {
    const { sessionId, cases } = await sessionWithCases(a.token, 'RUNS');
    const e = await register(a.token);
    const run = await engine(e.token).post('/runs', { testSessionId: sessionId, name: 'nightly', externalId: 'ci-42', metadata: { commit: 'abc' } });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ engineId: e.id, testSessionId: sessionId, status: 'running', name: 'nightly', externalId: 'ci-42', metadata: { commit: 'abc' } });

    const one = await engine(e.token).post(`/runs/${run.body.id}/results`, { testCaseId: cases[0], status: 'passed', durationMs: 1200 });
    expect(one.status).toBe(200);
    expect(one.body.recorded).toBe(1);
    const many = await engine(e.token).post(`/runs/${run.body.id}/results`, [{ testCaseId: cases[1], status: 'failed', notes: 'button missing' }]);
    expect(many.body.recorded).toBe(1);

    const session = await user(a.token).get(`/v1/test-sessions/${sessionId}`);
    expect(session.status).toBe(200);
    const results = session.body.data.results as { testCaseId: string; status: string; notes: string | null }[];
    expect(results.find((x) => x.testCaseId === cases[0])).toMatchObject({ status: 'passed' });
    expect(results.find((x) => x.testCaseId === cases[1])).toMatchObject({ status: 'failed', notes: 'button missing' });

    const done = await engine(e.token).post(`/runs/${run.body.id}/complete`, { status: 'failed' });
    expect(done.body).toMatchObject({ status: 'failed', resultsReported: 2 });
    expect((await engine(e.token).post(`/runs/${run.body.id}/complete`, { status: 'failed' })).status).toBe(200);
    const again = await engine(e.token).post(`/runs/${run.body.id}/complete`, { status: 'passed' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RUN_NOT_RUNNING');
    const late = await engine(e.token).post(`/runs/${run.body.id}/results`, { testCaseId: cases[0], status: 'failed' });
    expect(late.status).toBe(409);
    expect(errorCode(late)).toBe('RUN_NOT_RUNNING');
    // The late result reached nothing: the session still shows the earlier result.
    const after = await user(a.token).get(`/v1/test-sessions/${sessionId}`);
    expect(after.body.data.results.find((x: { testCaseId: string }) => x.testCaseId === cases[0]).status).toBe('passed');

    const read = await user(a.token).get(`/runs/${run.body.id}`);
    expect(read.body.results.map((x: { testCaseId: string; status: string }) => [x.testCaseId, x.status])).toEqual([
      [cases[0], 'passed'],
      [cases[1], 'failed'],
    ]);
    expect((await user(a.token).get(`/runs?testSessionId=${sessionId}`)).body.content.map((x: { id: string }) => x.id)).toEqual([run.body.id]);
  });

  it('refuses runs against unknown sessions and results for cases outside the session, recording nothing', async () => {
    const e = await register(a.token);
    const unknown = await engine(e.token).post('/runs', { testSessionId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('NOT_FOUND');
    const { sessionId } = await sessionWithCases(a.token, 'BADRES');
    const run = await engine(e.token).post('/runs', { testSessionId: sessionId });
    const before = await user(a.token).get(`/v1/test-sessions/${sessionId}`);
    const outside = await engine(e.token).post(`/runs/${run.body.id}/results`, { testCaseId: '00000000-0000-4000-8000-000000000000', status: 'passed' });
    expect(outside.status).toBeGreaterThanOrEqual(400);
    expect(outside.status).toBeLessThan(500);
    const badStatus = await engine(e.token).post(`/runs/${run.body.id}/results`, { testCaseId: 'x', status: 'great' });
    expect(badStatus.status).toBe(400);
    expect(errorCode(badStatus)).toBe('VALIDATION_FAILED');
    expect((await user(a.token).get(`/v1/test-sessions/${sessionId}`)).body).toEqual(before.body);
    expect((await user(a.token).get(`/runs/${run.body.id}`)).body.results).toEqual([]);
  });

  it('an engine sees only its own runs; users see every run of the workspace', async () => {
    const { sessionId } = await sessionWithCases(a.token, 'OWN');
    const e1 = await register(a.token, 'one');
    const e2 = await register(a.token, 'two');
    const r1 = await engine(e1.token).post('/runs', { testSessionId: sessionId });
    const r2 = await engine(e2.token).post('/runs', { testSessionId: sessionId });
    const seen1 = (await engine(e1.token).get('/runs?size=200')).body.content.map((x: { id: string }) => x.id);
    expect(seen1).toContain(r1.body.id);
    expect(seen1).not.toContain(r2.body.id);
    expect((await engine(e1.token).get(`/runs/${r2.body.id}`)).status).toBe(404);
    expect((await engine(e1.token).get(`/runs?engineId=${e2.id}`)).body.content).toEqual([]);
    expect((await engine(e1.token).post(`/runs/${r2.body.id}/complete`, { status: 'passed' })).status).toBe(404);
    const all = (await user(a.token).get(`/runs?testSessionId=${sessionId}`)).body.content.map((x: { id: string }) => x.id);
    expect(all.sort()).toEqual([r1.body.id, r2.body.id].sort());
  });
});

describe('module entitlement', () => {
  it('answers 403 MODULE_NOT_ENABLED without AUTORUNNER, for a user token and for an engine token', async () => {
    const org = client(server.url, a.token);
    const ws = await org.post('/workspaces', { name: `No runner ${Date.now()}`, modules: ['TMT', 'AUTORUNNER'] });
    const e = await register(a.token, 'soon disabled', { 'x-workspace-id': String(ws.body.id) });
    expect((await engine(e.token).get('/runs')).status).toBe(200);
    expect((await org.put(`/workspaces/${ws.body.id}/modules`, { modules: ['TMT'] })).status).toBe(200);
    for (const r of [await user(a.token, { 'x-workspace-id': String(ws.body.id) }).get('/engines'), await engine(e.token).get('/runs')]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('MODULE_NOT_ENABLED');
    }
  });
});

describe('tenant walls', () => {
  it("every endpoint called by company A with company B's ids answers 404 and changes nothing", { timeout: 60_000 }, async () => {
    const { sessionId: bSession, cases: bCases } = await sessionWithCases(b.token, 'BWALL');
    const bEngine = await register(b.token, 'B engine');
    const bRun = await engine(bEngine.token).post('/runs', { testSessionId: bSession });
    await engine(bEngine.token).post(`/runs/${bRun.body.id}/results`, { testCaseId: bCases[0], status: 'passed' });
    const aEngine = await register(a.token, 'A engine');

    const snapshotOfB = async () => ({
      engines: (await user(b.token).get('/engines?size=200')).body,
      runs: (await user(b.token).get('/runs?size=200')).body,
      run: (await user(b.token).get(`/runs/${bRun.body.id}`)).body,
      session: (await user(b.token).get(`/v1/test-sessions/${bSession}`)).body,
    });
    const before = await snapshotOfB();

    const A = user(a.token);
    const E = engine(aEngine.token);
    const calls: [string, () => Promise<{ status: number }>][] = [
      ['GET engine', () => A.get(`/engines/${bEngine.id}`)],
      ['DELETE engine', () => A.delete(`/engines/${bEngine.id}`)],
      ['rotate engine token', () => A.post(`/engines/${bEngine.id}/token/rotate`)],
      ['GET run (user)', () => A.get(`/runs/${bRun.body.id}`)],
      ['GET run (engine)', () => E.get(`/runs/${bRun.body.id}`)],
      ['start run on B session', () => E.post('/runs', { testSessionId: bSession })],
      ['report into B run', () => E.post(`/runs/${bRun.body.id}/results`, { testCaseId: bCases[0], status: 'failed' })],
      ['complete B run', () => E.post(`/runs/${bRun.body.id}/complete`, { status: 'cancelled' })],
    ];
    for (const [name, call] of calls) expect((await call()).status, name).toBe(404);
    expect((await A.get('/engines?size=200')).body.content.map((x: { id: string }) => x.id)).not.toContain(bEngine.id);
    expect((await A.get(`/runs?size=200&testSessionId=${bSession}`)).body.content).toEqual([]);
    expect(await snapshotOfB()).toEqual(before);
    // B's engine still works: nothing A did reached it.
    expect((await engine(bEngine.token).get(`/runs/${bRun.body.id}`)).status).toBe(200);
  });
});
