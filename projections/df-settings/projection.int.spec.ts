import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { dfSettingsProjection } from './projection.js';
import { findQuotaPlan, findSessionDefaults, videoRetentions } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfSettingsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-settings read model', () => {
  it('given session defaults set twice, keeps the latest per workspace', async () => {
    const set = (workspaceId: number, idleTimeoutSeconds: number) => ({
      type: 'DfSessionDefaultsSet',
      payload: { workspaceId, companyId: 1, idleTimeoutSeconds, maxSessionSeconds: 3600, recordByDefault: true, recordAutomation: false, screenshotFormat: 'jpeg' },
    });
    await spec.given(set(2, 60), set(2, 120), set(3, 600));
    expect(await findSessionDefaults(spec.db, 2)).toEqual({ idleTimeoutSeconds: 120, maxSessionSeconds: 3600, recordByDefault: true, recordAutomation: false, screenshotFormat: 'jpeg', videoRetentionDays: null });
    expect((await findSessionDefaults(spec.db, 3))?.idleTimeoutSeconds).toBe(600);
    expect(await findSessionDefaults(spec.db, 4)).toBeNull();
  });

  it('given session defaults set before recordAutomation and videoRetentionDays existed, reads automation recording as on and videos as kept', async () => {
    await spec.given({ type: 'DfSessionDefaultsSet', payload: { workspaceId: 5, companyId: 1, idleTimeoutSeconds: 60, maxSessionSeconds: 3600, recordByDefault: false, screenshotFormat: 'png' } });
    expect(await findSessionDefaults(spec.db, 5)).toEqual({ idleTimeoutSeconds: 60, maxSessionSeconds: 3600, recordByDefault: false, recordAutomation: true, screenshotFormat: 'png', videoRetentionDays: null });
    expect(await videoRetentions(spec.db)).toEqual([]);
  });

  it('given a workspace that keeps videos 30 days, lists it with its days', async () => {
    await spec.given({ type: 'DfSessionDefaultsSet', payload: { workspaceId: 6, companyId: 1, idleTimeoutSeconds: 60, maxSessionSeconds: 3600, recordByDefault: false, screenshotFormat: 'png', videoRetentionDays: 30 } });
    expect((await findSessionDefaults(spec.db, 6))?.videoRetentionDays).toBe(30);
    expect(await videoRetentions(spec.db)).toEqual([{ workspaceId: 6, days: 30 }]);
  });

  it("given a company's plan, keeps its name and own limits", async () => {
    await spec.given({ type: 'DfQuotaPlanSet', payload: { companyId: 1, plan: 'team', limits: { concurrentSessions: 3, storageBytes: null } } });
    expect(await findQuotaPlan(spec.db, 1)).toEqual({ plan: 'team', limits: { concurrentSessions: 3, storageBytes: null } });
    expect(await findQuotaPlan(spec.db, 2)).toBeNull();
  });
});
