import type { CommandContext } from '#shared/es/index.js';
import { allocateId } from '#shared/ids.js';
import { roleStream } from '#events/organization/roles.js';
import type { Platform } from '../../platform.js';
import { OrgNames } from '../claims/index.js';
import { orgAggregate } from '../service.js';
import { BUILT_IN_ROLES } from './built-in.js';
import { roleDecider, type RoleCommand } from './decide.js';

/**
 * A new company's Admin, Member and Viewer roles, as events with ids of their own, so users and
 * workspace members refer to them like to any role. Their names are claimed: no custom role can
 * take them. Not waited for: the sign-up that makes them waits for its last write.
 */
export async function createBuiltInRoles(platform: Pick<Platform, 'db' | 'store' | 'readModels'>, companyId: number, context: CommandContext): Promise<Map<string, number>> {
  const names = new OrgNames(platform);
  const roles = orgAggregate(platform, roleDecider, roleStream);
  const ids = new Map<string, number>();
  for (const role of BUILT_IN_ROLES) {
    const roleId = await allocateId(platform.db, 'role');
    await names.claim(`role-name:${companyId}`, role.name, roleId, 'Role', context);
    const command: RoleCommand = { type: 'CreateRole', roleId, companyId, name: role.name, description: role.description, permissions: [...role.permissions], builtIn: true };
    await roles.run(roleId, command, context, { settle: false });
    ids.set(role.name, roleId);
  }
  return ids;
}
