import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjection } from '#projections/runner.js';
import { organizationProjections } from '#services/organization/index.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, PNG_1X1, postMultipart, signUpCompany } from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Every row of every table of the organization's read models, in a stable order. */
async function tables(): Promise<Record<string, string[]>> {
  const { db } = server.process.platform;
  const out: Record<string, string[]> = {};
  for (const p of organizationProjections) {
    for (const table of p.tables) {
      const rows = (await db.query(`SELECT * FROM ${table}`)).rows;
      out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
  }
  return out;
}

describe('organization read models', () => {
  it('rebuild from zero to exactly the same rows', async () => {
    // A history touching every kind of event: creations, renames, grants, roles, deletions, sign-ins.
    const a = await signUpCompany(server.url, 'rebuild');
    const A = client(server.url, a.token);
    const roles = Object.fromEntries((await A.get('/roles')).body.map((r: { name: string; id: number }) => [r.name, r.id]));
    const u1 = await createActiveUser(server.url, A, smtp.mails, { email: 'one@rebuild.test', roleIds: [roles.Member] });
    const u2 = await createActiveUser(server.url, A, smtp.mails, { email: 'two@rebuild.test' });
    await A.post('/users/invite', { email: 'passive@rebuild.test', roleIds: [roles.Viewer] });
    await postMultipart(server.url, 'PUT', `/api/v1/users/${u1.id}/image`, {}, { name: 'profileImage', bytes: PNG_1X1, type: 'image/png' }, a.token);
    await A.put(`/users/${u1.id}`, { name: 'One', title: 'Lead', username: 'one-renamed' });
    await A.patch(`/users/${u2.id}/admin`, { isAdmin: true });
    await A.put(`/users/${u2.id}/status`, { status: 'deactivated' });
    const custom = (await A.post('/roles', { name: 'Custom', permissions: ['TMT_READ'] })).body.id;
    const doomedRole = (await A.post('/roles', { name: 'Doomed role', permissions: ['TMT_READ'] })).body.id;
    await A.put(`/roles/${custom}`, { name: 'Custom 2', permissions: ['TMT_READ', 'TMT_WRITE'] });
    await A.put(`/users/${u1.id}/roles`, { roleIds: [custom, doomedRole] });
    const team = (await A.post('/teams', { name: 'Team' })).body.id;
    const doomedTeam = (await A.post('/teams', { name: 'Doomed team' })).body.id;
    await A.post(`/teams/${team}/members/${u1.id}`);
    await A.post(`/teams/${doomedTeam}/members/${u1.id}`);
    const ws = (await A.post('/workspaces', { name: 'Space', settings: { x: [1, 2] } })).body.id;
    const doomedWs = (await A.post('/workspaces', { name: 'Doomed space' })).body.id;
    await A.post(`/workspaces/${ws}/access/teams`, { teamId: team });
    await A.post(`/workspaces/${ws}/access/teams`, { teamId: doomedTeam });
    await A.post(`/workspaces/${ws}/access/users`, { userId: u1.id });
    await A.post(`/workspaces/${ws}/members/roles`, { userId: u1.id, roleIds: [custom, doomedRole] });
    await A.put(`/workspaces/${ws}/modules`, { modules: ['TMT', 'DF'] });
    await A.post(`/workspaces/${ws}/touch`);
    await A.post(`/workspaces/${doomedWs}/access/users`, { userId: u1.id });
    await http(server.url, 'POST', `/api/v1/workspaces/${ws}/touch`, { token: u1.token });
    await A.put(`/workspaces/${ws}/archive`);
    await A.delete(`/roles/${doomedRole}`);
    await A.delete(`/teams/${doomedTeam}`);
    await A.delete(`/workspaces/${doomedWs}`);
    await A.delete(`/users/${u2.id}`);
    await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: u1.email, password: 'wrong password' } });

    const { runner, platform } = server.process;
    // Every read model caught up with the whole log, then no loop running beside the rebuild.
    await runner!.waitFor(await platform.store.headPosition());
    await runner!.stop();
    const before = await tables();
    expect(before.org_users!.length).toBe(3);
    expect(before.org_workspace_member_roles!.length).toBe(1);
    expect(before.org_audit_events!.length).toBeGreaterThan(30);
    expect(before.org_sign_in_log!.length).toBeGreaterThan(2);

    for (const p of organizationProjections) {
      const result = await rebuildProjection(platform.store, platform.db, p);
      expect(result.handedOver).toBe(false);
    }
    expect(await tables()).toEqual(before);
  });
});
