import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectViewer, eventually, startTestSite, writeAgentConfig, type TestSite, type ViewerClient } from '#test/helpers/df-farm.js';
import { client, createActiveUser, signIn, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Sharing a device session end to end: a real server with its in-process agent (real Chromium
 * browser devices), a real SMTP listener for the invitation mails, coworkers of the company signed
 * in with their own tokens, watching and driving over the viewer WebSocket and the REST API.
 */
const APP_URL = 'https://qa.example.test';
const PHONE = 'Phone (share)';
const DESKTOP = 'Desktop (share)';
let server: TestServer;
let site: TestSite;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let rival: SignedUpCompany;
let realNow: () => Date;

interface Coworker {
  id: number;
  email: string;
  name: string;
  token: string;
}
let vera: Coworker; // Viewer role: reads, changes nothing
let dan: Coworker; // Viewer role too: drives only because an invitation says so
let mia: Coworker; // Member role: may share her own sessions, not others'
let sessionId: string;
const open: ViewerClient[] = [];

/** A coworker with a role and access to the Default workspace, signed in afterwards (so the token names that workspace). */
async function coworker(email: string, name: string, role: string): Promise<Coworker> {
  const roles = (await admin.get('/roles')).body as { id: number; name: string }[];
  const user = await createActiveUser(server.url, admin, smtp.mails, { email, name, roleIds: [roles.find((r) => r.name === role)!.id] });
  expect((await admin.post(`/workspaces/${company.workspaceId}/access/users`, { userId: user.id })).status).toBe(200);
  const signedIn = await signIn(server.url, email, user.password);
  expect(signedIn.status).toBe(200);
  return { id: user.id, email, name, token: signedIn.body.token };
}

beforeAll(async () => {
  site = await startTestSite();
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    APP_URL,
    // The mail limit per recipient of an installation, which session invitations count against too.
    MAIL_MAX_PER_EMAIL_PER_HOUR: '5',
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'share-node',
      heartbeatMs: 500,
      devices: [
        { provider: 'browser', name: PHONE, profile: 'pixel-7', width: 360, height: 640, scale: 2 },
        { provider: 'browser', name: DESKTOP, profile: 'desktop', width: 800, height: 600 },
      ],
    }),
  });
  realNow = server.process.platform.now;
  // The first company of the server is the one that sees the in-process agent's devices.
  company = await signUpCompany(server.url, 'share');
  admin = client(server.url, company.token);
  rival = await signUpCompany(server.url, 'rival');
  vera = await coworker('vera@share.test', 'Vera Viewer', 'Viewer');
  dan = await coworker('dan@share.test', 'Dan Driver', 'Viewer');
  mia = await coworker('mia@share.test', 'Mia Member', 'Member');
  await eventually(async () => ((await api('GET', '/devices')).body.totalElements === 2 ? true : undefined), { what: 'the two browser devices', timeoutMs: 30_000 });
  const phone = (await api('GET', `/devices?search=${encodeURIComponent(PHONE)}`)).body.content[0];
  const created = await api('POST', '/sessions', { deviceId: phone.id, name: 'Shared checkout' });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
  expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: site.url })).status).toBe(200);
  await site.waitForEvent((e) => e.kind === 'storage');
}, 120_000);

afterEach(() => {
  server.process.platform.now = realNow;
  for (const v of open.splice(0)) v.socket.close();
});

afterAll(async () => {
  await server?.stop();
  await site?.close();
  await smtp?.stop();
});

/** `/df/api` as a user (the company's administrator unless another token is given). */
function api(method: string, path: string, body?: unknown, token = company.token) {
  return http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
}
const wsUrl = (id: string, token: string) => `${server.url.replace('http', 'ws')}/df/ws/sessions/${id}?access_token=${token}`;
function watch(id: string, token: string): ViewerClient {
  const viewer = connectViewer(wsUrl(id, token));
  open.push(viewer);
  return viewer;
}
const createLink = (body: Record<string, unknown>, id = sessionId) => api('POST', `/sessions/${id}/invitations`, { link: true, ...body });
const accept = (token: string, as: string) => api('POST', `/session-invites/${token}/accept`, undefined, as);
/** The middle of the page's button, in screenshot pixels. */
async function buttonCenter(): Promise<{ x: number; y: number }> {
  const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
  const button = tree.body.root.children.find((n: { id?: string }) => n.id === 'target');
  return { x: button.bounds.x + button.bounds.width / 2, y: button.bounds.y + button.bounds.height / 2 };
}
/** The text of a mail as written (quoted-printable soft breaks and escapes undone). */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/** The newest session invitation mailed to `to` (the invitation answers once it was sent). */
const invitationMail = (to: string) =>
  eventually(async () => smtp.mails.filter((m) => m.to.includes(to)).map((m) => mailText(m.raw)).filter((t) => t.includes('/device-farm/session-invite/')).at(-1), { what: `an invitation mail to ${to}` });

