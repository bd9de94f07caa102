import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgAuditProjection } from './projection.js';
import { listAuditEvents, streamAuditEvents } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgAuditProjection)));
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
});
