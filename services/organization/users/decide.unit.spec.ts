import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { emailClaimDecider, userDecider } from './decide.js';
import type { UserEvent } from './events.js';

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

describe('user decider', () => {
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

describe('e-mail claim decider', () => {
  const spec = deciderSpec(emailClaimDecider);

  it('claims a free address for a user', () => {
    spec
      .given([])
      .when({ type: 'ClaimEmail', email: 'a@b.co', userId: 1 })
      .then([{ type: 'EmailClaimed', payload: { email: 'a@b.co', userId: 1 } }]);
  });

  it('refuses an address already claimed', () => {
    spec
      .given([{ type: 'EmailClaimed', payload: { email: 'a@b.co', userId: 1 } }])
      .when({ type: 'ClaimEmail', email: 'a@b.co', userId: 2 })
      .thenRefused('EMAIL_TAKEN');
  });
});
