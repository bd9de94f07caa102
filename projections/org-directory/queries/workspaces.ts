// The company's workspaces: one, all, those a user may enter or visited, their grants and members.
import type { Sql } from '#shared/db/index.js';
import { iso } from '#shared/db/index.js';
import { ACCESS, type WorkspaceView } from './views.js';

const workspaceView = `w.id, w.company_id AS "companyId", w.name, w.description, w.settings, w.archived, w.modules, w.created_at AS "createdAt"`;

function toWorkspaceView(row: Record<string, unknown>): WorkspaceView {
  const settings = typeof row.settings === 'string' ? (JSON.parse(row.settings) as Record<string, unknown>) : (row.settings as Record<string, unknown>);
  return { ...(row as unknown as WorkspaceView), settings, createdAt: iso(row.createdAt) };
}

export async function listWorkspaces(db: Sql, companyId: number): Promise<WorkspaceView[]> {
  const r = await db.query(`SELECT ${workspaceView} FROM org_workspaces w WHERE w.company_id = $1 ORDER BY w.id`, [companyId]);
  return r.rows.map(toWorkspaceView);
}

export async function getWorkspace(db: Sql, companyId: number, workspaceId: number): Promise<WorkspaceView | null> {
  const r = await db.query(`SELECT ${workspaceView} FROM org_workspaces w WHERE w.id = $1 AND w.company_id = $2`, [workspaceId, companyId]);
  return r.rows[0] ? toWorkspaceView(r.rows[0]) : null;
}

/** Exactly the workspaces `findAccessibleWorkspace` admits: the ones that do not produce the 403. */
export async function listAccessibleWorkspaces(db: Sql, user: { userId: number; companyId: number }): Promise<WorkspaceView[]> {
  const r = await db.query(
    `SELECT ${workspaceView} FROM org_workspaces w
       JOIN org_users u ON u.id = $1 AND u.company_id = w.company_id AND u.status = 'active'
      WHERE w.company_id = $2 AND ${ACCESS} ORDER BY w.id`,
    [user.userId, user.companyId],
  );
  return r.rows.map(toWorkspaceView);
}

/** Workspaces the user visited, newest first, among those they may still enter. */
export async function recentWorkspaces(
  db: Sql,
  user: { userId: number; companyId: number },
  limit: number,
): Promise<(WorkspaceView & { visitedAt: string })[]> {
  const r = await db.query(
    `SELECT ${workspaceView}, v.visited_at AS "visitedAt" FROM org_workspace_visits v
       JOIN org_workspaces w ON w.id = v.workspace_id
       JOIN org_users u ON u.id = v.user_id AND u.company_id = w.company_id AND u.status = 'active'
      WHERE v.user_id = $1 AND w.company_id = $2 AND ${ACCESS}
      ORDER BY v.position DESC LIMIT $3`,
    [user.userId, user.companyId, limit],
  );
  return r.rows.map((row) => ({ ...toWorkspaceView(row), visitedAt: iso(row.visitedAt) }));
}

/** The team and user grants of a workspace. */
export async function workspaceAccess(db: Sql, workspaceId: number) {
  const teams = await db.query<{ id: number; name: string }>(
    `SELECT t.id, t.name FROM org_workspace_team_access a JOIN org_teams t ON t.id = a.team_id WHERE a.workspace_id = $1 ORDER BY t.id`,
    [workspaceId],
  );
  const users = await db.query<{ id: number; name: string; email: string }>(
    `SELECT u.id, u.name, u.email FROM org_workspace_user_access a JOIN org_users u ON u.id = a.user_id WHERE a.workspace_id = $1 ORDER BY u.id`,
    [workspaceId],
  );
  return { teams: teams.rows, users: users.rows };
}

export interface MemberView {
  userId: number;
  name: string;
  email: string;
  status: string;
  /** How the member gets in: `admin`, `user` (a direct grant), `team`. */
  via: ('admin' | 'user' | 'team')[];
  roles: { id: number; name: string }[];
}

/** Everyone who may enter the workspace, how, and their roles there. */
export async function workspaceMembers(db: Sql, companyId: number, workspaceId: number): Promise<MemberView[]> {
  const r = await db.query<{ userId: number; name: string; email: string; status: string; admin: boolean; direct: boolean; team: boolean; roles: unknown }>(
    `SELECT u.id AS "userId", u.name, u.email, u.status, u.is_admin AS admin,
            EXISTS (SELECT 1 FROM org_workspace_user_access a WHERE a.workspace_id = w.id AND a.user_id = u.id) AS direct,
            EXISTS (SELECT 1 FROM org_workspace_team_access t JOIN org_team_members m ON m.team_id = t.team_id
                     WHERE t.workspace_id = w.id AND m.user_id = u.id) AS team,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.id)
                        FROM org_workspace_member_roles mr JOIN org_roles r ON r.id = mr.role_id
                       WHERE mr.workspace_id = w.id AND mr.user_id = u.id), '[]'::json) AS roles
       FROM org_workspaces w JOIN org_users u ON u.company_id = w.company_id
      WHERE w.id = $1 AND w.company_id = $2 AND ${ACCESS}
      ORDER BY u.id`,
    [workspaceId, companyId],
  );
  return r.rows.map((row) => ({
    userId: row.userId,
    name: row.name,
    email: row.email,
    status: row.status,
    via: ([row.admin ? 'admin' : null, row.direct ? 'user' : null, row.team ? 'team' : null] as const).filter((v) => v !== null),
    roles: typeof row.roles === 'string' ? (JSON.parse(row.roles) as MemberView['roles']) : (row.roles as MemberView['roles']),
  }));
}

/** Whether this user (active or not) could enter the workspace: grants, teams or administrator. */
export async function isWorkspaceMember(db: Sql, workspaceId: number, userId: number): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM org_workspaces w JOIN org_users u ON u.id = $2 AND u.company_id = w.company_id WHERE w.id = $1 AND ${ACCESS}`, [
    workspaceId,
    userId,
  ]);
  return r.rows.length > 0;
}
