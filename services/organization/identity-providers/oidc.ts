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
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: flow.verifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true });
    } catch (err) {
      throw new AppError('SSO_FAILED', `${provider.name} refused the sign-in or answered with a token that does not check: ${messageOf(err)}`, { cause: err });
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError('SSO_FAILED', `${provider.name} sent no ID token`);
    return identityOf(provider, await this.withUserInfo(provider, config, claims, tokens.access_token));
  }

  /**
   * The ID token's claims, completed from the UserInfo endpoint when they lack one the sign-in needs: a
   * provider that follows OpenID Connect Core 5.4 sends the claims of the scopes asked for there, not in
   * the ID token, once it has issued an access token. UserInfo's `sub` must be the ID token's
   * (`fetchUserInfo` refuses another); on a conflict the signed ID token wins.
   */
  private async withUserInfo(provider: IdentityProviderRow, config: oidc.Configuration, claims: oidc.IDToken, accessToken: string): Promise<Record<string, unknown>> {
    const missing = neededClaims(provider).filter((name) => claims[name] === undefined);
    if (missing.length === 0 || !config.serverMetadata().userinfo_endpoint) return { ...claims };
    try {
      const info = await oidc.fetchUserInfo(config, accessToken, claims.sub);
      return { ...info, ...claims };
    } catch (err) {
      throw new AppError('SSO_FAILED', `${provider.name} did not answer who signed in at its UserInfo endpoint: ${messageOf(err)}`, { cause: err });
    }
  }
}

/** The claims a sign-in through this provider reads: the address and its proof, the name, groups, and any claim a mapping names. */
function neededClaims(provider: IdentityProviderRow): string[] {
  const c = provider.config as OidcConfig;
  const mapped = provider.mappings.flatMap((m) => (m.claim !== undefined ? [m.claim] : []));
  return [...new Set(['email', ...(c.emailFromUsername ? ['preferred_username'] : ['email_verified']), 'name', 'groups', ...mapped])];
}

/**
 * The person of the provider's claims (docs/modules/identity.md, "Which claims are trusted"): by default an
 * `email` whose `email_verified` is the boolean `true`, nothing else; with `emailFromUsername`, an
 * address-like `preferred_username` or `upn` where no `email` is sent, unless the provider says the address
 * is not verified.
 */
export function identityOf(provider: IdentityProviderRow, claims: Record<string, unknown>): ExternalIdentity {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  const addressLike = (v: unknown) => (str(v)?.includes('@') ? (v as string) : null);
  const fromUsername = (provider.config as OidcConfig).emailFromUsername === true;
  const verified = claims.email_verified;
  let email: string | null;
  if (fromUsername) {
    if (verified === false || verified === 'false') throw new AppError('SSO_FAILED', `${provider.name} says the address ${String(claims.email)} is not verified`);
    email = str(claims.email) ?? addressLike(claims.preferred_username) ?? addressLike(claims.upn);
  } else {
    email = str(claims.email);
    if (email && verified !== true) throw new AppError('SSO_FAILED', `${provider.name} did not confirm the address ${email} (email_verified is not true)`);
  }
  if (!email) throw new AppError('SSO_FAILED', `${provider.name} sent no e-mail address (ask for the "email" scope)`);
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === 'string') : [];
  return { email, name: str(claims.name), groups, claims: { ...claims } };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
