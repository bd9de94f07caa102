import type { Sql } from '#shared/db/index.js';
import type { CaseStatus, Priority, TestStep } from '#events/tmt/test-cases.js';
import { type Row, iso } from '#shared/db/rows.js';

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

type Scope = { companyId: number; workspaceId: number };
const toView = (r: Row): TestCaseView => ({
  id: String(r.test_case_id),
  projectId: String(r.project_id),
  title: String(r.title),
  description: String(r.description),
  priority: r.priority as Priority,
  status: r.status as CaseStatus,
  steps: (typeof r.steps === 'string' ? JSON.parse(r.steps) : r.steps) as TestStep[],
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Cases of the workspace in creation order, filtered. Every filter combination without `search`
 * follows an index in that order, and its total is summed from the per-(project, priority, status)
 * counts; with `search` the total is counted.
 */
export async function listTestCases(db: Sql, scope: Scope, filter: TestCaseFilter, paging: { offset: number; limit: number }): Promise<{ items: TestCaseView[]; total: number }> {
  const where = ['company_id = $1', 'workspace_id = $2'];
  const params: unknown[] = [scope.companyId, scope.workspaceId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.projectId) add('project_id = ?', filter.projectId);
  if (filter.priority) add('priority = ?', filter.priority);
  if (filter.status) add('status = ?', filter.status);
  const countWhere = [...where];
  const countParams = [...params];
  if (filter.search) add(`title ILIKE ? ESCAPE '\\'`, `%${escapeLike(filter.search)}%`);
  const cond = where.join(' AND ');
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_test_cases WHERE ${cond} ORDER BY created_pos LIMIT ${paging.limit} OFFSET ${paging.offset}`, params),
    filter.search
      ? db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_test_cases WHERE ${cond}`, params)
      : db.query<{ n: unknown }>(`SELECT coalesce(sum(n), 0) AS n FROM tmt_test_case_counts WHERE ${countWhere.join(' AND ')}`, countParams),
  ]);
  return { items: rows.rows.map(toView), total: Number(total.rows[0]?.n ?? 0) };
}

/** One case of the workspace, or null (also for another tenant's id). */
export async function findTestCase(db: Sql, scope: Scope, testCaseId: string): Promise<TestCaseView | null> {
  const r = await db.query(`SELECT * FROM tmt_test_cases WHERE test_case_id = $1 AND company_id = $2 AND workspace_id = $3`, [testCaseId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** Which of these ids are cases of this project in the workspace. */
export async function existingTestCaseIds(db: Sql, scope: Scope, projectId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await db.query<{ id: string }>(
    `SELECT test_case_id::text AS id FROM tmt_test_cases WHERE company_id = $1 AND workspace_id = $2 AND project_id = $3 AND test_case_id = ANY($4::uuid[])`,
    [scope.companyId, scope.workspaceId, projectId, ids],
  );
  return new Set(r.rows.map((x) => String(x.id)));
}

/** The id of the case of this project with each of these exact titles; of several with one title, the oldest. */
export async function testCaseIdsByTitle(db: Sql, scope: Scope, projectId: string, titles: readonly string[]): Promise<Map<string, string>> {
  if (titles.length === 0) return new Map();
  const r = await db.query<{ title: string; id: string }>(
    `SELECT DISTINCT ON (title) title, test_case_id::text AS id FROM tmt_test_cases
     WHERE company_id = $1 AND workspace_id = $2 AND project_id = $3 AND title = ANY($4::text[]) ORDER BY title, created_pos`,
    [scope.companyId, scope.workspaceId, projectId, titles],
  );
  return new Map(r.rows.map((row) => [row.title, row.id]));
}
