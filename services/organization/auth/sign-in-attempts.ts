import { getUserByEmail } from '#projections/org-directory/index.js';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { commandContext, eventMetadata } from '#shared/es/index.js';
import type { NewEvent } from '#shared/es/index.js';
import type { SignInEvent, SignInFailureReason } from '#events/organization/users.js';
import type { Platform } from '../../platform.js';
import type { SignInSessions } from './sessions.js';

/** Where an attempt comes from: the client's address and browser, and the request's id (the events' correlation id). */
export interface SignInClient {
  address: string;
  userAgent: string | null;
  requestId: string;
}

/**
 * One sign-in attempt: how (a password kept here, single sign-on through OpenID Connect or SAML, a
 * directory), through which provider, by whom (a known account, or an address of a company: an address
 * without an account there records nothing, as the log is of accounts), how it ended, and from where.
 */
export type SignInAttempt = {
  who: { user: { id: number; companyId: number } } | { email: string; companyId: number };
  /** Null for a success. */
  failure: SignInFailureReason | null;
  client: SignInClient;
} & ({ method: 'password' } | { method: 'sso' | 'ldap'; provider: Pick<IdentityProviderRow, 'id' | 'type' | 'name'> });

/**
 * The one record of sign-in attempts, password and provider alike: `SignInSucceeded` or `SignInFailed`
 * on the user's `user-signins-<id>` stream, the provider named when there is one, the request's id as
 * correlation id. A success is appended with the session it starts, in one append.
 */
export class SignInAttempts {
  constructor(
    private readonly platform: Platform,
    private readonly sessions: SignInSessions,
  ) {}

  /** Records an attempt, and `started` (the session a success starts) with it. False when nobody has the address. */
  async record(attempt: SignInAttempt, started?: NewEvent): Promise<boolean> {
    const { who } = attempt;
    const user = 'user' in who ? who.user : await getUserByEmail(this.platform.db, who.companyId, who.email);
    if (!user) return false;
    await this.sessions.record(user.id, [this.event(user, attempt), ...(started ? [started] : [])]);
    return true;
  }

  private event(user: { id: number; companyId: number }, attempt: SignInAttempt): NewEvent {
    const { client, failure } = attempt;
    const provider = attempt.method === 'password' ? {} : { provider: { id: attempt.provider.id, type: attempt.provider.type, name: attempt.provider.name } };
    const payload = { userId: user.id, address: client.address, userAgent: client.userAgent, ...provider };
    const metadata = eventMetadata({ ...commandContext(this.platform, { actorId: user.id, companyId: user.companyId }), correlationId: client.requestId });
    const event: SignInEvent = failure === null ? { type: 'SignInSucceeded', payload } : { type: 'SignInFailed', payload: { ...payload, reason: failure } };
    return { ...event, metadata };
  }
}
