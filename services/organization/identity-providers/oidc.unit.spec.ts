import { describe, expect, it } from 'vitest';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { identityOf } from './oidc.js';

const provider = (config: Record<string, unknown> = {}): IdentityProviderRow => ({
  id: 1,
  companyId: 1,
  type: 'oidc',
  name: 'Corp ID',
  enabled: true,
  domains: ['corp.test'],
  enforce: false,
  jitProvisioning: true,
  mappings: [],
  config: { issuer: 'https://id.corp.test', clientId: 'qa', clientSecret: 's', ...config },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const refused = (claims: Record<string, unknown>, config?: Record<string, unknown>) => expect(() => identityOf(provider(config), { sub: 'x', ...claims })).toThrow(/Corp ID/);

describe('which OpenID claims are trusted', () => {
  it('by default, an email with email_verified the boolean true, and nothing else', () => {
    expect(identityOf(provider(), { sub: 'x', email: 'a@corp.test', email_verified: true, name: 'A', groups: ['g', 7] })).toMatchObject({ email: 'a@corp.test', name: 'A', groups: ['g'] });
    refused({ email: 'a@corp.test', email_verified: 'true' });
    refused({ email: 'a@corp.test', email_verified: 'false' });
    refused({ email: 'a@corp.test', email_verified: false });
    refused({ email: 'a@corp.test' });
    refused({ preferred_username: 'admin@corp.test' });
    refused({ upn: 'admin@corp.test', email_verified: true });
  });

  it('with emailFromUsername, an address-like preferred_username or upn where no email is sent, unless the address is said unverified', () => {
    const entra = { emailFromUsername: true };
    expect(identityOf(provider(entra), { sub: 'x', preferred_username: 'b@corp.test' }).email).toBe('b@corp.test');
    expect(identityOf(provider(entra), { sub: 'x', upn: 'c@corp.test' }).email).toBe('c@corp.test');
    expect(identityOf(provider(entra), { sub: 'x', email: 'd@corp.test', preferred_username: 'other@corp.test' }).email).toBe('d@corp.test');
    refused({ preferred_username: 'not an address' }, entra);
    refused({ email: 'd@corp.test', email_verified: 'false' }, entra);
    refused({ email: 'd@corp.test', email_verified: false }, entra);
  });
});
