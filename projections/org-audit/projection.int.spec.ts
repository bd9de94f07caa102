import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgDirectoryProjection } from '../org-directory/projection.js';
import { orgAuditProjection } from './projection.js';
import { listAuditEvents, streamAuditEvents } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => {
  spec = await projectionSpec(orgAuditProjection);
  // The history names actors from the directory, which shares the read-model database.
  await spec.db.exec(orgDirectoryProjection.schema);
});
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const invited = (userId: number, companyId = 1) => ({
  type: 'UserInvited',
  payload: { userId, companyId, email: `u${userId}@example.com`, username: `u${userId}`, roleIds: [2], invitedBy: 1 },
  metadata: { companyId, actorId: 1, correlationId: `req-${userId}` },
});

describe('org-audit read model', () => {
  it('given changes in two companies, each company reads only its own, newest first, with actor, resource and request id', async () => {
    await spec.given(invited(7), invited(8), invited(9, 2));
    const page = await listAuditEvents(spec.db, 1, {}, 0, 10);
    expect(page.totalElements).toBe(2);
    expect(page.content[0]).toMatchObject({ eventType: 'UserInvited', resourceType: 'user', resourceId: '8', occurredAt: SPEC_TIME, actorId: 1, correlationId: 'req-8' });
    expect((await listAuditEvents(spec.db, 1, { resourceType: 'user', resourceId: '7' }, 0, 10)).content.map((e) => e.resourceId)).toEqual(['7']);
    const exported = [];
    for await (const e of streamAuditEvents(spec.db, 2, {})) exported.push(e.resourceId);
    expect(exported).toEqual(['9']);
  });

  it('never stores secrets: password hashes and token hashes are redacted', async () => {
    await spec.given(
      { type: 'UserPasswordChanged', payload: { userId: 7, passwordHash: 'scrypt$secret', reason: 'self' }, metadata: { companyId: 1 } },
      { type: 'ApiKeyCreated', payload: { keyId: 'k1', keyHash: 'abc', prefix: 'qak_ab', name: 'CI', scopes: ['read'], userId: 7, companyId: 1, workspaceId: 1 }, metadata: { companyId: 1 } },
    );
    const rows = await spec.rows<{ payload: unknown }>('SELECT payload FROM org_audit_events ORDER BY position');
    expect(JSON.stringify(rows)).not.toMatch(/scrypt\$secret|"abc"/);
    expect(rows[0]!.payload).toMatchObject({ passwordHash: '[redacted]', reason: 'self' });
  });

  it('files a workspace change under the workspace it names and skips events without a company', async () => {
    await spec.given(
      { type: 'WorkspaceArchived', payload: { workspaceId: 4 }, metadata: { companyId: 1, workspaceId: 1 } },
      { type: 'UserInvited', payload: { userId: 5, email: 'x@example.com', username: 'x', roleIds: [], invitedBy: 1 }, metadata: { companyId: null } },
    );
    const page = await listAuditEvents(spec.db, 1, { workspaceId: 4 }, 0, 10);
    expect(page.content.map((e) => [e.eventType, e.resourceId])).toEqual([['WorkspaceArchived', '4']]);
    expect((await spec.rows('SELECT * FROM org_audit_events')).length).toBe(1);
  });

  it('files device testing under the device and the session, with the actor named, the client address and old and new values', async () => {
    await spec.db.query(`DELETE FROM org_users WHERE id = 7`);
    await spec.db.query(`INSERT INTO org_users (id, company_id, email, username, name, status, is_admin, role_ids, created_at) VALUES (7, 1, 'tess@example.com', 'tess', 'Tess Tester', 'active', false, '{}', now())`);
    const s1 = { streamId: 'device-session-s1' };
    const by = (actorId: number | string, clientAddress?: string) => ({ companyId: 1, workspaceId: 1, actorId, ...(clientAddress ? { clientAddress } : {}) });
    await spec.given(
      { ...s1, type: 'DeviceSessionRequested', metadata: by(7, '10.0.0.7'), payload: { sessionId: 's1', deviceId: 'd1', hostId: 'h1', deviceName: 'Pixel', name: 'Checkout', type: 'manual', buildName: null, metadata: {}, ownerId: 7, companyId: 1, workspaceId: 1 } },
      { ...s1, type: 'DeviceSessionRenamed', metadata: by(7, '10.0.0.7'), payload: { sessionId: 's1', name: 'Checkout, second try' } },
      { ...s1, type: 'DeviceSessionEnded', metadata: by('agent:h1'), payload: { sessionId: 's1', reason: 'host-lost' } },
      { type: 'HostEnrolled', metadata: by(7, '10.0.0.8'), payload: { hostId: 'h2', name: 'Rack', companyId: 1, workspaceIds: null, tokenHash: 'abc', tokenPrefix: 'dfh_x' } },
    );
    const session = await listAuditEvents(spec.db, 1, { sessionId: 's1' }, 0, 10);
    // The timeline's inputs are the session's own record, not audit entries.
    expect(orgAuditProjection.eventTypes).not.toContain('DeviceSessionActivityRecorded');
    expect(session.content.map((e) => e.eventType)).toEqual(['DeviceSessionEnded', 'DeviceSessionRenamed', 'DeviceSessionRequested']);
    expect((await listAuditEvents(spec.db, 1, { deviceId: 'd1' }, 0, 10)).totalElements).toBe(3);
    const [ended, renamed, requested] = session.content;
    expect(requested).toMatchObject({ resourceType: 'device-session', actorName: 'Tess Tester', actorEmail: 'tess@example.com', clientAddress: '10.0.0.7', deviceId: 'd1', changes: null });
    expect(renamed!.changes).toEqual({ name: { old: 'Checkout', new: 'Checkout, second try' } });
    expect(ended).toMatchObject({ actorId: null, actorName: 'agent:h1', actorEmail: null, clientAddress: null, deviceId: 'd1' });
    const host = (await listAuditEvents(spec.db, 1, { resourceType: 'device-host' }, 0, 10)).content[0]!;
    expect(host).toMatchObject({ eventType: 'HostEnrolled', resourceId: 'h2', clientAddress: '10.0.0.8' });
    expect(host.payload).toMatchObject({ tokenHash: '[redacted]' });
  });
});