describe('a view link', () => {
  it('is shown once with its URL, listed without its token, and lets a coworker watch the real screen but never reach the device', async () => {
    const created = await createLink({ access: 'view' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'link', access: 'view', maxUses: null, uses: 0 });
    expect(created.body.token).toMatch(/^dfs_[A-Za-z0-9_-]{20,}$/);
    expect(created.body.url).toBe(`${APP_URL}/device-farm/session-invite/${created.body.token}`);
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(24 * 3_600_000);

    const links = await api('GET', `/sessions/${sessionId}/invitations/links`);
    expect(links.body).toEqual([expect.objectContaining({ id: created.body.id, type: 'link', access: 'view', uses: 0 })]);
    expect(JSON.stringify(links.body)).not.toContain(created.body.token);

    // Before accepting, Vera (a reader of the workspace) may not watch.
    const early = watch(sessionId, vera.token);
    expect((await early.closed).code).toBe(4403);

    expect((await accept(created.body.token, vera.token)).body).toEqual({ sessionId, workspaceId: company.workspaceId, access: 'view' });
    expect((await api('GET', `/sessions/${sessionId}/invitations/links`)).body[0].uses).toBe(1);

    const viewer = watch(sessionId, vera.token);
    expect(await viewer.next((m) => m.type === 'hello')).toMatchObject({ sessionId, access: 'view', canControl: false });
    await viewer.framesAtLeast(2);
    expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const taps = site.events.filter((e) => e.kind === 'tap').length;
    const { x, y } = await buttonCenter();
    viewer.send({ type: 'input', id: 'v-1', action: { action: 'tap', x, y } });
    const refused = await viewer.next((m) => m.type === 'error' && m.id === 'v-1');
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
    expect(String(refused.message)).toMatch(/view-only/i);
    const rest = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x, y }, vera.token);
    expect(rest.status).toBe(403);
    expect(errorCode(rest)).toBe('FORBIDDEN');
    // The socket stays open for watching; nothing reached the page.
    viewer.send({ type: 'ping' });
    await viewer.next((m) => m.type === 'pong');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(site.events.filter((e) => e.kind === 'tap')).toHaveLength(taps);
    expect(viewer.messages.some((m) => m.type === 'ack')).toBe(false);
  });
});

