import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let builtIn: Record<string, { id: number; permissions: string[] }>;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  company = await signUpCompany(server.url, 'roles');
  admin = client(server.url, company.token);
  builtIn = Object.fromEntries((await admin.get('/roles')).body.map((r: { name: string; id: number; permissions: string[] }) => [r.name, r]));
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const activeUser = (email: string, roleIds: number[] = []) => createActiveUser(server.url, admin, smtp.mails, { email, roleIds });

describe('permission catalog', () => {
  it('serves every key with its module and description, and the keys grouped by module', async () => {
    const all = await admin.get('/permissions');
    expect(all.status).toBe(200);
    expect(all.body.map((p: { key: string }) => p.key)).toEqual([...ALL_PERMISSION_KEYS]);
    expect(all.body).toEqual(expect.arrayContaining([{ key: 'USER_INVITE', module: 'ORGANIZATION', description: 'Invite users' }]));
    expect(all.body.find((p: { key: string }) => p.key === 'df:device:read').module).toBe('DF');
    const modules = await admin.get('/permissions/modules');
    expect(modules.body.map((m: { module: string }) => m.module)).toEqual(['ORGANIZATION', 'TMT', 'HEALTHCHECK', 'AUTORUNNER', 'DF']);
    expect(modules.body.flatMap((m: { permissions: string[] }) => m.permissions).sort()).toEqual([...ALL_PERMISSION_KEYS].sort());
    expect((await http(server.url, 'GET', '/api/v1/permissions')).status).toBe(401);
  });

  it('gives an administrator every key, the same at /users/me/permissions and /permissions/me', async () => {
    const a = await admin.get('/users/me/permissions');
    expect(a.body).toEqual([...ALL_PERMISSION_KEYS].sort());
    expect((await admin.get('/permissions/me')).body).toEqual(a.body);
  });
});

