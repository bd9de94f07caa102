import * as oidc from 'openid-client';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import type { OidcConfig } from '#events/organization/identity-providers.js';
import { AppError } from '#shared/errors.js';
import type { ExternalIdentity } from './provisioning.js';

/** How long the discovery document and keys of an issuer are reused before they are read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** Whether a URL points at this machine: the only place an issuer may be plain http (a test or a local provider). */
export const isLoopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';

/** What a started sign-in must remember until its callback: kept in the key-value store under the state. */
export interface OidcFlow {
  verifier: string;
  nonce: string;
}

/**
 * OpenID Connect with `openid-client`: discovery, the authorization code flow with PKCE (S256), state
 * and nonce, and the ID token checked (signature against the issuer's keys, issuer, audience, expiry,
 * nonce). Discovery is cached per provider and its last change.
 */
export class OidcClients {
  private readonly cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  constructor(private readonly now: () => Date) {}

  private configuration(provider: IdentityProviderRow): Promise<oidc.Configuration> {
    const c = provider.config as OidcConfig;
    const key = `${provider.id}:${provider.updatedAt}`;
    const hit = this.cache.get(key);
    if (hit && this.now().getTime() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const issuer = new URL(c.issuer);
    const config = oidc
      .discovery(issuer, c.clientId, { client_secret: c.clientSecret }, oidc.ClientSecretPost(c.clientSecret), {
        // The ID token's signature is checked against the provider's keys too, not only its claims:
        // the token endpoint's TLS is not the only thing trusted.
        execute: [oidc.enableNonRepudiationChecks, ...(issuer.protocol === 'http:' && isLoopback(issuer) ? [oidc.allowInsecureRequests] : [])],
        timeout: 10,
      })
      .catch((err: unknown) => {
        this.cache.delete(key);
        throw new AppError('SSO_FAILED', `The OpenID provider ${provider.name} could not be reached or described itself wrongly: ${messageOf(err)}`, { cause: err });
      });
    for (const k of this.cache.keys()) if (k.startsWith(`${provider.id}:`)) this.cache.delete(k);
    this.cache.set(key, { at: this.now().getTime(), config });
    return config;
  }

  /** Checks that the issuer answers its discovery (the administration's "try this configuration"). */
  async check(provider: IdentityProviderRow): Promise<{ authorizationEndpoint: string }> {
    const config = await this.configuration(provider);
    return { authorizationEndpoint: String(config.serverMetadata().authorization_endpoint) };
  }

  /** The provider's authorization URL for a new sign-in, and what its callback must check. */
  async start(provider: IdentityProviderRow, redirectUri: string, state: string): Promise<{ url: string; flow: OidcFlow }> {
    const config = await this.configuration(provider);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const scopes = (provider.config as OidcConfig).scopes ?? DEFAULT_SCOPES;
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: [...new Set(['openid', ...scopes])].join(' '),
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, flow: { verifier, nonce } };
  }

  /** Exchanges the callback's code and checks the ID token; the identity it vouches for. */
  async finish(provider: IdentityProviderRow, callbackUrl: URL, state: string, flow: OidcFlow): Promise<ExternalIdentity> {
    const config = await this.configuration(provider);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: flow.verifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true });
      claims = tokens.claims();
    } catch (err) {
      throw new AppError('SSO_FAILED', `${provider.name} refused the sign-in or answered with a token that does not check: ${messageOf(err)}`, { cause: err });
    }
    if (!claims) throw new AppError('SSO_FAILED', `${provider.name} sent no ID token`);
    return identityOf(provider, claims);
  }
}

/** The person of an ID token: `email` (or an address-like `preferred_username`, as Entra ID sends), name and `groups`. */
function identityOf(provider: IdentityProviderRow, claims: oidc.IDToken): ExternalIdentity {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  if (claims.email_verified === false) throw new AppError('SSO_FAILED', `${provider.name} says the address ${String(claims.email)} is not verified`);
  const preferred = str(claims.preferred_username);
  const email = str(claims.email) ?? (preferred && preferred.includes('@') ? preferred : null);
  if (!email) throw new AppError('SSO_FAILED', `${provider.name} sent no e-mail address (ask for the "email" scope)`);
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === 'string') : [];
  return { email, name: str(claims.name), groups, claims: { ...claims } };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