describe('a coworker who can enter no workspace', () => {
  it('accepts a link without X-Workspace-Id, and with a header naming a workspace that is not theirs', async () => {
    const roles = (await admin.get('/roles')).body as { id: number; name: string }[];
    const nomad = await createActiveUser(server.url, admin, smtp.mails, { email: 'nomad@share.test', name: 'Nomad', roleIds: [roles.find((r) => r.name === 'Viewer')!.id] });
    expect((await client(server.url, nomad.token).get('/workspaces/accessible')).body).toEqual([]);
    const first = await createLink({ access: 'view' });
    expect((await accept(first.body.token, nomad.token)).body).toEqual({ sessionId, workspaceId: company.workspaceId, access: 'view' });
    const second = await createLink({ access: 'view' });
    const named = await http(server.url, 'POST', `/df/api/session-invites/${second.body.token}/accept`, { token: nomad.token, headers: { 'x-workspace-id': String(company.workspaceId) } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    // Another company's user still finds no such invitation.
    const rivalTry = await accept((await createLink({ access: 'view' })).body.token, rival.token);
    expect(rivalTry.status).toBe(404);
  });
});

describe('a coworker invited by e-mail with control', () => {
  it('gets a mail with the link over SMTP, accepts it, drives the device (the tap lands on the page), and the timeline names them', async () => {
    const invited = await api('POST', `/sessions/${sessionId}/invitations`, { email: dan.email, access: 'control' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ type: 'user', access: 'control', uses: 0, maxUses: null });
    expect(invited.body).not.toHaveProperty('token');
    expect(invited.body).not.toHaveProperty('url');
    const text = await invitationMail(dan.email);
    expect(text).toContain('Subject: Admin share-');
    expect(text).toContain('"Shared checkout"');
    expect(text).toContain('watch and control');
    const token = new RegExp(`${APP_URL.replace(/[.]/g, '\\.')}/device-farm/session-invite/(dfs_[A-Za-z0-9_-]+)`).exec(text)?.[1];
    expect(token).toBeDefined();
    expect((await api('GET', `/sessions/${sessionId}/invitations`)).body).toEqual([
      expect.objectContaining({ id: invited.body.id, type: 'user', access: 'control', userId: dan.id, email: dan.email }),
    ]);

    // Only Dan can accept his invitation.
    const notHis = await accept(token!, vera.token);
    expect(notHis.status).toBe(404);
    expect((await accept(token!, dan.token)).body).toEqual({ sessionId, workspaceId: company.workspaceId, access: 'control' });

    const driver = watch(sessionId, dan.token);
    expect(await driver.next((m) => m.type === 'hello')).toMatchObject({ access: 'control', canControl: true });
    await driver.framesAtLeast(1);
    const before = site.events.filter((e) => e.kind === 'tap').length;
    const { x, y } = await buttonCenter();
    driver.send({ type: 'input', id: 'd-1', action: { action: 'tap', x, y } });
    expect(await driver.next((m) => m.type === 'ack' && m.id === 'd-1')).toMatchObject({ action: 'tap' });
    await site.waitForEvent(() => site.events.filter((e) => e.kind === 'tap').length > before);
    // Over REST too, like the owner.
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x, y }, dan.token)).status).toBe(200);
    await site.waitForEvent(() => site.events.filter((e) => e.kind === 'tap').length > before + 1);

    const timeline = (await api('GET', `/sessions/${sessionId}/activities?kind=control&size=200`)).body.content as { detail: Record<string, unknown>; actorId: string }[];
    const byDan = timeline.filter((a) => (a.detail.by as { userId?: number } | undefined)?.userId === dan.id);
    expect(byDan.map((a) => a.detail.via).sort()).toEqual(['api', 'viewer']);
    expect(byDan[0]).toMatchObject({ actorId: String(dan.id), detail: { action: 'tap', by: { userId: dan.id, name: 'Dan Driver' } } });
  });
});

