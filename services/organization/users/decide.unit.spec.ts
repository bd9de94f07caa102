import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { emailClaimDecider, userDecider } from './decide.js';
import type { ProfileImage, UserEvent } from '#events/organization/users.js';

const registered: UserEvent = {
  type: 'UserRegistered',
  payload: {
    userId: 7,
    companyId: 3,
    email: 'ada@example.com',
    username: 'ada',
    name: 'Ada',
    passwordHash: 'scrypt$old',
    isAdmin: true,
    roles: ['Admin'],
  },
};
const invited: UserEvent = {
  type: 'UserInvited',
  payload: { userId: 8, companyId: 3, email: 'bob@example.com', username: 'bob', roleIds: [2], invitedBy: 7 },
};
const activated: UserEvent = { type: 'UserActivated', payload: { userId: 8, name: 'Bob', passwordHash: 'scrypt$bob' } };
const deactivated: UserEvent = { type: 'UserDeactivated', payload: { userId: 8 } };
const deleted: UserEvent = { type: 'UserDeleted', payload: { userId: 8, email: 'bob@example.com', username: 'bob' } };
const image: ProfileImage = { key: 'company-3/users/8/profile-image', contentType: 'image/png', size: 70, sha256: 'ab'.repeat(32) };

describe('user decider: sign-up and passwords (existing events)', () => {
  const spec = deciderSpec(userDecider);

  it('registers a new user', () => {
    const { type: _t, ...payload } = { type: 'RegisterUser' as const, ...registered.payload };
    spec.given([]).when({ type: 'RegisterUser', ...payload }).then([registered]);
  });

  it('refuses to register a user twice', () => {
    spec.given([registered]).when({ type: 'RegisterUser', ...registered.payload }).thenRefused('ALREADY_EXISTS');
  });

  it('changes the password of an existing user', () => {
    spec
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'scrypt$new', reason: 'reset' })
      .then([{ type: 'UserPasswordChanged', payload: { userId: 7, passwordHash: 'scrypt$new', reason: 'reset' } }]);
  });

  it('refuses a password change for a user that does not exist', () => {
    spec.given([]).when({ type: 'ChangePassword', passwordHash: 'x', reason: 'self' }).thenRefused('NOT_FOUND');
  });
});

