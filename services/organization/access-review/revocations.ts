// How each kind of grant a review lists is revoked: by the command the ordinary route of that grant runs
// (so the usual events, read models and audit entries follow), with the permission key that route asks of
// its caller. A review's completion asks the same keys before it revokes anything.
import type { AccessReviewItem, AccessReviewItemKind } from '#events/organization/access-reviews.js';
import { getUser } from '#projections/org-directory/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { PermissionKey } from '#shared/permissions.js';
import type { Platform } from '../../platform.js';
import { TeamService } from '../teams/index.js';
import { replaceRoles, setAdmin } from '../users/index.js';
import { WorkspaceWrites } from '../workspaces/index.js';

/** Where the key a revocation needs is held: in the reviewed workspace (its own grants), or in the caller's active workspace (people and teams). */
export type KeyScope = 'workspace' | 'active';

export interface Revocation {
  key: PermissionKey;
  scope: KeyScope;
  /** The ordinary route it does what: for messages. */
  route: string;
  revoke(item: AccessReviewItem, where: { companyId: number; workspaceId: number }, ctx: CommandContext): Promise<void>;
}

/** The write sides the revocations go through: the same the grants' own routes call. */
export function revocations(platform: Platform): Record<AccessReviewItemKind, Revocation> {
  const workspaces = new WorkspaceWrites(platform);
  const teams = new TeamService(platform);
  const ws = (where: { companyId: number; workspaceId: number }) => ({ id: where.workspaceId, companyId: where.companyId });
  /** The person of a grant, as the directory has them now; 404 once they are gone. */
  const person = async (companyId: number, userId: number | undefined) => {
    const user = userId === undefined ? null : await getUser(platform.db, companyId, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return user;
  };
  return {
    'workspace-user': {
      key: 'WORKSPACE_MANAGE',
      scope: 'workspace',
      route: 'DELETE /workspaces/{id}/access/users/{userId}',
      revoke: (item, where, ctx) => workspaces.revokeAccess(ws(where), { kind: 'user', userId: item.userId! }, ctx),
    },
    'workspace-team': {
      key: 'WORKSPACE_MANAGE',
      scope: 'workspace',
      route: 'DELETE /workspaces/{id}/access/teams/{teamId}',
      revoke: (item, where, ctx) => workspaces.revokeAccess(ws(where), { kind: 'team', teamId: item.teamId! }, ctx),
    },
    'workspace-role': {
      key: 'WORKSPACE_MANAGE',
      scope: 'workspace',
      route: 'DELETE /workspaces/{id}/members/{userId}/roles/{roleId}',
      revoke: (item, where, ctx) => workspaces.removeMemberRole(ws(where), item.userId!, item.roleId!, ctx),
    },
    'team-member': {
      key: 'TEAM_MANAGE',
      scope: 'active',
      route: 'DELETE /teams/{id}/members/{userId}',
      revoke: async (item, { companyId }, ctx) => {
        const team = await teams.teamOr404(companyId, item.teamId!);
        await teams.changeMembers(team, companyId, { remove: [item.userId!] }, ctx);
      },
    },
    'company-role': {
      key: 'USER_MANAGE',
      scope: 'active',
      route: 'PUT /users/{id}/roles',
      revoke: async (item, { companyId }, ctx) => {
        const user = await person(companyId, item.userId);
        await replaceRoles(platform, ctx, user, user.roleIds.filter((id) => id !== item.roleId));
      },
    },
    admin: {
      key: 'USER_ADMIN_MANAGE',
      scope: 'active',
      route: 'PATCH /users/{id}/admin',
      revoke: async (item, { companyId }, ctx) => setAdmin(platform, ctx, await person(companyId, item.userId), false),
    },
  };
}
