import { rolesByIds, type RoleRow } from '#projections/org-directory/index.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import { effectivePermissions } from './built-in.js';

/** The company's roles with these ids; 404 naming the first id that is not one of them. */
export async function requireRoles(db: Sql, companyId: number, ids: readonly number[]): Promise<RoleRow[]> {
  const unique = [...new Set(ids)];
  const roles = await rolesByIds(db, companyId, unique);
  const missing = unique.find((id) => !roles.some((r) => r.id === id));
  if (missing !== undefined) throw new AppError('NOT_FOUND', `Role ${missing} not found`);
  return roles;
}

/**
 * Nobody hands out keys they do not hold themselves: a holder of USER_MANAGE cannot make anyone, or
 * themselves, an administrator in disguise by assigning a role with more keys than their own.
 */
export function assertMayGrant(callerKeys: ReadonlySet<string>, keys: Iterable<string>): void {
  const lacking = [...keys].filter((k) => !callerKeys.has(k));
  if (lacking.length > 0) throw new AppError('FORBIDDEN', `You cannot grant permissions you do not hold: ${lacking.sort().join(', ')}`);
}

/** `assertMayGrant` for the keys of roles. */
export function assertMayGrantRoles(callerKeys: ReadonlySet<string>, roles: readonly RoleRow[]): void {
  assertMayGrant(callerKeys, roles.flatMap((r) => [...effectivePermissions(r)]));
}
