import type { Sql } from '#shared/db/index.js';
import type { ActiveWorkspace, Principal } from '#shared/http/principal.js';
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { BUILT_IN_ROLES } from './built-in.js';

const ALL: ReadonlySet<string> = new Set(ALL_PERMISSION_KEYS);
const NONE: ReadonlySet<string> = new Set();
const byRole = new Map(BUILT_IN_ROLES.map((r) => [r.name, r.permissions]));

/** The caller's keys: every key for a company administrator, else the union of their roles' keys. */
export async function permissionsOf(db: Sql, principal: Principal, _workspace: ActiveWorkspace | null): Promise<ReadonlySet<string>> {
  const r = await db.query<{ is_admin: boolean; roles: string[] }>(
    `SELECT is_admin, roles FROM org_users WHERE id = $1 AND company_id = $2 AND status = 'active'`,
    [principal.userId, principal.companyId],
  );
  const user = r.rows[0];
  if (!user) return NONE;
  if (user.is_admin) return ALL;
  return new Set(user.roles.flatMap((name) => byRole.get(name) ?? []));
}
