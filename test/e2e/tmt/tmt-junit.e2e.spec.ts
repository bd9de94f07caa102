import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * JUnit XML written by three real runners (vitest's `junit` reporter, Playwright Test's `junit`
 * reporter, Mocha with mocha-junit-reporter) over the tiny suites in test/fixtures/junit, each with
 * passing, failing and skipped tests, imported into `/v1` with API keys and an OAuth client token.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/junit');
const BIN = join(ROOT, 'node_modules/.bin');

let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
let aKey: string;
let bKey: string;
let reportDir: string;
const reports: Record<'vitest' | 'playwright' | 'mocha', string> = { vitest: '', playwright: '', mocha: '' };

/** Runs a runner to its end; its suite has a failing test, so its exit code is not looked at, only the report it wrote. */
function run(command: string, args: string[], env: Record<string, string>, report: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: ROOT, env: { ...process.env, ...env, CI: '1', FORCE_COLOR: '0' }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (existsSync(report)) resolve(readFileSync(report, 'utf8'));
      else reject(new Error(`${command} wrote no report (${error?.message}): ${stdout}\n${stderr}`));
    });
  });
}

type Call = (method: string, path: string, options?: { body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> }) => Promise<JsonResponse>;
const as =
  (bearer: string): Call =>
  (method, path, options = {}) =>
    http(server.url, method, path, { token: bearer, ...options });
const xml = (text: string, type = 'application/xml') => ({ rawBody: text, headers: { 'content-type': type } });

