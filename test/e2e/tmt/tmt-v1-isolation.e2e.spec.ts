import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Two companies, and two workspaces in one of them. Every /v1 endpoint called from company A's first
 * workspace with the ids of company B, or of A's second workspace, answers 404 and changes nothing
 * the owner can see.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let b: SignedUpCompany;
let aSecondWs: number;
let bUser: number;

type Call = (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
const as =
  (token: string, workspaceId: number): Call =>
  (method, path, body) =>
    http(server.url, method, path, { token, headers: { 'x-workspace-id': String(workspaceId) }, ...(body !== undefined ? { body } : {}) });

interface Tenant {
  call: Call;
  project: string;
  testCase: string;
  session: string;
}

async function seed(call: Call, key: string): Promise<Tenant> {
  const project = (await call('POST', '/v1/projects', { name: `P ${key}`, key })).body.data.id;
  const testCase = (await call('POST', '/v1/test-cases', { title: `C ${key}`, projectId: project, priority: 'high', steps: [{ action: 'a', expected: 'b' }] })).body.data.id;
  const session = (await call('POST', '/v1/test-sessions', { name: `S ${key}`, projectId: project, testCases: [testCase] })).body.data.id;
  const recorded = await call('POST', `/v1/test-sessions/${session}/results`, [{ testCaseId: testCase, status: 'failed', notes: key }]);
  expect(recorded.status).toBe(201);
  return { call, project, testCase, session };
}

let A1: Tenant;
let A2: Tenant;
let B1: Tenant;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  a = await signUpCompany(server.url, 'tmt-iso-a');
  b = await signUpCompany(server.url, 'tmt-iso-b');
  aSecondWs = (await client(server.url, a.token).post('/workspaces', { name: 'A second' })).body.id;
  await client(server.url, a.token).put(`/workspaces/${aSecondWs}/modules`, { modules: ['TMT'] });
  bUser = (await createActiveUser(server.url, client(server.url, b.token), smtp.mails, { email: 'member@tmt-iso-b.test' })).id;
  A1 = await seed(as(a.token, a.workspaceId), 'SAME');
  A2 = await seed(as(a.token, aSecondWs), 'OTHER');
  // Project keys are unique per company: company B may use A's key.
  B1 = await seed(as(b.token, b.workspaceId), 'SAME');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Everything a tenant can read about its own /v1 data. */
async function snapshot(t: Tenant) {
  return {
    projects: (await t.call('GET', '/v1/projects?limit=100')).body,
    tmtProjects: (await t.call('GET', '/tmt/company/api/v1/projects?size=200')).body,
    project: (await t.call('GET', `/v1/projects/${t.project}`)).body,
    cases: (await t.call('GET', '/v1/test-cases?limit=100')).body,
    testCase: (await t.call('GET', `/v1/test-cases/${t.testCase}`)).body,
    sessions: (await t.call('GET', '/v1/test-sessions?limit=100')).body,
    session: (await t.call('GET', `/v1/test-sessions/${t.session}`)).body,
    history: (await t.call('GET', `/v1/test-sessions/${t.session}/results?history=true`)).body,
    users: (await t.call('GET', '/v1/users?limit=100')).body,
  };
}

/** Every endpoint that takes an id, called with `victim`'s ids. */
function probes(victim: Tenant, own: Tenant): [string, string, unknown?][] {
  return [
    ['GET', `/v1/projects/${victim.project}`],
    ['PUT', `/v1/projects/${victim.project}`, { name: 'stolen' }],
    ['DELETE', `/v1/projects/${victim.project}`],
    ['GET', `/v1/test-cases/${victim.testCase}`],
    ['PUT', `/v1/test-cases/${victim.testCase}`, { title: 'stolen', priority: 'low' }],
    ['DELETE', `/v1/test-cases/${victim.testCase}`],
    ['POST', '/v1/test-cases', { title: 'intruder', projectId: victim.project }],
    ['POST', '/v1/test-sessions', { name: 'intruder', projectId: victim.project, testCases: [victim.testCase] }],
    ['GET', `/v1/test-sessions/${victim.session}`],
    ['PUT', `/v1/test-sessions/${victim.session}`, { name: 'stolen', status: 'completed' }],
    ['POST', `/v1/test-sessions/${victim.session}/results`, { testCaseId: victim.testCase, status: 'passed' }],
    ['POST', `/v1/test-sessions/${victim.session}/results`, [{ testCaseId: victim.testCase, status: 'passed' }]],
    ['GET', `/v1/test-sessions/${victim.session}/results`],
    ['GET', `/v1/test-sessions/${victim.session}/results?history=true`],
    // The caller's own session, planned with a victim's case.
    ['PUT', `/v1/test-sessions/${own.session}`, { testCases: [own.testCase, victim.testCase] }],
  ];
}

describe('/v1 tenant wall', () => {
  it("another company's and another workspace's ids are 404 everywhere, and their data stays the same", async () => {
    const beforeB = await snapshot(B1);
    const beforeA2 = await snapshot(A2);
    const beforeA1 = await snapshot(A1);
    for (const victim of [B1, A2]) {
      for (const [method, path, body] of probes(victim, A1)) {
        const r = await A1.call(method, path, body);
        // A victim's case in the caller's own session is a bad case id (400), never a reveal.
        const expected = path === `/v1/test-sessions/${A1.session}` ? [400, 'UNKNOWN_TEST_CASE'] : [404, 'NOT_FOUND'];
        expect({ method, path, status: r.status, code: r.body?.error?.code }).toEqual({ method, path, status: expected[0], code: expected[1] });
      }
    }
    for (const [method, path, body] of [
      ['GET', `/v1/users/${bUser}`],
      ['PUT', `/v1/users/${bUser}`, { name: 'stolen' }],
      ['DELETE', `/v1/users/${bUser}`],
      ['GET', `/v1/users/${b.userId}`],
    ] as [string, string, unknown?][]) {
      const r = await A1.call(method, path, body);
      expect({ method, path, status: r.status, code: r.body?.error?.code }).toEqual({ method, path, status: 404, code: 'NOT_FOUND' });
    }
    expect(await snapshot(B1)).toEqual(beforeB);
    expect(await snapshot(A2)).toEqual(beforeA2);
    expect(await snapshot(A1)).toEqual(beforeA1);
  }, 120_000);

  it('lists show only the own workspace', async () => {
    const ids = (r: JsonResponse) => r.body.data.map((x: { id: string | number }) => x.id);
    expect(ids(await A1.call('GET', '/v1/projects'))).toEqual([A1.project]);
    expect(ids(await A2.call('GET', '/v1/projects'))).toEqual([A2.project]);
    expect(ids(await B1.call('GET', '/v1/projects'))).toEqual([B1.project]);
    expect(ids(await A1.call('GET', '/v1/test-cases'))).toEqual([A1.testCase]);
    expect(ids(await A1.call('GET', `/v1/test-cases?projectId=${B1.project}`))).toEqual([]);
    expect(ids(await A1.call('GET', '/v1/test-sessions'))).toEqual([A1.session]);
    expect(ids(await A1.call('GET', `/v1/test-sessions?projectId=${A2.project}`))).toEqual([]);
    expect((await A1.call('GET', '/tmt/company/api/v1/projects')).body.content.map((x: { id: string }) => x.id)).toEqual([A1.project]);
    const users = (await A1.call('GET', '/v1/users?limit=100')).body.data.map((u: { email: string }) => u.email);
    expect(users).toEqual([a.email]);
    // The same key is taken in A's second workspace (same company), yet free in company B.
    const dup = await A2.call('POST', '/v1/projects', { name: 'x', key: 'SAME' });
    expect({ status: dup.status, code: dup.body.error?.code }).toEqual({ status: 409, code: 'PROJECT_KEY_TAKEN' });
  });

  it('a token of company A cannot enter a workspace of company B', async () => {
    const r = await as(a.token, b.workspaceId)('GET', '/v1/projects');
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 403, body: { success: false, error: { code: 'INVALID_WORKSPACE' } } });
  });
});
