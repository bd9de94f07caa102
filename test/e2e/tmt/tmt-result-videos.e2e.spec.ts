import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signIn, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { probeVideo } from '#test/helpers/video.js';

/**
 * A `/v1` test result that names a device session lists the session's video as an attachment: a
 * reference to the stored MP4 (name, type, size, a signed link that answers ranges), never a copy. A
 * real server whose in-process agent records a browser device's session into a video; results name it
 * through `POST /results` and through a JUnit report's replay link. The session-content rule decides
 * who sees the attachment, and another company's session id is treated as no id at all.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let rival: SignedUpCompany;
let member: Caller;
let reviewer: Caller;
let deviceSessionId: string;
let video: { bytes: number; durationMs: number };
const dir = mkdtempSync(join(tmpdir(), 'tmt-result-videos-'));

/** A caller of `/v1`: a user's token in a workspace. */
interface Caller {
  token: string;
  workspaceId: number;
}
const v1 = (who: Caller, method: string, path: string, body?: unknown) =>
  http(server.url, method, path, { token: who.token, headers: { 'x-workspace-id': String(who.workspaceId) }, ...(body !== undefined ? { body } : {}) });
const junit = (who: Caller, path: string, xml: string) =>
  http(server.url, 'POST', path, { token: who.token, rawBody: xml, headers: { 'content-type': 'application/xml', 'x-workspace-id': String(who.workspaceId) } });
/** A JUnit report of one failed test whose system-out carries the replay link the CI clients print. */
const report = (sessionId: string) =>
  `<testsuites><testsuite name="cart.spec.ts"><testcase classname="cart.spec.ts" name="adds" time="1.2"><system-out>[qa-platform] cart.spec.ts › adds failed; replay: ${server.url}/sessions/${sessionId}?pane=replay</system-out><failure message="expected 1 to be 2">at adds (cart.spec.ts:3:5)</failure></testcase></testsuite></testsuites>`;

