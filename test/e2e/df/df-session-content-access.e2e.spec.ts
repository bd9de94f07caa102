import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectViewer, eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signIn, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Who may see a session's content (its device's screen and data), route by route: a real server with
 * its in-process agent (a real Chromium browser device), the session's owner, coworkers with their
 * own roles and invitations, and another company. Every cell of the table is one request and its
 * answer's status and code. Apps and files: a browser device has none, so a request that passes the
 * access check is answered 409 `DEVICE_UNSUPPORTED` by the device itself.
 */
const PHONE = 'Phone (content)';
let server: TestServer;
let site: TestSite;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let rival: SignedUpCompany;
let sessionId: string;

type Who = 'owner' | 'inviteeView' | 'inviteeControl' | 'withdrawn' | 'uninvited' | 'reviewer' | 'manager' | 'otherCompany';
const tokens = {} as Record<Who, string>;
const ids = {} as Record<Who, number>;
const state = { artifactId: '', recordingId: '', auditId: '', scanId: '' };

/** A coworker with one role, given access to the Default workspace and signed in afterwards. */
async function coworker(email: string, roleId: number): Promise<{ id: number; token: string }> {
  const user = await createActiveUser(server.url, admin, smtp.mails, { email, name: email, roleIds: [roleId] });
  expect((await admin.post(`/workspaces/${company.workspaceId}/access/users`, { userId: user.id })).status).toBe(200);
  const signedIn = await signIn(server.url, email, user.password);
  expect(signedIn.status).toBe(200);
  return { id: user.id, token: signedIn.body.token };
}
async function role(name: string, permissions: string[]): Promise<number> {
  const created = await admin.post('/roles', { name, description: name, permissions });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}
function api(method: string, path: string, body?: unknown, token = company.token) {
  return http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
}
const accept = async (access: 'view' | 'control', who: Who) => {
  const link = await api('POST', `/sessions/${sessionId}/invitations`, { link: true, access });
  expect(link.status).toBe(201);
  expect((await api('POST', `/session-invites/${link.body.token}/accept`, undefined, tokens[who])).body).toMatchObject({ sessionId, access });
};

