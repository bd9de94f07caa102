import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { userGroupDecider } from './decide.js';
import type { UserGroupEvent } from '#events/tmt/user-groups.js';
import { tmtNameClaimDecider } from './name-claim.js';

const spec = deciderSpec(userGroupDecider);
const created: UserGroupEvent = { type: 'UserGroupCreated', payload: { groupId: 'g-1', companyId: 2, name: 'QA', description: '', memberIds: [5, 6] } };
const deleted: UserGroupEvent = { type: 'UserGroupDeleted', payload: { groupId: 'g-1', name: 'QA' } };

describe('user group decider', () => {
  it('creates a group once, with each member once', () => {
    spec.given([]).when({ type: 'CreateUserGroup', groupId: 'g-1', companyId: 2, name: 'QA', description: '', memberIds: [5, 6, 5] }).then([created]);
    spec.given([created]).when({ type: 'CreateUserGroup', groupId: 'g-1', companyId: 2, name: 'QA', description: '', memberIds: [] }).thenRefused('ALREADY_EXISTS');
  });

  it('records only what an update changes: name, description, and the member difference', () => {
    spec.given([created]).when({ type: 'UpdateUserGroup', companyId: 2, name: 'QA', description: '' }).then([]);
    spec
      .given([created])
      .when({ type: 'UpdateUserGroup', companyId: 2, name: 'Testers', memberIds: [6, 7] })
      .then([
        { type: 'UserGroupUpdated', payload: { groupId: 'g-1', name: 'Testers' } },
        { type: 'UserGroupMemberRemoved', payload: { groupId: 'g-1', userId: 5 } },
        { type: 'UserGroupMemberAdded', payload: { groupId: 'g-1', userId: 7 } },
      ]);
  });

  it('adds a member idempotently and refuses to remove a non-member', () => {
    spec.given([created]).when({ type: 'AddUserGroupMember', companyId: 2, userId: 5 }).then([]);
    spec.given([created]).when({ type: 'AddUserGroupMember', companyId: 2, userId: 9 }).then([{ type: 'UserGroupMemberAdded', payload: { groupId: 'g-1', userId: 9 } }]);
    spec.given([created]).when({ type: 'RemoveUserGroupMember', companyId: 2, userId: 6 }).then([{ type: 'UserGroupMemberRemoved', payload: { groupId: 'g-1', userId: 6 } }]);
    spec.given([created]).when({ type: 'RemoveUserGroupMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
  });

  it("is not found for another company, before creation and after deletion", () => {
    spec.given([created]).when({ type: 'UpdateUserGroup', companyId: 3, name: 'Owned' }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteUserGroup', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'DeleteUserGroup', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteUserGroup', companyId: 2 }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'AddUserGroupMember', companyId: 2, userId: 9 }).thenRefused('NOT_FOUND');
    spec.given([created, deleted]).when({ type: 'DeleteUserGroup', companyId: 2 }).thenRefused('NOT_FOUND');
  });
});

describe('test-management name claims', () => {
  const claims = deciderSpec(tmtNameClaimDecider);
  const claimed = { type: 'TmtNameClaimed' as const, payload: { scope: 'user-group-name:2', name: 'QA', ownerId: 'g-1' } };
  it('holds a name for one owner until that owner releases it', () => {
    claims.given([]).when({ type: 'ClaimTmtName', scope: 'user-group-name:2', name: ' QA ', ownerId: 'g-1', what: 'User group' }).then([claimed]);
    claims.given([claimed]).when({ type: 'ClaimTmtName', scope: 'user-group-name:2', name: 'qa', ownerId: 'g-1', what: 'User group' }).then([]);
    claims.given([claimed]).when({ type: 'ClaimTmtName', scope: 'user-group-name:2', name: 'qa', ownerId: 'g-2', what: 'User group' }).thenRefused('NAME_TAKEN');
    claims.given([claimed]).when({ type: 'ReleaseTmtName', scope: 'user-group-name:2', name: 'QA', ownerId: 'g-2' }).then([]);
    const released = { type: 'TmtNameReleased' as const, payload: { scope: 'user-group-name:2', name: 'QA', ownerId: 'g-1' } };
    claims.given([claimed]).when({ type: 'ReleaseTmtName', scope: 'user-group-name:2', name: 'QA', ownerId: 'g-1' }).then([released]);
    claims.given([claimed, released]).when({ type: 'ClaimTmtName', scope: 'user-group-name:2', name: 'Qa', ownerId: 'g-2', what: 'User group' }).then([
      { type: 'TmtNameClaimed', payload: { scope: 'user-group-name:2', name: 'Qa', ownerId: 'g-2' } },
    ]);
  });
});
