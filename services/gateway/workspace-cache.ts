import { cachedByVersion, type Cached, type VersionCacheOptions } from '#shared/cached-by-version.js';
import type { ActiveWorkspace, PermissionResolver } from '#shared/http/principal.js';

type Resolve = (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>;

/** Who may enter which workspace, cached (see `cachedByVersion`). */
export function cachedWorkspaceResolver(resolve: Resolve, options: VersionCacheOptions): Cached<Parameters<Resolve>, ActiveWorkspace | null> {
  return cachedByVersion(resolve, (user, workspaceId) => `${user.companyId}:${user.userId}:${workspaceId}`, options);
}

/**
 * The caller's permission keys in a workspace, cached like workspace access: they depend only on the
 * user, the company and the workspace (roles, grants, membership), all in the directory read model.
 */
export function cachedPermissionResolver(resolve: PermissionResolver, options: VersionCacheOptions): PermissionResolver {
  return cachedByVersion(resolve, (principal, workspace) => `${principal.companyId}:${principal.userId}:${workspace?.id ?? '-'}:${workspace?.companyId ?? '-'}`, options);
}
