import { defineDecider, firstEvent } from '#shared/es/index.js';
import { activeIn, changedFields, changesMembers, whileActive, withMember, withoutMember } from '#shared/es/index.js';
import type { TeamEvent } from '#events/organization/teams.js';

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

const live = (state: TeamState, companyId: number) => activeIn(state, companyId, 'Team');

/** Adds or removes one member of a team. */
const membership =
  (change: 'add' | 'remove') =>
  (command: { companyId: number; userId: number }, state: TeamState): TeamEvent[] => {
    const team = live(state, command.companyId);
    if (!changesMembers(team.memberIds, command.userId, change, 'The user is not a member of this team')) return [];
    return [{ type: change === 'add' ? 'TeamMemberAdded' : 'TeamMemberRemoved', payload: { teamId: team.teamId, userId: command.userId } }];
  };

/** A team is a named group of users of one company; workspaces can be granted to it. */
export const teamDecider = defineDecider<TeamCommand, TeamEvent, TeamState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    TeamCreated: (_state, event) => ({ status: 'active', ...event.payload, memberIds: [] }),
    TeamUpdated: whileActive((state, { payload: { teamId: _id, ...changes } }) => ({ ...state, ...changes })),
    TeamDeleted: whileActive((state) => ({ status: 'deleted', teamId: state.teamId })),
    TeamMemberAdded: whileActive((state, event) => withMember(state, event)),
    TeamMemberRemoved: whileActive((state, event) => withoutMember(state, event)),
  },
  decide: {
    CreateTeam: (command, state) => [firstEvent(state.status !== 'none', 'Team', 'TeamCreated', command)],
    UpdateTeam: (command, state) => {
      const team = live(state, command.companyId);
      const changes = changedFields(team, command, ['name', 'description']);
      return Object.keys(changes).length === 0 ? [] : [{ type: 'TeamUpdated', payload: { teamId: team.teamId, ...changes } }];
    },
    DeleteTeam: (command, state) => {
      const team = live(state, command.companyId);
      return [{ type: 'TeamDeleted', payload: { teamId: team.teamId, name: team.name } }];
    },
    AddMember: membership('add'),
    RemoveMember: membership('remove'),
  },
});
