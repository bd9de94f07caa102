import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let roles: { Admin: number; Member: number; Viewer: number };

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  company = await signUpCompany(server.url, 'ws');
  admin = client(server.url, company.token);
  roles = Object.fromEntries((await admin.get('/roles')).body.map((r: { name: string; id: number }) => [r.name, r.id])) as typeof roles;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const activeUser = (email: string, roleIds: number[] = []) => createActiveUser(server.url, admin, smtp.mails, { email, roleIds });
const create = async (name: string, extra: Record<string, unknown> = {}) => {
  const r = await admin.post('/workspaces', { name, ...extra });
  expect(r.status).toBe(201);
  return r.body as { id: number; name: string };
};
/** What the gateway answers for this workspace in the header. */
const enter = (token: string, id: number) => http(server.url, 'GET', '/api/v1/users/me', { token, headers: { 'x-workspace-id': String(id) } });

describe('creating and reading workspaces', () => {
  it('serves the validation rules it applies', async () => {
    const r = await admin.get('/workspaces/validation-rules');
    expect(r.body.name).toMatchObject({ minLength: 2, maxLength: 64, unique: 'per company, case-insensitive' });
    expect(r.body.modules.allowed).toEqual(['TMT', 'DF', 'AUTORUNNER', 'HEALTHCHECK']);
  });

  it('creates a workspace with every module by default, and lists it', async () => {
    const r = await admin.post('/workspaces', { name: '  Payments  ', description: 'Card flows', settings: { locale: 'de' } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: r.body.id,
      name: 'Payments',
      description: 'Card flows',
      settings: { locale: 'de' },
      archived: false,
      modules: ['TMT', 'DF', 'AUTORUNNER', 'HEALTHCHECK'],
      createdAt: expect.any(String),
    });
    expect((await admin.get(`/workspaces/${r.body.id}`)).body).toEqual(r.body);
    expect((await admin.get('/workspaces')).body.map((w: { name: string }) => w.name)).toEqual(['Default', 'Payments']);
  });

  it('applies the rules: names 2-64 characters, unique per company case-insensitive, known modules only', async () => {
    await create('Unique name');
    const dup = await admin.post('/workspaces', { name: 'UNIQUE NAME' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('NAME_TAKEN');
    for (const name of ['x', 'y'.repeat(65), 'bad\nname']) {
      const r = await admin.post('/workspaces', { name });
      expect(r.status).toBe(400);
      expect(errorCode(r)).toBe('VALIDATION_FAILED');
      expect(r.body.details[0].path).toBe('name');
    }
    expect((await admin.post('/workspaces', { name: 'Mods', modules: ['XYZ'] })).status).toBe(400);
    expect((await admin.post('/workspaces', { name: 'Settings', settings: 'no' })).status).toBe(400);
    const other = await signUpCompany(server.url, 'ws-other');
    expect((await client(server.url, other.token).post('/workspaces', { name: 'Unique name' })).status).toBe(201);
  });

  it('needs WORKSPACE_CREATE; a creator who is not an administrator can enter what they created', async () => {
    const plain = await activeUser('plain@ws.test');
    expect((await client(server.url, plain.token).post('/workspaces', { name: 'Nope' })).status).toBe(403);
    const creatorRole = (await admin.post('/roles', { name: 'Creator', permissions: ['WORKSPACE_CREATE'] })).body.id;
    const creator = await activeUser('creator@ws.test', [creatorRole]);
    const c = client(server.url, creator.token);
    const made = await c.post('/workspaces', { name: 'Creator space' });
    expect(made.status).toBe(201);
    expect((await c.get('/workspaces/accessible')).body.map((w: { id: number }) => w.id)).toEqual([made.body.id]);
    expect((await c.get(`/workspaces/${made.body.id}`)).status).toBe(200);
    expect((await c.get('/workspaces')).status).toBe(403);
  });

  it('answers 404 for an unknown id and 403 for a workspace of the company the caller cannot enter', async () => {
    const ws = await create('Closed');
    const plain = await activeUser('outsider@ws.test');
    expect((await admin.get('/workspaces/999999')).status).toBe(404);
    expect((await client(server.url, plain.token).get(`/workspaces/${ws.id}`)).status).toBe(403);
    expect((await client(server.url, plain.token).get(`/workspaces/${ws.id}/has-access`)).body).toEqual({ workspaceId: ws.id, hasAccess: false });
  });
});

describe('changing, archiving and deleting', () => {
  it('renames (freeing the old name) and changes settings; clashes 409, bad bodies 400, unknown 404', async () => {
    const ws = await create('Old name');
    const r = await admin.put(`/workspaces/${ws.id}`, { name: 'New name', settings: { a: 1 } });
    expect(r.body).toMatchObject({ name: 'New name', settings: { a: 1 } });
    await create('Old name');
    expect((await admin.put(`/workspaces/${ws.id}`, { name: 'old NAME' })).status).toBe(409);
    expect((await admin.put(`/workspaces/${ws.id}`, { name: 'z' })).status).toBe(400);
    expect((await admin.put('/workspaces/999999', { name: 'Whatever' })).status).toBe(404);
  });

  it('an archived workspace stays readable but refuses writes with 409 WORKSPACE_ARCHIVED until unarchived', async () => {
    const ws = await create('Archive me');
    const archived = await admin.put(`/workspaces/${ws.id}/archive`);
    expect(archived.body.archived).toBe(true);
    expect((await admin.put(`/workspaces/${ws.id}/archive`)).status).toBe(409);
    for (const [method, path, body] of [
      ['put', `/workspaces/${ws.id}`, { name: 'Renamed' }],
      ['put', `/workspaces/${ws.id}/modules`, { modules: ['TMT'] }],
      ['post', `/workspaces/${ws.id}/access/users`, { userId: company.userId }],
      ['post', `/workspaces/${ws.id}/members/roles`, { userId: company.userId, roleIds: [roles.Viewer] }],
    ] as const) {
      const r = await admin[method](path, body);
      expect(r.status, path).toBe(409);
      expect(r.body.code).toBe('WORKSPACE_ARCHIVED');
    }
    expect((await admin.get(`/workspaces/${ws.id}`)).body.name).toBe('Archive me');
    expect((await admin.get('/workspaces/accessible')).body.map((w: { id: number }) => w.id)).toContain(ws.id);
    expect((await enter(company.token, ws.id)).status).toBe(200);
    const moduleWrite = await http(server.url, 'POST', '/df/api/sessions', { token: company.token, headers: { 'x-workspace-id': String(ws.id) }, body: {} });
    expect(moduleWrite.body.code).toBe('WORKSPACE_ARCHIVED');
    expect((await admin.put(`/workspaces/${ws.id}/unarchive`)).body.archived).toBe(false);
    expect((await admin.put(`/workspaces/${ws.id}/unarchive`)).status).toBe(409);
    expect((await admin.put(`/workspaces/${ws.id}`, { name: 'Renamed' })).status).toBe(200);
  });

  it('deletes a workspace, archived or not: gone from lists, refused by the gateway, its name free again', async () => {
    const ws = await create('Doomed');
    await admin.put(`/workspaces/${ws.id}/archive`);
    expect((await admin.delete(`/workspaces/${ws.id}`)).status).toBe(204);
    expect((await admin.get(`/workspaces/${ws.id}`)).status).toBe(404);
    expect((await admin.delete(`/workspaces/${ws.id}`)).status).toBe(404);
    expect((await admin.get('/workspaces/accessible')).body.map((w: { id: number }) => w.id)).not.toContain(ws.id);
    const r = await enter(company.token, ws.id);
    expect(r.status).toBe(403);
    expect(errorCode(r)).toBe('INVALID_WORKSPACE');
    expect(r.body.message).toBe('Invalid X-Workspace-Id header');
    await create('Doomed');
  });

  it('needs WORKSPACE_MANAGE to change, archive or delete', async () => {
    const ws = await create('Guarded');
    const viewer = await activeUser('viewer@ws.test', [roles.Viewer]);
    const v = client(server.url, viewer.token);
    expect((await v.get(`/workspaces/${ws.id}`)).status).toBe(200);
    for (const r of [await v.put(`/workspaces/${ws.id}`, { name: 'Mine' }), await v.put(`/workspaces/${ws.id}/archive`), await v.delete(`/workspaces/${ws.id}`)]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
  });
});

describe('modules', () => {
  it('reads and changes the entitlement the gateway checks', async () => {
    const ws = await create('Limited');
    expect((await admin.put(`/workspaces/${ws.id}/modules`, { modules: ['TMT'] })).body).toEqual({ modules: ['TMT'] });
    expect((await admin.get(`/workspaces/${ws.id}/modules`)).body).toEqual({ modules: ['TMT'] });
    const df = await http(server.url, 'GET', '/df/api/client-config', { token: company.token, headers: { 'x-workspace-id': String(ws.id) } });
    expect(df.status).toBe(403);
    expect(df.body.code).toBe('MODULE_NOT_ENABLED');
    await admin.put(`/workspaces/${ws.id}/modules`, { modules: ['TMT', 'DF'] });
    expect((await http(server.url, 'GET', '/df/api/client-config', { token: company.token, headers: { 'x-workspace-id': String(ws.id) } })).status).toBe(200);
    expect((await admin.put(`/workspaces/${ws.id}/modules`, { modules: ['NOPE'] })).status).toBe(400);
    expect((await admin.put(`/workspaces/${ws.id}/modules`, ['TMT'])).status).toBe(400);
    expect((await admin.get('/workspaces/999999/modules')).status).toBe(404);
  });
});

describe('access, members and roles', () => {
  it('grants and revokes users and teams; "accessible" is exactly the set the gateway lets through', async () => {
    const a = await create('Grant user');
    const b = await create('Grant team');
    const c = await create('No grant');
    const u = await activeUser('granted@ws.test');
    const team = (await admin.post('/teams', { name: 'Granted team' })).body;
    await admin.post(`/teams/${team.id}/members/${u.id}`);
    const access = await admin.post(`/workspaces/${a.id}/access/users`, { userId: u.id });
    expect(access.body.users.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect((await admin.post(`/workspaces/${b.id}/access/teams`, { teamId: team.id })).body.teams).toEqual([{ id: team.id, name: 'Granted team' }]);
    expect((await admin.get(`/workspaces/${b.id}/access`)).body).toEqual({ teams: [{ id: team.id, name: 'Granted team' }], users: [] });

    const check = async (expected: number[]) => {
      const accessible = (await client(server.url, u.token).get('/workspaces/accessible')).body.map((w: { id: number }) => w.id);
      expect(accessible).toEqual(expected);
      const all = (await admin.get('/workspaces')).body.map((w: { id: number }) => w.id);
      for (const id of [...all, 999999]) expect((await enter(u.token, id)).status, `workspace ${id}`).toBe(accessible.includes(id) ? 200 : 403);
      for (const id of all) expect((await client(server.url, u.token).get(`/workspaces/${id}/has-access`)).body.hasAccess).toBe(accessible.includes(id));
    };
    await check([a.id, b.id]);
    await admin.put(`/workspaces/${b.id}/archive`);
    await check([a.id, b.id]);
    expect((await admin.delete(`/teams/${team.id}/members/${u.id}`)).status).toBe(200);
    await check([a.id]);
    expect((await admin.delete(`/workspaces/${a.id}/access/users/${u.id}`)).status).toBe(204);
    await check([]);
    expect((await admin.delete(`/workspaces/${a.id}/access/users/${u.id}`)).status).toBe(404);
    expect((await admin.post(`/workspaces/${c.id}/access/users`, { userId: 999999 })).status).toBe(404);
    expect((await admin.post(`/workspaces/${c.id}/access/teams`, { teamId: 999999 })).status).toBe(404);
    expect((await admin.post(`/workspaces/${c.id}/access/teams`, { team: 1 })).status).toBe(400);
    expect((await client(server.url, u.token).post(`/workspaces/${c.id}/access/users`, { userId: u.id })).status).toBe(403);
    expect((await admin.delete(`/workspaces/${b.id}/access/teams/${team.id}`)).status).toBe(409);
    await admin.put(`/workspaces/${b.id}/unarchive`);
    expect((await admin.delete(`/workspaces/${b.id}/access/teams/${team.id}`)).status).toBe(204);
  });

  it('member roles give keys in that workspace only, shown by my-roles and members; a non-member cannot get roles', async () => {
    const here = await create('Role here');
    const there = await create('Role there');
    const u = await activeUser('member.roles@ws.test');
    const r0 = await admin.post(`/workspaces/${here.id}/members/roles`, { userId: u.id, roleIds: [roles.Member] });
    expect(r0.status).toBe(409);
    expect(errorCode(r0)).toBe('CONFLICT');
    await admin.post(`/workspaces/${here.id}/access/users`, { userId: u.id });
    await admin.post(`/workspaces/${there.id}/access/users`, { userId: u.id });
    const managerRole = (await admin.post('/roles', { name: 'Workspace manager', permissions: ['WORKSPACE_MANAGE', 'WORKSPACE_READ'] })).body.id;
    const assigned = await admin.post(`/workspaces/${here.id}/members/roles`, { userId: u.id, roleIds: [roles.Viewer, managerRole] });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ userId: u.id, via: ['user'], roles: [{ id: roles.Viewer, name: 'Viewer' }, { id: managerRole, name: 'Workspace manager' }] });
    const members = (await admin.get(`/workspaces/${here.id}/members`)).body;
    expect(members.map((m: { userId: number }) => m.userId)).toEqual([company.userId, u.id]);
    expect(members[0].via).toEqual(['admin']);

    const keysIn = async (id: number) => (await http(server.url, 'GET', '/api/v1/permissions/me', { token: u.token, headers: { 'x-workspace-id': String(id) } })).body as string[];
    expect(await keysIn(here.id)).toEqual(expect.arrayContaining(['WORKSPACE_MANAGE', 'USER_READ']));
    expect(await keysIn(there.id)).toEqual([]);
    const mine = await http(server.url, 'GET', `/api/v1/workspaces/${here.id}/my-roles`, { token: u.token });
    expect(mine.body.workspaceRoles.map((r: { name: string }) => r.name)).toEqual(['Viewer', 'Workspace manager']);
    expect(mine.body.companyRoles).toEqual([]);

    // Permissions are evaluated in the workspace acted on, not in the caller's active one.
    const c = client(server.url, u.token);
    expect((await c.put(`/workspaces/${here.id}`, { description: 'managed by a member' })).status).toBe(200);
    expect((await c.put(`/workspaces/${there.id}`, { description: 'not here' })).status).toBe(403);
    const escalate = await c.post(`/workspaces/${here.id}/members/roles`, { userId: u.id, roleIds: [roles.Admin] });
    expect(escalate.status).toBe(403);
    expect(errorCode(escalate)).toBe('FORBIDDEN');

    expect((await admin.delete(`/workspaces/${here.id}/members/${u.id}/roles/${managerRole}`)).status).toBe(204);
    expect((await admin.delete(`/workspaces/${here.id}/members/${u.id}/roles/${managerRole}`)).status).toBe(404);
    expect(await keysIn(here.id)).not.toContain('WORKSPACE_MANAGE');
    expect((await admin.post(`/workspaces/${here.id}/members/roles`, { userId: u.id, roleIds: [] })).status).toBe(400);
    expect((await admin.post(`/workspaces/${here.id}/members/roles`, { userId: u.id, roleIds: [999999] })).status).toBe(404);
    expect((await admin.post(`/workspaces/${here.id}/members/roles`, { userId: 999999, roleIds: [roles.Viewer] })).status).toBe(404);
    expect((await admin.delete(`/workspaces/${here.id}/members/${u.id}/roles/999999`)).status).toBe(404);
    expect((await admin.get('/workspaces/999999/members')).status).toBe(404);
    expect((await admin.get('/workspaces/999999/my-roles')).status).toBe(404);
  });
});

describe('recent, touch and switch', () => {
  it('touch and switch record visits; recent lists them newest first; switch re-issues the token for the workspace', async () => {
    const first = await create('Visited first');
    const second = await create('Visited second');
    expect((await admin.post(`/workspaces/${first.id}/touch`)).status).toBe(204);
    const switched = await admin.post(`/workspaces/${second.id}/switch`);
    expect(switched.status).toBe(200);
    const cfg = await http(server.url, 'GET', '/df/api/client-config', { token: switched.body.token });
    expect(cfg.body.workspaceId).toBe(second.id);
    const recent = await admin.get('/workspaces/recent');
    expect(recent.body.slice(0, 2).map((w: { id: number }) => w.id)).toEqual([second.id, first.id]);
    expect(recent.body[0].visitedAt).toEqual(expect.any(String));
    await admin.post(`/workspaces/${first.id}/touch`);
    expect((await admin.get('/workspaces/recent?limit=1')).body.map((w: { id: number }) => w.id)).toEqual([first.id]);
    expect((await admin.get('/workspaces/recent?limit=0')).status).toBe(400);

    const outsider = await activeUser('visitor@ws.test');
    const o = client(server.url, outsider.token);
    expect((await o.post(`/workspaces/${first.id}/touch`)).status).toBe(404);
    expect((await o.post(`/workspaces/${first.id}/switch`)).status).toBe(404);
    expect((await o.get('/workspaces/recent')).body).toEqual([]);
    expect((await admin.post('/workspaces/999999/touch')).status).toBe(404);
  });
});
