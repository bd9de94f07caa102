import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let member: { id: number; token: string; email: string };
let workspaceId: number;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  company = await signUpCompany(server.url, 'audit');
  admin = client(server.url, company.token);
  const memberRole = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  member = await createActiveUser(server.url, admin, smtp.mails, { email: 'member@audit.test', roleIds: [memberRole] });
  workspaceId = (await admin.post('/workspaces', { name: 'Audited' })).body.id;
  await admin.put(`/workspaces/${workspaceId}/archive`);
  await admin.put(`/users/${member.id}/password`, { password: 'a new password' });
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const exportOf = (query: string, token = company.token) => fetch(new URL(`/api/v1/audit/events/export?${query}`, server.url), { headers: { authorization: `Bearer ${token}` } });

describe('audit history', () => {
  it('needs AUDIT_READ: a Member is refused with 403', async () => {
    // The administrator changed the member's password, which ended their tokens: sign in afresh.
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: member.email, password: 'a new password' } })).body.token;
    const m = client(server.url, token);
    expect((await m.get('/audit/events')).status).toBe(403);
    expect((await exportOf('format=csv', token)).status).toBe(403);
  });

  it('lists what happened, newest first, with actor, resource, workspace and time', async () => {
    const r = await admin.get(`/audit/events?actorId=${company.userId}&size=3`);
    expect(r.status).toBe(200);
    expect(r.body.content.map((e: { eventType: string }) => e.eventType)).toEqual(['UserPasswordChanged', 'WorkspaceArchived', 'WorkspaceCreated']);
    expect(r.body.content[1]).toMatchObject({ resourceType: 'workspace', resourceId: String(workspaceId), workspaceId, actorId: company.userId });
    const positions = r.body.content.map((e: { position: string }) => BigInt(e.position));
    expect(positions[0] > positions[1] && positions[1] > positions[2]).toBe(true);
    const all = await admin.get('/audit/events?size=200');
    const types = all.body.content.map((e: { eventType: string }) => e.eventType);
    expect(types).toEqual(expect.arrayContaining(['CompanyRegistered', 'RoleCreated', 'UserRegistered', 'UserInvited', 'UserActivated', 'SignInSucceeded']));
    expect(all.body.totalElements).toBe(all.body.content.length);
  });

  it('never shows a password hash or a token', async () => {
    const changed = await admin.get(`/audit/events?eventType=UserPasswordChanged&resourceId=${member.id}&resourceType=user`);
    expect(changed.body.content).toHaveLength(1);
    expect(changed.body.content[0].payload).toEqual({ userId: member.id, passwordHash: '[redacted]', reason: 'admin' });
    const hashes = (await server.process.platform.db.query<{ h: string }>('SELECT password_hash AS h FROM org_users WHERE password_hash IS NOT NULL')).rows.map((r) => r.h);
    expect(hashes.length).toBeGreaterThan(1);
    const ndjson = await (await exportOf('format=ndjson')).text();
    const csv = await (await exportOf('format=csv')).text();
    for (const h of hashes) {
      expect(ndjson).not.toContain(h);
      expect(csv).not.toContain(h);
    }
  });

  it('filters by workspace, actor, resource, event type and time range, and pages', async () => {
    const byWs = await admin.get(`/audit/events?workspaceId=${workspaceId}`);
    expect(byWs.body.content.map((e: { eventType: string }) => e.eventType)).toEqual(['WorkspaceArchived', 'WorkspaceCreated']);
    const byActor = await admin.get(`/audit/events?actorId=${member.id}&size=200`);
    expect(byActor.body.content.length).toBeGreaterThan(0);
    expect(byActor.body.content.every((e: { actorId: number }) => e.actorId === member.id)).toBe(true);
    const created = byWs.body.content[1];
    const from = encodeURIComponent(created.occurredAt);
    const after = await admin.get(`/audit/events?from=${from}&size=200`);
    expect(after.body.content.every((e: { occurredAt: string }) => e.occurredAt >= created.occurredAt)).toBe(true);
    const before = await admin.get(`/audit/events?to=${from}&size=200`);
    expect(before.body.content.every((e: { occurredAt: string }) => e.occurredAt < created.occurredAt)).toBe(true);
    expect(after.body.totalElements + before.body.totalElements).toBe((await admin.get('/audit/events')).body.totalElements);
    const p0 = await admin.get('/audit/events?page=0&size=2');
    const p1 = await admin.get('/audit/events?page=1&size=2');
    expect(p1.body.content[0].position).not.toBe(p0.body.content[1].position);
    expect(BigInt(p1.body.content[0].position) < BigInt(p0.body.content[1].position)).toBe(true);
    for (const bad of ['from=yesterday', 'resourceType=device', 'workspaceId=abc', 'size=201', 'eventType=x;drop']) {
      const r = await admin.get(`/audit/events?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.details.length).toBeGreaterThan(0);
    }
  });

  it('exports CSV and NDJSON, streamed, in the same order as the list', async () => {
    const list = (await admin.get('/audit/events?size=200')).body.content as { id: string }[];
    const csv = await exportOf('format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    expect(csv.headers.get('transfer-encoding')).toBe('chunked');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('occurredAt,eventType,resourceType,resourceId,workspaceId,actorId,actorName,actorEmail,clientAddress,deviceId,sessionId,changes,correlationId,id,position,payload');
    expect(lines).toHaveLength(list.length + 1);
    const nd = await exportOf('format=ndjson&resourceType=workspace');
    expect(nd.headers.get('content-type')).toContain('application/x-ndjson');
    const events = (await nd.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; resourceType: string });
    expect(events.every((e) => e.resourceType === 'workspace')).toBe(true);
    const wsList = (await admin.get('/audit/events?resourceType=workspace&size=200')).body.content as { id: string }[];
    expect(events.map((e) => e.id)).toEqual(wsList.map((e) => e.id));
    expect((await exportOf('format=xml')).status).toBe(400);
  });

  it('streams a history longer than one batch completely, each event once, newest first', async () => {
    const { store } = server.process.platform;
    const many = Array.from({ length: 1234 }, (_, i) => ({
      type: 'TeamMemberAdded',
      payload: { teamId: 777777, userId: i + 1 },
      metadata: { actorId: company.userId, companyId: company.companyId, workspaceId: null, occurredAt: new Date().toISOString() },
    }));
    await store.append('team-777777', many, 'no_stream');
    const text = await (await exportOf('format=ndjson&resourceType=team&resourceId=777777')).text();
    const events = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; position: string; payload: { userId: number } });
    expect(events).toHaveLength(1234);
    expect(new Set(events.map((e) => e.id)).size).toBe(1234);
    expect(events.map((e) => e.payload.userId)).toEqual(Array.from({ length: 1234 }, (_, i) => 1234 - i));
  });

  it('each company sees only its own history', async () => {
    const other = await signUpCompany(server.url, 'audit-other');
    const mine = (await client(server.url, other.token).get('/audit/events?size=200')).body.content as { resourceType: string; resourceId: string }[];
    expect(mine.find((e) => e.resourceType === 'company')!.resourceId).toBe(String(other.companyId));
    expect(mine.some((e) => e.resourceType === 'workspace' && e.resourceId === String(workspaceId))).toBe(false);
    expect((await http(server.url, 'GET', '/api/v1/audit/events')).status).toBe(401);
  });

  it('records /v1 credentials being made and revoked, without their hashes', async () => {
    const created = await http(server.url, 'POST', '/api/v1/api-keys', { token: company.token, body: { name: 'ci', scopes: ['read'] } });
    expect(created.status).toBe(201);
    expect((await http(server.url, 'DELETE', `/api/v1/api-keys/${created.body.id}`, { token: company.token })).status).toBe(204);
    const r = await admin.get(`/audit/events?resourceType=api-key&resourceId=${created.body.id}`);
    expect(r.body.content.map((e: { eventType: string }) => e.eventType)).toEqual(['ApiKeyRevoked', 'ApiKeyCreated']);
    expect(r.body.content[1].payload).toMatchObject({ keyId: created.body.id, name: 'ci', scopes: ['read'], keyHash: '[redacted]' });
    expect(JSON.stringify(r.body.content)).not.toContain(created.body.key);
  });
});