describe('co-viewing', () => {
  it('gives each viewer the screen and tells each who else watches as they come and go', async () => {
    const vv = watch(sessionId, vera.token);
    await vv.next((m) => m.type === 'hello');
    await vv.framesAtLeast(1);
    const dd = watch(sessionId, dan.token);
    await dd.next((m) => m.type === 'hello');
    await dd.framesAtLeast(1);
    const both = (m: Record<string, unknown>) => m.type === 'viewers' && (m.viewers as unknown[]).length === 2;
    const seenByVera = await vv.next(both);
    expect(seenByVera.viewers).toEqual(
      expect.arrayContaining([
        { userId: vera.id, name: 'Vera Viewer', access: 'view', connectedAt: expect.any(String), connections: 1 },
        { userId: dan.id, name: 'Dan Driver', access: 'control', connectedAt: expect.any(String), connections: 1 },
      ]),
    );
    await dd.next(both);

    // The owner watches too, from two tabs: one entry with two connections.
    const own1 = watch(sessionId, company.token);
    const own2 = watch(sessionId, company.token);
    await own1.next((m) => m.type === 'hello');
    await own2.next((m) => m.type === 'hello');
    const list = await api('GET', `/sessions/${sessionId}/viewers`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    expect(list.body.find((v: { userId: number }) => v.userId === company.userId)).toMatchObject({ access: 'control', connections: 2 });
    // A viewer may see who watches with them.
    expect((await api('GET', `/sessions/${sessionId}/viewers`, undefined, vera.token)).body).toHaveLength(3);

    own1.socket.close();
    own2.socket.close();
    dd.socket.close();
    const alone = await vv.next((m) => m.type === 'viewers' && (m.viewers as { userId: number }[]).length === 1);
    expect(alone.viewers).toEqual([expect.objectContaining({ userId: vera.id })]);
  });
});

describe('disconnecting a viewer', () => {
  it('closes their socket at once and withdraws their access: a reconnect and the link are refused', async () => {
    const vv = watch(sessionId, vera.token);
    await vv.next((m) => m.type === 'hello');
    // Only the owner (or a session manager) disconnects viewers.
    const byMia = await api('DELETE', `/sessions/${sessionId}/viewers/${vera.id}`, undefined, mia.token);
    expect(byMia.status).toBe(403);

    const done = await api('DELETE', `/sessions/${sessionId}/viewers/${vera.id}`);
    expect(done.body).toEqual({ disconnected: 1 });
    expect(await vv.closed).toEqual({ code: 4403, reason: 'SESSION_ACCESS_WITHDRAWN' });
    expect(vv.messages.at(-1)).toMatchObject({ type: 'error', code: 'SESSION_ACCESS_WITHDRAWN' });
    expect((await api('GET', `/sessions/${sessionId}/viewers`)).body.some((v: { userId: number }) => v.userId === vera.id)).toBe(false);

    const again = watch(sessionId, vera.token);
    expect((await again.closed).code).toBe(4403);
    expect(again.messages.find((m) => m.type === 'error')).toMatchObject({ code: 'SESSION_ACCESS_WITHDRAWN' });
    expect(again.frames).toHaveLength(0);

    const link = await createLink({ access: 'view' });
    const refused = await accept(link.body.token, vera.token);
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('SESSION_ACCESS_WITHDRAWN');

    // A new invitation naming her lets her back in.
    await api('POST', `/sessions/${sessionId}/invitations`, { userId: vera.id, access: 'view' });
    const token = /session-invite\/(dfs_[A-Za-z0-9_-]+)/.exec(await invitationMail(vera.email))![1]!;
    expect((await accept(token, vera.token)).body).toEqual({ sessionId, workspaceId: company.workspaceId, access: 'view' });
    const back = watch(sessionId, vera.token);
    expect(await back.next((m) => m.type === 'hello')).toMatchObject({ access: 'view' });
  });
});

describe('links that can no longer be accepted', () => {
  it('refuses an expired link with 410 INVITATION_EXPIRED', async () => {
    const link = await createLink({ access: 'view', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(link.status).toBe(201);
    server.process.platform.now = () => new Date(Date.now() + 2 * 3_600_000);
    const late = await accept(link.body.token, mia.token);
    expect(late.status).toBe(410);
    expect(errorCode(late)).toBe('INVITATION_EXPIRED');
  });

  it('refuses a link used maxUses times with 410 INVITATION_EXHAUSTED', async () => {
    const link = await createLink({ access: 'view', maxUses: 1 });
    expect(link.body.maxUses).toBe(1);
    expect((await accept(link.body.token, mia.token)).status).toBe(200);
    // The same user again is not a second use.
    expect((await accept(link.body.token, mia.token)).status).toBe(200);
    const second = await accept(link.body.token, dan.token);
    expect(second.status).toBe(410);
    expect(errorCode(second)).toBe('INVITATION_EXHAUSTED');
  });

  it('refuses a revoked link with 410 INVITATION_REVOKED, and revoking ends the access it gave', async () => {
    const link = await createLink({ access: 'control' });
    const user = await createActiveUserWithAccess('rita@share.test', 'Rita Revoked');
    expect((await accept(link.body.token, user.token)).status).toBe(200);
    const viewer = watch(sessionId, user.token);
    await viewer.next((m) => m.type === 'hello');
    const revoked = await api('DELETE', `/sessions/${sessionId}/invitations/links/${link.body.id}`);
    expect(revoked.status).toBe(204);
    expect((await viewer.closed).code).toBe(4403);
    expect((await api('GET', `/sessions/${sessionId}/invitations/links`)).body.some((l: { id: string }) => l.id === link.body.id)).toBe(false);
    const refused = await accept(link.body.token, user.token);
    expect(refused.status).toBe(410);
    expect(errorCode(refused)).toBe('INVITATION_REVOKED');
    expect((await api('DELETE', `/sessions/${sessionId}/invitations/links/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('answers an unknown token 404, and revokes a user invitation', async () => {
    const unknown = await accept('dfs_nosuchtokennosuchtoken', mia.token);
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('NOT_FOUND');
    const invited = await api('POST', `/sessions/${sessionId}/invitations`, { userId: mia.id, access: 'view' });
    expect((await api('DELETE', `/sessions/${sessionId}/invitations/${invited.body.id}`)).status).toBe(204);
    expect((await api('GET', `/sessions/${sessionId}/invitations`)).body.some((i: { id: string }) => i.id === invited.body.id)).toBe(false);
  });
});

describe('who may share', () => {
  it('takes df:session:share as the owner or df:session:manage, validates the body, and refuses unknown or foreign invitees', async () => {
    // Mia (Member: df:session:share) does not own this session; Vera (Viewer) has no share key at all.
    const byMia = await api('POST', `/sessions/${sessionId}/invitations`, { link: true, access: 'view' }, mia.token);
    expect(byMia.status).toBe(403);
    expect(errorCode(byMia)).toBe('FORBIDDEN');
    expect((await api('GET', `/sessions/${sessionId}/invitations/links`, undefined, vera.token)).status).toBe(403);
    expect((await api('POST', `/sessions/${sessionId}/invitations`, { access: 'view' })).status).toBe(400);
    expect((await api('POST', `/sessions/${sessionId}/invitations`, { link: true, access: 'admin' })).status).toBe(400);
    expect((await api('POST', `/sessions/${sessionId}/invitations`, { link: true, access: 'view', expiresAt: new Date(Date.now() - 1000).toISOString() })).status).toBe(400);
    const stranger = await api('POST', `/sessions/${sessionId}/invitations`, { userId: rival.userId, access: 'view' });
    expect(stranger.status).toBe(404);
    expect((await api('POST', `/sessions/${sessionId}/invitations`, { email: 'nobody@share.test', access: 'view' })).status).toBe(404);
  });

  it('answers 404 to another company everywhere', async () => {
    const link = await createLink({ access: 'control' });
    const as = rival.token;
    for (const [method, path, body] of [
      ['POST', `/sessions/${sessionId}/invitations`, { link: true, access: 'view' }],
      ['GET', `/sessions/${sessionId}/invitations`],
      ['GET', `/sessions/${sessionId}/invitations/links`],
      ['DELETE', `/sessions/${sessionId}/invitations/links/${link.body.id}`],
      ['GET', `/sessions/${sessionId}/viewers`],
      ['DELETE', `/sessions/${sessionId}/viewers/${vera.id}`],
      ['POST', `/sessions/${sessionId}/device/control`, { action: 'home' }],
      ['POST', `/session-invites/${link.body.token}/accept`],
    ] as [string, string, unknown?][]) {
      const res = await api(method, path, body, as);
      expect([path, res.status, errorCode(res)]).toEqual([path, 404, 'NOT_FOUND']);
    }
    const viewer = watch(sessionId, as);
    expect((await viewer.closed).code).toBe(4404);
    expect(viewer.frames).toHaveLength(0);
  });
});

describe('an automation session opened over REST', () => {
  it('is watched live, view-only, without disturbing the test; a control invitation is refused', async () => {
    const desktop = (await api('GET', `/devices?search=${encodeURIComponent(DESKTOP)}`)).body.content[0];
    const run = await api('POST', '/sessions', { deviceId: desktop.id, type: 'automation', name: 'Nightly run' });
    expect(run.status).toBe(201);
    const id = run.body.id;
    const control = await createLink({ access: 'control' }, id);
    expect(control.status).toBe(409);
    expect(errorCode(control)).toBe('SESSION_VIEW_ONLY');
    const link = await createLink({ access: 'view' }, id);
    expect((await accept(link.body.token, dan.token)).body).toEqual({ sessionId: id, workspaceId: company.workspaceId, access: 'view' });
    const viewer = watch(id, dan.token);
    expect(await viewer.next((m) => m.type === 'hello')).toMatchObject({ access: 'view', canControl: false });
    await viewer.framesAtLeast(1);
    // The test keeps driving its device while it is watched.
    expect((await api('POST', `/sessions/${id}/device/control`, { action: 'openUrl', url: site.url })).status).toBe(200);
    expect((await api('POST', `/sessions/${id}/device/control`, { action: 'home' }, dan.token)).status).toBe(403);
    const frames = viewer.frames.length;
    await viewer.framesAtLeast(frames + 1);
    expect((await api('DELETE', `/sessions/${id}`)).body.status).toBe('ended');
    expect(await viewer.next((m) => m.type === 'ended')).toBeDefined();
  });
});

describe('a WebDriver test (/df/wd)', () => {
  it('is watched live, view-only, while the test drives the browser undisturbed', { timeout: 180_000 }, async () => {
    const wd = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/wd${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });
    const opened = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'chrome', 'df:name': 'Watched run' } } });
    expect(opened.status).toBe(200);
    const id = opened.body.value.sessionId as string;
    try {
      expect((await api('GET', `/sessions/${id}`)).body).toMatchObject({ type: 'automation', status: 'active', name: 'Watched run' });
      const link = await createLink({ access: 'view' }, id);
      expect(link.status).toBe(201);
      expect((await accept(link.body.token, dan.token)).body).toEqual({ sessionId: id, workspaceId: company.workspaceId, access: 'view' });
      const viewer = watch(id, dan.token);
      expect(await viewer.next((m) => m.type === 'hello')).toMatchObject({ access: 'view', canControl: false });
      await viewer.framesAtLeast(1);

      // The test navigates and clicks through WebDriver while it is watched; the page records the click.
      expect((await wd('POST', `/session/${id}/url`, { url: site.url })).status).toBe(200);
      const found = await wd('POST', `/session/${id}/element`, { using: 'css selector', value: '#target' });
      expect(found.status).toBe(200);
      const element = Object.values(found.body.value as Record<string, string>)[0]!;
      const taps = site.events.filter((e) => e.kind === 'tap').length;
      expect((await wd('POST', `/session/${id}/element/${element}/click`, {})).status).toBe(200);
      await site.waitForEvent(() => site.events.filter((e) => e.kind === 'tap').length > taps);
      const seen = viewer.frames.length;
      await viewer.framesAtLeast(seen + 1);

      // The watcher cannot reach the device.
      viewer.send({ type: 'input', id: 'w-1', action: { action: 'home' } });
      expect(await viewer.next((m) => m.type === 'error' && m.id === 'w-1')).toMatchObject({ code: 'FORBIDDEN' });
      expect((await wd('GET', `/session/${id}/url`)).body.value).toBe(site.url);
    } finally {
      expect((await wd('DELETE', `/session/${id}`)).status).toBe(200);
    }
    expect((await api('GET', `/sessions/${id}`)).body.status).toBe('ended');
  });
});

describe('invitation mails to one coworker', () => {
  it('stop at the hourly limit per recipient (every mail to them counted): 429 TOO_MANY_REQUESTS with Retry-After, no invitation and no mail more', async () => {
    const rex = await coworker('rex@share.test', 'Rex Recipient', 'Viewer');
    const toRex = () => smtp.mails.filter((m) => m.to.includes(rex.email)).length;
    const before = toRex();
    expect(before).toBeGreaterThan(0);
    for (let i = before; i < 5; i++) expect((await api('POST', `/sessions/${sessionId}/invitations`, { userId: rex.id, access: 'view' })).status).toBe(201);
    await expect.poll(toRex).toBe(5);
    const listed = () => api('GET', `/sessions/${sessionId}/invitations`).then((r) => (r.body as { userId: number | null }[]).filter((x) => x.userId === rex.id).length);
    const invitations = await listed();
    const refused = await api('POST', `/sessions/${sessionId}/invitations`, { email: rex.email, access: 'control' });
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await listed()).toBe(invitations);
    expect(toRex()).toBe(5);
    // A link mails no one and is not limited by it.
    expect((await createLink({ access: 'view' })).status).toBe(201);
  });
});

describe('an ended session', () => {
  it('cannot be shared (409 SESSION_NOT_ACTIVE), and its links cannot be accepted', async () => {
    const link = await createLink({ access: 'view' });
    expect((await api('DELETE', `/sessions/${sessionId}`)).body.status).toBe('ended');
    const late = await createLink({ access: 'view' });
    expect(late.status).toBe(409);
    expect(errorCode(late)).toBe('SESSION_NOT_ACTIVE');
    const accepted = await accept(link.body.token, mia.token);
    expect(accepted.status).toBe(409);
    expect(errorCode(accepted)).toBe('SESSION_NOT_ACTIVE');
  });

  it('kept every sharing step as an event of the session, with who did it', async () => {
    const events = await server.process.platform.store.readStream(`device-session-sharing-${sessionId}`);
    const types = new Set(events.map((e) => e.type));
    expect([...types].sort()).toEqual([
      'DeviceSessionInvitationAccepted',
      'DeviceSessionInvitationCreated',
      'DeviceSessionInvitationRevoked',
      'DeviceSessionViewerDisconnected',
      'DeviceSessionViewerJoined',
    ]);
    const disconnected = events.find((e) => e.type === 'DeviceSessionViewerDisconnected')!;
    expect(disconnected.payload).toEqual({ sessionId, userId: vera.id });
    expect(disconnected.metadata).toMatchObject({ actorId: company.userId, companyId: company.companyId });
    const accepted = events.find((e) => e.type === 'DeviceSessionInvitationAccepted' && (e.payload as { userId: number }).userId === dan.id)!;
    expect(accepted.metadata.actorId).toBe(dan.id);
    // Only hashes of tokens are stored.
    expect(JSON.stringify(events.map((e) => e.payload))).not.toMatch(/dfs_/);
  });

  it('lets an auditor read who opened, shared, watched and ended the session, from which address, filtered by session or device, and export it as CSV', async () => {
    const audit = (query: string) => http(server.url, 'GET', `/api/v1/audit/events?${query}`, { token: company.token });
    const bySession = await audit(`sessionId=${sessionId}&size=200`);
    expect(bySession.status).toBe(200);
    const entries = bySession.body.content as { eventType: string; actorName: string | null; actorEmail: string | null; clientAddress: string | null; deviceId: string | null; payload: Record<string, unknown> }[];
    const who = (type: string) => entries.filter((e) => e.eventType === type).map((e) => e.actorEmail);
    expect(who('DeviceSessionRequested')).toEqual([company.email]);
    expect(who('DeviceSessionInvitationCreated')).toContain(company.email);
    expect(who('DeviceSessionInvitationAccepted')).toEqual(expect.arrayContaining([dan.email, vera.email]));
    expect(who('DeviceSessionViewerJoined')).toEqual(expect.arrayContaining([dan.email, vera.email]));
    expect(who('DeviceSessionViewerDisconnected')).toEqual([company.email]);
    expect(who('DeviceSessionEnded')).toEqual([company.email]);
    expect(entries.find((e) => e.eventType === 'DeviceSessionViewerJoined' && e.actorEmail === dan.email)).toMatchObject({ actorName: 'Dan Driver', clientAddress: '127.0.0.1' });
    // Every entry names the session's device, so the device's history holds them all.
    const deviceId = entries.find((e) => e.eventType === 'DeviceSessionRequested')!.deviceId!;
    expect(entries.every((e) => e.deviceId === deviceId)).toBe(true);
    const byDevice = await audit(`deviceId=${deviceId}&size=200`);
    expect(byDevice.body.totalElements).toBeGreaterThanOrEqual(bySession.body.totalElements);
    // No token of an invitation reaches the history.
    expect(JSON.stringify(entries)).not.toMatch(/dfs_/);

    const csv = await http(server.url, 'GET', `/api/v1/audit/events/export?sessionId=${sessionId}&format=csv`, { token: company.token });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toContain('actorName,actorEmail,clientAddress,deviceId,sessionId');
    expect(lines).toHaveLength(entries.length + 1);
    expect(lines.some((l) => l.includes('DeviceSessionViewerJoined') && l.includes(dan.email) && l.includes('127.0.0.1'))).toBe(true);
    // The rival company's auditor sees none of it.
    const rivalView = await http(server.url, 'GET', `/api/v1/audit/events?sessionId=${sessionId}`, { token: rival.token });
    expect(rivalView.body.totalElements).toBe(0);
  });
});

/** Another coworker with the Viewer role, for a test of its own. */
function createActiveUserWithAccess(email: string, name: string): Promise<Coworker> {
  return coworker(email, name, 'Viewer');
}
