import { toPage, type Page } from '#shared/paging.js';
import type { Sql } from '#shared/db/index.js';
import type { ModuleKey } from '#events/organization/modules.js';
import { iso, isoOrNull } from '#shared/db/rows.js';

/** A user as sign-in reads it (with the password hash: never sent to a client). */
export interface DirectoryUser {
  id: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  /** Null until an invited user accepts the invitation. */
  passwordHash: string | null;
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

/** A user as clients see it. */
export interface UserView {
  id: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  title: string | null;
  phone: string | null;
  status: 'passive' | 'active' | 'deactivated';
  isAdmin: boolean;
  roleIds: number[];
  roles: { id: number; name: string }[];
  hasProfileImage: boolean;
  createdAt: string;
  activatedAt: string | null;
  lastSignInAt: string | null;
}

export interface RoleRow {
  id: number;
  companyId: number;
  name: string;
  description: string;
  permissions: string[];
  builtIn: boolean;
}

export interface TeamView {
  id: number;
  name: string;
  description: string;
  memberIds: number[];
}

export interface WorkspaceView {
  id: number;
  companyId: number;
  name: string;
  description: string;
  settings: Record<string, unknown>;
  archived: boolean;
  modules: ModuleKey[];
  createdAt: string;
}




/**
 * Whether user `u` may enter workspace `w`: a company administrator enters every workspace of the
 * company; others need a grant to them or to one of their teams. Deleted workspaces have no row.
 */
const ACCESS = `(u.is_admin
  OR EXISTS (SELECT 1 FROM org_workspace_user_access a WHERE a.workspace_id = w.id AND a.user_id = u.id)
  OR EXISTS (SELECT 1 FROM org_workspace_team_access t JOIN org_team_members m ON m.team_id = t.team_id
              WHERE t.workspace_id = w.id AND m.user_id = u.id))`;

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

// ---------------------------------------------------------------------------------------------- users

const userView = `u.id, u.company_id AS "companyId", u.email, u.username, u.name, u.title, u.phone, u.status,
  u.is_admin AS "isAdmin", u.role_ids AS "roleIds", u.image_key IS NOT NULL AS "hasProfileImage",
  u.created_at AS "createdAt", u.activated_at AS "activatedAt", u.last_sign_in_at AS "lastSignInAt",
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.id)
              FROM org_roles r WHERE r.id = ANY(u.role_ids)), '[]'::json) AS roles`;

function toUserView(row: Record<string, unknown>): UserView {
  const roles = typeof row.roles === 'string' ? (JSON.parse(row.roles) as UserView['roles']) : (row.roles as UserView['roles']);
  return {
    ...(row as unknown as UserView),
    roles,
    createdAt: iso(row.createdAt),
    activatedAt: isoOrNull(row.activatedAt),
    lastSignInAt: isoOrNull(row.lastSignInAt),
  };
}

/** One user of the company, or null (also for another company's user). */
export async function getUser(db: Sql, companyId: number, userId: number): Promise<UserView | null> {
  const r = await db.query(`SELECT ${userView} FROM org_users u WHERE u.id = $1 AND u.company_id = $2`, [userId, companyId]);
  return r.rows[0] ? toUserView(r.rows[0]) : null;
}

export async function getUserByEmail(db: Sql, companyId: number, email: string): Promise<UserView | null> {
  const r = await db.query(`SELECT ${userView} FROM org_users u WHERE lower(u.email) = lower($1) AND u.company_id = $2`, [email.trim(), companyId]);
  return r.rows[0] ? toUserView(r.rows[0]) : null;
}

/** The active administrators of a company, by name: whom a user asks for access. */
export async function companyAdministrators(db: Sql, companyId: number): Promise<{ id: number; name: string; email: string }[]> {
  const r = await db.query(
    `SELECT id, name, email FROM org_users WHERE company_id = $1 AND is_admin AND status = 'active' ORDER BY lower(name), id LIMIT 20`,
    [companyId],
  );
  return r.rows.map((row) => ({ id: Number(row.id), name: String(row.name), email: String(row.email) }));
}

export interface UserFilter {
  search?: string;
  status?: string;
  roleId?: number;
  teamId?: number;
  isAdmin?: boolean;
  sortBy: 'id' | 'name' | 'email' | 'username' | 'createdAt' | 'lastSignInAt';
  sortDir: 'asc' | 'desc';
  page: number;
  size: number;
}

const USER_SORT: Record<UserFilter['sortBy'], string> = {
  id: 'u.id',
  name: 'lower(u.name)',
  email: 'lower(u.email)',
  username: 'lower(u.username)',
  createdAt: 'u.created_at',
  lastSignInAt: 'u.last_sign_in_at',
};

/** The company's users, filtered and paged. */
export async function listUsers(db: Sql, companyId: number, f: UserFilter): Promise<Page<UserView>> {
  const where = ['u.company_id = $1'];
  const values: unknown[] = [companyId];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (f.search) {
    add((n) => `(u.name ILIKE ${n} OR u.email ILIKE ${n} OR u.username ILIKE ${n})`, `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (f.status) add((n) => `u.status = ${n}`, f.status);
  if (f.roleId !== undefined) add((n) => `${n}::int = ANY(u.role_ids)`, f.roleId);
  if (f.teamId !== undefined) add((n) => `EXISTS (SELECT 1 FROM org_team_members m WHERE m.user_id = u.id AND m.team_id = ${n})`, f.teamId);
  if (f.isAdmin !== undefined) add((n) => `u.is_admin = ${n}`, f.isAdmin);
  const whereSql = where.join(' AND ');
  const total = Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM org_users u WHERE ${whereSql}`, values)).rows[0]?.n ?? 0);
  const order = `${USER_SORT[f.sortBy]} ${f.sortDir === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS LAST'}, u.id ${f.sortDir === 'desc' ? 'DESC' : 'ASC'}`;
  const r = await db.query(`SELECT ${userView} FROM org_users u WHERE ${whereSql} ORDER BY ${order} LIMIT ${f.size} OFFSET ${f.page * f.size}`, values);
  return toPage(r.rows.map(toUserView), total, f.page, f.size);
}

