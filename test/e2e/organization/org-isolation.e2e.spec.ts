import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, PNG_1X1, postMultipart, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

/**
 * Two companies signed up side by side. Every read and write endpoint of the organization, called by
 * company A with company B's ids, answers 404 and changes nothing B can see.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let b: SignedUpCompany;
let A: Client;
let B: Client;
const ids = { aUser: 0, aRole: 0, aTeam: 0, aWs: 0, bUser: 0, bRole: 0, bTeam: 0, bWs: 0, bUserEmail: 'member@b.test' };

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  a = await signUpCompany(server.url, 'tenant-a');
  b = await signUpCompany(server.url, 'tenant-b');
  A = client(server.url, a.token);
  B = client(server.url, b.token);
  // Company B: a member with an image, a custom role, a team, a workspace with grants and member roles.
  const bMember = await createActiveUser(server.url, B, smtp.mails, { email: ids.bUserEmail });
  ids.bUser = bMember.id;
  await postMultipart(server.url, 'PUT', `/api/v1/users/${ids.bUser}/image`, {}, { name: 'profileImage', bytes: PNG_1X1, type: 'image/png' }, b.token);
  ids.bRole = (await B.post('/roles', { name: 'B role', permissions: ['TMT_READ'] })).body.id;
  await B.put(`/users/${ids.bUser}/roles`, { roleIds: [ids.bRole] });
  ids.bTeam = (await B.post('/teams', { name: 'B team' })).body.id;
  await B.post(`/teams/${ids.bTeam}/members/${ids.bUser}`);
  ids.bWs = (await B.post('/workspaces', { name: 'B space' })).body.id;
  await B.post(`/workspaces/${ids.bWs}/access/teams`, { teamId: ids.bTeam });
  await B.post(`/workspaces/${ids.bWs}/access/users`, { userId: ids.bUser });
  await B.post(`/workspaces/${ids.bWs}/members/roles`, { userId: ids.bUser, roleIds: [ids.bRole] });
  // Company A: the same kinds of things, to pair with B's ids.
  ids.aUser = (await createActiveUser(server.url, A, smtp.mails, { email: 'member@a.test' })).id;
  ids.aRole = (await A.post('/roles', { name: 'A role', permissions: ['TMT_READ'] })).body.id;
  ids.aTeam = (await A.post('/teams', { name: 'A team' })).body.id;
  ids.aWs = (await A.post('/workspaces', { name: 'A space' })).body.id;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Everything company B can read about itself. */
async function snapshotOfB() {
  const image = await fetch(new URL(`/api/v1/users/${ids.bUser}/image`, server.url), { headers: { authorization: `Bearer ${b.token}` } });
  const audit = await B.get('/audit/events?size=1');
  return {
    users: (await B.get('/users?size=200')).body,
    roles: (await B.get('/roles')).body,
    teams: (await B.get('/teams')).body,
    workspaces: (await B.get('/workspaces')).body,
    access: (await B.get(`/workspaces/${ids.bWs}/access`)).body,
    members: (await B.get(`/workspaces/${ids.bWs}/members`)).body,
    modules: (await B.get(`/workspaces/${ids.bWs}/modules`)).body,
    recent: (await B.get('/workspaces/recent')).body,
    logs: (await B.get(`/users/user-login-logs/${ids.bUser}`)).body,
    image: Buffer.from(await image.arrayBuffer()).toString('base64'),
    auditEvents: audit.body.totalElements,
  };
}

