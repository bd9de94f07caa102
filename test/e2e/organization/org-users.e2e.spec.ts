import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { freePort } from '#test/helpers/adb.js';
import { eventually } from '#test/helpers/df-farm.js';
import {
  client,
  createActiveUser,
  latestInvitationToken,
  PNG_1X1,
  postMultipart,
  signIn,
  signUpCompany,
  type Client,
  type SignedUpCompany,
} from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let roleIds: { Admin: number; Member: number; Viewer: number };

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url, APP_URL: 'https://qa.example.test' });
  company = await signUpCompany(server.url, 'users');
  admin = client(server.url, company.token);
  roleIds = Object.fromEntries((await admin.get('/roles')).body.map((r: { name: string; id: number }) => [r.name, r.id])) as typeof roleIds;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** The text of a mail as written (quoted-printable soft breaks and escapes undone). */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

const activeUser = (email: string, roles: number[] = []) => createActiveUser(server.url, admin, smtp.mails, { email, roleIds: roles });

describe('invitation and activation', () => {
  it('invites by e-mail, mails a single-use link, activates with a profile image (multipart), signs in and serves the image', async () => {
    const email = 'invitee@users.test';
    const invited = await admin.post('/users/invite', { email, roleIds: [roleIds.Member] });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email, status: 'passive', isAdmin: false, roleIds: [roleIds.Member], hasProfileImage: false, companyId: company.companyId });
    expect(invited.body).not.toHaveProperty('passwordHash');

    const mail = await smtp.waitForMail(email);
    expect(mail.raw).toContain('https://qa.example.test/activate?token=');
    const token = latestInvitationToken(smtp.mails, email);
    expect((await signIn(server.url, email, 'whatever-password')).status).toBe(401);

    const activated = await postMultipart(server.url, 'POST', '/api/v1/users/activate', { token, password: 'invitee password', name: 'Ivy Invitee' }, {
      name: 'profileImage',
      bytes: PNG_1X1,
      type: 'image/png',
      filename: 'me.png',
    });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ id: invited.body.id, status: 'active', name: 'Ivy Invitee', hasProfileImage: true });

    const replay = await http(server.url, 'PUT', '/api/v1/users/activate', { body: { token, password: 'another password' } });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('INVALID_INVITATION_TOKEN');

    const pair = await signIn(server.url, email, 'invitee password');
    expect(pair.status).toBe(200);
    const image = await fetch(new URL(`/api/v1/users/${invited.body.id}/image`, server.url), { headers: { authorization: `Bearer ${pair.body.token}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const me = client(server.url, pair.body.token);
    const perms = await me.get('/users/me/permissions');
    const member = (await admin.get(`/roles/${roleIds.Member}`)).body.permissions;
    expect(perms.body).toEqual([...member].sort());
    expect((await me.get('/permissions/me')).body).toEqual(perms.body);
  });

  it('activates with JSON too, with the username as name when none is given', async () => {
    const email = 'json.activation@users.test';
    expect((await admin.post('/users/invite', { email, roleIds: [] })).status).toBe(201);
    const r = await http(server.url, 'PUT', '/api/v1/users/activate', { body: { token: latestInvitationToken(smtp.mails, email), password: 'json password' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', name: 'json.activation', hasProfileImage: false });
  });

  it('inviting a pending address again answers resent: true, keeps its roles unless roleIds is sent, and only the newest link works; an active user is a conflict', async () => {
    const email = 'twice@users.test';
    const first = await admin.post('/users/invite', { email, roleIds: [roleIds.Member] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ resent: false, roleIds: [roleIds.Member] });
    const firstToken = latestInvitationToken(smtp.mails, email);

    const again = await admin.post('/users/invite', { email });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, resent: true, status: 'passive', roleIds: [roleIds.Member] });
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(2);
    const secondToken = latestInvitationToken(smtp.mails, email);
    expect(secondToken).not.toBe(firstToken);

    const third = await admin.post('/users/invite', { email, roleIds: [roleIds.Viewer] });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ id: first.body.id, resent: true, roleIds: [roleIds.Viewer] });
    const thirdToken = latestInvitationToken(smtp.mails, email);

    // One live link per address: the earlier ones are refused, and refusing them uses nothing up.
    for (const stale of [firstToken, secondToken]) {
      const refused = await http(server.url, 'POST', '/api/v1/users/activate', { body: { token: stale, password: 'twice password' } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INVALID_INVITATION_TOKEN');
    }
    expect((await admin.get(`/users/${first.body.id}`)).body.status).toBe('passive');
    const r = await http(server.url, 'POST', '/api/v1/users/activate', { body: { token: thirdToken, password: 'twice password' } });
    expect(r.status).toBe(200);
    expect(r.body.roleIds).toEqual([roleIds.Viewer]);
    const active = await admin.post('/users/invite', { email });
    expect(active.status).toBe(409);
    expect(active.body.code).toBe('EMAIL_TAKEN');
  });

  it('grants the workspaces an invitation names on activation, as audited grants by the inviter; a repeated invitation keeps them unless it names others', async () => {
    const second = await admin.post('/workspaces', { name: `Second ${process.pid}` });
    expect(second.status).toBe(201);
    const third = await admin.post('/workspaces', { name: `Third ${process.pid}` });
    const email = 'ws.invitee@users.test';
    const invited = await admin.post('/users/invite', { email, roleIds: [roleIds.Member], workspaceIds: [second.body.id] });
    expect(invited.status).toBe(201);
    // Nothing is granted before activation.
    expect((await admin.get(`/workspaces/${second.body.id}/access`)).body.users).toEqual([]);
    // Again without workspaceIds: kept. (Again with others would replace them.)
    expect((await admin.post('/users/invite', { email })).body.resent).toBe(true);
    const token = latestInvitationToken(smtp.mails, email);
    const activated = await http(server.url, 'POST', '/api/v1/users/activate', { body: { token, password: 'workspace password' } });
    expect(activated.status).toBe(200);

    const pair = await signIn(server.url, email, 'workspace password');
    const accessible = (await client(server.url, pair.body.token).get('/workspaces/accessible')).body as { id: number }[];
    expect(accessible.map((w) => w.id)).toEqual([second.body.id]);
    expect((await admin.get(`/workspaces/${second.body.id}/access`)).body.users).toEqual([expect.objectContaining({ id: invited.body.id, email })]);
    expect((await admin.get(`/workspaces/${third.body.id}/access`)).body.users).toEqual([]);
    const audit = await admin.get(`/audit/events?eventType=WorkspaceAccessGranted&resourceId=${second.body.id}`);
    expect(audit.body.content).toEqual([expect.objectContaining({ eventType: 'WorkspaceAccessGranted', actorId: company.userId, payload: expect.objectContaining({ grantee: { kind: 'user', userId: invited.body.id } }) })]);

    // A repeated invitation naming other workspaces replaces them.
    const other = 'ws.switched@users.test';
    await admin.post('/users/invite', { email: other, workspaceIds: [second.body.id] });
    expect((await admin.post('/users/invite', { email: other, workspaceIds: [third.body.id] })).status).toBe(200);
    await http(server.url, 'POST', '/api/v1/users/activate', { body: { token: latestInvitationToken(smtp.mails, other), password: 'switched password' } });
    const switched = await signIn(server.url, other, 'switched password');
    expect(((await client(server.url, switched.body.token).get('/workspaces/accessible')).body as { id: number }[]).map((w) => w.id)).toEqual([third.body.id]);
  });

  it('refuses workspaces an inviter may not grant: another company\'s or an unknown one 404, a bad id 400, without WORKSPACE_MANAGE 403; nothing is invited', async () => {
    const rival = await signUpCompany(server.url, 'users-ws-rival');
    for (const workspaceIds of [[rival.workspaceId], [999999]]) {
      const r = await admin.post('/users/invite', { email: 'ws.refused@users.test', workspaceIds });
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe('NOT_FOUND');
    }
    const bad = await admin.post('/users/invite', { email: 'ws.refused@users.test', workspaceIds: ['one'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining([expect.stringContaining('workspaceIds')]));
    // A user manager who cannot manage the workspace cannot invite into it.
    const inviterRole = await admin.post('/roles', { name: `Inviter ${process.pid}`, permissions: ['USER_INVITE', 'USER_READ'] });
    expect(inviterRole.status).toBe(201);
    const inviter = await activeUser('ws.inviter@users.test', [inviterRole.body.id]);
    const denied = await client(server.url, inviter.token).post('/users/invite', { email: 'ws.refused@users.test', workspaceIds: [company.workspaceId] });
    expect(denied.status).toBe(403);
    expect((await admin.get('/users/email?email=ws.refused@users.test')).status).toBe(404);
    expect((await admin.delete(`/users/${inviter.id}`)).status).toBe(204);
    expect((await admin.delete(`/roles/${inviterRole.body.id}`)).status).toBe(204);
  });

  it('tells any signed-in user whom to ask for access: the company\'s active administrators', async () => {
    const plain = await activeUser('asks@users.test');
    const admins = await client(server.url, plain.token).get('/users/me/administrators');
    expect(admins.status).toBe(200);
    expect(admins.body).toEqual([{ id: company.userId, name: expect.any(String), email: company.email }]);
  });

  it('refuses bad invitations: invalid body 400 with details, unknown role 404, an address of any company 409, no USER_INVITE 403', async () => {
    const bad = await admin.post('/users/invite', { email: 'not-an-email', roleIds: ['x'] });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['email']));
    const unknownRole = await admin.post('/users/invite', { email: 'r404@users.test', roleIds: [999999] });
    expect(unknownRole.status).toBe(404);
    expect(errorCode(unknownRole)).toBe('NOT_FOUND');
    const taken = await admin.post('/users/invite', { email: company.email.toUpperCase() });
    expect(taken.status).toBe(409);
    const other = await signUpCompany(server.url, 'users-other');
    expect((await admin.post('/users/invite', { email: other.email })).body.code).toBe('EMAIL_TAKEN');
    const viewer = await activeUser('viewer.inviter@users.test', [roleIds.Viewer]);
    const denied = await client(server.url, viewer.token).post('/users/invite', { email: 'nope@users.test' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('FORBIDDEN');
  });

  it('refuses a bad activation: unknown token 400, short password 400 with details, a non-image 415, an image over 2 MiB 413; the token survives', async () => {
    const email = 'careful@users.test';
    await admin.post('/users/invite', { email });
    const token = latestInvitationToken(smtp.mails, email);
    expect((await http(server.url, 'POST', '/api/v1/users/activate', { body: { token: 'nope', password: 'long enough' } })).body.code).toBe('INVALID_INVITATION_TOKEN');
    const short = await http(server.url, 'POST', '/api/v1/users/activate', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    expect(errorCode(short)).toBe('VALIDATION_FAILED');
    expect(short.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'password' })]));
    const text = await postMultipart(server.url, 'POST', '/api/v1/users/activate', { token, password: 'long enough' }, { name: 'profileImage', bytes: Buffer.from('<svg/>'), type: 'image/png' });
    expect(text.status).toBe(415);
    expect(errorCode(text)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]);
    const big = await postMultipart(server.url, 'POST', '/api/v1/users/activate', { token, password: 'long enough' }, { name: 'profileImage', bytes: huge, type: 'image/png' });
    expect(big.status).toBe(413);
    expect(errorCode(big)).toBe('PAYLOAD_TOO_LARGE');
    const ok = await http(server.url, 'POST', '/api/v1/users/activate', { body: { token, password: 'long enough' } });
    expect(ok.status).toBe(200);
  });
});

describe('reading users', () => {
  it('lists the company users paged and filtered, with filter options, and looks one up by id and by e-mail', async () => {
    await activeUser('list.a@users.test', [roleIds.Viewer]);
    const page = await admin.get('/users?page=0&size=2&sortBy=email');
    expect(page.status).toBe(200);
    expect(page.body.content).toHaveLength(2);
    expect(page.body.totalElements).toBeGreaterThanOrEqual(3);
    expect(page.body.totalPages).toBe(Math.ceil(page.body.totalElements / 2));
    const viewers = await admin.get(`/users?roleId=${roleIds.Viewer}&search=list.a`);
    expect(viewers.body.content.map((u: { email: string }) => u.email)).toEqual(['list.a@users.test']);
    const options = await admin.get('/users/filter-options');
    expect(options.body.statuses).toEqual(expect.arrayContaining([expect.objectContaining({ value: 'active' })]));
    expect(options.body.roles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Member', 'Viewer']);
    const byEmail = await admin.get('/users/email?email=LIST.A@users.test');
    expect(byEmail.body.email).toBe('list.a@users.test');
    expect((await admin.get(`/users/${byEmail.body.id}`)).body.id).toBe(byEmail.body.id);
    expect((await admin.get('/users/999999')).status).toBe(404);
    expect((await admin.get('/users/email?email=nobody@users.test')).status).toBe(404);
    expect((await admin.get('/users/abc')).status).toBe(400);
    expect((await admin.get('/users?size=500')).status).toBe(400);
  });

  it('a user without USER_READ reads themself but not others (403) nor the list', async () => {
    const plain = await activeUser('plain.reader@users.test');
    const c = client(server.url, plain.token);
    expect((await c.get('/users/me')).body.id).toBe(plain.id);
    expect((await c.get(`/users/${plain.id}`)).status).toBe(200);
    expect((await c.get(`/users/${company.userId}`)).status).toBe(403);
    expect((await c.get('/users')).status).toBe(403);
    expect((await c.get('/users/filter-options')).status).toBe(403);
  });

  it('validates the session, and tells whether a username is free', async () => {
    const v = await admin.get('/users/validate');
    expect(v.body).toMatchObject({ valid: true, userId: company.userId, companyId: company.companyId });
    const me = (await admin.get('/users/me')).body;
    expect((await admin.post(`/users/${me.username}/available`)).body).toEqual({ username: me.username, available: true });
    expect((await admin.post('/users/list.a/available')).body.available).toBe(false);
    expect((await admin.post('/users/fresh-name-42/available')).body.available).toBe(true);
    expect((await admin.post('/users/no spaces!/available')).status).toBe(400);
    expect((await http(server.url, 'GET', '/api/v1/users/validate')).status).toBe(401);
  });
});

describe('changing users', () => {
  it('updates yourself; another user needs USER_MANAGE; a taken username is 409', async () => {
    const u = await activeUser('updater@users.test');
    const c = client(server.url, u.token);
    const mine = await c.put(`/users/${u.id}`, { name: 'Up Dater', title: 'QA', username: 'up-dater' });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ name: 'Up Dater', title: 'QA', username: 'up-dater' });
    expect((await c.put(`/users/${company.userId}`, { name: 'Hacked' })).status).toBe(403);
    expect((await c.put(`/users/${u.id}/profile`, { phone: '+1 555' })).body.phone).toBe('+1 555');
    const clash = await admin.put(`/users/${company.userId}`, { username: 'UP-DATER' });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('NAME_TAKEN');
    expect((await admin.put(`/users/${u.id}`, { name: '' })).status).toBe(400);
    expect((await admin.put('/users/999999/profile', { name: 'x' })).status).toBe(404);
    expect((await signIn(server.url, 'up-dater', u.password)).status).toBe(200);
  });

  it('replaces roles (USER_MANAGE); only keys the caller holds can be handed out', async () => {
    const u = await activeUser('roles@users.test');
    expect((await client(server.url, u.token).put(`/users/${u.id}/roles`, { roleIds: [] })).status).toBe(403);
    const r = await admin.put(`/users/${u.id}/roles`, { roleIds: [roleIds.Viewer, roleIds.Member] });
    expect(r.status).toBe(200);
    expect(r.body.roleIds).toEqual([roleIds.Member, roleIds.Viewer].sort((a, b) => a - b));
    expect((await admin.put(`/users/${u.id}/roles`, { roleIds: [424242] })).status).toBe(404);
    expect((await admin.put(`/users/${u.id}/roles`, { roleIds: 'x' })).status).toBe(400);
    const managerRole = await admin.post('/roles', { name: 'User manager', permissions: ['USER_READ', 'USER_MANAGE'] });
    const manager = await activeUser('manager@users.test', [managerRole.body.id]);
    const m = client(server.url, manager.token);
    expect((await m.put(`/users/${u.id}/roles`, [])).status).toBe(400);
    const escalate = await m.put(`/users/${manager.id}/roles`, { roleIds: [managerRole.body.id, roleIds.Admin] });
    expect(escalate.status).toBe(403);
    expect(errorCode(escalate)).toBe('FORBIDDEN');
    expect(escalate.body.message).toContain('cannot grant');
    expect((await m.put(`/users/${u.id}/roles`, { roleIds: [managerRole.body.id] })).status).toBe(200);
  });

  it('deactivation stops sign-in and every live token at once; reactivation lets the user sign in again', async () => {
    const u = await activeUser('leaver@users.test');
    const pair = (await signIn(server.url, u.email, u.password)).body;
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: pair.token })).status).toBe(200);
    const off = await admin.put(`/users/${u.id}/status`, { status: 'deactivated' });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('deactivated');
    const stale = await http(server.url, 'GET', '/api/v1/users/me', { token: pair.token });
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('TOKEN_REVOKED');
    expect((await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    const login = await signIn(server.url, u.email, u.password);
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('ACCOUNT_DISABLED');
    expect((await admin.put(`/users/${u.id}/status`, { status: 'deactivated' })).status).toBe(409);
    expect((await admin.put(`/users/${u.id}/status`, { status: 'active' })).body.status).toBe('active');
    const back = await signIn(server.url, u.email, u.password);
    expect(back.status).toBe(200);
    expect((await admin.put(`/users/${u.id}/status`, { status: 'paused' })).status).toBe(400);
    expect((await admin.put(`/users/${company.userId}/status`, { status: 'deactivated' })).status).toBe(409);
    expect((await client(server.url, back.body.token).put(`/users/${u.id}/status`, { status: 'deactivated' })).status).toBe(403);
  });

  it('grants and revokes administrator (USER_ADMIN_MANAGE); nobody revokes their own', async () => {
    const u = await activeUser('future.admin@users.test');
    expect((await client(server.url, u.token).patch(`/users/${u.id}/admin`, { isAdmin: true })).status).toBe(403);
    const granted = await admin.patch(`/users/${u.id}/admin`, { isAdmin: true });
    expect(granted.body.isAdmin).toBe(true);
    const all = (await http(server.url, 'GET', '/api/v1/permissions')).status;
    expect(all).toBe(401);
    expect((await client(server.url, u.token).get('/permissions/me')).body).toContain('AUDIT_READ');
    expect((await client(server.url, u.token).patch(`/users/${u.id}/admin`, { isAdmin: false })).status).toBe(409);
    expect((await admin.patch(`/users/${u.id}/admin`, { isAdmin: false })).body.isAdmin).toBe(false);
    expect((await admin.patch(`/users/${u.id}/admin`, { isAdmin: 'yes' })).status).toBe(400);
  });

  it('company membership can only be the caller’s own company', async () => {
    const u = await activeUser('member.of@users.test');
    expect((await admin.put(`/users/${u.id}/companies`, { companyId: company.companyId })).body.companyId).toBe(company.companyId);
    expect((await admin.put(`/users/${u.id}/companies`, { companyId: company.companyId + 1000 })).status).toBe(404);
  });

  it('own password change checks the current one and ends every token; another’s needs USER_PASSWORD_MANAGE', async () => {
    const u = await activeUser('pw@users.test');
    const c = client(server.url, u.token);
    const wrong = await c.put('/users/password', { currentPassword: 'not it', newPassword: 'brand new pw' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_CURRENT_PASSWORD');
    expect((await c.put('/users/password', { currentPassword: u.password, newPassword: 'short' })).status).toBe(400);
    expect((await c.put('/users/password', { currentPassword: u.password, newPassword: 'brand new pw' })).status).toBe(204);
    expect((await c.get('/users/me')).status).toBe(401);
    expect((await signIn(server.url, u.email, u.password)).status).toBe(401);
    const pair = (await signIn(server.url, u.email, 'brand new pw')).body;
    expect((await client(server.url, pair.token).put(`/users/${company.userId}/password`, { password: 'takeover pw' })).status).toBe(403);
    expect((await admin.put(`/users/${u.id}/password`, { password: 'set by admin' })).status).toBe(204);
    expect((await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    expect((await signIn(server.url, u.email, 'set by admin')).status).toBe(200);
    expect((await admin.put('/users/999999/password', { password: 'set by admin' })).status).toBe(404);
  });

  it('deletes a user: tokens end, sign-in fails, the address can be invited again; nobody deletes themself', async () => {
    const u = await activeUser('gone@users.test');
    expect((await client(server.url, u.token).delete(`/users/${u.id}`)).status).toBe(403);
    expect((await admin.delete(`/users/${company.userId}`)).status).toBe(409);
    expect((await admin.delete(`/users/${u.id}`)).status).toBe(204);
    expect((await admin.get(`/users/${u.id}`)).status).toBe(404);
    expect((await admin.delete(`/users/${u.id}`)).status).toBe(404);
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: u.token })).status).toBe(401);
    expect((await signIn(server.url, u.email, u.password)).status).toBe(401);
    const again = await admin.post('/users/invite', { email: u.email });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(u.id);
  });

  it('sets, serves and removes a profile image; removing none is 404', async () => {
    const u = await activeUser('pic@users.test');
    const put = await postMultipart(server.url, 'PUT', `/api/v1/users/${u.id}/image`, {}, { name: 'profileImage', bytes: PNG_1X1, type: 'image/png' }, u.token);
    expect(put.status).toBe(200);
    expect(put.body.hasProfileImage).toBe(true);
    expect((await admin.get(`/users/${u.id}/image`)).status).toBe(200);
    expect((await client(server.url, u.token).delete(`/users/${company.userId}/image`)).status).toBe(403);
    expect((await client(server.url, u.token).delete(`/users/${u.id}/image`)).status).toBe(204);
    expect((await admin.get(`/users/${u.id}/image`)).status).toBe(404);
    expect((await admin.delete(`/users/${u.id}/image`)).status).toBe(404);
    expect((await admin.get('/users/999999/image')).status).toBe(404);
  });
});

describe('sign-in logs', () => {
  it('records time, address, user agent and success or reason; readable by the user and by USER_READ holders', async () => {
    const u = await activeUser('logged@users.test');
    await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: u.email, password: 'wrong password' }, headers: { 'user-agent': 'log-test/1.0' } });
    const logs = await client(server.url, u.token).get(`/users/user-login-logs/${u.id}?size=10`);
    expect(logs.status).toBe(200);
    expect(logs.body.content[0]).toMatchObject({ success: false, reason: 'bad_password', userAgent: 'log-test/1.0', address: '127.0.0.1' });
    expect(logs.body.content[1]).toMatchObject({ success: true, reason: null });
    expect(new Date(logs.body.content[0].at).getTime()).toBeGreaterThanOrEqual(new Date(logs.body.content[1].at).getTime());
    expect((await admin.get(`/users/user-login-logs/${u.id}`)).body.totalElements).toBe(logs.body.totalElements);
    expect((await client(server.url, u.token).get(`/users/user-login-logs/${company.userId}`)).status).toBe(403);
    expect((await admin.get('/users/user-login-logs/999999')).status).toBe(404);
  });
});

describe('links when APP_URL is unset', () => {
  it('mail the address the server listens on, not a guessed default', async () => {
    const port = await freePort();
    const own = await startTestServer({ SMTP_URL: smtp.url, PORT: String(port) });
    try {
      expect(own.url).toBe(`http://127.0.0.1:${port}`);
      const boss = await signUpCompany(own.url, 'links');
      const email = `linked-${process.pid}@users.test`;
      expect((await client(own.url, boss.token).post('/users/invite', { email })).status).toBe(201);
      const text = mailText((await smtp.waitForMail(email)).raw);
      const link = /(http\S+\/activate\?token=\S+)/.exec(text)?.[1];
      expect(link).toBeDefined();
      expect(new URL(link!).origin).toBe(`http://127.0.0.1:${port}`);
      expect(new URL(link!).pathname).toBe('/activate');
      const token = new URL(link!).searchParams.get('token');
      expect((await http(own.url, 'POST', '/api/v1/users/activate', { body: { token, password: 'linked password' } })).status).toBe(200);

      expect((await http(own.url, 'POST', '/api/v1/auth/forgot-password', { body: { email: boss.email } })).status).toBeLessThan(300);
      const reset = await eventually(async () => smtp.mails.filter((m) => m.to.includes(boss.email)).map((m) => mailText(m.raw)).find((t) => t.includes('/reset-password?token=')), { what: 'the reset mail' });
      expect(reset).toContain(`http://127.0.0.1:${port}/reset-password?token=`);
    } finally {
      await own.stop();
    }
  });
});
