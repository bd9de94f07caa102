import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { UserGroupEvent } from '#events/tmt/user-groups.js';
import { unreachable } from '#shared/unreachable.js';

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

function live(state: UserGroupState, companyId: number) {
  if (state.status !== 'active' || state.companyId !== companyId) throw new AppError('NOT_FOUND', 'User group not found');
  return state;
}

const unique = (ids: readonly number[]): number[] => [...new Set(ids)];

/** A user group: created once, renamed, its members replaced or changed one by one, deleted once. */
export const userGroupDecider: Decider<UserGroupCommand, UserGroupEvent, UserGroupState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'UserGroupCreated') return { status: 'active', ...event.payload, memberIds: [...event.payload.memberIds] };
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'UserGroupUpdated': {
        const { groupId: _id, ...changes } = event.payload;
        return { ...state, ...changes };
      }
      case 'UserGroupMemberAdded':
        return { ...state, memberIds: [...state.memberIds, event.payload.userId] };
      case 'UserGroupMemberRemoved':
        return { ...state, memberIds: state.memberIds.filter((id) => id !== event.payload.userId) };
      case 'UserGroupDeleted':
        return { status: 'deleted', groupId: state.groupId };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateUserGroup': {
        if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'User group already exists');
        const { type: _type, ...payload } = command;
        return [{ type: 'UserGroupCreated', payload: { ...payload, memberIds: unique(payload.memberIds) } }];
      }
      case 'UpdateUserGroup': {
        const group = live(state, command.companyId);
        const events: UserGroupEvent[] = [];
        const changes: { name?: string; description?: string } = {};
        if (command.name !== undefined && command.name !== group.name) changes.name = command.name;
        if (command.description !== undefined && command.description !== group.description) changes.description = command.description;
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
      }
      case 'AddUserGroupMember': {
        const group = live(state, command.companyId);
        if (group.memberIds.includes(command.userId)) return [];
        return [{ type: 'UserGroupMemberAdded', payload: { groupId: group.groupId, userId: command.userId } }];
      }
      case 'RemoveUserGroupMember': {
        const group = live(state, command.companyId);
        if (!group.memberIds.includes(command.userId)) throw new AppError('NOT_FOUND', 'The user is not a member of this group');
        return [{ type: 'UserGroupMemberRemoved', payload: { groupId: group.groupId, userId: command.userId } }];
      }
      case 'DeleteUserGroup': {
        const group = live(state, command.companyId);
        return [{ type: 'UserGroupDeleted', payload: { groupId: group.groupId, name: group.name } }];
      }
      default:
        return unreachable(command);
    }
  },
};
