import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { nameClaimDecider } from '../claims/decide.js';
import { teamDecider } from '../teams/decide.js';
import { roleDecider } from './decide.js';

describe('role decider', () => {
  const spec = deciderSpec(roleDecider);
  const custom = { roleId: 5, companyId: 2, name: 'Tester', description: '', permissions: ['TMT_WRITE', 'TMT_READ'], builtIn: false };
  const created = { type: 'RoleCreated' as const, payload: { ...custom, permissions: ['TMT_READ', 'TMT_WRITE'] } };
  const builtIn = { type: 'RoleCreated' as const, payload: { ...custom, roleId: 1, name: 'Admin', builtIn: true } };

  it('creates a role with its keys as a sorted set', () => {
    spec.given([]).when({ type: 'CreateRole', ...custom, permissions: ['TMT_WRITE', 'TMT_READ', 'TMT_WRITE'] }).then([created]);
  });

  it('records only what an update changes', () => {
    spec.given([created]).when({ type: 'UpdateRole', companyId: 2, name: 'Tester', permissions: ['TMT_WRITE', 'TMT_READ'] }).then([]);
    spec.given([created]).when({ type: 'UpdateRole', companyId: 2, permissions: ['TMT_READ'] }).then([{ type: 'RoleUpdated', payload: { roleId: 5, permissions: ['TMT_READ'] } }]);
  });

  it('refuses to change or delete a built-in role', () => {
    spec.given([builtIn]).when({ type: 'UpdateRole', companyId: 2, name: 'Boss' }).thenRefused('BUILT_IN_ROLE');
    spec.given([builtIn]).when({ type: 'DeleteRole', companyId: 2 }).thenRefused('BUILT_IN_ROLE');
  });

  it('deletes a custom role, after which it is not found; another company never finds it', () => {
    spec.given([created]).when({ type: 'DeleteRole', companyId: 2 }).then([{ type: 'RoleDeleted', payload: { roleId: 5, name: 'Tester' } }]);
    spec.given([created, { type: 'RoleDeleted', payload: { roleId: 5, name: 'Tester' } }]).when({ type: 'DeleteRole', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteRole', companyId: 3 }).thenRefused('NOT_FOUND');
  });
});

describe('team decider', () => {
  const spec = deciderSpec(teamDecider);
  const created = { type: 'TeamCreated' as const, payload: { teamId: 3, companyId: 2, name: 'Mobile', description: '' } };
  const added = { type: 'TeamMemberAdded' as const, payload: { teamId: 3, userId: 9 } };

  it('adds a member once, and removes them; removing a non-member is "not found"', () => {
    spec.given([created]).when({ type: 'AddMember', companyId: 2, userId: 9 }).then([added]);
    spec.given([created, added]).when({ type: 'AddMember', companyId: 2, userId: 9 }).then([]);
    spec.given([created, added]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).then([{ type: 'TeamMemberRemoved', payload: { teamId: 3, userId: 9 } }]);
    spec.given([created]).when({ type: 'RemoveMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
  });

  it('refuses changes to a deleted team and to another company', () => {
    const deleted = { type: 'TeamDeleted' as const, payload: { teamId: 3, name: 'Mobile' } };
    spec.given([created, deleted]).when({ type: 'AddMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'UpdateTeam', companyId: 5, name: 'x' }).thenRefused('NOT_FOUND');
  });
});

describe('name claim decider', () => {
  const spec = deciderSpec(nameClaimDecider);
  const scope = 'team-name:2' as const;
  const claimed = { type: 'NameClaimed' as const, payload: { scope, name: 'Mobile', ownerId: 3 } };

  it('claims a free name, and refuses it to anyone else while held', () => {
    spec.given([]).when({ type: 'ClaimName', scope, name: ' Mobile ', ownerId: 3, what: 'Team' }).then([claimed]);
    spec.given([claimed]).when({ type: 'ClaimName', scope, name: 'mobile', ownerId: 4, what: 'Team' }).thenRefused('NAME_TAKEN');
    spec.given([claimed]).when({ type: 'ClaimName', scope, name: 'Mobile', ownerId: 3, what: 'Team' }).then([]);
  });

  it('frees a name for its holder only', () => {
    const released = { type: 'NameReleased' as const, payload: { scope, name: 'Mobile', ownerId: 3 } };
    spec.given([claimed]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 4 }).then([]);
    spec.given([claimed]).when({ type: 'ReleaseName', scope, name: 'Mobile', ownerId: 3 }).then([released]);
    spec.given([claimed, released]).when({ type: 'ClaimName', scope, name: 'Mobile', ownerId: 4, what: 'Team' }).then([
      { type: 'NameClaimed', payload: { scope, name: 'Mobile', ownerId: 4 } },
    ]);
  });
});
