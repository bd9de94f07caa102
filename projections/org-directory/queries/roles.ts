// The company's roles, who holds them, and a user's roles in a workspace.
import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { listUsers } from './users.js';
import type { RoleRow, UserView } from './views.js';

const roleColumns = `id, company_id AS "companyId", name, description, permissions, built_in AS "builtIn"`;

export async function listRoles(db: Sql, companyId: number): Promise<RoleRow[]> {
  return (await db.query<RoleRow & Record<string, unknown>>(`SELECT ${roleColumns} FROM org_roles WHERE company_id = $1 ORDER BY id`, [companyId])).rows;
}

export async function getRole(db: Sql, companyId: number, roleId: number): Promise<RoleRow | null> {
  const r = await db.query<RoleRow & Record<string, unknown>>(`SELECT ${roleColumns} FROM org_roles WHERE id = $1 AND company_id = $2`, [roleId, companyId]);
  return r.rows[0] ?? null;
}

/** The roles of the company among `ids`; callers compare lengths to find unknown ones. */
export async function rolesByIds(db: Sql, companyId: number, ids: readonly number[]): Promise<RoleRow[]> {
  if (ids.length === 0) return [];
  return (
    await db.query<RoleRow & Record<string, unknown>>(`SELECT ${roleColumns} FROM org_roles WHERE company_id = $1 AND id = ANY($2::int[]) ORDER BY id`, [
      companyId,
      [...ids],
    ])
  ).rows;
}

/** Users holding a role company-wide, paged. */
export async function usersWithRole(db: Sql, companyId: number, roleId: number, page: number, size: number): Promise<Page<UserView>> {
  return listUsers(db, companyId, { roleId, sortBy: 'id', sortDir: 'asc', page, size });
}

/** The company roles and, in `workspaceId`, the member roles of a user. */
export async function rolesOfUser(
  db: Sql,
  user: { userId: number; companyId: number },
  workspaceId: number | null,
): Promise<{ isAdmin: boolean; companyRoles: RoleRow[]; workspaceRoles: RoleRow[] } | null> {
  const u = await db.query<{ is_admin: boolean; role_ids: number[] }>(
    `SELECT is_admin, role_ids FROM org_users WHERE id = $1 AND company_id = $2 AND status = 'active'`,
    [user.userId, user.companyId],
  );
  const row = u.rows[0];
  if (!row) return null;
  const companyRoles = await rolesByIds(db, user.companyId, row.role_ids);
  const workspaceRoles =
    workspaceId === null
      ? []
      : (
          await db.query<RoleRow & Record<string, unknown>>(
            `SELECT ${roleColumns} FROM org_roles WHERE company_id = $3 AND id IN
               (SELECT role_id FROM org_workspace_member_roles WHERE workspace_id = $1 AND user_id = $2) ORDER BY id`,
            [workspaceId, user.userId, user.companyId],
          )
        ).rows;
  return { isAdmin: row.is_admin, companyRoles, workspaceRoles };
}