/** What the user list can be filtered by, with counts. */
export async function userFilterOptions(db: Sql, companyId: number) {
  const statuses = await db.query<{ value: string; count: unknown }>(
    'SELECT status AS value, count(*) AS count FROM org_users WHERE company_id = $1 GROUP BY status ORDER BY status',
    [companyId],
  );
  const roles = await db.query<{ id: number; name: string; count: unknown }>(
    `SELECT r.id, r.name, (SELECT count(*) FROM org_users u WHERE u.company_id = $1 AND r.id = ANY(u.role_ids)) AS count
       FROM org_roles r WHERE r.company_id = $1 ORDER BY r.id`,
    [companyId],
  );
  const teams = await db.query<{ id: number; name: string; count: unknown }>(
    `SELECT t.id, t.name, (SELECT count(*) FROM org_team_members m WHERE m.team_id = t.id) AS count
       FROM org_teams t WHERE t.company_id = $1 ORDER BY t.id`,
    [companyId],
  );
  const admins = await db.query<{ value: boolean; count: unknown }>(
    'SELECT is_admin AS value, count(*) AS count FROM org_users WHERE company_id = $1 GROUP BY is_admin ORDER BY is_admin',
    [companyId],
  );
  return {
    statuses: statuses.rows.map((r) => ({ value: r.value, count: Number(r.count) })),
    roles: roles.rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.count) })),
    teams: teams.rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.count) })),
    isAdmin: admins.rows.map((r) => ({ value: r.value, count: Number(r.count) })),
  };
}

/** Where a user's profile image is stored, if they have one. */
export async function userImage(db: Sql, companyId: number, userId: number): Promise<{ key: string; contentType: string } | null> {
  const r = await db.query<{ key: string | null; contentType: string | null }>(
    'SELECT image_key AS key, image_content_type AS "contentType" FROM org_users WHERE id = $1 AND company_id = $2',
    [userId, companyId],
  );
  const row = r.rows[0];
  return row?.key && row.contentType ? { key: row.key, contentType: row.contentType } : null;
}

// ---------------------------------------------------------------------------------------------- roles

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

// ---------------------------------------------------------------------------------------------- teams

const teamView = `t.id, t.name, t.description,
  ARRAY(SELECT m.user_id FROM org_team_members m WHERE m.team_id = t.id ORDER BY m.user_id) AS "memberIds"`;

export async function listTeams(db: Sql, companyId: number): Promise<TeamView[]> {
  return (await db.query<TeamView & Record<string, unknown>>(`SELECT ${teamView} FROM org_teams t WHERE t.company_id = $1 ORDER BY t.id`, [companyId])).rows;
}

export async function getTeam(db: Sql, companyId: number, teamId: number): Promise<TeamView | null> {
  const r = await db.query<TeamView & Record<string, unknown>>(`SELECT ${teamView} FROM org_teams t WHERE t.id = $1 AND t.company_id = $2`, [teamId, companyId]);
  return r.rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------- workspaces

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

/** The company's people whose e-mail address is at one of these domains (lower case), by id. */
export async function usersAtDomains(db: Sql, companyId: number, domains: readonly string[]): Promise<number[]> {
  if (domains.length === 0) return [];
  const r = await db.query<{ id: unknown }>(
    `SELECT id FROM org_users WHERE company_id = $1 AND lower(split_part(email, '@', 2)) = ANY($2::text[]) ORDER BY id`,
    [companyId, domains],
  );
  return r.rows.map((row) => Number(row.id));
}
