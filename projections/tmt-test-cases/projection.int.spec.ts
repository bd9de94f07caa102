import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { tmtTestCasesProjection } from './projection.js';
import { findTestCase, listTestCases } from './queries.js';

const PROJECT = '00000000-0000-4000-8000-000000000101';
const OTHER_PROJECT = '00000000-0000-4000-8000-000000000102';
const caseId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const scope = { companyId: 1, workspaceId: 1 };
const created = (n: number, projectId = PROJECT, priority = 'medium') => ({
  type: 'TestCaseCreated',
  payload: { testCaseId: caseId(n), companyId: 1, workspaceId: 1, projectId, title: `Case ${n}`, description: '', priority, status: 'draft', steps: [{ action: 'open', expected: 'shown' }] },
});
const counts = () => spec.rows('SELECT project_id::text AS project, priority, status, n FROM tmt_test_case_counts ORDER BY 1, 2, 3');
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtTestCasesProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('tmt-test-cases read model', () => {
  it('given cases created in one batch, lists them oldest first with filters, and counts them by priority and status', async () => {
    await spec.given(created(1), created(2, PROJECT, 'high'), created(3, OTHER_PROJECT));
    const page = await listTestCases(spec.db, scope, { projectId: PROJECT }, { offset: 0, limit: 10 });
    expect(page.total).toBe(2);
    expect(page.items.map((c) => c.title)).toEqual(['Case 1', 'Case 2']);
    expect((await listTestCases(spec.db, scope, { priority: 'high' }, { offset: 0, limit: 10 })).items.map((c) => c.id)).toEqual([caseId(2)]);
    expect(await findTestCase(spec.db, { companyId: 2, workspaceId: 1 }, caseId(1))).toBeNull();
    expect(await counts()).toEqual([
      { project: PROJECT, priority: 'high', status: 'draft', n: 1 },
      { project: PROJECT, priority: 'medium', status: 'draft', n: 1 },
      { project: OTHER_PROJECT, priority: 'medium', status: 'draft', n: 1 },
    ]);
  });

  it('given an update of priority and status, moves the case between counts; a replayed creation is not counted twice', async () => {
    const [first] = await spec.given(created(1));
    await spec.replay([first!]);
    await spec.given({ type: 'TestCaseUpdated', payload: { testCaseId: caseId(1), changes: { priority: 'critical', status: 'ready', title: 'Renamed' } } });
    expect(await findTestCase(spec.db, scope, caseId(1))).toMatchObject({ title: 'Renamed', priority: 'critical', status: 'ready', steps: [{ action: 'open', expected: 'shown' }] });
    expect(await counts()).toEqual([{ project: PROJECT, priority: 'critical', status: 'ready', n: 1 }]);
  });

  it('given a case deleted and a project deleted, their cases and counts are gone', async () => {
    await spec.given(created(1), created(2), created(3, OTHER_PROJECT), { type: 'TestCaseDeleted', payload: { testCaseId: caseId(1) } });
    expect(await counts()).toEqual([
      { project: PROJECT, priority: 'medium', status: 'draft', n: 1 },
      { project: OTHER_PROJECT, priority: 'medium', status: 'draft', n: 1 },
    ]);
    await spec.given({ type: 'ProjectDeleted', payload: { projectId: PROJECT } });
    expect((await listTestCases(spec.db, scope, {}, { offset: 0, limit: 10 })).items.map((c) => c.id)).toEqual([caseId(3)]);
    expect(await counts()).toEqual([{ project: OTHER_PROJECT, priority: 'medium', status: 'draft', n: 1 }]);
  });
});
