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

  it('files an access review under the workspace it reviews, named by it; a decision is a record, not a change of the review', async () => {
    const review = { streamId: 'access-review-3' };
    const by = { companyId: 1, workspaceId: 4, actorId: 1 };
    await spec.given(
      { ...review, type: 'AccessReviewStarted', metadata: by, payload: { reviewId: 3, companyId: 1, workspaceId: 4, workspaceName: 'Payments', startedBy: 1, items: [{ itemId: 'admin-1', kind: 'admin', userId: 1 }, { itemId: 'workspace-user-7', kind: 'workspace-user', userId: 7 }] } },
      { ...review, type: 'AccessReviewItemDecided', metadata: by, payload: { reviewId: 3, workspaceId: 4, itemId: 'admin-1', decision: 'keep', note: null, decidedBy: 1 } },
      { ...review, type: 'AccessReviewItemDecided', metadata: by, payload: { reviewId: 3, workspaceId: 4, itemId: 'workspace-user-7', decision: 'revoke', note: 'left', decidedBy: 1 } },
      {
        ...review,
        type: 'AccessReviewCompleted',
        metadata: by,
        payload: { reviewId: 3, workspaceId: 4, completedBy: 1, decisions: [{ itemId: 'admin-1', decision: 'keep' }, { itemId: 'workspace-user-7', decision: 'revoke' }], outcomes: [{ itemId: 'workspace-user-7', result: 'revoked' }] },
      },
    );
    const page = await listAuditEvents(spec.db, 1, { resourceType: 'access-review', resourceId: '3' }, 0, 10);
    expect(page.content.map((e) => [e.eventType, e.eventLabel, e.resourceName, e.workspaceId, e.changes])).toEqual([
      ['AccessReviewCompleted', 'Access review completed', 'Access review of Payments', 4, null],
      ['AccessReviewItemDecided', 'Access review decision recorded', 'Access review of Payments', 4, null],
      ['AccessReviewItemDecided', 'Access review decision recorded', 'Access review of Payments', 4, null],
      ['AccessReviewStarted', 'Access review started', 'Access review of Payments', 4, null],
    ]);
    expect(page.content[1]!.payload).toMatchObject({ itemId: 'workspace-user-7', decision: 'revoke', note: 'left' });
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
    // The timeline's inputs (a tap) are the session's own record, not audit entries.
    await spec.given({ ...s1, type: 'DeviceSessionActivityRecorded', metadata: by(7), payload: { sessionId: 's1', activityId: 'a1', kind: 'control', detail: { action: 'tap', x: 1, y: 2 } } });
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

  it('names every resource as it was called then: sessions with their device, files, app versions, installs, bookings, viewers, workspaces', async () => {
    await spec.db.query(`DELETE FROM org_users WHERE id IN (7, 8)`);
    await spec.db.query(`INSERT INTO org_users (id, company_id, email, username, name, status, is_admin, role_ids, created_at) VALUES
      (7, 1, 'tess@example.com', 'tess', 'Tess Tester', 'active', false, '{}', now()), (8, 1, 'vic@example.com', 'vic', 'Vic Now', 'active', false, '{}', now())`);
    const by = (actorId: number | string) => ({ companyId: 1, workspaceId: 1, actorId });
    const recorded = await spec.given(
      { type: 'WorkspaceCreated', metadata: by(7), payload: { workspaceId: 1, companyId: 1, name: 'Mobile', description: '', settings: {}, modules: [] } },
      { type: 'UserInvited', metadata: by(7), payload: { userId: 8, companyId: 1, email: 'vic@example.com', username: 'vic', roleIds: [], invitedBy: 7 } },
      { type: 'UserActivated', metadata: by(8), payload: { userId: 8, name: 'Vic Viewer', passwordHash: 'x' } },
      { type: 'DeviceConnected', metadata: { actorId: 'agent:h1' }, payload: { deviceId: 'd2', facts: { name: 'Galaxy Tab' }, placement: { hostId: 'h1', nodeName: 'n', hubId: 'h', companyId: 1 }, status: 'available' } },
      { type: 'DeviceSessionRequested', metadata: by(7), payload: { sessionId: 's1', deviceId: 'd1', hostId: 'h1', deviceName: 'Pixel 7', name: 'Checkout', type: 'manual', buildName: null, metadata: {}, ownerId: 7, companyId: 1, workspaceId: 1 } },
      { type: 'DeviceSessionViewerDisconnected', metadata: by(7), payload: { sessionId: 's1', userId: 8 } },
      { type: 'DeviceSessionActivityRecorded', metadata: by(7), payload: { sessionId: 's1', activityId: 'a1', kind: 'control', detail: { action: 'installApp', fileName: 'shop.apk', packageNames: ['com.shop'], via: 'api' } } },
      { type: 'DeviceSessionActivityRecorded', metadata: by(7), payload: { sessionId: 's1', activityId: 'a2', kind: 'control', detail: { action: 'uninstallApp', packageName: 'com.shop', via: 'api' } } },
      { type: 'FileUploadStarted', metadata: by(7), payload: { fileId: 'f1', companyId: 1, workspaceId: 1, name: 'shop.apk', size: 10, contentType: 'application/octet-stream', sha256: null, blobKey: 'k', uploadId: null, partSize: null, partCount: null, expiresAt: SPEC_TIME, uploadedBy: 7 } },
      { type: 'FileConfirmed', metadata: by(7), payload: { fileId: 'f1', size: 10, sha256: 'a'.repeat(64), kind: 'app' } },
      { type: 'AppVersionAdded', metadata: by(7), payload: { appId: 'app1', companyId: 1, workspaceId: 1, platform: 'android', identifier: 'com.shop', name: 'Shop', iconKey: null, versionId: 'v1', versionName: '2.1.0', versionCode: '21', minOs: '24', targetOs: '34', abis: [], permissions: [], fileId: 'f1', size: 10, sha256: 'a'.repeat(64) } },
      { type: 'AppVersionAdded', metadata: by(7), payload: { appId: 'app1', companyId: 1, workspaceId: 1, platform: 'android', identifier: 'com.shop', name: 'Shop', iconKey: null, versionId: 'v2', versionName: '2.2.0', versionCode: '22', minOs: '24', targetOs: '34', abis: [], permissions: [], fileId: 'f2', size: 10, sha256: 'b'.repeat(64) } },
      { type: 'AppVersionDeleted', metadata: by(7), payload: { appId: 'app1', versionId: 'v1', fileId: 'f1' } },
      { type: 'FileDeleted', metadata: by(7), payload: { fileId: 'f1', reason: 'deleted' } },
      { type: 'DeviceReservationScheduled', metadata: by(7), payload: { reservationId: 'r1', deviceId: 'd2', userId: 7, companyId: 1, workspaceId: 1, startAt: SPEC_TIME, endAt: SPEC_TIME, note: null } },
      { type: 'DfSessionDefaultsSet', metadata: by(7), payload: { workspaceId: 1, companyId: 1 } },
      { type: 'AccessibilityAuditStarted', metadata: by(7), payload: { auditId: 'x1', name: 'Checkout screens', sessionId: 's1', deviceId: 'd1', platform: 'android', companyId: 1, workspaceId: 1, createdBy: 7 } },
      { type: 'AccessibilityScanRecorded', metadata: by(7), payload: { auditId: 'x1', scanId: 'scan1' } },
    );
    const all = (await listAuditEvents(spec.db, 1, {}, 0, 50)).content;
    const named = (type: string) => all.filter((e) => e.eventType === type).map((e) => e.resourceName);
    expect(all.every((e) => e.resourceName !== null)).toBe(true);
    expect(named('UserInvited')).toEqual(['vic@example.com']);
    expect(named('UserActivated')).toEqual(['Vic Viewer']);
    expect(named('DeviceSessionRequested')).toEqual(['Checkout (Pixel 7)']);
    expect(named('DeviceAppInstalled')).toEqual(['shop.apk on Checkout (Pixel 7)']);
    expect(named('DeviceAppUninstalled')).toEqual(['com.shop on Checkout (Pixel 7)']);
    expect(named('FileConfirmed')).toEqual(['shop.apk']);
    expect(named('FileDeleted')).toEqual(['shop.apk']);
    expect(named('AppVersionAdded')).toEqual(['Shop 2.2.0', 'Shop 2.1.0']);
    expect(named('AppVersionDeleted')).toEqual(['Shop 2.1.0']);
    expect(named('DeviceReservationScheduled')).toEqual(['Galaxy Tab']);
    expect(named('DfSessionDefaultsSet')).toEqual(['Mobile']);
    // A scan changes no audit; it is named as its audit is.
    expect(named('AccessibilityScanRecorded')).toEqual(['Checkout screens']);
    const cut = all.find((e) => e.eventType === 'DeviceSessionViewerDisconnected')!;
    // The viewer as they were called then in the resource name; the subject as the directory has them now.
    expect(cut).toMatchObject({ eventLabel: 'Viewer disconnected', resourceName: 'Vic Viewer on Checkout (Pixel 7)', subjectUserId: 8, subjectName: 'Vic Now', subjectEmail: 'vic@example.com', actorName: 'Tess Tester', deviceId: 'd1' });
    const installs = await listAuditEvents(spec.db, 1, { sessionId: 's1', resourceType: 'device-app-install' }, 0, 10);
    expect(installs.content.map((e) => [e.eventType, e.eventLabel])).toEqual([['DeviceAppUninstalled', 'App uninstalled from a device'], ['DeviceAppInstalled', 'App installed on a device']]);
    // A replay from zero names them the same.
    const before = await spec.rows('SELECT event_id, resource_name, subject_user_id FROM org_audit_events ORDER BY position');
    await spec.reset();
    await spec.replay(recorded);
    expect(await spec.rows('SELECT event_id, resource_name, subject_user_id FROM org_audit_events ORDER BY position')).toEqual(before);
  });
});
