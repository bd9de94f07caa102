import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * A CI fleet writing to one test session at once: many workers posting results, and the shards of a run
 * importing their JUnit reports into one session (`?testSessionId=`, the last with `?close=true`).
 * Every write must succeed and the session must hold each result once.
 */
let server: TestServer;
let key: string;
let otherKey: string;
/** A device session of the first company (its reports name it). */
let device: string;

const call = (bearer: string, method: string, path: string, options: { body?: unknown; rawBody?: string } = {}): Promise<JsonResponse> =>
  http(server.url, method, path, { token: bearer, ...options, ...(options.rawBody !== undefined ? { headers: { 'content-type': 'application/xml' } } : {}) });

const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');

/** A JUnit report of `names` in one suite; a testcase may carry what Playwright Test writes into its system-out. */
const report = (suite: string, cases: { name: string; failed?: string; out?: string }[]): string =>
  `<testsuites><testsuite name="${escape(suite)}">${cases
    .map(
      (c) =>
        `<testcase classname="${escape(suite)}" name="${escape(c.name)}" time="0.01">${c.out ? `<system-out><![CDATA[${c.out}]]></system-out>` : ''}${
          c.failed ? `<failure message="${escape(c.failed)}" type="AssertionError"><![CDATA[AssertionError: ${c.failed}\n    at ${c.name} (cart.spec.ts:3:5)]]></failure>` : ''
        }</testcase>`,
    )
    .join('')}</testsuite></testsuites>`;

