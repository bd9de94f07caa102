import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { type Row, iso } from '#shared/db/rows.js';

export interface UserGroupView {
  id: string;
  name: string;
  description: string;
  memberIds: number[];
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}

const toView = (r: Row): UserGroupView => ({
  id: String(r.group_id),
  name: String(r.name),
  description: String(r.description),
  memberIds: (r.member_ids as unknown[]).map(Number),
  createdBy: r.created_by === null || r.created_by === undefined ? null : Number(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Groups of the company by name, optionally those whose name contains `search` or that hold `memberId`. */
export async function listUserGroups(
  db: Sql,
  companyId: number,
  f: { page: number; size: number; search?: string | undefined; memberId?: number | undefined },
): Promise<Page<UserGroupView>> {
  const where = ['company_id = $1'];
  const params: unknown[] = [companyId];
  if (f.search) {
    params.push(`%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`lower(name) LIKE $${params.length}`);
  }
  if (f.memberId !== undefined) {
    params.push(f.memberId);
    where.push(`$${params.length} = ANY(member_ids)`);
  }
  const clause = where.join(' AND ');
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_user_groups WHERE ${clause} ORDER BY lower(name), group_id LIMIT ${f.size} OFFSET ${f.page * f.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_user_groups WHERE ${clause}`, params),
  ]);
  return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), f.page, f.size);
}

/** One group of the company, or null (also for another company's group). */
export async function findUserGroup(db: Sql, companyId: number, groupId: string): Promise<UserGroupView | null> {
  const r = await db.query(`SELECT * FROM tmt_user_groups WHERE group_id = $1 AND company_id = $2`, [groupId, companyId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}
