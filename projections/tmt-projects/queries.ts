import type { Sql } from '#shared/db/index.js';
import { type Row, iso } from '#shared/db/index.js';
import { Conditions, oneOrNull, rowsAndTotal, type WorkspaceScope } from '../queries.js';

export interface ProjectView {
  id: string;
  name: string;
  key: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

const toView = (r: Row): ProjectView => ({
  id: String(r.project_id),
  name: String(r.name),
  key: String(r.key),
  description: String(r.description),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Projects of the workspace, oldest first, with the total. */
export async function listProjects(db: Sql, scope: WorkspaceScope, paging: { offset: number; limit: number }): Promise<{ items: ProjectView[]; total: number }> {
  const { rows, total } = await rowsAndTotal(db, { from: 'tmt_projects', where: Conditions.inWorkspace(scope), orderBy: 'created_pos' }, paging);
  return { items: rows.map(toView), total };
}

/** One project of the workspace, or null (also for another tenant's id). */
export async function findProject(db: Sql, scope: WorkspaceScope, projectId: string): Promise<ProjectView | null> {
  return oneOrNull(db, `SELECT * FROM tmt_projects WHERE project_id = $1 AND company_id = $2 AND workspace_id = $3`, [projectId, scope.companyId, scope.workspaceId], toView);
}