describe('tenant walls', () => {
  it("every endpoint called by company A with company B's ids answers 404 and changes nothing", async () => {
    const before = await snapshotOfB();
    expect(before.users.content).toHaveLength(2);
    expect(before.image).toBe(PNG_1X1.toString('base64'));

    const { bUser, bRole, bTeam, bWs, aUser, aRole, aTeam, aWs } = ids;
    const calls: [string, () => Promise<{ status: number; body: any }>][] = [
      // users
      ['GET user', () => A.get(`/users/${bUser}`)],
      ['GET user by e-mail', () => A.get(`/users/email?email=${encodeURIComponent(ids.bUserEmail)}`)],
      ['PUT user', () => A.put(`/users/${bUser}`, { name: 'Owned' })],
      ['PUT profile', () => A.put(`/users/${bUser}/profile`, { title: 'Owned' })],
      ['PUT roles of B user', () => A.put(`/users/${bUser}/roles`, { roleIds: [aRole] })],
      ['PUT B role on A user', () => A.put(`/users/${aUser}/roles`, { roleIds: [bRole] })],
      ['invite with B role', () => A.post('/users/invite', { email: 'x@a.test', roleIds: [bRole] })],
      ['PUT status', () => A.put(`/users/${bUser}/status`, { status: 'deactivated' })],
      ['PATCH admin', () => A.patch(`/users/${bUser}/admin`, { isAdmin: true })],
      ['PUT companies of B user', () => A.put(`/users/${bUser}/companies`, { companyId: a.companyId })],
      ['PUT A user into B company', () => A.put(`/users/${aUser}/companies`, { companyId: b.companyId })],
      ['PUT password', () => A.put(`/users/${bUser}/password`, { password: 'hijacked password' })],
      ['GET image', () => A.get(`/users/${bUser}/image`)],
      ['DELETE image', () => A.delete(`/users/${bUser}/image`)],
      ['PUT image', () => postMultipart(server.url, 'PUT', `/api/v1/users/${bUser}/image`, {}, { name: 'profileImage', bytes: PNG_1X1, type: 'image/png' }, a.token)],
      ['GET sign-in log', () => A.get(`/users/user-login-logs/${bUser}`)],
      ['DELETE user', () => A.delete(`/users/${bUser}`)],
      // roles
      ['GET role', () => A.get(`/roles/${bRole}`)],
      ['PUT role', () => A.put(`/roles/${bRole}`, { name: 'Owned' })],
      ['GET role users', () => A.get(`/roles/${bRole}/users`)],
      ['DELETE role', () => A.delete(`/roles/${bRole}`)],
      // teams
      ['GET team', () => A.get(`/teams/${bTeam}`)],
      ['PUT team', () => A.put(`/teams/${bTeam}`, { name: 'Owned' })],
      ['POST A user into B team', () => A.post(`/teams/${bTeam}/members/${aUser}`)],
      ['POST B user into A team', () => A.post(`/teams/${aTeam}/members/${bUser}`)],
      ['DELETE B team member', () => A.delete(`/teams/${bTeam}/members/${bUser}`)],
      ['DELETE team', () => A.delete(`/teams/${bTeam}`)],
      // workspaces
      ['GET workspace', () => A.get(`/workspaces/${bWs}`)],
      ['PUT workspace', () => A.put(`/workspaces/${bWs}`, { name: 'Owned' })],
      ['PUT archive', () => A.put(`/workspaces/${bWs}/archive`)],
      ['PUT unarchive', () => A.put(`/workspaces/${bWs}/unarchive`)],
      ['POST touch', () => A.post(`/workspaces/${bWs}/touch`)],
      ['POST switch', () => A.post(`/workspaces/${bWs}/switch`)],
      ['POST auth switch-workspace', () => http(server.url, 'POST', `/api/v1/auth/switch-workspace/${bWs}`, { token: a.token })],
      ['GET has-access', () => A.get(`/workspaces/${bWs}/has-access`)],
      ['GET my-roles', () => A.get(`/workspaces/${bWs}/my-roles`)],
      ['GET modules', () => A.get(`/workspaces/${bWs}/modules`)],
      ['PUT modules', () => A.put(`/workspaces/${bWs}/modules`, { modules: [] })],
      ['GET access', () => A.get(`/workspaces/${bWs}/access`)],
      ['POST access team into B workspace', () => A.post(`/workspaces/${bWs}/access/teams`, { teamId: aTeam })],
      ['POST B team into A workspace', () => A.post(`/workspaces/${aWs}/access/teams`, { teamId: bTeam })],
      ['DELETE access team', () => A.delete(`/workspaces/${bWs}/access/teams/${bTeam}`)],
      ['POST access user into B workspace', () => A.post(`/workspaces/${bWs}/access/users`, { userId: aUser })],
      ['POST B user into A workspace', () => A.post(`/workspaces/${aWs}/access/users`, { userId: bUser })],
      ['DELETE access user', () => A.delete(`/workspaces/${bWs}/access/users/${bUser}`)],
      ['GET members', () => A.get(`/workspaces/${bWs}/members`)],
      ['POST member roles in B workspace', () => A.post(`/workspaces/${bWs}/members/roles`, { userId: bUser, roleIds: [aRole] })],
      ['POST B user roles in A workspace', () => A.post(`/workspaces/${aWs}/members/roles`, { userId: bUser, roleIds: [aRole] })],
      ['POST B role in A workspace', () => A.post(`/workspaces/${aWs}/members/roles`, { userId: aUser, roleIds: [bRole] })],
      ['DELETE member role', () => A.delete(`/workspaces/${bWs}/members/${bUser}/roles/${bRole}`)],
      ['DELETE workspace', () => A.delete(`/workspaces/${bWs}`)],
    ];
    for (const [name, call] of calls) {
      const r = await call();
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(404);
    }

    // The gateway agrees: B's workspace is not one A can enter.
    const header = await http(server.url, 'GET', '/api/v1/users/me', { token: a.token, headers: { 'x-workspace-id': String(bWs) } });
    expect(header.status).toBe(403);
    expect(errorCode(header)).toBe('INVALID_WORKSPACE');
    expect(header.body.message).toBe('Invalid X-Workspace-Id header');
    // A's lists and history show nothing of B.
    expect((await A.get('/users?size=200')).body.content.map((u: { id: number }) => u.id)).not.toContain(bUser);
    expect((await A.get('/workspaces')).body.map((w: { id: number }) => w.id)).not.toContain(bWs);
    expect((await A.get('/roles')).body.map((r: { id: number }) => r.id)).not.toContain(bRole);
    expect((await A.get('/teams')).body.map((t: { id: number }) => t.id)).not.toContain(bTeam);
    expect((await A.get(`/audit/events?workspaceId=${bWs}`)).body.totalElements).toBe(0);
    expect((await A.get(`/audit/events?resourceType=user&resourceId=${bUser}`)).body.totalElements).toBe(0);
    expect((await A.get('/users/filter-options')).body.teams.map((t: { id: number }) => t.id)).toEqual([aTeam]);

    expect(await snapshotOfB()).toEqual(before);
    // And B's member can still sign in with the password A tried to replace.
    expect((await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: ids.bUserEmail, password: 'member password 1' } })).status).toBe(200);
  });
});
