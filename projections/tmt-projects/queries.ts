import type { Sql } from '#shared/db/index.js';
import { type Row, iso } from '#shared/db/rows.js';

export interface ProjectView {
  id: string;
  name: string;
  key: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

type Scope = { companyId: number; workspaceId: number };
const toView = (r: Row): ProjectView => ({
  id: String(r.project_id),
  name: String(r.name),
  key: String(r.key),
  description: String(r.description),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Projects of the workspace, oldest first, with the total. */
export async function listProjects(db: Sql, scope: Scope, paging: { offset: number; limit: number }): Promise<{ items: ProjectView[]; total: number }> {
  const params = [scope.companyId, scope.workspaceId];
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_projects WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_pos LIMIT ${paging.limit} OFFSET ${paging.offset}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_projects WHERE company_id = $1 AND workspace_id = $2`, params),
  ]);
  return { items: rows.rows.map(toView), total: Number(total.rows[0]?.n ?? 0) };
}

/** One project of the workspace, or null (also for another tenant's id). */
export async function findProject(db: Sql, scope: Scope, projectId: string): Promise<ProjectView | null> {
  const r = await db.query(`SELECT * FROM tmt_projects WHERE project_id = $1 AND company_id = $2 AND workspace_id = $3`, [projectId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}
