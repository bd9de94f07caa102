import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { hcChecksProjection } from './projection.js';
import { checkByTokenHash, checkHistory, findCheck, listChecks } from './queries.js';

const C1 = '00000000-0000-4000-8000-0000000000f1';
const scope = { companyId: 1, workspaceId: 1 };
const settings = { name: 'Backup', description: 'nightly', intervalSeconds: 3600, graceSeconds: 60, tags: ['db'] };
const created = { type: 'HealthCheckCreated', payload: { checkId: C1, ...settings, tokenHash: 'th1', tokenPrefix: 'hcp_ab', createdBy: 2, companyId: 1, workspaceId: 1 } };
const at = (iso: string) => ({ metadata: { occurredAt: iso } });
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(hcChecksProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('hc-checks read model', () => {
  it('given a check created, it is new, listed by tag in its workspace, and its push token finds it', async () => {
    await spec.given(created);
    expect(await findCheck(spec.db, scope, C1)).toEqual({
      id: C1, workspaceId: 1, ...settings, status: 'new', statusChangedAt: SPEC_TIME, tokenPrefix: 'hcp_ab', createdBy: 2, createdAt: SPEC_TIME, updatedAt: SPEC_TIME,
    });
    expect((await listChecks(spec.db, scope, { page: 0, size: 10, tag: 'db' })).totalElements).toBe(1);
    expect((await listChecks(spec.db, scope, { page: 0, size: 10, tag: 'web' })).totalElements).toBe(0);
    expect(await checkByTokenHash(spec.db, 'th1')).toEqual({ checkId: C1, companyId: 1, workspaceId: 1 });
    expect(await findCheck(spec.db, { companyId: 2, workspaceId: 1 }, C1)).toBeNull();
  });

  it('given heartbeats, a deadline missed and a recovery, the status follows with the time of each change', async () => {
    await spec.given(
      created,
      { type: 'HealthCheckWentUp', payload: { checkId: C1, heartbeatAt: '2026-01-02T03:05:00.000Z' }, ...at('2026-01-02T03:05:00.000Z') },
      { type: 'HealthCheckWentDown', payload: { checkId: C1, reason: 'overdue', lastHeartbeatAt: null, deadline: null, message: null }, ...at('2026-01-02T05:00:00.000Z') },
    );
    expect(await findCheck(spec.db, scope, C1)).toMatchObject({ status: 'down', statusChangedAt: '2026-01-02T05:00:00.000Z' });
    expect((await listChecks(spec.db, scope, { page: 0, size: 10, status: 'down' })).totalElements).toBe(1);
    await spec.given({ type: 'HealthCheckRecovered', payload: { checkId: C1, heartbeatAt: '2026-01-02T06:00:00.000Z', downSince: null }, ...at('2026-01-02T06:00:00.000Z') });
    expect((await findCheck(spec.db, scope, C1))?.status).toBe('up');
  });

  it('given a pause, a rotation and an update, the history lists each without the token hash', async () => {
    await spec.given(
      created,
      { type: 'HealthCheckPaused', payload: { checkId: C1 } },
      { type: 'HealthCheckTokenRotated', payload: { checkId: C1, tokenHash: 'th2', tokenPrefix: 'hcp_cd' } },
      { type: 'HealthCheckUpdated', payload: { checkId: C1, ...settings, name: 'Backups' } },
    );
    expect(await findCheck(spec.db, scope, C1)).toMatchObject({ status: 'paused', name: 'Backups', tokenPrefix: 'hcp_cd' });
    expect(await checkByTokenHash(spec.db, 'th1')).toBeNull();
    const history = await checkHistory(spec.db, scope, C1, { page: 0, size: 10 });
    expect(history.totalElements).toBe(4);
    expect(JSON.stringify(history.content)).not.toMatch(/th1|th2/);
  });

  it('given a deletion, the check is no longer listed and its token finds nothing', async () => {
    await spec.given(created, { type: 'HealthCheckDeleted', payload: { checkId: C1 } });
    expect(await findCheck(spec.db, scope, C1)).toBeNull();
    expect(await checkByTokenHash(spec.db, 'th1')).toBeNull();
  });
});