/** A multipart body with the report as its `file` part, as `curl -F file=@report.xml` sends it. */
async function multipart(bearer: string, path: string, text: string): Promise<JsonResponse> {
  const form = new FormData();
  form.append('note', 'read past');
  form.append('file', new Blob([text], { type: 'application/xml' }), 'report.xml');
  const res = await fetch(new URL(path, server.url), { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function newProject(call: Call, key: string): Promise<string> {
  const r = await call('POST', '/v1/projects', { body: { name: `Project ${key}`, key } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

async function newSession(call: Call, projectId: string, testCases: string[] = []): Promise<string> {
  const r = await call('POST', '/v1/test-sessions', { body: { name: 'CI run', projectId, testCases } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

/** Everything a project and one of its sessions show. */
async function snapshot(call: Call, projectId: string, sessionId: string) {
  return {
    cases: (await call('GET', `/v1/test-cases?projectId=${projectId}&limit=100`)).body,
    sessions: (await call('GET', `/v1/test-sessions?projectId=${projectId}&limit=100`)).body,
    session: (await call('GET', `/v1/test-sessions/${sessionId}`)).body,
    history: (await call('GET', `/v1/test-sessions/${sessionId}/results?history=true&limit=100`)).body,
  };
}

/**
 * Writes to both read models an import touches, in another project, and waits for them: a refused
 * import that had written anything would be visible in a snapshot taken after this.
 */
let barriers = 0;
async function barrier(call: Call): Promise<void> {
  const project = await newProject(call, `BAR${++barriers}`);
  const created = await call('POST', '/v1/test-cases', { body: { title: 'barrier', projectId: project } });
  expect(created.status).toBe(201);
  await newSession(call, project, [created.body.data.id]);
}

/** The duration, in ms, the report gives the testcase named `name`. */
const reportedMs = (report: string, name: string): number => {
  const m = new RegExp(`<testcase[^>]*name="${name}"[^>]*time="([0-9.]+)"|<testcase[^>]*time="([0-9.]+)"[^>]*name="${name}"`).exec(report);
  return Math.round(Number(m?.[1] ?? m?.[2]) * 1000);
};

beforeAll(async () => {
  reportDir = mkdtempSync(join(tmpdir(), 'qa-junit-reports-'));
  const vitestFile = join(reportDir, 'vitest.xml');
  const playwrightFile = join(reportDir, 'playwright.xml');
  const mochaFile = join(reportDir, 'mocha.xml');
  const [vitest, playwright, mocha] = await Promise.all([
    run(join(BIN, 'vitest'), ['run', '--config', join(FIXTURES, 'vitest/vitest.config.mjs'), '--reporter=junit', `--outputFile=${vitestFile}`], {}, vitestFile),
    run(join(BIN, 'playwright'), ['test', '--config', join(FIXTURES, 'playwright/playwright.config.mjs')], { PLAYWRIGHT_JUNIT_OUTPUT_FILE: playwrightFile }, playwrightFile),
    run(join(BIN, 'mocha'), ['--reporter', 'mocha-junit-reporter', '--reporter-options', `mochaFile=${mochaFile},includePending=true`, join(FIXTURES, 'mocha/arithmetic.test.cjs')], {}, mochaFile),
    (async () => {
      server = await startTestServer();
      a = await signUpCompany(server.url, 'junit-a');
      b = await signUpCompany(server.url, 'junit-b');
      const key = async (company: SignedUpCompany) => {
        const r = await client(server.url, company.token).post('/api-keys', { name: 'CI', scopes: ['read', 'write'] });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.key as string;
      };
      aKey = await key(a);
      bKey = await key(b);
    })(),
  ]);
  Object.assign(reports, { vitest, playwright, mocha });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

describe('JUnit import into /v1', () => {
  it("vitest's report starts a session of the project: every testcase created, the failure's message as notes, durations kept; a second import into a planned session matches them", async () => {
    const A = as(aKey);
    const project = await newProject(A, 'VIT');
    const first = await A('POST', `/v1/projects/${project}/junit-imports?name=${encodeURIComponent('vitest on main')}`, xml(reports.vitest));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const answer = first.body.data;
    expect(answer).toMatchObject({ matched: 0, created: 4, skipped: 1 });
    expect(answer.results.map((r: any) => [r.classname, r.name, r.testCase, r.status, r.recordedStatus])).toEqual([
      ['arithmetic.fixture.mjs', 'arithmetic > adds', 'created', 'passed', 'passed'],
      ['arithmetic.fixture.mjs', 'arithmetic > multiplies', 'created', 'passed', 'passed'],
      ['arithmetic.fixture.mjs', 'arithmetic > divides', 'created', 'failed', 'failed'],
      ['arithmetic.fixture.mjs', 'arithmetic > takes roots', 'created', 'skipped', 'skipped'],
    ]);

    const session = (await A('GET', `/v1/test-sessions/${answer.testSessionId}`)).body.data;
    expect(session).toMatchObject({ projectId: project, name: 'vitest on main', status: 'in_progress' });
    expect(session.testCases).toEqual(answer.results.map((r: any) => r.testCaseId));
    const divides = session.results.find((r: any) => r.testCaseId === answer.results[2].testCaseId);
    expect(divides).toMatchObject({ status: 'failed', durationMs: reportedMs(reports.vitest, 'arithmetic &gt; divides') });
    expect(divides.notes).toMatch(/^AssertionError: expected 0\.5 to be 2/);
    expect(divides.notes.split('expected 0.5 to be 2')).toHaveLength(2);
    expect(divides.notes).toContain('arithmetic.fixture.mjs:11');
    const testCase = (await A('GET', `/v1/test-cases/${answer.results[2].testCaseId}`)).body.data;
    expect(testCase).toMatchObject({ projectId: project, title: 'arithmetic.fixture.mjs › arithmetic > divides' });

    const planned = await newSession(A, project);
    const second = await A('POST', `/v1/test-sessions/${planned}/results/junit`, xml(reports.vitest, 'text/xml; charset=utf-8'));
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.data).toMatchObject({ testSessionId: planned, matched: 4, created: 0, skipped: 1 });
    expect(second.body.data.results.map((r: any) => r.testCaseId)).toEqual(answer.results.map((r: any) => r.testCaseId));
    const after = (await A('GET', `/v1/test-sessions/${planned}`)).body.data;
    expect(after.status).toBe('in_progress');
    expect(after.testCases).toEqual(answer.results.map((r: any) => r.testCaseId));
    expect((await A('GET', `/v1/test-cases?projectId=${project}`)).body.pagination.total).toBe(4);
  });

  it("Playwright Test's report as a multipart file joins an existing session beside its own case; imported again through the project it matches", async () => {
    const A = as(aKey);
    const project = await newProject(A, 'PW');
    const manual = (await A('POST', '/v1/test-cases', { body: { title: 'checked by hand', projectId: project } })).body.data.id;
    const session = await newSession(A, project, [manual]);
    const first = await multipart(aKey, `/v1/test-sessions/${session}/results/junit`, reports.playwright);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ testSessionId: session, matched: 0, created: 4, skipped: 1 });
    const statuses = Object.fromEntries(first.body.data.results.map((r: any) => [r.name, r.status]));
    expect(statuses).toEqual({ 'strings › joins': 'passed', 'strings › upper-cases': 'passed', 'strings › splits': 'failed', 'strings › reverses': 'skipped' });
    const detail = (await A('GET', `/v1/test-sessions/${session}`)).body.data;
    expect(detail.testCases).toEqual([manual, ...first.body.data.results.map((r: any) => r.testCaseId)]);
    const splits = detail.results.find((r: any) => r.testCaseId === first.body.data.results[2].testCaseId);
    // Playwright Test repeats the failure's message in its body: the notes say it once, with the stack.
    expect(splits.notes.split('expect(received).toEqual(expected) // deep equality')).toHaveLength(2);
    expect(splits.notes).toContain('strings.fixture.mjs:11:30');
    expect(splits.title).toBe('strings.fixture.mjs › strings › splits');
    expect(splits.durationMs).toBe(reportedMs(reports.playwright, 'strings › splits'));

    const again = await A('POST', `/v1/projects/${project}/junit-imports`, xml(reports.playwright));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data).toMatchObject({ matched: 4, created: 0, skipped: 1 });
    expect(again.body.data.testSessionId).not.toBe(session);
    expect((await A('GET', `/v1/test-sessions/${again.body.data.testSessionId}`)).body.data.name).toMatch(/^JUnit import /);
  });

  it("Mocha's report (mocha-junit-reporter) imports with an OAuth client's token, and a second import matches", async () => {
    const oauth = await client(server.url, a.token).post('/oauth-clients', { name: 'CI', scopes: ['read', 'write'] });
    expect(oauth.status, JSON.stringify(oauth.body)).toBe(201);
    const token = await http(server.url, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: oauth.body.clientId, client_secret: oauth.body.clientSecret } });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const O = as(token.body.access_token);
    const project = await newProject(O, 'MOC');
    const first = await O('POST', `/v1/projects/${project}/junit-imports`, xml(reports.mocha));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ matched: 0, created: 4, skipped: 1 });
    expect(first.body.data.results.map((r: any) => r.status)).toEqual(['passed', 'passed', 'failed', 'skipped']);
    const second = await O('POST', `/v1/projects/${project}/junit-imports`, xml(reports.mocha));
    expect(second.body.data).toMatchObject({ matched: 4, created: 0, skipped: 1 });
    expect((await O('GET', `/v1/test-cases?projectId=${project}`)).body.pagination.total).toBe(4);
  });
});

describe('JUnit import refusals change nothing', () => {
  let project: string;
  let session: string;
  let A: Call;
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    A = as(aKey);
    project = await newProject(A, 'REF');
    const first = await A('POST', `/v1/projects/${project}/junit-imports`, xml(reports.vitest));
    expect(first.status).toBe(201);
    session = first.body.data.testSessionId;
    before = await snapshot(A, project, session);
  });

  const unchanged = async () => {
    await barrier(A);
    expect(await snapshot(A, project, session)).toEqual(before);
  };

  it('XML that is not well-formed is 400 INVALID_XML naming the line and column', async () => {
    const broken = reports.mocha.replace('</testcase>', '</testcas>');
    const line = broken.slice(0, broken.indexOf('</testcas>')).split('\n').length;
    for (const [path, body] of [
      [`/v1/test-sessions/${session}/results/junit`, broken],
      [`/v1/projects/${project}/junit-imports`, broken],
    ] as const) {
      const r = await A('POST', path, xml(body));
      expect(r.status).toBe(400);
      expect(errorCode(r)).toBe('INVALID_XML');
      expect(r.body.error.message).toMatch(new RegExp(`line ${line}, column \\d+`));
    }
    await unchanged();
  });

  it('well-formed XML that is not JUnit is 400 NOT_JUNIT; a report without testcases is 400 JUNIT_EMPTY; another media type is 415', async () => {
    const pom = '<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>';
    const notJunit = await A('POST', `/v1/test-sessions/${session}/results/junit`, xml(pom));
    expect([notJunit.status, errorCode(notJunit)]).toEqual([400, 'NOT_JUNIT']);
    const empty = await A('POST', `/v1/projects/${project}/junit-imports`, xml('<testsuites name="none"><testsuite name="a" tests="0"/></testsuites>'));
    expect([empty.status, errorCode(empty)]).toEqual([400, 'JUNIT_EMPTY']);
    const json = await A('POST', `/v1/test-sessions/${session}/results/junit`, { body: { testcase: 'x' } });
    expect([json.status, errorCode(json)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    await unchanged();
  });

  it('a report over 10 MiB is 413, as the XML body and as the multipart file', async () => {
    const huge = reports.vitest.replace('</testsuites>', `<!-- ${'x'.repeat(10 * 1024 * 1024)} --></testsuites>`);
    const body = await A('POST', `/v1/test-sessions/${session}/results/junit`, xml(huge));
    expect([body.status, errorCode(body)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const file = await multipart(aKey, `/v1/projects/${project}/junit-imports`, huge);
    expect([file.status, errorCode(file)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    await unchanged();
  });

  it("another company's key gets 404 for this session and this project, and creates nothing on either side", async () => {
    const B = as(bKey);
    const intoSession = await B('POST', `/v1/test-sessions/${session}/results/junit`, xml(reports.playwright));
    expect([intoSession.status, errorCode(intoSession)]).toEqual([404, 'NOT_FOUND']);
    const intoProject = await B('POST', `/v1/projects/${project}/junit-imports`, xml(reports.playwright));
    expect([intoProject.status, errorCode(intoProject)]).toEqual([404, 'NOT_FOUND']);
    await unchanged();
    expect((await B('GET', '/v1/test-cases')).body.pagination.total).toBe(0);
    expect((await B('GET', '/v1/test-sessions')).body.pagination.total).toBe(0);
  });

  it('a completed session is 409 SESSION_COMPLETED before any test case is created', async () => {
    const other = await newSession(A, project);
    expect((await A('PUT', `/v1/test-sessions/${other}`, { body: { status: 'in_progress' } })).status).toBe(200);
    expect((await A('PUT', `/v1/test-sessions/${other}`, { body: { status: 'completed' } })).status).toBe(200);
    const mid = await snapshot(A, project, session);
    const r = await A('POST', `/v1/test-sessions/${other}/results/junit`, xml(reports.mocha));
    expect([r.status, errorCode(r)]).toEqual([409, 'SESSION_COMPLETED']);
    await barrier(A);
    expect(await snapshot(A, project, session)).toEqual(mid);
    expect((await A('GET', `/v1/test-sessions/${other}`)).body.data).toMatchObject({ testCases: [], results: [] });
  });
});