describe('user decider: life cycle', () => {
  const spec = deciderSpec(userDecider);

  it('invite: (none) -> passive', () => {
    spec.given([]).when({ type: 'InviteUser', ...invited.payload }).then([invited]);
  });

  it('refuses to invite onto an id already used, even by a deleted user', () => {
    spec.given([invited]).when({ type: 'InviteUser', ...invited.payload }).thenRefused('ALREADY_EXISTS');
    spec.given([invited, deleted]).when({ type: 'InviteUser', ...invited.payload }).thenRefused('ALREADY_EXISTS');
  });

  it('activate: passive -> active, with the given name, and the profile image when one came along', () => {
    spec.given([invited]).when({ type: 'ActivateUser', name: 'Bob', passwordHash: 'scrypt$bob' }).then([activated]);
    spec
      .given([invited])
      .when({ type: 'ActivateUser', passwordHash: 'scrypt$bob', image })
      .then([
        { type: 'UserActivated', payload: { userId: 8, name: 'bob', passwordHash: 'scrypt$bob' } },
        { type: 'UserProfileImageSet', payload: { userId: 8, image } },
      ]);
  });

  it('refuses to activate an active user, a deactivated one, or one that does not exist', () => {
    spec.given([invited, activated]).when({ type: 'ActivateUser', passwordHash: 'x' }).thenRefused('CONFLICT');
    spec.given([invited, activated, deactivated]).when({ type: 'ActivateUser', passwordHash: 'x' }).thenRefused('CONFLICT');
    spec.given([]).when({ type: 'ActivateUser', passwordHash: 'x' }).thenRefused('NOT_FOUND');
  });

  it('deactivate: active -> deactivated', () => {
    spec.given([invited, activated]).when({ type: 'DeactivateUser', companyId: 3 }).then([deactivated]);
  });

  it('refuses to deactivate a deactivated user, or a passive one (delete the invitation instead)', () => {
    spec.given([invited, activated, deactivated]).when({ type: 'DeactivateUser', companyId: 3 }).thenRefused('CONFLICT');
    spec.given([invited]).when({ type: 'DeactivateUser', companyId: 3 }).thenRefused('CONFLICT');
  });

  it('reactivate: deactivated -> active', () => {
    spec.given([invited, activated, deactivated]).when({ type: 'ReactivateUser', companyId: 3 }).then([{ type: 'UserReactivated', payload: { userId: 8 } }]);
  });

  it('refuses to reactivate an active user, or a passive one (the invitation activates it)', () => {
    spec.given([invited, activated]).when({ type: 'ReactivateUser', companyId: 3 }).thenRefused('CONFLICT');
    spec.given([invited]).when({ type: 'ReactivateUser', companyId: 3 }).thenRefused('CONFLICT');
  });

  it('delete: passive, active or deactivated -> deleted, after which the user is not found', () => {
    for (const history of [[invited], [invited, activated], [invited, activated, deactivated]]) {
      spec.given(history).when({ type: 'DeleteUser', companyId: 3 }).then([deleted]);
    }
    spec.given([invited, deleted]).when({ type: 'DeleteUser', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([invited, deleted]).when({ type: 'ReactivateUser', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([invited, deleted]).when({ type: 'ActivateUser', passwordHash: 'x' }).thenRefused('NOT_FOUND');
  });

  it('refuses a password change before the invitation is accepted', () => {
    spec.given([invited]).when({ type: 'ChangePassword', companyId: 3, passwordHash: 'x', reason: 'admin' }).thenRefused('CONFLICT');
  });
});

describe('user decider: tenant wall', () => {
  const spec = deciderSpec(userDecider);

  it('answers "not found" to a caller of another company, whatever the command', () => {
    const history = [invited, activated];
    spec.given(history).when({ type: 'DeactivateUser', companyId: 4 }).thenRefused('NOT_FOUND');
    spec.given(history).when({ type: 'UpdateUser', companyId: 4, changes: { name: 'Eve' } }).thenRefused('NOT_FOUND');
    spec.given(history).when({ type: 'ReplaceRoles', companyId: 4, roleIds: [1] }).thenRefused('NOT_FOUND');
    spec.given(history).when({ type: 'SetAdmin', companyId: 4, isAdmin: true }).thenRefused('NOT_FOUND');
    spec.given(history).when({ type: 'ChangePassword', companyId: 4, passwordHash: 'x', reason: 'admin' }).thenRefused('NOT_FOUND');
    spec.given(history).when({ type: 'DeleteUser', companyId: 4 }).thenRefused('NOT_FOUND');
  });
});

describe('user decider: profile, roles, administrator, image', () => {
  const spec = deciderSpec(userDecider);
  const active = [invited, activated];

  it('records only the fields that change, and nothing when none does', () => {
    spec
      .given(active)
      .when({ type: 'UpdateUser', companyId: 3, changes: { name: 'Bob', title: 'QA lead', username: 'bobby' } })
      .then([{ type: 'UserUpdated', payload: { userId: 8, changes: { title: 'QA lead', username: 'bobby' } } }]);
    spec.given(active).when({ type: 'UpdateUser', companyId: 3, changes: { name: 'Bob' } }).then([]);
  });

  it('replaces roles as a sorted set, and records nothing for the same set', () => {
    spec.given(active).when({ type: 'ReplaceRoles', companyId: 3, roleIds: [5, 2, 5] }).then([{ type: 'UserRolesReplaced', payload: { userId: 8, roleIds: [2, 5] } }]);
    spec.given(active).when({ type: 'ReplaceRoles', companyId: 3, roleIds: [2] }).then([]);
  });

  it('grants and revokes administrator, idempotently', () => {
    spec.given(active).when({ type: 'SetAdmin', companyId: 3, isAdmin: true }).then([{ type: 'AdminGranted', payload: { userId: 8 } }]);
    spec.given(active).when({ type: 'SetAdmin', companyId: 3, isAdmin: false }).then([]);
    spec.given([...active, { type: 'AdminGranted', payload: { userId: 8 } }]).when({ type: 'SetAdmin', companyId: 3, isAdmin: false }).then([{ type: 'AdminRevoked', payload: { userId: 8 } }]);
  });

  it('sets and removes the profile image; removing none is "not found"', () => {
    spec.given(active).when({ type: 'SetProfileImage', companyId: 3, image }).then([{ type: 'UserProfileImageSet', payload: { userId: 8, image } }]);
    spec.given([...active, { type: 'UserProfileImageSet', payload: { userId: 8, image } }]).when({ type: 'RemoveProfileImage', companyId: 3 }).then([{ type: 'UserProfileImageRemoved', payload: { userId: 8 } }]);
    spec.given(active).when({ type: 'RemoveProfileImage', companyId: 3 }).thenRefused('NOT_FOUND');
  });
});

describe('e-mail claim decider', () => {
  const spec = deciderSpec(emailClaimDecider);
  const claimed = { type: 'EmailClaimed' as const, payload: { email: 'a@b.co', userId: 1 } };

  it('claims a free address for a user', () => {
    spec.given([]).when({ type: 'ClaimEmail', email: 'a@b.co', userId: 1 }).then([claimed]);
  });

  it('refuses an address already claimed', () => {
    spec.given([claimed]).when({ type: 'ClaimEmail', email: 'a@b.co', userId: 2 }).thenRefused('EMAIL_TAKEN');
  });

  it('releases an address for its holder only, after which it can be claimed again', () => {
    const released = { type: 'EmailReleased' as const, payload: { email: 'a@b.co', userId: 1 } };
    spec.given([claimed]).when({ type: 'ReleaseEmail', email: 'a@b.co', userId: 1 }).then([released]);
    spec.given([claimed]).when({ type: 'ReleaseEmail', email: 'a@b.co', userId: 2 }).then([]);
    spec.given([claimed, released]).when({ type: 'ClaimEmail', email: 'a@b.co', userId: 2 }).then([{ type: 'EmailClaimed', payload: { email: 'a@b.co', userId: 2 } }]);
  });
});
