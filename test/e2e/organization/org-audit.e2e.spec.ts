import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { referenceApks } from '#test/helpers/apps.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let member: { id: number; token: string; email: string };
let workspaceId: number;
let adb: AdbServer;
let peer: AdbdPeer;

beforeAll(async () => {
  // An Android test device behind a real adb server, seen by the server's in-process agent: the
  // first company signed up sees it.
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Audit Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 }));
  adb = await startAdbServer();
  await adb.connect(port);
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'audit-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  company = await signUpCompany(server.url, 'audit');
  admin = client(server.url, company.token);
  const memberRole = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  member = await createActiveUser(server.url, admin, smtp.mails, { email: 'member@audit.test', name: 'Mo Member', roleIds: [memberRole] });
  workspaceId = (await admin.post('/workspaces', { name: 'Audited' })).body.id;
  await admin.put(`/workspaces/${workspaceId}/archive`);
  await admin.put(`/users/${member.id}/password`, { password: 'a new password' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await adb?.stop();
  await peer?.close();
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
    for (const bad of ['from=yesterday', 'resourceType=printer', 'workspaceId=abc', 'size=201', 'eventType=x;drop', 'eventType=UserMarried']) {
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
    expect(lines[0]).toBe(
      'occurredAt,eventType,resourceType,resourceId,workspaceId,actorId,actorName,actorEmail,clientAddress,deviceId,sessionId,changes,correlationId,id,position,payload,eventLabel,resourceName,subjectUserId,subjectName,subjectEmail',
    );
    expect(lines).toHaveLength(list.length + 1);
    const nd = await exportOf('format=ndjson&resourceType=workspace');
    expect(nd.headers.get('content-type')).toContain('application/x-ndjson');
    const events = (await nd.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; resourceType: string });
    expect(events.every((e) => e.resourceType === 'workspace')).toBe(true);
    const wsList = (await admin.get('/audit/events?resourceType=workspace&size=200')).body.content as { id: string }[];
    expect(events.map((e) => e.id)).toEqual(wsList.map((e) => e.id));
    expect((await exportOf('format=xml')).status).toBe(400);
  });

  // One append of 1234 events, each chained by the store's trigger, then waited for as a read model.
  it('streams a history longer than one batch completely, each event once, newest first', { timeout: 90_000 }, async () => {
    const { store } = server.process.platform;
    const many = Array.from({ length: 1234 }, (_, i) => ({
      type: 'TeamMemberAdded',
      payload: { teamId: 777777, userId: i + 1 },
      metadata: { actorId: company.userId, companyId: company.companyId, workspaceId: null, occurredAt: new Date().toISOString() },
    }));
    await store.append('team-777777', many, 'no_stream');
    // The export waits a few seconds for the history to take in everything appended; on a busy machine
    // 1234 events at once can take longer, answered 503 meanwhile: ask again until it has them.
    const text = await eventually(
      async () => {
        const r = await exportOf('format=ndjson&resourceType=team&resourceId=777777');
        return r.status === 200 ? r.text() : undefined;
      },
      { what: 'the export of the long history', timeoutMs: 60_000 },
    );
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

const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });

/** The presigned upload as a client runs it: ask, PUT the bytes to the signed URL, confirm. */
async function upload(name: string, bytes: Buffer): Promise<{ id: string; versionId?: string; appId?: string }> {
  const started = await df('POST', '/files/presigned-upload', { name, size: bytes.length, contentType: 'application/octet-stream' });
  expect(started.status).toBe(201);
  expect((await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(bytes) })).status).toBe(200);
  const confirmed = await df('POST', `/files/${started.body.fileId}/confirm`);
  expect(confirmed.status).toBe(200);
  return confirmed.body;
}

interface Entry {
  eventType: string;
  eventLabel: string;
  resourceType: string;
  resourceId: string;
  resourceName: string | null;
  actorId: number | null;
  actorName: string | null;
  subjectUserId: number | null;
  subjectName: string | null;
  sessionId: string | null;
  occurredAt: string;
}

