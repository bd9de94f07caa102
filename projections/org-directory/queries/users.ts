// The company's users: one, a page, the filters' options, administrators, profile images, those at a domain.
import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { toUserView, userView, type UserView } from './views.js';

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

/** The company's people whose e-mail address is at one of these domains (lower case), by id. */
export async function usersAtDomains(db: Sql, companyId: number, domains: readonly string[]): Promise<number[]> {
  if (domains.length === 0) return [];
  const r = await db.query<{ id: unknown }>(
    `SELECT id FROM org_users WHERE company_id = $1 AND lower(split_part(email, '@', 2)) = ANY($2::text[]) ORDER BY id`,
    [companyId, domains],
  );
  return r.rows.map((row) => Number(row.id));
}

/** The names, e-mail addresses and companies of these users, by id (those of the ids the directory knows). */
export async function namesOfUsers(db: Sql, ids: readonly number[]): Promise<Map<number, { companyId: number; name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const r = await db.query<{ id: unknown; company_id: unknown; name: string; email: string }>(`SELECT id, company_id, name, email FROM org_users WHERE id = ANY($1::integer[])`, [[...new Set(ids)]]);
  return new Map(r.rows.map((row) => [Number(row.id), { companyId: Number(row.company_id), name: row.name, email: row.email }]));
}
