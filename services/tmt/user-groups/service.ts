import { randomUUID } from 'node:crypto';
import type { UserGroupView } from '#projections/tmt-user-groups/index.js';
import { userGroupStream } from '#events/tmt/user-groups.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { userGroupDecider } from './decide.js';
import { TmtNames, type TmtNameScope } from './name-claim.js';

const scopeOf = (companyId: number): TmtNameScope => `user-group-name:${companyId}`;

/**
 * The write side of user groups: each group an aggregate answering once `tmt-user-groups` holds the
 * write, its name claimed in the company first (unique, case-insensitive) and released when it goes.
 */
export class UserGroupWrites {
  private readonly names: TmtNames;
  private readonly groups;

  constructor(platform: Platform) {
    this.names = new TmtNames(platform.store);
    this.groups = aggregate(platform, { decider: userGroupDecider, stream: userGroupStream, readModels: ['tmt-user-groups'] });
  }

  /** A new group of the company: its name claimed, then the group; the claim given back when the group fails. */
  async create(companyId: number, input: { name: string; description: string; memberIds: number[] }, context: CommandContext): Promise<string> {
    const groupId = randomUUID();
    await this.names.claim(scopeOf(companyId), input.name, groupId, 'User group', context);
    try {
      await this.groups.run(groupId, { type: 'CreateUserGroup', groupId, companyId, ...input }, context);
    } catch (err) {
      await this.names.release(scopeOf(companyId), input.name, groupId, context);
      throw err;
    }
    return groupId;
  }

  /** Renames (moving the name's claim), describes, or replaces the members; absent fields stay. */
  async update(group: UserGroupView, companyId: number, changes: { name?: string; description?: string; memberIds?: number[] }, context: CommandContext): Promise<void> {
    await this.names.renamed(scopeOf(companyId), 'User group', group.id, group.name, changes.name, context, () =>
      this.groups.run(group.id, { type: 'UpdateUserGroup', companyId, ...changes }, context),
    );
  }

  async delete(group: UserGroupView, companyId: number, context: CommandContext): Promise<void> {
    await this.groups.run(group.id, { type: 'DeleteUserGroup', companyId }, context);
    await this.names.release(scopeOf(companyId), group.name, group.id, context);
  }

  async addMember(groupId: string, companyId: number, userId: number, context: CommandContext): Promise<void> {
    await this.groups.run(groupId, { type: 'AddUserGroupMember', companyId, userId }, context);
  }

  async removeMember(groupId: string, companyId: number, userId: number, context: CommandContext): Promise<void> {
    await this.groups.run(groupId, { type: 'RemoveUserGroupMember', companyId, userId }, context);
  }
}
