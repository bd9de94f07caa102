import type { z } from 'zod';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { ldapConfig, oidcConfig, samlConfig, SECRET_FIELDS, type IdentityProviderType } from '#events/organization/identity-providers.js';
import { AppError } from '#shared/errors.js';
import type { LdapDirectory } from './ldap.js';
import type { OidcClients, OidcFlow } from './oidc.js';
import type { ExternalIdentity } from './provisioning.js';
import type { SamlClients } from './saml.js';

/** What a started browser sign-in remembers until its callback (kept as JSON under the state). */
export type FlowMemory = Record<string, string>;

/** A protocol that signs people in through the browser: off to the provider, back to the callback. */
export interface BrowserSignIn {
  /** The provider's address for a new sign-in, and what its callback must check. */
  start(provider: IdentityProviderRow, callbackUrl: string, state: string): Promise<{ url: string; memory: FlowMemory }>;
  /** The state the provider's answer carries back. */
  stateOf(answer: URLSearchParams): string | undefined;
  /** Checks the answer (the callback's query or form) and names the person it vouches for. */
  finish(provider: IdentityProviderRow, callbackUrl: string, answer: URLSearchParams, memory: FlowMemory): Promise<ExternalIdentity>;
}

/** A protocol that signs people in with a username and password checked against a directory. */
export interface DirectorySignIn {
  authenticate(provider: IdentityProviderRow, username: string, password: string): Promise<ExternalIdentity>;
}

/**
 * One sign-in protocol: its configuration's schema and secret fields, the administration's "try this
 * configuration", and one way to sign in — through the browser or against a directory. Nothing outside
 * an implementation asks which protocol a provider speaks.
 */
export interface IdentityProtocol {
  readonly type: IdentityProviderType;
  readonly config: z.ZodType;
  readonly secretFields: readonly string[];
  check(provider: IdentityProviderRow, callbackUrl: string): Promise<Record<string, unknown>>;
  readonly browser?: BrowserSignIn;
  readonly directory?: DirectorySignIn;
}

export type IdentityProtocols = Record<IdentityProviderType, IdentityProtocol>;

/** OpenID Connect: the authorization code flow with PKCE; the answer comes back as the callback's query. */
function openIdConnect(oidc: OidcClients): IdentityProtocol {
  return {
    type: 'oidc',
    config: oidcConfig,
    secretFields: SECRET_FIELDS.oidc,
    check: (provider) => oidc.check(provider),
    browser: {
      start: async (provider, callbackUrl, state) => {
        const { url, flow } = await oidc.start(provider, callbackUrl, state);
        return { url, memory: { ...flow } };
      },
      stateOf: (answer) => answer.get('state') ?? undefined,
      finish: async (provider, callbackUrl, answer, memory) => {
        const error = answer.get('error');
        if (error) throw new AppError('SSO_FAILED', `${provider.name} refused the sign-in: ${error} ${answer.get('error_description') ?? ''}`.trim());
        const callback = new URL(callbackUrl);
        callback.search = answer.toString();
        return oidc.finish(provider, callback, answer.get('state') ?? '', memory as unknown as OidcFlow);
      },
    },
  };
}

/** SAML 2.0: an authentication request by redirect, the assertion posted back to the callback. */
function saml2(saml: SamlClients): IdentityProtocol {
  return {
    type: 'saml',
    config: samlConfig,
    secretFields: SECRET_FIELDS.saml,
    check: (provider, callbackUrl) => saml.check(provider, callbackUrl),
    browser: {
      start: async (provider, callbackUrl, state) => {
        const { url, requestId } = await saml.start(provider, callbackUrl, state);
        return { url, memory: { requestId } };
      },
      stateOf: (answer) => answer.get('RelayState') ?? undefined,
      finish: async (provider, callbackUrl, answer, memory) => {
        const response = answer.get('SAMLResponse');
        if (!response || !memory.requestId) throw new AppError('SSO_FAILED', 'Not a SAML sign-in');
        return saml.finish(provider, callbackUrl, response, memory.requestId);
      },
    },
  };
}

/** LDAP: the person's username and password bound against the directory. */
function ldapDirectory(ldap: LdapDirectory): IdentityProtocol {
  return {
    type: 'ldap',
    config: ldapConfig,
    secretFields: SECRET_FIELDS.ldap,
    check: (provider) => ldap.check(provider),
    directory: { authenticate: (provider, username, password) => ldap.authenticate(provider, username, password) },
  };
}

/** The three protocols, by the type a provider names. */
export function identityProtocols(clients: { oidc: OidcClients; saml: SamlClients; ldap: LdapDirectory }): IdentityProtocols {
  return { oidc: openIdConnect(clients.oidc), saml: saml2(clients.saml), ldap: ldapDirectory(clients.ldap) };
}
