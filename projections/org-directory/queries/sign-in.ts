// What signing in and entering a workspace ask of the directory: a user by login or id, the workspace they may enter.
import type { Sql } from '#shared/db/index.js';
import { ACCESS, type AccessibleWorkspace, type DirectoryUser } from './views.js';

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

export async function usernameTaken(db: Sql, username: string, exceptUserId?: number): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM org_users WHERE lower(username) = lower($1) AND id <> $2', [username, exceptUserId ?? 0]);
  return r.rows.length > 0;
}

/** The workspace if this user of this company may enter it (archived ones too: they stay readable). */
export async function findAccessibleWorkspace(
  db: Sql,
  user: { userId: number; companyId: number },
  workspaceId: number,
): Promise<AccessibleWorkspace | null> {
  const r = await db.query<AccessibleWorkspace & Record<string, unknown>>(
    `SELECT w.id, w.company_id AS "companyId", w.name, w.archived, w.modules
       FROM org_workspaces w
       JOIN org_users u ON u.id = $2 AND u.company_id = w.company_id AND u.status = 'active'
      WHERE w.id = $1 AND w.company_id = $3 AND ${ACCESS}`,
    [workspaceId, user.userId, user.companyId],
  );
  return r.rows[0] ?? null;
}

/** The first workspace the user may enter and write to: the one a fresh token is issued for. */
export async function defaultWorkspaceId(db: Sql, user: { userId: number; companyId: number }): Promise<number | null> {
  const r = await db.query<{ id: number }>(
    `SELECT w.id FROM org_workspaces w
       JOIN org_users u ON u.id = $1 AND u.company_id = w.company_id AND u.status = 'active'
      WHERE w.company_id = $2 AND NOT w.archived AND ${ACCESS}
      ORDER BY w.id LIMIT 1`,
    [user.userId, user.companyId],
  );
  return r.rows[0]?.id ?? null;
}

export async function companyExists(db: Sql): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM org_companies LIMIT 1');
  return r.rows.length > 0;
}

/** The first company created on this installation, or null while there is none (the in-process device host's). */
export async function firstCompanyId(db: Sql): Promise<number | null> {
  const r = await db.query<{ id: unknown }>('SELECT min(id) AS id FROM org_companies');
  const id = r.rows[0]?.id;
  return id === null || id === undefined ? null : Number(id);
}
