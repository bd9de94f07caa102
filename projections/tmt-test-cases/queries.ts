import type { Sql } from '#shared/db/index.js';
import type { CaseStatus, Priority, TestStep } from '#events/tmt/test-cases.js';
import { type Row, iso, json } from '#shared/db/index.js';
import { Conditions, containing, countOf, oneOrNull, type WorkspaceScope } from '../queries.js';

export interface TestCaseView {
  id: string;
  projectId: string;
  title: string;
  description: string;
  priority: Priority;
  status: CaseStatus;
  steps: TestStep[];
  createdAt: string;
  updatedAt: string;
}

export interface TestCaseFilter {
  projectId?: string;
  priority?: Priority;
  status?: CaseStatus;
  /** Part of the title, case-insensitive. */
  search?: string;
}

const toView = (r: Row): TestCaseView => ({
  id: String(r.test_case_id),
  projectId: String(r.project_id),
  title: String(r.title),
  description: String(r.description),
  priority: r.priority as Priority,
  status: r.status as CaseStatus,
  steps: json<TestStep[]>(r.steps),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/**
 * Cases of the workspace in creation order, filtered. Every filter combination without `search`
 * follows an index in that order, and its total is summed from the per-(project, priority, status)
 * counts; with `search` the total is counted.
 */
export async function listTestCases(db: Sql, scope: WorkspaceScope, filter: TestCaseFilter, paging: { offset: number; limit: number }): Promise<{ items: TestCaseView[]; total: number }> {
  const where = Conditions.inWorkspace(scope);
  if (filter.projectId) where.add((n) => `project_id = ${n}`, filter.projectId);
  if (filter.priority) where.add((n) => `priority = ${n}`, filter.priority);
  if (filter.status) where.add((n) => `status = ${n}`, filter.status);
  const counted = where.copy();
  if (filter.search) where.add((n) => `title ILIKE ${n} ESCAPE '\\'`, containing(filter.search));
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_test_cases WHERE ${where} ORDER BY created_pos LIMIT ${paging.limit} OFFSET ${paging.offset}`, where.params),
    filter.search
      ? countOf(db, `SELECT count(*) AS n FROM tmt_test_cases WHERE ${where}`, where.params)
      : countOf(db, `SELECT coalesce(sum(n), 0) AS n FROM tmt_test_case_counts WHERE ${counted}`, counted.params),
  ]);
  return { items: rows.rows.map(toView), total };
}

/** One case of the workspace, or null (also for another tenant's id). */
export async function findTestCase(db: Sql, scope: WorkspaceScope, testCaseId: string): Promise<TestCaseView | null> {
  return oneOrNull(db, `SELECT * FROM tmt_test_cases WHERE test_case_id = $1 AND company_id = $2 AND workspace_id = $3`, [testCaseId, scope.companyId, scope.workspaceId], toView);
}

/** Which of these ids are cases of this project in the workspace. */
export async function existingTestCaseIds(db: Sql, scope: WorkspaceScope, projectId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await db.query<{ id: string }>(
    `SELECT test_case_id::text AS id FROM tmt_test_cases WHERE company_id = $1 AND workspace_id = $2 AND project_id = $3 AND test_case_id = ANY($4::uuid[])`,
    [scope.companyId, scope.workspaceId, projectId, ids],
  );
  return new Set(r.rows.map((x) => String(x.id)));
}

/** The id of the case of this project with each of these exact titles; of several with one title, the oldest. */
export async function testCaseIdsByTitle(db: Sql, scope: WorkspaceScope, projectId: string, titles: readonly string[]): Promise<Map<string, string>> {
  if (titles.length === 0) return new Map();
  const r = await db.query<{ title: string; id: string }>(
    `SELECT DISTINCT ON (title) title, test_case_id::text AS id FROM tmt_test_cases
     WHERE company_id = $1 AND workspace_id = $2 AND project_id = $3 AND title = ANY($4::text[]) ORDER BY title, created_pos`,
    [scope.companyId, scope.workspaceId, projectId, titles],
  );
  return new Map(r.rows.map((row) => [row.title, row.id]));
}