let projects = 0;
async function newProject(name: string): Promise<string> {
  const r = await call(key, 'POST', '/v1/projects', { body: { name, key: `CI${++projects}` } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

/** `count` test cases of a project, made by one JUnit import (faster than one request each). */
async function newCases(projectId: string, count: number): Promise<string[]> {
  const xml = report('cases', Array.from({ length: count }, (_, i) => ({ name: `case ${i}` })));
  const r = await call(key, 'POST', `/v1/projects/${projectId}/junit-imports`, { rawBody: xml });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.results.map((x: { testCaseId: string }) => x.testCaseId);
}

async function newSession(projectId: string, testCases: string[] = []): Promise<string> {
  const r = await call(key, 'POST', '/v1/test-sessions', { body: { name: 'CI run', projectId, testCases } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

/** The session's current results and its whole history. */
async function held(sessionId: string) {
  const history = await call(key, 'GET', `/v1/test-sessions/${sessionId}/results?history=true&limit=1`);
  const all: { testCaseId: string }[] = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const current = await call(key, 'GET', `/v1/test-sessions/${sessionId}/results?limit=100&page=${page}`);
    all.push(...current.body.data);
    pages = Math.ceil(current.body.pagination.total / 100);
  }
  return { currentIds: all.map((r) => r.testCaseId).sort(), history: history.body.pagination.total as number };
}

/** `writers` workers at once, each posting its share of the cases one result per request. */
async function writeInParallel(sessionId: string, cases: string[], writers: number): Promise<number[]> {
  const shares = Array.from({ length: writers }, (_, w) => cases.filter((_, i) => i % writers === w));
  const statuses = await Promise.all(
    shares.map(async (share) => {
      const mine: number[] = [];
      for (const testCaseId of share) {
        mine.push((await call(key, 'POST', `/v1/test-sessions/${sessionId}/results`, { body: { testCaseId, status: 'passed', durationMs: 3 } })).status);
      }
      return mine;
    }),
  );
  return statuses.flat();
}

beforeAll(async () => {
  // One simulated device, the in-process host's, given to the first company that signs up.
  server = await startTestServer({ AGENT_CONFIG: writeAgentConfig({ nodeName: 'ci-writers-node', devices: [{ provider: 'simulated', name: 'CI phone' }] }) });
  const keyOf = async (company: SignedUpCompany) => {
    const r = await client(server.url, company.token).post('/api-keys', { name: 'CI', scopes: ['read', 'write'] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.key as string;
  };
  const company = await signUpCompany(server.url, 'ci-writers-a');
  [key, otherKey] = await Promise.all([keyOf(company), signUpCompany(server.url, 'ci-writers-b').then(keyOf)]);
  // The device session the reports name: a result keeps only a device session of its own company.
  const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });
  const phone = await eventually(async () => (await df('GET', '/devices')).body.content?.[0] as { id: string } | undefined, { what: 'the simulated device', timeoutMs: 30_000 });
  const opened = await df('POST', '/sessions', { deviceId: phone.id, name: 'CI' });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  device = opened.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('parallel writers of one test session', () => {
  it.each([
    [8, 80],
    [50, 200],
  ])('%i workers posting %i results to one session: every request 201, the session holds each result once', async (writers, total) => {
    const project = await newProject(`Writers ${writers}`);
    const cases = await newCases(project, total);
    const session = await newSession(project, cases);
    const statuses = await writeInParallel(session, cases, writers);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect(statuses).toHaveLength(total);
    const { currentIds, history } = await held(session);
    expect(currentIds).toEqual([...cases].sort());
    expect(history).toBe(total);
  }, 120_000);

  it('8 sharded JUnit imports into one session at once (?testSessionId=): all 201, each result once', async () => {
    const project = await newProject('Shards');
    const session = await newSession(project);
    const shards = Array.from({ length: 8 }, (_, s) => report(`shard ${s}`, Array.from({ length: 5 }, (_, i) => ({ name: `test ${i}` }))));
    const answers = await Promise.all(shards.map((xml) => call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=${session}`, { rawBody: xml })));
    expect(answers.map((r) => [r.status, r.status === 201 ? r.body.data.testSessionId : r.body])).toEqual(shards.map(() => [201, session]));
    const ids = answers.flatMap((r) => r.body.data.results.map((x: { testCaseId: string }) => x.testCaseId));
    expect(new Set(ids).size).toBe(40);
    const { currentIds, history } = await held(session);
    expect(currentIds).toEqual([...ids].sort());
    expect(history).toBe(40);
    expect((await call(key, 'GET', `/v1/test-sessions/${session}`)).body.data.testCases.slice().sort()).toEqual([...ids].sort());
  }, 120_000);
});

describe('JUnit import as CI uses it', () => {
  it('a shard imported again replaces its results (history not doubled); the last with close=true completes the session; titles, notes once and the device session kept', async () => {
    const project = await newProject('Closing');
    const session = await newSession(project);
    const failing = report('cart.spec.ts', [
      { name: 'cart › adds' },
      { name: 'cart › removes', failed: 'expected 1 to be 0', out: `[qa-platform] cart › removes failed; replay: ${server.url}/sessions/${device}?pane=replay\n` },
    ]);
    const first = await call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=${session}`, { rawBody: failing });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ testSessionId: session, sessionStatus: 'in_progress', created: 2 });
    expect(first.body.data.results[1]).toMatchObject({ title: 'cart.spec.ts › cart › removes', deviceSessionId: device });

    const again = await call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=${session}`, { rawBody: failing });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data).toMatchObject({ matched: 2, created: 0 });
    expect((await held(session)).history).toBe(2);

    const rerun = report('cart.spec.ts', [{ name: 'cart › removes' }]);
    const closing = await call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=${session}&close=true`, { rawBody: rerun });
    expect(closing.status, JSON.stringify(closing.body)).toBe(201);
    expect(closing.body.data.sessionStatus).toBe('completed');
    const detail = (await call(key, 'GET', `/v1/test-sessions/${session}`)).body.data;
    expect(detail).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect(detail.results.map((r: { title: string; status: string }) => [r.title, r.status])).toEqual([
      ['cart.spec.ts › cart › adds', 'passed'],
      ['cart.spec.ts › cart › removes', 'passed'],
    ]);
    const history = (await call(key, 'GET', `/v1/test-sessions/${session}/results?history=true`)).body;
    expect(history.pagination.total).toBe(2);

    const late = await call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=${session}`, { rawBody: rerun });
    expect([late.status, errorCode(late)]).toEqual([409, 'SESSION_COMPLETED']);
  }, 120_000);

  it('failure notes hold the message once; the device session shows on the result', async () => {
    const project = await newProject('Notes');
    const xml = report('pay.spec.ts', [{ name: 'pays', failed: 'expected 2 to be 3', out: `replay: ${server.url}/sessions/${device}?pane=replay` }]);
    const r = await call(key, 'POST', `/v1/projects/${project}/junit-imports?close=true`, { rawBody: xml });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.sessionStatus).toBe('completed');
    const [result] = (await call(key, 'GET', `/v1/test-sessions/${r.body.data.testSessionId}`)).body.data.results;
    expect(result.notes.split('expected 2 to be 3')).toHaveLength(2);
    expect(result.notes).toContain('cart.spec.ts:3:5');
    expect(result).toMatchObject({ title: 'pay.spec.ts › pays', deviceSessionId: device, status: 'failed' });
  });

  it("another company's session id, a session of another project, and an id that is not one: 404, 404, 400; nothing recorded", async () => {
    const project = await newProject('Tenancy');
    const session = await newSession(project);
    const otherProject = await newProject('Elsewhere');
    const xml = report('t', [{ name: 'one' }]);
    const foreign = await call(otherKey, 'POST', '/v1/projects', { body: { name: 'B', key: 'BEE' } });
    const intoForeign = await call(otherKey, 'POST', `/v1/projects/${foreign.body.data.id}/junit-imports?testSessionId=${session}`, { rawBody: xml });
    expect([intoForeign.status, errorCode(intoForeign)]).toEqual([404, 'NOT_FOUND']);
    const wrongProject = await call(key, 'POST', `/v1/projects/${otherProject}/junit-imports?testSessionId=${session}`, { rawBody: xml });
    expect([wrongProject.status, errorCode(wrongProject)]).toEqual([404, 'NOT_FOUND']);
    const notAnId = await call(key, 'POST', `/v1/projects/${project}/junit-imports?testSessionId=latest`, { rawBody: xml });
    expect([notAnId.status, errorCode(notAnId)]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call(key, 'GET', `/v1/test-sessions/${session}`)).body.data).toMatchObject({ testCases: [], results: [] });
  });
});
