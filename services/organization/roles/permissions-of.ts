import { isWorkspaceMember, rolesOfUser } from '#projections/org-directory/index.js';
import type { Sql } from '#shared/db/index.js';
import type { ActiveWorkspace, Principal } from '#shared/http/principal.js';
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { effectivePermissions } from './built-in.js';

const ALL: ReadonlySet<string> = new Set(ALL_PERMISSION_KEYS);
const NONE: ReadonlySet<string> = new Set();

/**
 * The caller's keys in a workspace: every key for a company administrator; otherwise the union of
 * the keys of their company roles (built-in or custom) and of their member roles in that workspace,
 * the latter only while they may still enter it.
 */
export async function permissionsOf(
  db: Sql,
  principal: Pick<Principal, 'userId' | 'companyId'>,
  workspace: Pick<ActiveWorkspace, 'id' | 'companyId'> | null,
): Promise<ReadonlySet<string>> {
  const inCompany = workspace !== null && workspace.companyId === principal.companyId;
  const roles = await rolesOfUser(db, principal, inCompany ? workspace.id : null);
  if (!roles) return NONE;
  if (roles.isAdmin) return ALL;
  const keys = new Set<string>();
  for (const role of roles.companyRoles) for (const k of effectivePermissions(role)) keys.add(k);
  if (inCompany && roles.workspaceRoles.length > 0 && (await isWorkspaceMember(db, workspace.id, principal.userId))) {
    for (const role of roles.workspaceRoles) for (const k of effectivePermissions(role)) keys.add(k);
  }
  return keys;
}
