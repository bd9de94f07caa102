import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { tmtTestSessionsProjection } from './projection.js';
import { currentResults, findTestSession, listTestSessions, resultHistory } from './queries.js';

const PROJECT = '00000000-0000-4000-8000-000000000201';
const S1 = '00000000-0000-4000-8000-000000000211';
const C1 = '00000000-0000-4000-8000-000000000221';
const C2 = '00000000-0000-4000-8000-000000000222';
const scope = { companyId: 1, workspaceId: 1 };
const started = { type: 'TestSessionStarted', payload: { sessionId: S1, companyId: 1, workspaceId: 1, projectId: PROJECT, name: 'Smoke', testCaseIds: [C1, C2] } };
const recorded = (results: [string, string][], recordedBy: object = { userId: 5 }, occurredAt = SPEC_TIME) => ({
  type: 'TestResultsRecorded',
  payload: { sessionId: S1, results: results.map(([testCaseId, status]) => ({ testCaseId, status, notes: null, durationMs: 10 })), recordedBy },
  metadata: { occurredAt },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtTestSessionsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('tmt-test-sessions read model', () => {
  it('given a session started, it is planned with its cases, in its workspace only', async () => {
    await spec.given(started);
    expect(await findTestSession(spec.db, scope, S1)).toEqual({ id: S1, projectId: PROJECT, name: 'Smoke', status: 'planned', testCases: [C1, C2], createdAt: SPEC_TIME, updatedAt: SPEC_TIME, completedAt: null });
    expect(await findTestSession(spec.db, { companyId: 1, workspaceId: 2 }, S1)).toBeNull();
    expect((await listTestSessions(spec.db, scope, { status: 'completed' }, { offset: 0, limit: 10 })).total).toBe(0);
  });

  it('given results in two batches, the current result of each case is the newest and the history keeps every one, with who recorded it', async () => {
    await spec.given(started, recorded([[C1, 'failed'], [C2, 'passed'], [C1, 'retest']]), recorded([[C1, 'passed']], { engineId: 'e1' }, '2026-01-03T00:00:00.000Z'));
    const session = (await findTestSession(spec.db, scope, S1))!;
    expect((await currentResults(spec.db, session)).map((r) => [r.testCaseId, r.status, r.recordedBy])).toEqual([
      [C1, 'passed', { engineId: 'e1' }],
      [C2, 'passed', { userId: 5 }],
    ]);
    const history = await resultHistory(spec.db, S1, { offset: 0, limit: 10 });
    expect(history.total).toBe(4);
    expect(history.items.map((r) => r.status)).toEqual(['failed', 'passed', 'retest', 'passed']);
  });

  it('given a case taken out, its current result goes and its history stays; completed, the session says when', async () => {
    await spec.given(started, recorded([[C1, 'failed'], [C2, 'passed']]), { type: 'TestSessionUpdated', payload: { sessionId: S1, testCaseIds: [C2], status: 'in_progress' } });
    const session = (await findTestSession(spec.db, scope, S1))!;
    expect(session).toMatchObject({ status: 'in_progress', testCases: [C2] });
    expect((await currentResults(spec.db, session)).map((r) => r.testCaseId)).toEqual([C2]);
    expect((await resultHistory(spec.db, S1, { offset: 0, limit: 10 })).total).toBe(2);
    await spec.given({ type: 'TestSessionCompleted', payload: { sessionId: S1 }, metadata: { occurredAt: '2026-01-04T00:00:00.000Z' } });
    expect(await findTestSession(spec.db, scope, S1)).toMatchObject({ status: 'completed', completedAt: '2026-01-04T00:00:00.000Z' });
  });

  it('given a report imported twice, the history holds its tests once, with title and device session; results recorded on their own stay', async () => {
    const DS = '00000000-0000-4000-8000-0000000002d1';
    const report = (status: string) => ({
      type: 'TestResultsRecorded',
      payload: { sessionId: S1, results: [{ testCaseId: C1, status, notes: null, durationMs: 5, title: 'cart › adds', deviceSessionId: DS }], recordedBy: { userId: 5 }, imported: true },
    });
    await spec.given(started, recorded([[C1, 'blocked']]), report('failed'), report('passed'));
    const history = await resultHistory(spec.db, S1, { offset: 0, limit: 10 });
    expect(history.items.map((r) => [r.status, r.title, r.deviceSessionId])).toEqual([
      ['blocked', null, null],
      ['passed', 'cart › adds', DS],
    ]);
    const session = (await findTestSession(spec.db, scope, S1))!;
    expect(await currentResults(spec.db, session)).toEqual([expect.objectContaining({ testCaseId: C1, status: 'passed', title: 'cart › adds', deviceSessionId: DS })]);
  });

  it('given the project deleted, its sessions and their results are gone', async () => {
    await spec.given(started, recorded([[C1, 'failed']]), { type: 'ProjectDeleted', payload: { projectId: PROJECT } });
    expect(await findTestSession(spec.db, scope, S1)).toBeNull();
    expect((await resultHistory(spec.db, S1, { offset: 0, limit: 10 })).total).toBe(0);
  });
});