describe('device farm entries, named', () => {
  let sessionId: string;
  let plainId: string;
  let app: { id: string; versionId?: string; appId?: string };
  /** The device's name as the farm lists it (its model and adb serial). */
  let phone: string;

  beforeAll(async () => {
    const device = await eventually(async () => (await df('GET', '/devices?platform=android')).body.content?.[0] as { id: string; name: string } | undefined, { what: 'the android device', timeoutMs: 30_000 });
    const deviceId = device.id;
    phone = device.name;
    expect(phone).toContain('Audit Phone');
    app = await upload('settings.apk', readFileSync(referenceApks().settings));
    plainId = (await upload('notes.txt', Buffer.from('some notes'))).id;
    expect((await df('DELETE', `/files/${plainId}`)).status).toBe(204);
    const created = await df('POST', '/sessions', { deviceId, name: 'Audited checkout' });
    expect(created.status).toBe(201);
    sessionId = created.body.id;
    const started = await df('POST', `/sessions/${sessionId}/apps/install`, { versionId: app.versionId });
    expect(started.status).toBe(202);
    const done = await eventually(
      async () => {
        const r = await df('GET', `/operations/${started.body.operationId}`);
        return ['succeeded', 'failed', 'cancelled'].includes(r.body.state) ? r.body : undefined;
      },
      { what: 'the install to end', timeoutMs: 120_000 },
    );
    expect(done.state).toBe('succeeded');
    expect((await df('POST', `/sessions/${sessionId}/apps/uninstall`, { packageName: 'io.appium.settings' })).status).toBe(200);
    expect((await df('DELETE', `/sessions/${sessionId}/viewers/${member.id}`)).status).toBe(200);
  }, 180_000);

  const entries = async (query: string): Promise<Entry[]> => {
    const r = await admin.get(`/audit/events?size=200&${query}`);
    expect(r.status).toBe(200);
    return r.body.content;
  };

  it('records a file upload confirmed and a file deleted, with who, when and the file name', async () => {
    const plain = await entries(`resourceType=file&resourceId=${plainId}`);
    expect(plain.map((e) => e.eventType)).toEqual(['FileDeleted', 'FileConfirmed', 'FileUploadStarted']);
    for (const e of plain) expect(e).toMatchObject({ resourceName: 'notes.txt', actorId: company.userId, actorName: expect.any(String), occurredAt: expect.any(String) });
    expect(plain[0]!.eventLabel).toBe('File deleted');
    expect(plain[1]!.eventLabel).toBe('File uploaded');
  });

  it('records the app version filed in the catalog with the app name and version, and its install and uninstall on the session device', async () => {
    const versions = await entries(`resourceType=app&resourceId=${app.appId}`);
    expect(versions.map((e) => [e.eventType, e.resourceName])).toEqual([['AppVersionAdded', 'Appium Settings 8.0.9']]);
    const installs = await entries(`sessionId=${sessionId}&resourceType=device-app-install`);
    expect(installs.map((e) => [e.eventType, e.eventLabel, e.resourceName, e.actorId])).toEqual([
      ['DeviceAppUninstalled', 'App uninstalled from a device', `io.appium.settings on Audited checkout (${phone})`, company.userId],
      ['DeviceAppInstalled', 'App installed on a device', `settings.apk on Audited checkout (${phone})`, company.userId],
    ]);
    expect((await entries('eventType=DeviceAppInstalled')).map((e) => e.sessionId)).toEqual([sessionId]);
  });

  it('names who was disconnected from a session, and who disconnected them', async () => {
    const [cut, ...more] = await entries(`eventType=DeviceSessionViewerDisconnected&sessionId=${sessionId}`);
    expect(more).toHaveLength(0);
    expect(cut).toMatchObject({ eventLabel: 'Viewer disconnected', subjectUserId: member.id, subjectName: 'Mo Member', actorId: company.userId, resourceName: `Mo Member on Audited checkout (${phone})` });
    expect(cut!.actorName).not.toBe('Mo Member');
  });

  it('names the resource of every entry, in the list and in both exports', async () => {
    const all = await entries('');
    expect(all.length).toBeGreaterThan(20);
    // Team 777777 exists only as the long-export test's appended events, never created: it has no name.
    const unnamed = all.filter((e) => !e.resourceName && e.resourceId !== '777777');
    expect(unnamed.map((e) => `${e.eventType} ${e.resourceType} ${e.resourceId}`)).toEqual([]);
    const session = all.find((e) => e.eventType === 'DeviceSessionRequested' && e.resourceId === sessionId)!;
    expect(session.resourceName).toBe(`Audited checkout (${phone})`);
    expect((await entries(`resourceType=workspace&resourceId=${workspaceId}`)).map((e) => e.resourceName)).toEqual(['Audited', 'Audited']);
    // A user is called by their e-mail until they give their name when activating.
    expect((await entries(`resourceType=user&resourceId=${member.id}&eventType=UserInvited`))[0]!.resourceName).toBe(member.email);
    expect((await entries(`resourceType=user&resourceId=${member.id}&eventType=UserActivated`))[0]!.resourceName).toBe('Mo Member');
    const nd = (await (await exportOf(`format=ndjson&sessionId=${sessionId}`)).text()).trimEnd().split('\n').map((l) => JSON.parse(l) as Entry);
    expect(nd.length).toBeGreaterThan(3);
    expect(nd.every((e) => typeof e.resourceName === 'string' && e.resourceName.includes('Audited checkout'))).toBe(true);
    const csv = (await (await exportOf(`format=csv&eventType=DeviceSessionViewerDisconnected`)).text()).trimEnd().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(/^[^,]+,DeviceSessionViewerDisconnected,device-session-viewer,/);
    expect(csv[1]!.endsWith(`,Viewer disconnected,Mo Member on Audited checkout (${phone}),${member.id},Mo Member,member@audit.test`)).toBe(true);
  });

  it('lists its event types with a label each, and filters by them', async () => {
    const r = await admin.get('/audit/event-types');
    expect(r.status).toBe(200);
    const types = r.body as { type: string; label: string; resourceType: string }[];
    expect(types).toEqual(
      expect.arrayContaining([
        { type: 'UserInvited', label: 'User invited', resourceType: 'user' },
        { type: 'DeviceSessionStarted', label: 'Session started', resourceType: 'device-session' },
        { type: 'DeviceSessionViewerDisconnected', label: 'Viewer disconnected', resourceType: 'device-session-viewer' },
        { type: 'FileConfirmed', label: 'File uploaded', resourceType: 'file' },
        { type: 'DeviceAppInstalled', label: 'App installed on a device', resourceType: 'device-app-install' },
      ]),
    );
    expect(new Set(types.map((t) => t.type)).size).toBe(types.length);
    expect(new Set(types.map((t) => t.label)).size).toBe(types.length);
    // Every type any entry has is one of the listed ones.
    const listed = new Set(types.map((t) => t.type));
    expect((await entries('')).filter((e) => !listed.has(e.eventType))).toEqual([]);
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: member.email, password: 'a new password' } })).body.token;
    expect((await client(server.url, token).get('/audit/event-types')).status).toBe(403);
  });
});
