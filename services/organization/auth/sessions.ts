import { findUserById } from '#projections/org-directory/index.js';
import { findSignInSession, listActiveSignInSessions, recordSignInSessionUse, signInSessionEnded, signInSessionsEndedSince, type SignInSessionView } from '#projections/sign-in-sessions/index.js';
import { signInEvents, userSignInStream, type SignInEvent, type SignInMethod, type SignInSessionEndReason } from '#events/organization/users.js';
import { commandContext, eventMetadata } from '#shared/es/index.js';
import type { NewEvent } from '#shared/es/index.js';
import type { Page } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import type { RefreshTokens } from './refresh-tokens.js';
import type { AccessRevocations, RevocationRecord } from './revocation.js';

/** How often, at most, one replica writes the last use of one session. */
const USE_WRITE_INTERVAL_MS = 60_000;
/** Sessions whose last write this replica remembers, before it forgets the stale ones. */
const USE_MEMORY = 20_000;

export const SIGN_IN_SESSIONS_READ_MODEL = 'sign-in-sessions';

/** Where a sign-in came from. */
export interface SessionClient {
  address: string | null;
  userAgent: string | null;
}

/**
 * Who ends sessions, for the events' metadata (the user themselves, an administrator, or nobody: theft
 * detection); the request being handled, if any, is the correlation id.
 */
export interface SessionActor {
  actorId: number | null;
  companyId: number | null;
}

/**
 * Sign-in sessions: one per sign-in (or sign-up), the refresh-token family and the `sid` claim of every
 * access token it mints, switched workspaces included. A session is the unit of revocation: ending one
 * ends its refresh family and, through a marker in the key-value store that every replica reads with
 * its usual revocation check, every access token of it at once. Their life is recorded on the user's
 * `user-signins-<id>` stream (`SignInSessionStarted`, `SignInSessionEnded`, `SignInSessionsEnded`) and
 * listed from the `sign-in-sessions` read model.
 */
export class SignInSessions {
  /** Session id → when this replica last wrote its use. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly platform: Platform,
    private readonly refreshTokens: RefreshTokens,
    private readonly revocations: AccessRevocations,
  ) {}

  /** The event that records the start of a session (appended by the caller, with the sign-in's own events). */
  startedEvent(
    user: { userId: number; companyId: number },
    sessionId: string,
    client: SessionClient | null,
    actor: SessionActor = { actorId: user.userId, companyId: user.companyId },
    method: SignInMethod = 'password',
  ): NewEvent {
    const now = this.platform.now();
    const event = {
      type: 'SignInSessionStarted',
      payload: {
        userId: user.userId,
        signInSessionId: sessionId,
        address: client?.address ?? null,
        userAgent: client?.userAgent ?? null,
        expiresAt: new Date(now.getTime() + this.platform.config.REFRESH_TOKEN_TTL).toISOString(),
        method,
      },
    } satisfies SignInEvent;
    return { ...event, metadata: this.metadata(actor) };
  }

  /** Appends facts to a user's sign-in stream (no decider: they record what happened). */
  async record(userId: number, events: NewEvent[]): Promise<bigint> {
    for (const e of events) signInEvents.parse(e);
    return (await this.platform.store.append(userSignInStream(userId), events, 'any')).position;
  }

  /**
   * Ends one session: its access tokens are refused from the next request on, in every replica, and
   * its refresh tokens no longer refresh. `userId` is null when the owner is unknown (nothing to list).
   * The event comes first: it is the revocation; the key-value store only caches it.
   */
  async end(session: { sessionId: string; userId: number | null }, reason: SignInSessionEndReason, actor: SessionActor): Promise<void> {
    let recordedAt: bigint | undefined;
    if (session.userId !== null) {
      const event = { type: 'SignInSessionEnded', payload: { userId: session.userId, signInSessionId: session.sessionId, reason } } satisfies SignInEvent;
      recordedAt = await this.record(session.userId, [{ ...event, metadata: this.metadata(actor) }]);
    }
    await this.revocations.endSession(session.sessionId, recordedAt);
    // A refresh checks the session's end too, so a family left behind by an unreachable store refreshes nothing.
    await this.refreshTokens.revokeFamily(session.sessionId).catch((err: unknown) => {
      if (session.userId === null) throw err;
      this.platform.logger.warn({ err, sessionId: session.sessionId }, 'dropping the refresh family of an ended session failed');
    });
  }

