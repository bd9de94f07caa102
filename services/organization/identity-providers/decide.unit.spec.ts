import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { identityProviderDecider } from './decide.js';

describe('identity provider decider', () => {
  const spec = deciderSpec(identityProviderDecider);
  const settings = {
    name: 'Corp',
    enabled: true,
    domains: ['corp.test'],
    enforce: false,
    jitProvisioning: true,
    mappings: [],
    config: { issuer: 'https://id.corp.test', clientId: 'qa', clientSecret: 's3cret' },
  };
  const created = { type: 'IdentityProviderCreated' as const, payload: { providerId: 4, companyId: 2, type: 'oidc' as const, ...settings } };

  it('creates a provider once', () => {
    spec.given([]).when({ type: 'CreateIdentityProvider', provider: created.payload }).then([created]);
    spec.given([created]).when({ type: 'CreateIdentityProvider', provider: created.payload }).thenRefused('ALREADY_EXISTS');
  });

  it('keeps a secret a change leaves out, and records nothing when nothing changes', () => {
    const change = { ...settings, enforce: true, config: { issuer: 'https://id.corp.test', clientId: 'qa' } };
    spec
      .given([created])
      .when({ type: 'ChangeIdentityProvider', companyId: 2, settings: change })
      .then([{ type: 'IdentityProviderChanged', payload: { providerId: 4, ...settings, enforce: true } }]);
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: { ...settings, config: { issuer: 'https://id.corp.test', clientId: 'qa' } } }).then([]);
    // The same settings sent with their keys in another order (as a console or a script may) change nothing either.
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: { ...settings, config: { clientId: 'qa', issuer: 'https://id.corp.test' } } }).then([]);
    const rotated = { ...settings, config: { ...settings.config, clientSecret: 'new' } };
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: rotated }).then([{ type: 'IdentityProviderChanged', payload: { providerId: 4, ...rotated } }]);
  });

  it('refuses a change of where a stored secret goes without the secret, and takes it with the secret', () => {
    const moved = { ...settings, config: { issuer: 'https://evil.test', clientId: 'qa' } };
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: moved }).thenRefused('SECRET_REQUIRED');
    const otherClient = { ...settings, config: { issuer: 'https://id.corp.test', clientId: 'another' } };
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: otherClient }).thenRefused('SECRET_REQUIRED');
    const withSecret = { ...settings, config: { issuer: 'https://id2.corp.test', clientId: 'qa', clientSecret: 'again' } };
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: withSecret }).then([{ type: 'IdentityProviderChanged', payload: { providerId: 4, ...withSecret } }]);
    const ldap = {
      type: 'IdentityProviderCreated' as const,
      payload: { providerId: 5, companyId: 2, type: 'ldap' as const, ...settings, config: { url: 'ldaps://dir.corp.test', bindDn: 'cn=r', bindPassword: 'pw', userSearchBase: 'o=c', userFilter: '(uid={{username}})' } },
    };
    const { bindPassword: _p, ...withoutPassword } = ldap.payload.config;
    spec.given([ldap]).when({ type: 'ChangeIdentityProvider', companyId: 2, settings: { ...settings, config: { ...withoutPassword, url: 'ldap://127.0.0.1:3890' } } }).thenRefused('SECRET_REQUIRED');
    spec
      .given([ldap])
      .when({ type: 'ChangeIdentityProvider', companyId: 2, settings: { ...settings, config: { ...withoutPassword, userFilter: '(mail={{username}})' } } })
      .then([{ type: 'IdentityProviderChanged', payload: { providerId: 5, ...settings, config: { ...ldap.payload.config, userFilter: '(mail={{username}})' } } }]);
  });

  it('deletes with its name; another company or a deleted provider is not found', () => {
    const deleted = { type: 'IdentityProviderDeleted' as const, payload: { providerId: 4, name: 'Corp' } };
    spec.given([created]).when({ type: 'DeleteIdentityProvider', companyId: 2 }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteIdentityProvider', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteIdentityProvider', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'ChangeIdentityProvider', companyId: 3, settings }).thenRefused('NOT_FOUND');
  });
});
