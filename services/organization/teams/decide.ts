import { AppError } from '#shared/errors.js';
import { type Decider, firstEvent } from '#shared/es/decider.js';
import type { TeamEvent } from '#events/organization/teams.js';
import { unreachable } from '#shared/unreachable.js';

type Created = Extract<TeamEvent, { type: 'TeamCreated' }>['payload'];

export type TeamCommand =
  | ({ type: 'CreateTeam' } & Created)
  | { type: 'UpdateTeam'; companyId: number; name?: string; description?: string }
  | { type: 'DeleteTeam'; companyId: number }
  | { type: 'AddMember'; companyId: number; userId: number }
  | { type: 'RemoveMember'; companyId: number; userId: number };

export type TeamState =
  | { status: 'none' }
  | { status: 'active'; teamId: number; companyId: number; name: string; description: string; memberIds: number[] }
  | { status: 'deleted'; teamId: number };

function live(state: TeamState, companyId: number) {
  if (state.status !== 'active' || state.companyId !== companyId) throw new AppError('NOT_FOUND', 'Team not found');
  return state;
}

/** A team is a named group of users of one company; workspaces can be granted to it. */
export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'TeamCreated') return { status: 'active', ...event.payload, memberIds: [] };
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'TeamUpdated': {
        const { teamId: _id, ...changes } = event.payload;
        return { ...state, ...changes };
      }
      case 'TeamDeleted':
        return { status: 'deleted', teamId: state.teamId };
      case 'TeamMemberAdded':
        return { ...state, memberIds: [...state.memberIds, event.payload.userId] };
      case 'TeamMemberRemoved':
        return { ...state, memberIds: state.memberIds.filter((id) => id !== event.payload.userId) };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateTeam':
        return [firstEvent(state.status !== 'none', 'Team', 'TeamCreated', command)];
      case 'UpdateTeam': {
        const team = live(state, command.companyId);
        const changes: { name?: string; description?: string } = {};
        if (command.name !== undefined && command.name !== team.name) changes.name = command.name;
        if (command.description !== undefined && command.description !== team.description) changes.description = command.description;
        return Object.keys(changes).length === 0 ? [] : [{ type: 'TeamUpdated', payload: { teamId: team.teamId, ...changes } }];
      }
      case 'DeleteTeam': {
        const team = live(state, command.companyId);
        return [{ type: 'TeamDeleted', payload: { teamId: team.teamId, name: team.name } }];
      }
      case 'AddMember': {
        const team = live(state, command.companyId);
        if (team.memberIds.includes(command.userId)) return [];
        return [{ type: 'TeamMemberAdded', payload: { teamId: team.teamId, userId: command.userId } }];
      }
      case 'RemoveMember': {
        const team = live(state, command.companyId);
        if (!team.memberIds.includes(command.userId)) throw new AppError('NOT_FOUND', 'The user is not a member of this team');
        return [{ type: 'TeamMemberRemoved', payload: { teamId: team.teamId, userId: command.userId } }];
      }
      default:
        return unreachable(command);
    }
  },
};
