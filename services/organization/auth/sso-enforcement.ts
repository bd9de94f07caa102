import { credentialApproved } from '#projections/org-credentials/index.js';
import { domainOwner } from '#projections/org-domains/index.js';
import { cachedByVersion, type Cached } from '#shared/cached-by-version.js';
import { findUserById, usersAtDomains } from '#projections/org-directory/index.js';
import { listIdentityProviders, type IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { activePasswordSessions } from '#projections/sign-in-sessions/index.js';
import type { Platform } from '../../platform.js';
import { enforcingIdentityProvider } from '../domains/index.js';
import type { SessionActor, SignInSessions } from './sessions.js';

/** How long an answer about a credential is trusted where another process runs the read models (as the gateway's access answers). */
const HOLD_TTL_MS = 2000;

/** A credential as the hold needs it: whose it is and how its creator was signed in when they made it. */
export interface HeldCandidate {
  credentialId: string;
  userId: number;
  signIn: 'password' | 'sso';
}

/**
 * What "single sign-on required" ends (docs/modules/identity.md, "What enforcement ends"): a person
 * whose address is at a domain their own company verified and enforces signs in only through its
 * provider; their password sessions end when the rule begins, and every credential they made from a
 * password sign-in (API keys, OAuth clients, device keys) is held until an administrator approves it.
 * Only the company that verified the domain decides (services/organization/domains/ownership.ts), never
 * another one.
 */
export class SsoEnforcement {
  /** Whether a password-made credential is held, kept while the read models stand still (a check on every request of a key). */
  private readonly held: Cached<[HeldCandidate], boolean>;

  constructor(
    private readonly platform: Platform,
    private readonly sessions: SignInSessions,
  ) {
    this.held = cachedByVersion((c: HeldCandidate) => this.decideHold(c), (c) => c.credentialId, { version: () => platform.readModels.version?.(), ttlMs: HOLD_TTL_MS });
  }

  /** The provider that is the only way in for this address, or null: the enforcing one of the company that verified its domain. */
  async requiredFor(user: { email: string }): Promise<IdentityProviderRow | null> {
    return enforcingIdentityProvider(this.platform.db, user.email);
  }

  /** Whether this credential must wait for an administrator's approval before it works again. */
  async holds(c: HeldCandidate): Promise<boolean> {
    return c.signIn === 'sso' ? false : this.held(c);
  }

  private async decideHold(c: HeldCandidate): Promise<boolean> {
    const { db } = this.platform;
    const user = await findUserById(db, c.userId);
    if (!user || !(await this.requiredFor(user))) return false;
    return !(await credentialApproved(db, c.credentialId));
  }

  /**
   * Ends the password sign-in sessions of the company's people whose domain the company now enforces
   * (called after a provider starts enforcing or a domain is verified). The number ended.
   */
  async endPasswordSessions(companyId: number, actor: SessionActor): Promise<number> {
    const { db } = this.platform;
    const domains = await this.enforcedDomains(companyId);
    const users = await usersAtDomains(db, companyId, domains);
    const sessions = await activePasswordSessions(db, users, this.platform.now());
    for (const s of sessions) await this.sessions.end({ sessionId: s.sid, userId: s.userId }, 'sso_required', actor);
    return sessions.length;
  }

  /** The domains the company owns and enforces through one of its enabled providers. */
  private async enforcedDomains(companyId: number): Promise<string[]> {
    const candidates = new Set<string>();
    for (const p of await listIdentityProviders(this.platform.db, companyId)) if (p.enabled && p.enforce) for (const d of p.domains) candidates.add(d);
    const enforced: string[] = [];
    for (const domain of candidates) if ((await domainOwner(this.platform.db, domain)) === companyId) enforced.push(domain);
    return enforced.sort();
  }
}
