import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

const id = z.number().int();

export const IDENTITY_PROVIDER_TYPES = ['oidc', 'saml', 'ldap'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

/**
 * What a provider's identity grants: the user's company roles, team memberships and workspace
 * access. A mapping applies when `group` is one of the identity's groups (OIDC `groups` claim, SAML
 * group attribute, LDAP group DN or cn), or when the claim `claim` has the value `value`; with
 * neither, it applies to everyone the provider signs in.
 */
export const identityMapping = z.object({
  group: z.string().min(1).max(512).optional(),
  claim: z.string().min(1).max(128).optional(),
  value: z.string().max(512).optional(),
  roleIds: z.array(id).max(100).default([]),
  teamIds: z.array(id).max(100).default([]),
  workspaceIds: z.array(id).max(100).default([]),
});
export type IdentityMapping = z.output<typeof identityMapping>;

const url = z.url().max(2048);
export const oidcConfig = z.object({
  issuer: url,
  clientId: z.string().min(1).max(512),
  clientSecret: z.string().min(1).max(2048),
  scopes: z.array(z.string().min(1).max(128)).max(30).optional(),
  /**
   * Take the address from `preferred_username` (or `upn`) when the provider sends no `email` — Microsoft
   * Entra ID's habit — and do without `email_verified`, which Entra does not send. Off by default: then
   * only an `email` with `email_verified: true` is trusted.
   */
  emailFromUsername: z.boolean().optional(),
});
export const samlConfig = z.object({ entryPoint: url, idpCertificate: z.string().min(1).max(20_000), spEntityId: z.string().min(1).max(1024).optional() });
export const ldapConfig = z.object({
  url: z.string().regex(/^ldaps?:\/\/[^\s]+$/, 'an ldap:// or ldaps:// URL').max(2048),
  bindDn: z.string().max(1024).optional(),
  bindPassword: z.string().max(1024).optional(),
  userSearchBase: z.string().min(1).max(1024),
  userFilter: z.string().min(1).max(1024),
  groupSearchBase: z.string().max(1024).optional(),
  groupFilter: z.string().max(1024).optional(),
});
export type OidcConfig = z.output<typeof oidcConfig>;
export type SamlConfig = z.output<typeof samlConfig>;
export type LdapConfig = z.output<typeof ldapConfig>;
export type ProviderConfig = OidcConfig | SamlConfig | LdapConfig;

/** The secrets of each type's configuration: stored to be used, never shown back. */
export const SECRET_FIELDS: Record<IdentityProviderType, readonly string[]> = { oidc: ['clientSecret'], saml: [], ldap: ['bindPassword'] };
/** Where each type's secrets go: a change of one of these must send the secrets again (SECRET_REQUIRED). */
export const SECRET_ADDRESS_FIELDS: Record<IdentityProviderType, readonly string[]> = { oidc: ['issuer', 'clientId'], saml: ['entryPoint', 'idpCertificate'], ldap: ['url'] };

const settings = {
  name: z.string(),
  enabled: z.boolean(),
  domains: z.array(z.string()),
  enforce: z.boolean(),
  jitProvisioning: z.boolean(),
  mappings: z.array(identityMapping),
  config: z.record(z.string(), z.unknown()),
};

/**
 * Events of the `identity-provider-<id>` stream: a company's single sign-on or directory sign-in
 * through OpenID Connect, SAML 2.0 or LDAP. `IdentityProviderChanged` carries the whole new settings
 * (secrets kept from before when a change leaves them out).
 */
export const identityProviderEvents = defineEvents({
  IdentityProviderCreated: z.object({ providerId: id, companyId: id, type: z.enum(IDENTITY_PROVIDER_TYPES), ...settings }),
  IdentityProviderChanged: z.object({ providerId: id, ...settings }),
  IdentityProviderDeleted: z.object({ providerId: id, name: z.string() }),
});
export type IdentityProviderEvent = EventOf<typeof identityProviderEvents>;
export const identityProviderStream = (providerId: number): string => `identity-provider-${providerId}`;
