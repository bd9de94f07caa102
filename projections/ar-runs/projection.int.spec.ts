import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { arRunsProjection } from './projection.js';
import { findRun, listRuns, runResults } from './queries.js';

const R1 = '00000000-0000-4000-8000-0000000000e1';
const scope = { companyId: 1, workspaceId: 1 };
const started = { type: 'RunStarted', payload: { runId: R1, engineId: 'eng', testSessionId: 'ts1', name: 'Nightly', externalId: null, metadata: { build: 7 }, companyId: 1, workspaceId: 1 } };
const result = (testCaseId: string, status: string) => ({ testCaseId, status, notes: null, durationMs: 12 });
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(arRunsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('ar-runs read model', () => {
  it('given a run started, it is running in its workspace, filtered by engine and status', async () => {
    await spec.given(started);
    expect(await findRun(spec.db, scope, R1)).toEqual({
      id: R1, engineId: 'eng', testSessionId: 'ts1', name: 'Nightly', externalId: null, metadata: { build: 7 }, status: 'running', resultsReported: 0, startedAt: SPEC_TIME, completedAt: null,
    });
    expect(await findRun(spec.db, scope, R1, 'other-engine')).toBeNull();
    expect((await listRuns(spec.db, scope, { page: 0, size: 10, status: 'passed' })).totalElements).toBe(0);
    expect((await listRuns(spec.db, scope, { page: 0, size: 10, engineId: 'eng' })).totalElements).toBe(1);
  });

  it('given results reported in two batches, keeps them in order and counts them; a replayed batch is not counted twice', async () => {
    const [, first] = await spec.given(started, { type: 'RunResultsReported', payload: { runId: R1, results: [result('c1', 'passed'), result('c2', 'failed')], recorded: 2 } });
    await spec.given({ type: 'RunResultsReported', payload: { runId: R1, results: [result('c3', 'skipped')], recorded: 1 } });
    await spec.replay([first!]);
    expect((await runResults(spec.db, R1)).map((r) => [r.testCaseId, r.status])).toEqual([['c1', 'passed'], ['c2', 'failed'], ['c3', 'skipped']]);
    expect((await findRun(spec.db, scope, R1))?.resultsReported).toBe(3);
  });

  it('given a completion, the run has its end status and time', async () => {
    await spec.given(started, { type: 'RunCompleted', payload: { runId: R1, status: 'failed' }, metadata: { occurredAt: '2026-01-02T04:00:00.000Z' } });
    expect(await findRun(spec.db, scope, R1)).toMatchObject({ status: 'failed', completedAt: '2026-01-02T04:00:00.000Z' });
  });
});
