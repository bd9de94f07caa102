import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { teamDecider } from './decide.js';

describe('team decider', () => {
  const spec = deciderSpec(teamDecider);
  const created = { type: 'TeamCreated' as const, payload: { teamId: 3, companyId: 2, name: 'Mobile', description: '' } };
  const added = { type: 'TeamMemberAdded' as const, payload: { teamId: 3, userId: 9 } };
  const deleted = { type: 'TeamDeleted' as const, payload: { teamId: 3, name: 'Mobile' } };

  it('creates a team once; creating it again is refused', () => {
    spec.given([]).when({ type: 'CreateTeam', teamId: 3, companyId: 2, name: 'Mobile', description: '' }).then([created]);
    spec.given([created]).when({ type: 'CreateTeam', teamId: 3, companyId: 2, name: 'Web', description: '' }).thenRefused('ALREADY_EXISTS');
    spec.given([created, deleted]).when({ type: 'CreateTeam', teamId: 3, companyId: 2, name: 'Mobile', description: '' }).thenRefused('ALREADY_EXISTS');
  });

  it('records only what an update changes, and nothing when nothing changes', () => {
    spec.given([created]).when({ type: 'UpdateTeam', companyId: 2, name: 'Apps', description: '' }).then([{ type: 'TeamUpdated', payload: { teamId: 3, name: 'Apps' } }]);
    spec.given([created]).when({ type: 'UpdateTeam', companyId: 2, description: 'Phones' }).then([{ type: 'TeamUpdated', payload: { teamId: 3, description: 'Phones' } }]);
    spec.given([created, { type: 'TeamUpdated', payload: { teamId: 3, name: 'Apps' } }]).when({ type: 'UpdateTeam', companyId: 2, name: 'Apps' }).then([]);
    spec.given([created]).when({ type: 'UpdateTeam', companyId: 2 }).then([]);
  });

  it('deletes a team with its name, after which every command finds nothing', () => {
    spec.given([created]).when({ type: 'DeleteTeam', companyId: 2 }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteTeam', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created, deleted]).when({ type: 'UpdateTeam', companyId: 2, name: 'x' }).thenRefused('NOT_FOUND');
    spec.given([created, deleted]).when({ type: 'AddMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([created, added, deleted]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
  });

  it('adds a member once, and removes them; removing a non-member is "not found"', () => {
    spec.given([created]).when({ type: 'AddMember', companyId: 2, userId: 9 }).then([added]);
    spec.given([created, added]).when({ type: 'AddMember', companyId: 2, userId: 9 }).then([]);
    spec.given([created, added]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).then([{ type: 'TeamMemberRemoved', payload: { teamId: 3, userId: 9 } }]);
    spec.given([created, added, { type: 'TeamMemberRemoved', payload: { teamId: 3, userId: 9 } }]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
  });

  it('finds nothing for another company, nor a team never created', () => {
    spec.given([created]).when({ type: 'UpdateTeam', companyId: 5, name: 'x' }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteTeam', companyId: 5 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'AddMember', companyId: 5, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([created, added]).when({ type: 'RemoveMember', companyId: 5, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'AddMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
  });
});
