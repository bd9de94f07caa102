import { defineDecider } from '#shared/es/index.js';
import { activeIn, changedFields, changesMembers, whileActive, withMember, withoutMember } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { UserGroupEvent } from '#events/tmt/user-groups.js';

type Created = Extract<UserGroupEvent, { type: 'UserGroupCreated' }>['payload'];

export type UserGroupCommand =
  | ({ type: 'CreateUserGroup' } & Created)
  | { type: 'UpdateUserGroup'; companyId: number; name?: string; description?: string; memberIds?: number[] }
  | { type: 'AddUserGroupMember'; companyId: number; userId: number }
  | { type: 'RemoveUserGroupMember'; companyId: number; userId: number }
  | { type: 'DeleteUserGroup'; companyId: number };

export type UserGroupState =
  | { status: 'none' }
  | { status: 'active'; groupId: string; companyId: number; name: string; description: string; memberIds: number[] }
  | { status: 'deleted'; groupId: string };

const live = (state: UserGroupState, companyId: number) => activeIn(state, companyId, 'User group');

const unique = (ids: readonly number[]): number[] => [...new Set(ids)];

/** Adds or removes one member of a user group. */
const membership =
  (change: 'add' | 'remove') =>
  (command: { companyId: number; userId: number }, state: UserGroupState): UserGroupEvent[] => {
    const group = live(state, command.companyId);
    if (!changesMembers(group.memberIds, command.userId, change, 'The user is not a member of this group')) return [];
    return [{ type: change === 'add' ? 'UserGroupMemberAdded' : 'UserGroupMemberRemoved', payload: { groupId: group.groupId, userId: command.userId } }];
  };

/** A user group: created once, renamed, its members replaced or changed one by one, deleted once. */
export const userGroupDecider = defineDecider<UserGroupCommand, UserGroupEvent, UserGroupState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    UserGroupCreated: (_state, event) => ({ status: 'active', ...event.payload, memberIds: [...event.payload.memberIds] }),
    UserGroupUpdated: whileActive((state, { payload: { groupId: _id, ...changes } }) => ({ ...state, ...changes })),
    UserGroupMemberAdded: whileActive((state, event) => withMember(state, event)),
    UserGroupMemberRemoved: whileActive((state, event) => withoutMember(state, event)),
    UserGroupDeleted: whileActive((state) => ({ status: 'deleted', groupId: state.groupId })),
  },
  decide: {
    CreateUserGroup: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'User group already exists');
      const { type: _type, ...payload } = command;
      return [{ type: 'UserGroupCreated', payload: { ...payload, memberIds: unique(payload.memberIds) } }];
    },
    UpdateUserGroup: (command, state) => {
      const group = live(state, command.companyId);
      const events: UserGroupEvent[] = [];
      const changes = changedFields(group, command, ['name', 'description']);
      if (Object.keys(changes).length > 0) events.push({ type: 'UserGroupUpdated', payload: { groupId: group.groupId, ...changes } });
      if (command.memberIds !== undefined) {
        const wanted = unique(command.memberIds);
        for (const userId of group.memberIds) {
          if (!wanted.includes(userId)) events.push({ type: 'UserGroupMemberRemoved', payload: { groupId: group.groupId, userId } });
        }
        for (const userId of wanted) {
          if (!group.memberIds.includes(userId)) events.push({ type: 'UserGroupMemberAdded', payload: { groupId: group.groupId, userId } });
        }
      }
      return events;
    },
    AddUserGroupMember: membership('add'),
    RemoveUserGroupMember: membership('remove'),
    DeleteUserGroup: (command, state) => {
      const group = live(state, command.companyId);
      return [{ type: 'UserGroupDeleted', payload: { groupId: group.groupId, name: group.name } }];
    },
  },
});