  /**
   * Ends every session of a user ("sign out everywhere"): every access and refresh token issued until
   * now is refused. A password change, deactivation and deletion do the same through
   * `revokeUserTokensBefore`, and their own events end the listed sessions.
   */
  async endAll(userId: number, actor: SessionActor): Promise<void> {
    const at = this.platform.now();
    const event = { type: 'SignInSessionsEnded', payload: { userId, reason: 'signed_out_everywhere' } } satisfies SignInEvent;
    const recordedAt = await this.record(userId, [{ ...event, metadata: this.metadata(actor) }]);
    await this.revocations.revokeUserTokensBefore(userId, at, recordedAt);
  }

  /** Ends a session after its refresh token was used twice, filing it under its user's company. */
  async endStolen(sessionId: string, userId: number | null): Promise<void> {
    const user = userId === null ? null : await findUserById(this.platform.db, userId);
    await this.end({ sessionId, userId: user ? user.id : null }, 'refresh_token_reused', { actorId: null, companyId: user?.companyId ?? null });
  }

  /** A user's sessions that have neither ended nor expired, the latest used first. */
  async list(userId: number, page: number, size: number): Promise<Page<SignInSessionView>> {
    await this.caughtUp();
    return listActiveSignInSessions(this.platform.db, userId, this.platform.now(), page, size);
  }

  /** One active session of a user; null when it is another user's, unknown, ended or expired. */
  async findActive(userId: number, sessionId: string): Promise<SignInSessionView | null> {
    await this.caughtUp();
    const found = await findSignInSession(this.platform.db, userId, sessionId);
    if (!found || found.endedAt !== null || new Date(found.expiresAt) <= this.platform.now()) return null;
    return found;
  }

  /**
   * Notes a use of a session by a request (access control calls it for every access token with a
   * `sid`): written at most once a minute per session and replica, in the background, so the request
   * pays nothing for it beyond a map look-up.
   */
  used(sessionId: string, address: string | null): void {
    const now = this.platform.now();
    const last = this.written.get(sessionId);
    if (last !== undefined && now.getTime() - last < USE_WRITE_INTERVAL_MS) return;
    if (this.written.size >= USE_MEMORY) {
      for (const [id, at] of this.written) if (now.getTime() - at >= USE_WRITE_INTERVAL_MS) this.written.delete(id);
      if (this.written.size >= USE_MEMORY) this.written.clear();
    }
    this.written.set(sessionId, now.getTime());
    recordSignInSessionUse(this.platform.db, sessionId, now, address).catch((err: unknown) => {
      this.written.delete(sessionId);
      this.platform.logger.warn({ err, sessionId }, 'recording the use of a sign-in session failed');
    });
  }

  /** Sessions begin and end without waiting for their read model; reads catch it up to now. */
  private async caughtUp(): Promise<void> {
    await this.platform.readModels.waitFor(await this.platform.store.headPosition(), { names: [SIGN_IN_SESSIONS_READ_MODEL] });
  }

  private metadata(actor: SessionActor) {
    return eventMetadata(commandContext(this.platform, { actorId: actor.actorId, companyId: actor.companyId }));
  }
}

/** The sign-in-sessions read model as the durable record of revocations (see `AccessRevocations`). */
export function signInSessionRecord(platform: Platform): RevocationRecord {
  return {
    sessionEnded: (sid) => signInSessionEnded(platform.db, sid),
    endedSince: (since) => signInSessionsEndedSince(platform.db, since),
    caughtUp: async (position) => {
      const head = await platform.store.headPosition();
      await platform.readModels.waitFor(position !== undefined && position > head ? position : head, { names: [SIGN_IN_SESSIONS_READ_MODEL] });
    },
  };
}
