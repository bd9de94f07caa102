import type { RoleRow } from '#projections/org-directory/index.js';
import { roleStream } from '#events/organization/roles.js';
import type { CommandContext } from '#shared/es/index.js';
import { allocateId } from '#shared/ids.js';
import type { PermissionKey } from '#shared/permissions.js';
import type { Platform } from '../../platform.js';
import { OrgNames } from '../claims/index.js';
import { orgAggregate } from '../service.js';
import { roleDecider } from './decide.js';

const nameScope = (companyId: number) => `role-name:${companyId}` as const;

/**
 * The write side of custom roles (permission and grant checks by the caller): each role's name claimed
 * in its company first (unique, case-insensitive), moved when it is renamed, released when it goes.
 */
export class RoleWrites {
  private readonly names: OrgNames;
  private readonly roles;

  constructor(private readonly platform: Platform) {
    this.names = new OrgNames(platform);
    this.roles = orgAggregate(platform, roleDecider, roleStream);
  }

  async create(companyId: number, input: { name: string; description: string; permissions: PermissionKey[] }, ctx: CommandContext): Promise<number> {
    const roleId = await allocateId(this.platform.db, 'role');
    await this.names.claim(nameScope(companyId), input.name, roleId, 'Role', ctx);
    await this.roles.run(roleId, { type: 'CreateRole', roleId, companyId, ...input, builtIn: false }, ctx);
    return roleId;
  }

  async update(role: RoleRow, companyId: number, changes: { name?: string; description?: string; permissions?: PermissionKey[] }, ctx: CommandContext): Promise<void> {
    const result = await this.names.renamed(nameScope(companyId), 'Role', role.id, role.name, changes.name, ctx, () =>
      this.roles.run(role.id, { type: 'UpdateRole', companyId, ...changes }, ctx, { settle: false }),
    );
    await this.roles.settle(result);
  }

  async delete(role: RoleRow, companyId: number, ctx: CommandContext): Promise<void> {
    const result = await this.roles.run(role.id, { type: 'DeleteRole', companyId }, ctx, { settle: false });
    await this.names.release(nameScope(companyId), role.name, role.id, ctx);
    await this.roles.settle(result);
  }
}