beforeAll(async () => {
  site = await startTestSite();
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    // A host without videos: its recordings keep the screen's JPEG frames, which this file replays.
    AGENT_VIDEO_ENABLED: 'false',
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'content-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: PHONE, profile: 'pixel-7', width: 360, height: 640, scale: 2 }] }),
  });
  company = await signUpCompany(server.url, 'content');
  admin = client(server.url, company.token);
  rival = await signUpCompany(server.url, 'content-rival');
  const roles = (await admin.get('/roles')).body as { id: number; name: string }[];
  const viewer = roles.find((r) => r.name === 'Viewer')!.id;
  const member = roles.find((r) => r.name === 'Member')!.id;
  const users: [Who, string, number][] = [
    ['inviteeView', 'vera@content.test', viewer],
    ['inviteeControl', 'dan@content.test', viewer],
    ['withdrawn', 'wanda@content.test', viewer],
    // A Member holds df:session:read, df:app:install, df:debug:use and df:accessibility:use: everything but an invitation.
    ['uninvited', 'mia@content.test', member],
    ['reviewer', 'rex@content.test', await role('Session reviewer', ['df:device:read', 'df:session:read', 'df:session:review'])],
    ['manager', 'max@content.test', await role('Session manager', ['df:device:read', 'df:session:read', 'df:session:manage'])],
  ];
  for (const [who, email, roleId] of users) ({ id: ids[who], token: tokens[who] } = await coworker(email, roleId));
  tokens.owner = company.token;
  ids.owner = company.userId;
  tokens.otherCompany = rival.token;

  const phone = await eventually(async () => (await api('GET', '/devices')).body.content?.[0] as { id: string } | undefined, { what: 'the browser device', timeoutMs: 30_000 });
  const created = await api('POST', '/sessions', { deviceId: phone.id, name: 'Private checkout' });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
  expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: site.url })).status).toBe(200);
  await site.waitForEvent((e) => e.kind === 'storage');

  // Content to read: a screenshot (an artifact), a failed test's error, a recording with frames, an accessibility scan.
  const shot = await api('GET', `/sessions/${sessionId}/screenshot`);
  expect(shot.status).toBe(200);
  state.artifactId = (await api('GET', `/sessions/${sessionId}/artifacts`)).body[0].id;
  const failed = await api('POST', `/automation/sessions/${sessionId}/test-events`, { type: 'test_failed', name: 'pays by card', error: { message: 'card 4111 declined' } });
  expect(failed.status).toBe(201);
  const watching = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${company.token}`);
  await watching.framesAtLeast(1);
  state.recordingId = (await api('POST', `/sessions/${sessionId}/recording/start`)).body.recordingId;
  await eventually(async () => {
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'swipe', x1: 180, y1: 500, x2: 180, y2: 200 });
    return (await api('GET', `/sessions/${sessionId}/recording/status`)).body.frames >= 2 ? true : undefined;
  }, { what: 'recorded frames', timeoutMs: 30_000 });
  expect((await api('POST', `/sessions/${sessionId}/recording/stop`)).status).toBe(200);
  watching.socket.close();
  const audit = await api('POST', `/sessions/${sessionId}/accessibility/audits`, { name: 'content audit' });
  expect(audit.status).toBe(201);
  state.auditId = audit.body.id;
  const scan = await api('POST', `/sessions/${sessionId}/accessibility/audits/${state.auditId}/scans`);
  expect(scan.status, JSON.stringify(scan.body)).toBe(201);
  state.scanId = scan.body.id;

  await accept('view', 'inviteeView');
  await accept('control', 'inviteeControl');
  await accept('view', 'withdrawn');
  expect((await api('DELETE', `/sessions/${sessionId}/viewers/${ids.withdrawn}`)).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
  await smtp?.stop();
});

interface Route {
  name: string;
  /** `view`: reading content; `control`: driving the device. */
  need: 'view' | 'control';
  /** The answer once access is granted. */
  granted: [number, string?];
  call(token: string): Promise<{ status: number; code: string | undefined }>;
}
const rest =
  (method: string, path: () => string, body?: unknown) =>
  async (token: string): Promise<{ status: number; code: string | undefined }> => {
    const res = await api(method, path(), body, token);
    return { status: res.status, code: res.status >= 400 ? errorCode(res) : undefined };
  };
const s = (path: string) => () => `/sessions/${sessionId}${path}`;
/** The viewer socket: `hello` counts as 200; a refusal closes it with 4000 + the status and the code as its reason. */
const viewerSocket = async (token: string) => {
  const v = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
  const outcome = await Promise.race([v.next((m) => m.type === 'hello').then(() => ({ status: 200, code: undefined })), v.closed.then((c) => ({ status: c.code - 4000, code: c.reason }))]);
  v.socket.close();
  return outcome;
};
const UNSUPPORTED: [number, string] = [409, 'DEVICE_UNSUPPORTED'];

const ROUTES: Route[] = [
  { name: 'GET ui-tree', need: 'view', granted: [200], call: rest('GET', s('/ui-tree')) },
  { name: 'GET screenshot', need: 'view', granted: [200], call: rest('GET', s('/screenshot')) },
  { name: 'GET logs', need: 'view', granted: [200], call: rest('GET', s('/logs')) },
  { name: 'GET replay', need: 'view', granted: [200], call: rest('GET', s('/replay')) },
  { name: 'GET replay frame', need: 'view', granted: [200], call: rest('GET', () => `/sessions/${sessionId}/replay/${state.recordingId}/frames/0`) },
  { name: 'GET webdriver-log', need: 'view', granted: [200], call: rest('GET', s('/webdriver-log')) },
  { name: 'GET artifacts', need: 'view', granted: [200], call: rest('GET', s('/artifacts')) },
  { name: 'GET artifact download', need: 'view', granted: [200], call: rest('GET', () => `/sessions/${sessionId}/artifacts/${state.artifactId}/download`) },
  { name: 'GET apps', need: 'view', granted: UNSUPPORTED, call: rest('GET', s('/apps')) },
  { name: 'POST apps/presence', need: 'view', granted: UNSUPPORTED, call: rest('POST', s('/apps/presence'), { packageNames: ['com.example.shop'] }) },
  { name: 'GET files', need: 'view', granted: UNSUPPORTED, call: rest('GET', s('/files?path=/sdcard')) },
  { name: 'POST files/pull', need: 'view', granted: UNSUPPORTED, call: rest('POST', s('/files/pull'), { path: '/sdcard/notes.txt' }) },
  { name: 'GET accessibility scan screenshot', need: 'view', granted: [200], call: rest('GET', () => `/accessibility/audits/${state.auditId}/scans/${state.scanId}/screenshot`) },
  { name: 'GET accessibility scan ui-tree', need: 'view', granted: [200], call: rest('GET', () => `/accessibility/audits/${state.auditId}/scans/${state.scanId}/ui-tree`) },
  { name: 'GET accessibility findings', need: 'view', granted: [200], call: rest('GET', () => `/accessibility/audits/${state.auditId}/findings`) },
  { name: 'GET automation test-events', need: 'view', granted: [200], call: rest('GET', () => `/automation/sessions/${sessionId}/test-events`) },
  { name: 'viewer socket', need: 'view', granted: [200], call: viewerSocket },
  { name: 'POST device/control', need: 'control', granted: [200], call: rest('POST', s('/device/control'), { action: 'swipe', x1: 180, y1: 300, x2: 180, y2: 400 }) },
];

/** What each caller gets from a route, by what it needs. */
const expected = (who: Who, route: Route): [number, string?] => {
  switch (who) {
    case 'owner':
    case 'inviteeControl':
    case 'manager':
      return route.granted;
    case 'inviteeView':
    case 'reviewer':
      return route.need === 'view' ? route.granted : [403, 'FORBIDDEN'];
    case 'withdrawn':
      return [403, 'SESSION_ACCESS_WITHDRAWN'];
    case 'uninvited':
      return [403, 'SESSION_CONTENT_FORBIDDEN'];
    case 'otherCompany':
      return [404, 'NOT_FOUND'];
  }
};
const WHO: Who[] = ['owner', 'inviteeView', 'inviteeControl', 'withdrawn', 'uninvited', 'reviewer', 'manager', 'otherCompany'];

describe("a session's content", () => {
  it.each(WHO)('answers %s on every content route as the rule says', async (who) => {
    const got: string[] = [];
    const want: string[] = [];
    for (const route of ROUTES) {
      const { status, code } = await route.call(tokens[who]);
      const [wantStatus, wantCode] = expected(who, route);
      got.push(`${route.name}: ${status} ${wantStatus < 300 ? '' : (code ?? '')}`.trim());
      want.push(`${route.name}: ${wantStatus} ${wantCode ?? ''}`.trim());
    }
    expect(got).toEqual(want);
  }, 120_000);
});

describe("a session's record", () => {
  it('stays readable for an uninvited reader of the workspace, with its activities summarised without their content', async () => {
    const record = await api('GET', `/sessions/${sessionId}`, undefined, tokens.uninvited);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: sessionId, name: 'Private checkout', status: 'active', ownerId: ids.owner });
    const own = (await api('GET', `/sessions/${sessionId}/activities?kind=navigation&size=200`)).body.content as { id: string; detail: Record<string, unknown> }[];
    const opened = own.find((a) => a.detail.url === site.url);
    expect(opened).toBeDefined();
    const summary = await api('GET', `/sessions/${sessionId}/activities?kind=navigation&size=200`, undefined, tokens.uninvited);
    expect(summary.status).toBe(200);
    const same = (summary.body.content as { id: string; kind: string; detail: Record<string, unknown> }[]).find((a) => a.id === opened!.id);
    expect(same).toMatchObject({ kind: 'navigation', detail: { action: 'openUrl' } });
    expect(JSON.stringify(summary.body)).not.toContain(site.url);
    // The reviewer sees the content itself.
    expect(JSON.stringify((await api('GET', `/sessions/${sessionId}/activities?kind=navigation&size=200`, undefined, tokens.reviewer)).body)).toContain(site.url);
  });
});
