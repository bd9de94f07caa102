import type { Sql } from '#shared/db/index.js';
import type { CommandContext } from '#shared/es/decider.js';
import { allocateId } from '#shared/ids.js';
import type { OrgWriter } from '../service.js';
import { BUILT_IN_ROLES } from './built-in.js';
import { roleDecider } from './decide.js';
import { roleStream } from '#events/organization/roles.js';

/**
 * A new company's Admin, Member and Viewer roles, as events with ids of their own, so users and
 * workspace members refer to them like to any role. Their names are claimed: no custom role can
 * take them.
 */
export async function createBuiltInRoles(db: Sql, writer: OrgWriter, companyId: number, context: CommandContext): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const role of BUILT_IN_ROLES) {
    const roleId = await allocateId(db, 'role');
    await writer.claimName(`role-name:${companyId}`, role.name, roleId, 'Role', context);
    await writer.run(
      roleStream(roleId),
      roleDecider,
      {
        type: 'CreateRole',
        roleId,
        companyId,
        name: role.name,
        description: role.description,
        permissions: [...role.permissions],
        builtIn: true,
      },
      context,
    );
    ids.set(role.name, roleId);
  }
  return ids;
}