/** A project with one test case and an open session of it, in the caller's workspace. */
async function openSession(who: Caller, key: string): Promise<{ projectId: string; caseId: string; sessionId: string }> {
  const project = await v1(who, 'POST', '/v1/projects', { name: key, key });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const testCase = await v1(who, 'POST', '/v1/test-cases', { title: 'checkout › pays', projectId: project.body.data.id });
  const session = await v1(who, 'POST', '/v1/test-sessions', { name: `${key} run`, projectId: project.body.data.id, testCases: [testCase.body.data.id] });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  return { projectId: project.body.data.id, caseId: testCase.body.data.id, sessionId: session.body.data.id };
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'result-videos-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Result videos desktop', profile: 'desktop', width: 480, height: 360 }] }),
  });
  // The first company to sign up gets the in-process host's device.
  company = await signUpCompany(server.url, 'result-videos');
  rival = await signUpCompany(server.url, 'result-videos-rival');
  const admin = client(server.url, company.token);
  const roles = (await admin.get('/roles')).body as { id: number; name: string }[];
  const reviewerRole = await admin.post('/roles', { name: 'Test reviewer', description: 'reads results and any session content', permissions: ['TMT_READ', 'df:session:read', 'df:session:review'] });
  expect(reviewerRole.status, JSON.stringify(reviewerRole.body)).toBe(201);
  const coworker = async (email: string, roleId: number) => {
    const user = await createActiveUser(server.url, admin, smtp.mails, { email, name: email, roleIds: [roleId] });
    expect((await admin.post(`/workspaces/${company.workspaceId}/access/users`, { userId: user.id })).status).toBe(200);
    // Signed in again, now with access to the workspace.
    const signedIn = await signIn(server.url, email, user.password);
    expect(signedIn.status).toBe(200);
    return { token: signedIn.body.token as string, workspaceId: company.workspaceId };
  };
  // A Member reads and writes results and reads sessions, but not a session's content it does not own.
  member = await coworker('mia@result-videos.test', roles.find((r) => r.name === 'Member')!.id);
  reviewer = await coworker('rex@result-videos.test', reviewerRole.body.id);

  const df = (method: string, path: string) => http(server.url, method, `/df/api${path}`, { token: company.token });
  const device = await eventually(async () => (await df('GET', '/devices?status=available')).body.content?.[0] as { id: string } | undefined, { what: 'the browser device', timeoutMs: 60_000 });
  const created = await http(server.url, 'POST', '/df/api/sessions', { token: company.token, body: { deviceId: device.id, name: 'checkout on desktop' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  deviceSessionId = created.body.id;
  expect((await df('POST', `/sessions/${deviceSessionId}/recording/start`)).body).toMatchObject({ recording: true });
  // A short recording: its length is what the session records.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const stopped = await df('POST', `/sessions/${deviceSessionId}/recording/stop`);
  expect(stopped.body, JSON.stringify(stopped.body)).toMatchObject({ video: { format: 'mp4' } });
  video = stopped.body.video;
}, 180_000);

afterAll(async () => {
  if (deviceSessionId) await http(server.url, 'DELETE', `/df/api/sessions/${deviceSessionId}`, { token: company.token });
  await server?.stop();
  await smtp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What a result shows of its device session: the id and the attachments. */
const shownOf = (result: { deviceSessionId: string | null; attachments: unknown[] }) => ({ deviceSessionId: result.deviceSessionId, attachments: result.attachments });

describe("a /v1 result's device-session video", { timeout: 120_000 }, () => {
  it('a result posted with the recorded device session lists its video, whose signed link serves the MP4 whole and by ranges', async () => {
    const { caseId, sessionId } = await openSession(company, 'POSTED');
    const recorded = await v1(company, 'POST', `/v1/test-sessions/${sessionId}/results`, { testCaseId: caseId, status: 'failed', deviceSessionId });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    const [result] = (await v1(company, 'GET', `/v1/test-sessions/${sessionId}`)).body.data.results;
    expect(result.deviceSessionId).toBe(deviceSessionId);
    expect(result.attachments).toEqual([
      {
        kind: 'device-session-video',
        deviceSessionId,
        name: `session-${deviceSessionId}.mp4`,
        contentType: 'video/mp4',
        size: video.bytes,
        durationMs: video.durationMs,
        url: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    // The same in the results' list and their history.
    expect((await v1(company, 'GET', `/v1/test-sessions/${sessionId}/results`)).body.data[0].attachments).toHaveLength(1);
    expect((await v1(company, 'GET', `/v1/test-sessions/${sessionId}/results?history=true`)).body.data[0].attachments).toHaveLength(1);

    // The link needs no credential; it serves the stored file, by ranges too.
    const link = new URL(result.attachments[0].url, server.url);
    const whole = await fetch(link);
    expect(whole.status).toBe(200);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(video.bytes);
    const part = await fetch(link, { headers: { range: 'bytes=0-99' } });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 0-99/${video.bytes}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    const file = join(dir, 'result.mp4');
    writeFileSync(file, bytes);
    const probe = await probeVideo(file);
    expect(probe.codec).toBe('h264');
    expect(Math.abs(probe.durationS * 1000 - video.durationMs)).toBeLessThan(1_000);
  });

  it("a JUnit report naming the session by its replay link gets the same attachment; the session-content rule decides who sees it", async () => {
    const { projectId } = await openSession(company, 'JUNIT');
    const imported = await junit(company, `/v1/projects/${projectId}/junit-imports`, report(deviceSessionId));
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.data.results[0].deviceSessionId).toBe(deviceSessionId);
    const path = `/v1/test-sessions/${imported.body.data.testSessionId}`;
    const owner = (await v1(company, 'GET', path)).body.data.results[0];
    expect(owner.attachments.map((a: { kind: string; size: number }) => [a.kind, a.size])).toEqual([['device-session-video', video.bytes]]);
    // A reviewer of the workspace may see any session's content.
    expect(shownOf((await v1(reviewer, 'GET', path)).body.data.results[0]).attachments).toHaveLength(1);
    // A member reads the result and the session's record, not its content: the id, no video.
    const asMember = await v1(member, 'GET', path);
    expect(asMember.status, JSON.stringify(asMember.body)).toBe(200);
    expect(shownOf(asMember.body.data.results[0])).toEqual({ deviceSessionId, attachments: [] });
  });

  it("another company's device session id is treated as none: not recorded, no attachment, answered as an unknown id is", async () => {
    const foreign = await openSession(rival, 'RIVAL');
    const unknown = randomUUID();
    for (const named of [deviceSessionId, unknown]) {
      const posted = await v1(rival, 'POST', `/v1/test-sessions/${foreign.sessionId}/results`, { testCaseId: foreign.caseId, status: 'failed', deviceSessionId: named });
      expect([posted.status, posted.body]).toEqual([201, { success: true, data: { recorded: 1, sessionStatus: 'in_progress' } }]);
      const [result] = (await v1(rival, 'GET', `/v1/test-sessions/${foreign.sessionId}`)).body.data.results;
      expect(shownOf(result)).toEqual({ deviceSessionId: null, attachments: [] });

      // The JUnit import dropped it too: its answer, the session and the history hold no id.
      const imported = await junit(rival, `/v1/projects/${foreign.projectId}/junit-imports?testSessionId=${foreign.sessionId}`, report(named));
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      expect(imported.body.data.results[0].deviceSessionId).toBeNull();
      const history = (await v1(rival, 'GET', `/v1/test-sessions/${foreign.sessionId}/results?history=true`)).body.data as { deviceSessionId: string | null; attachments: unknown[] }[];
      expect(history.map(shownOf)).toEqual(history.map(() => ({ deviceSessionId: null, attachments: [] })));
    }
    // Not recorded at all: the rival's session stream names no device session.
    const recorded = await server.process.platform.store.readStream(`tmt-test-session-${foreign.sessionId}`);
    const results = recorded.flatMap((e) => (e.type === 'TestResultsRecorded' ? (e.payload as { results: { deviceSessionId?: string }[] }).results : []));
    expect(results).toHaveLength(4);
    expect(results.map((r) => r.deviceSessionId)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
