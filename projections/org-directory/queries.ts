import type { Sql } from '#shared/db/index.js';
import type { ModuleKey } from '#services/organization/modules.js';

export interface DirectoryUser {
  id: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  passwordHash: string;
  status: string;
  isAdmin: boolean;
  roles: string[];
}

export interface AccessibleWorkspace {
  id: number;
  companyId: number;
  name: string;
  archived: boolean;
  modules: ModuleKey[];
}

const userColumns = `id, company_id AS "companyId", email, username, name, password_hash AS "passwordHash",
  status, is_admin AS "isAdmin", roles`;

/** The user signing in with this username or e-mail address (case-insensitive). */
export async function findUserByLogin(db: Sql, login: string): Promise<DirectoryUser | null> {
  const r = await db.query<DirectoryUser & Record<string, unknown>>(
    `SELECT ${userColumns} FROM org_users WHERE lower(email) = lower($1) OR lower(username) = lower($1) LIMIT 1`,
    [login],
  );
  return r.rows[0] ?? null;
}

export async function findUserById(db: Sql, id: number): Promise<DirectoryUser | null> {
  const r = await db.query<DirectoryUser & Record<string, unknown>>(`SELECT ${userColumns} FROM org_users WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}

export async function usernameTaken(db: Sql, username: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM org_users WHERE lower(username) = lower($1)', [username]);
  return r.rows.length > 0;
}

/**
 * The workspace if this user of this company may enter it: company administrators enter every
 * workspace of their company, others those granted to them.
 */
export async function findAccessibleWorkspace(
  db: Sql,
  user: { userId: number; companyId: number },
  workspaceId: number,
): Promise<AccessibleWorkspace | null> {
  const r = await db.query<AccessibleWorkspace & Record<string, unknown>>(
    `SELECT w.id, w.company_id AS "companyId", w.name, w.archived, w.modules
       FROM org_workspaces w
       JOIN org_users u ON u.id = $2 AND u.company_id = w.company_id AND u.status = 'active'
      WHERE w.id = $1 AND w.company_id = $3
        AND (u.is_admin OR EXISTS (SELECT 1 FROM org_workspace_user_access a WHERE a.workspace_id = w.id AND a.user_id = u.id))`,
    [workspaceId, user.userId, user.companyId],
  );
  return r.rows[0] ?? null;
}

/** The first workspace the user may enter: the one a fresh token is issued for. */
export async function defaultWorkspaceId(db: Sql, user: { userId: number; companyId: number }): Promise<number | null> {
  const r = await db.query<{ id: number }>(
    `SELECT w.id FROM org_workspaces w
       JOIN org_users u ON u.id = $1 AND u.company_id = w.company_id
      WHERE w.company_id = $2 AND NOT w.archived
        AND (u.is_admin OR EXISTS (SELECT 1 FROM org_workspace_user_access a WHERE a.workspace_id = w.id AND a.user_id = u.id))
      ORDER BY w.id LIMIT 1`,
    [user.userId, user.companyId],
  );
  return r.rows[0]?.id ?? null;
}

export async function companyExists(db: Sql): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM org_companies LIMIT 1');
  return r.rows.length > 0;
}
