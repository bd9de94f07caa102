import { defaultWorkspaceId, getUserByEmail, type UserView } from '#projections/org-directory/index.js';
import { emailDomain } from '#projections/org-domains/index.js';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { hashPassword, randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import type { AuthService, ClientInfo, TokenPair } from '../auth/service.js';
import { requireOwnAddress } from '../domains/index.js';
import { orgAggregate } from '../service.js';
import { registerUser, userDecider, userStream, type SignInFailureReason } from '../users/index.js';
import { applyGrants, grantsOf, type ExternalIdentity } from './provisioning.js';

/** How a sign-in through this provider is recorded: a directory's, or single sign-on's. */
const attemptThrough = (provider: IdentityProviderRow) => ({ method: provider.type === 'ldap' ? ('ldap' as const) : ('sso' as const), provider });

/**
 * A sign-in through an identity provider is a normal sign-in: the person the provider vouches for, at
 * an address of one of its domains that its company has verified, is found in (or, when allowed, provisioned into) the provider's company by e-mail address, given what
 * the provider's mappings grant, and gets a token pair in a new sign-in session; the sign-in log and
 * the audit record the attempt with the provider named.
 */
export class ProviderSignIn {
  constructor(
    private readonly platform: Platform,
    private readonly auth: AuthService,
  ) {}

  async signIn(provider: IdentityProviderRow, identity: ExternalIdentity, client: ClientInfo): Promise<TokenPair> {
    const email = identity.email.trim();
    const domain = emailDomain(email);
    if (!domain || !provider.domains.includes(domain)) {
      throw new AppError('SSO_FAILED', `${provider.name} vouched for an address outside its domains (${provider.domains.join(', ')})`);
    }
    // A provider speaks only for addresses its company has proven its own: another company's people are not its to sign in or create.
    await requireOwnAddress(this.platform.db, provider.companyId, email);
    let user = await getUserByEmail(this.platform.db, provider.companyId, email);
    if (!user) {
      if (!provider.jitProvisioning) throw new AppError('SSO_NOT_PROVISIONED', `No account for ${email}; ask an administrator to create it`);
      const grants = grantsOf(provider.mappings, identity);
      const person = { status: 'active', origin: 'sso', companyId: provider.companyId, email, name: identity.name ?? '', roleIds: grants.roleIds } as const;
      const created = await registerUser(this.platform, person, commandContext(this.platform, { companyId: provider.companyId }));
      user = await getUserByEmail(this.platform.db, provider.companyId, email);
      if (!user) throw new Error(`provisioned user ${created.userId} is not in the directory`);
    }
    if (user.status === 'deactivated') {
      await this.auth.signIns.record({ ...attemptThrough(provider), who: { user }, failure: 'inactive', client });
      throw new AppError('ACCOUNT_DISABLED', 'This account is not active');
    }
    if (user.status === 'passive') user = await this.acceptInvitation(user, identity, commandContext(this.platform, { actorId: user.id, companyId: provider.companyId }));
    await applyGrants(this.platform, user, grantsOf(provider.mappings, identity), commandContext(this.platform, { actorId: user.id, companyId: provider.companyId }));
    const session = { userId: user.id, companyId: user.companyId, workspaceId: await defaultWorkspaceId(this.platform.db, { userId: user.id, companyId: user.companyId }) };
    return this.auth.startSession(session, client, { ...attemptThrough(provider), who: { user }, failure: null, client });
  }

  /** Records a refused sign-in of a known user (a wrong directory password) with the provider named. */
  async refused(provider: IdentityProviderRow, email: string, client: ClientInfo, reason: SignInFailureReason): Promise<void> {
    await this.auth.signIns.record({ ...attemptThrough(provider), who: { email, companyId: provider.companyId }, failure: reason, client });
  }

  /** An invited user who signs in through their provider has accepted the invitation: the provider vouched for the address. */
  private async acceptInvitation(user: UserView, identity: ExternalIdentity, ctx: CommandContext): Promise<UserView> {
    const activation = { type: 'ActivateUser', ...(identity.name ? { name: identity.name } : {}), passwordHash: await hashPassword(randomToken(32)) } as const;
    await orgAggregate(this.platform, userDecider, userStream).run(user.id, activation, ctx);
    return (await getUserByEmail(this.platform.db, user.companyId, user.email)) ?? user;
  }
}