describe('roles', () => {
  it('every company starts with the built-in Admin (every key), Member and Viewer; they cannot be changed or deleted', async () => {
    expect(Object.keys(builtIn)).toEqual(['Admin', 'Member', 'Viewer']);
    expect(builtIn.Admin!.permissions.sort()).toEqual([...ALL_PERMISSION_KEYS].sort());
    expect(builtIn.Viewer!.permissions).not.toContain('USER_MANAGE');
    expect(builtIn.Viewer!.permissions).not.toContain('AUDIT_READ');
    const put = await admin.put(`/roles/${builtIn.Viewer!.id}`, { name: 'Watcher' });
    expect(put.status).toBe(409);
    expect(put.body.code).toBe('BUILT_IN_ROLE');
    expect((await admin.delete(`/roles/${builtIn.Admin!.id}`)).status).toBe(409);
  });

  it('creates, reads, changes and deletes a custom role; its holders get exactly its keys', async () => {
    const created = await admin.post('/roles', { name: 'Test author', description: 'Writes tests', permissions: ['TMT_WRITE', 'TMT_READ'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Test author', description: 'Writes tests', permissions: ['TMT_READ', 'TMT_WRITE'], builtIn: false });
    const id = created.body.id;
    expect((await admin.get(`/roles/${id}`)).body).toEqual(created.body);
    const holder = await activeUser('author@roles.test', [id]);
    expect((await client(server.url, holder.token).get('/permissions/me')).body).toEqual(['TMT_READ', 'TMT_WRITE']);
    const users = await admin.get(`/roles/${id}/users`);
    expect(users.body.content.map((u: { id: number }) => u.id)).toEqual([holder.id]);

    const changed = await admin.put(`/roles/${id}`, { name: 'Test editor', permissions: ['TMT_READ', 'TMT_WRITE', 'TMT_DELETE'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Test editor', permissions: ['TMT_DELETE', 'TMT_READ', 'TMT_WRITE'] });
    expect((await client(server.url, holder.token).get('/permissions/me')).body).toContain('TMT_DELETE');
    // The old name is free again, the new one is taken.
    expect((await admin.post('/roles', { name: 'test AUTHOR', permissions: [] })).status).toBe(201);
    expect((await admin.post('/roles', { name: 'Test Editor', permissions: [] })).status).toBe(409);

    expect((await admin.delete(`/roles/${id}`)).status).toBe(204);
    expect((await admin.get(`/roles/${id}`)).status).toBe(404);
    expect((await admin.get(`/roles/${id}/users`)).status).toBe(404);
    expect((await admin.get(`/users/${holder.id}`)).body.roleIds).toEqual([]);
    expect((await client(server.url, holder.token).get('/permissions/me')).body).toEqual([]);
  });

  it('refuses duplicates 409, built-in names 409, unknown keys 400 with details, unknown ids 404', async () => {
    await admin.post('/roles', { name: 'Unique', permissions: [] });
    const dup = await admin.post('/roles', { name: ' unique ', permissions: [] });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('NAME_TAKEN');
    expect((await admin.post('/roles', { name: 'viewer', permissions: [] })).status).toBe(409);
    const bad = await admin.post('/roles', { name: 'Bad', permissions: ['EVERYTHING'] });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    expect(bad.body.details[0].path).toMatch(/^permissions/);
    expect((await admin.post('/roles', { name: 'x', permissions: [] })).status).toBe(400);
    expect((await admin.get('/roles/999999')).status).toBe(404);
    expect((await admin.put('/roles/999999', { name: 'Nope' })).status).toBe(404);
    expect((await admin.delete('/roles/999999')).status).toBe(404);
  });

  it('needs ROLE_READ to read and ROLE_MANAGE to change, and only keys the caller holds can go into a role', async () => {
    const plain = await activeUser('plain@roles.test');
    const p = client(server.url, plain.token);
    expect((await p.get('/roles')).status).toBe(403);
    expect((await p.get(`/roles/${builtIn.Member!.id}`)).status).toBe(403);
    expect((await p.post('/roles', { name: 'Mine', permissions: [] })).status).toBe(403);
    const viewer = await activeUser('viewer@roles.test', [builtIn.Viewer!.id]);
    const v = client(server.url, viewer.token);
    expect((await v.get('/roles')).status).toBe(200);
    expect((await v.delete(`/roles/${builtIn.Member!.id}`)).status).toBe(403);
    const roleAdminRole = await admin.post('/roles', { name: 'Role admin', permissions: ['ROLE_READ', 'ROLE_MANAGE'] });
    const roleAdmin = await activeUser('roleadmin@roles.test', [roleAdminRole.body.id]);
    const ra = client(server.url, roleAdmin.token);
    const escalate = await ra.post('/roles', { name: 'Sneaky', permissions: ['USER_ADMIN_MANAGE'] });
    expect(escalate.status).toBe(403);
    expect(errorCode(escalate)).toBe('FORBIDDEN');
    expect((await ra.put(`/roles/${roleAdminRole.body.id}`, { permissions: ['ROLE_READ', 'ROLE_MANAGE', 'AUDIT_READ'] })).status).toBe(403);
    expect((await ra.post('/roles', { name: 'Reader of roles', permissions: ['ROLE_READ'] })).status).toBe(201);
  });
});

describe('teams', () => {
  it('creates a team, adds and removes members, renames and deletes it', async () => {
    const u = await activeUser('teammate@roles.test');
    const created = await admin.post('/teams', { name: 'Mobile', description: 'Phones' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: created.body.id, name: 'Mobile', description: 'Phones', memberIds: [] });
    const id = created.body.id;
    expect((await admin.post(`/teams/${id}/members/${u.id}`)).body.memberIds).toEqual([u.id]);
    expect((await admin.post(`/teams/${id}/members/${u.id}`)).body.memberIds).toEqual([u.id]);
    expect((await admin.get('/teams')).body.find((t: { id: number }) => t.id === id).memberIds).toEqual([u.id]);
    expect((await admin.get(`/users?teamId=${id}`)).body.content.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect((await admin.put(`/teams/${id}`, { name: 'Mobile apps' })).body.name).toBe('Mobile apps');
    expect((await admin.delete(`/teams/${id}/members/${u.id}`)).body.memberIds).toEqual([]);
    expect((await admin.delete(`/teams/${id}/members/${u.id}`)).status).toBe(404);
    expect((await admin.delete(`/teams/${id}`)).status).toBe(204);
    expect((await admin.get(`/teams/${id}`)).status).toBe(404);
    expect((await admin.post('/teams', { name: 'Mobile' })).status).toBe(201);
  });

  it('refuses duplicates 409, bad bodies 400, unknown team or user 404, and callers without TEAM_MANAGE 403', async () => {
    const t = await admin.post('/teams', { name: 'Web' });
    expect((await admin.post('/teams', { name: 'WEB' })).status).toBe(409);
    expect((await admin.post('/teams', { name: '' })).status).toBe(400);
    expect((await admin.post('/teams', { name: 'Desc', description: 5 })).body.details[0].path).toBe('description');
    expect((await admin.get('/teams/999999')).status).toBe(404);
    expect((await admin.put('/teams/999999', { name: 'Nope' })).status).toBe(404);
    expect((await admin.delete('/teams/999999')).status).toBe(404);
    expect((await admin.post(`/teams/${t.body.id}/members/999999`)).status).toBe(404);
    expect((await admin.post(`/teams/999999/members/${company.userId}`)).status).toBe(404);
    const viewer = await activeUser('viewer.teams@roles.test', [builtIn.Viewer!.id]);
    const v = client(server.url, viewer.token);
    expect((await v.get('/teams')).status).toBe(200);
    expect((await v.post('/teams', { name: 'Mine' })).status).toBe(403);
    expect((await v.post(`/teams/${t.body.id}/members/${viewer.id}`)).status).toBe(403);
    const plain = await activeUser('plain.teams@roles.test');
    expect((await client(server.url, plain.token).get(`/teams/${t.body.id}`)).status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents every organization endpoint (users, roles, teams, workspaces) and the audit history, with a tag and a summary', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> };
    const endpoints = [
      'get /users/me', 'get /users/me/permissions', 'get /users/me/administrators', 'get /permissions/me', 'get /users', 'get /users/filter-options', 'get /users/{id}',
      'get /users/email', 'post /users/{username}/available', 'get /users/validate', 'post /users/invite', 'put /users/activate',
      'post /users/activate', 'put /users/{id}', 'put /users/{id}/profile', 'put /users/{id}/roles', 'put /users/{id}/status',
      'patch /users/{id}/admin', 'put /users/{id}/companies', 'delete /users/{id}', 'put /users/password', 'put /users/{id}/password',
      'get /users/{id}/image', 'delete /users/{id}/image', 'get /users/user-login-logs/{userId}',
      'get /roles', 'post /roles', 'get /roles/{id}', 'put /roles/{id}', 'delete /roles/{id}', 'get /roles/{id}/users',
      'get /teams', 'post /teams', 'get /teams/{id}', 'put /teams/{id}', 'delete /teams/{id}', 'post /teams/{id}/members/{userId}',
      'delete /teams/{id}/members/{userId}', 'get /permissions', 'get /permissions/modules',
      'get /workspaces', 'get /workspaces/accessible', 'get /workspaces/recent', 'get /workspaces/{id}', 'get /workspaces/validation-rules',
      'post /workspaces', 'put /workspaces/{id}', 'put /workspaces/{id}/archive', 'put /workspaces/{id}/unarchive', 'delete /workspaces/{id}',
      'post /workspaces/{id}/touch', 'post /workspaces/{id}/switch', 'get /workspaces/{id}/has-access', 'get /workspaces/{id}/my-roles',
      'get /workspaces/{id}/modules', 'put /workspaces/{id}/modules', 'get /workspaces/{id}/access', 'post /workspaces/{id}/access/teams',
      'delete /workspaces/{id}/access/teams/{teamId}', 'post /workspaces/{id}/access/users', 'delete /workspaces/{id}/access/users/{userId}',
      'get /workspaces/{id}/members', 'post /workspaces/{id}/members/roles', 'delete /workspaces/{id}/members/{userId}/roles/{roleId}',
      'get /audit/events', 'get /audit/events/export',
    ];
    for (const e of endpoints) {
      const [method, path] = e.split(' ') as [string, string];
      const op = doc.paths[`/api/v1${path}`]?.[method];
      expect(op, e).toBeTruthy();
      expect(op!.tags?.length, e).toBeGreaterThan(0);
      expect(op!.summary, e).toBeTruthy();
    }
  });
});
