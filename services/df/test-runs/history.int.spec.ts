import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dfTestRunsProjection } from '#projections/df-test-runs/index.js';
import { projectionSpec, type ProjectionSpec } from '#projections/testing.js';
import { testHistory } from './history.js';
import { planShards, resolveStrategy } from './plan.js';

const scope = { companyId: 1, workspaceId: 2 };
const T = (m: string) => ({ className: 'com.acme.LoginTest', methodName: m });
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfTestRunsProjection)));
afterAll(() => spec.close());

describe('a test history from earlier runs', () => {
  it('gives each test its mean duration and pass rate, and the next plan packs by them', async () => {
    const runId = 'r-0';
    const finished = (m: string, attempt: number, outcome: 'passed' | 'failed' | 'flaky', durationMs: number) => ({
      type: 'TestFinished',
      payload: { runId, deviceId: 'd-1', ...T(m), attempt, outcome, durationMs, message: null, stack: null, artifacts: [] },
    });
    await spec.given(
      {
        type: 'TestRunQueued',
        payload: {
          runId, companyId: 1, workspaceId: 2, userId: 7, projectId: null, name: null, appVersionId: 'a', testVersionId: 't', testPackage: 'com.acme.test',
          devices: { platform: 'android' }, filter: {}, strategy: resolveStrategy(), tests: ['long', 'short', 'flaky'].map(T), skipped: [], rerunOf: null, queuedAt: '2026-02-01T10:00:00.000Z',
        },
      },
      finished('long', 1, 'passed', 20_000),
      finished('short', 1, 'passed', 100),
      finished('flaky', 1, 'failed', 900),
      finished('flaky', 2, 'flaky', 1_000),
      { type: 'TestRunFinished', payload: { runId, state: 'passed', reason: null, counts: { total: 3, passed: 2, failed: 0, flaky: 1, skipped: 0, notRun: 0 }, endedAt: '2026-02-01T10:30:00.000Z' } },
    );
    const history = await testHistory(spec.db, scope, 'com.acme.test');
    expect(Object.fromEntries(history)).toEqual({
      'com.acme.LoginTest#flaky': { meanMs: 1_000, passRate: 0.5 },
      'com.acme.LoginTest#long': { meanMs: 20_000, passRate: 1 },
      'com.acme.LoginTest#short': { meanMs: 100, passRate: 1 },
    });
    expect(await testHistory(spec.db, { companyId: 1, workspaceId: 3 }, 'com.acme.test')).toEqual(new Map());
    const plan = planShards(['long', 'short', 'flaky'].map(T), ['d-1', 'd-2'], history, { sharding: 'duration', flakyThreshold: 0.8 });
    expect(plan.shards.map((s) => s.tests.map((t) => `${t.methodName}${t.duplicate ? '*' : ''}`))).toEqual([['long', 'flaky*'], ['flaky', 'short']]);
  });
});
