import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import type { SamlConfig } from '#events/organization/identity-providers.js';
import { randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { ExternalIdentity } from './provisioning.js';

/** How long an authentication request may wait for its answer. */
const REQUEST_TTL_MS = 10 * 60_000;
/** The clock skew allowed between the identity provider and this installation. */
const CLOCK_SKEW_MS = 30_000;
/** The longest an assertion id is remembered, whatever validity the assertion claims. */
const ASSERTION_MEMORY_MAX_MS = 24 * 3_600_000;
/** Attribute names that carry groups, as the common identity providers send them. */
const GROUP_ATTRIBUTES = ['groups', 'group', 'memberOf', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups', 'http://schemas.xmlsoap.org/claims/Group'];
const EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'name', 'cn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];

/**
 * SAML 2.0 as a service provider with `@node-saml/node-saml`: SP-initiated sign-in (HTTP-Redirect
 * request), the answer posted to the assertion consumer service with its assertion signed by the
 * configured certificate, in response to a request of ours (ids kept in the key-value store, so any
 * replica takes the answer), for our audience, within its validity.
 */
export class SamlClients {
  private readonly cache: CacheProvider;

  constructor(private readonly kv: KeyValueStore) {
    const key = (k: string) => `sso:saml-request:${k}`;
    this.cache = {
      saveAsync: async (k, value) => {
        const createdAt = Date.now();
        await kv.set(key(k), value, { ttlMs: REQUEST_TTL_MS });
        return { value, createdAt };
      },
      getAsync: (k) => kv.get(key(k)),
      removeAsync: async (k) => (k === null ? null : kv.take(key(k))),
    };
  }

  /** The service provider's entity id: configured, else the callback URL's origin with the path of its metadata. */
  entityId(provider: IdentityProviderRow, callbackUrl: string): string {
    return (provider.config as SamlConfig).spEntityId ?? callbackUrl.replace(/\/callback$/, '');
  }

  private saml(provider: IdentityProviderRow, callbackUrl: string, requestId?: string): SAML {
    const c = provider.config as SamlConfig;
    return new SAML({
      entryPoint: c.entryPoint,
      issuer: this.entityId(provider, callbackUrl),
      callbackUrl,
      idpCert: c.idpCertificate,
      audience: this.entityId(provider, callbackUrl),
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: this.cache,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });
  }

  /** Checks the settings make a request (the administration's "try this configuration"). */
  async check(provider: IdentityProviderRow, callbackUrl: string): Promise<{ entityId: string }> {
    try {
      this.saml(provider, callbackUrl);
    } catch (err) {
      throw new AppError('VALIDATION_FAILED', `The SAML settings do not work: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { entityId: this.entityId(provider, callbackUrl) };
  }

  async start(provider: IdentityProviderRow, callbackUrl: string, relayState: string): Promise<{ url: string; requestId: string }> {
    const requestId = `_${randomToken(20)}`;
    const url = await this.saml(provider, callbackUrl, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
    return { url, requestId };
  }

  async finish(provider: IdentityProviderRow, callbackUrl: string, samlResponse: string, requestId: string): Promise<ExternalIdentity> {
    let profile: Profile | null;
    try {
      profile = (await this.saml(provider, callbackUrl).validatePostResponseAsync({ SAMLResponse: samlResponse })).profile;
    } catch (err) {
      throw new AppError('SSO_FAILED', `${provider.name} answered with an assertion that does not check: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (!profile) throw new AppError('SSO_FAILED', `${provider.name} sent no assertion`);
    const assertion = (profile.getAssertion?.() as { Assertion?: AssertionTree } | undefined)?.Assertion;
    const confirmation = assertion?.Subject?.[0]?.SubjectConfirmation?.[0]?.SubjectConfirmationData?.[0]?.$;
    if (confirmation?.InResponseTo !== undefined && confirmation.InResponseTo !== requestId) throw new AppError('SSO_FAILED', 'The assertion answers another sign-in');
    // The bearer assertion is for this assertion consumer service, and so is the answer that carries it.
    if (confirmation?.Recipient !== callbackUrl) throw new AppError('SSO_FAILED', `The assertion's Recipient is not this service (${String(confirmation?.Recipient ?? 'none')})`);
    const destination = responseDestination(profile.getSamlResponseXml?.() ?? '');
    if (destination !== null && destination !== callbackUrl) throw new AppError('SSO_FAILED', `The answer's Destination is not this service (${destination})`);
    await this.rememberAssertion(provider, assertion, confirmation?.NotOnOrAfter);
    return identityOf(provider, profile);
  }

  /**
   * An assertion is taken once: its id is remembered (in the key-value store, for every replica) until it
   * lapses, so the same signed assertion wrapped in a new answer — one without InResponseTo, as identity
   * providers send unasked — cannot sign anyone in again.
   */
  private async rememberAssertion(provider: IdentityProviderRow, assertion: AssertionTree | undefined, confirmationEnd: string | undefined): Promise<void> {
    const id = assertion?.$?.ID;
    if (!id) throw new AppError('SSO_FAILED', 'The assertion has no ID');
    const ends = [confirmationEnd, assertion?.Conditions?.[0]?.$?.NotOnOrAfter].map((v) => (v ? Date.parse(v) : NaN)).filter((t) => Number.isFinite(t));
    const until = ends.length > 0 ? Math.min(...ends) + CLOCK_SKEW_MS : Date.now() + ASSERTION_MEMORY_MAX_MS;
    const ttlMs = Math.min(ASSERTION_MEMORY_MAX_MS, Math.max(60_000, until - Date.now()));
    const first = await this.kv.setIfAbsent(`sso:saml-assertion:${provider.id}:${id}`, '1', { ttlMs });
    if (!first) throw new AppError('SSO_FAILED', 'The assertion was already used to sign in');
  }
}

/** The parts of a parsed assertion the checks read (xml2js shape: attributes under `$`, children in arrays). */
interface AssertionTree {
  $?: { ID?: string };
  Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { InResponseTo?: string; Recipient?: string; NotOnOrAfter?: string } }[] }[] }[];
  Conditions?: { $?: { NotOnOrAfter?: string } }[];
}

/** The `Destination` of the answer's root `Response` element (its signature and structure already checked), or null without one. */
function responseDestination(xml: string): string | null {
  const root = /<(?:[A-Za-z_][\w.-]*:)?Response\b([^>]*)>/.exec(xml);
  const attr = root ? /\sDestination\s*=\s*("([^"]*)"|'([^']*)')/.exec(root[1]!) : null;
  return attr ? (attr[2] ?? attr[3] ?? '').replace(/&amp;/g, '&') : null;
}

function identityOf(provider: IdentityProviderRow, profile: Profile): ExternalIdentity {
  const first = (names: readonly string[]) => {
    for (const n of names) {
      const v = profile[n];
      if (typeof v === 'string' && v.length > 0) return v;
      if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
    }
    return null;
  };
  const nameId = profile.nameID && profile.nameID.includes('@') ? profile.nameID : null;
  const email = first(EMAIL_ATTRIBUTES) ?? nameId;
  if (!email) throw new AppError('SSO_FAILED', `${provider.name} sent no e-mail address (an "email" attribute or an e-mail NameID)`);
  const groups = GROUP_ATTRIBUTES.flatMap((n) => {
    const v = profile[n];
    return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : typeof v === 'string' ? [v] : [];
  });
  const claims: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(profile)) if (typeof v !== 'function') claims[k] = v;
  return { email, name: first(NAME_ATTRIBUTES), groups, claims };
}
