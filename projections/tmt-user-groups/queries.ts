import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { type Row, iso, numOrNull } from '#shared/db/index.js';
import { Conditions, containing, oneOrNull, readPage } from '../queries.js';

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
  createdBy: numOrNull(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Groups of the company by name, optionally those whose name contains `search` or that hold `memberId`. */
export async function listUserGroups(
  db: Sql,
  companyId: number,
  f: { page: number; size: number; search?: string | undefined; memberId?: number | undefined },
): Promise<Page<UserGroupView>> {
  const where = Conditions.of(['company_id = $1'], [companyId]);
  if (f.search) where.add((n) => `lower(name) LIKE ${n}`, containing(f.search.toLowerCase()));
  if (f.memberId !== undefined) where.add((n) => `${n} = ANY(member_ids)`, f.memberId);
  return readPage(db, { from: 'tmt_user_groups', where, orderBy: 'lower(name), group_id' }, f, toView);
}

/** One group of the company, or null (also for another company's group). */
export async function findUserGroup(db: Sql, companyId: number, groupId: string): Promise<UserGroupView | null> {
  return oneOrNull(db, `SELECT * FROM tmt_user_groups WHERE group_id = $1 AND company_id = $2`, [groupId, companyId], toView);
}
