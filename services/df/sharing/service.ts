import { randomUUID } from 'node:crypto';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { findInvitation, holdersOf, invitationByTokenHash, sharedAccess } from '#projections/df-session-sharing/index.js';
import { sessionById } from '#projections/df-sessions/index.js';
import { getUser, getUserByEmail } from '#projections/org-directory/index.js';
import { sharingStream, type InvitationType, type SessionAccess, type SharingEvent } from '#events/df/sharing.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { commandContext, handleCommand, type CommandActor, type CommandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { currentRequest } from '#shared/request-context.js';
import { sendLimitsOf, type SendLimits } from '#services/organization/auth/index.js';
import type { Platform } from '../../platform.js';
import type { ScreenHub } from '../core/screen-hub.js';
import type { Caller } from '../http.js';
import { userName } from '../core/session-access.js';
import { sharingDecider, type SharingCommand } from './decide.js';

const READ_MODEL = 'df-session-sharing';
/** The start of every invitation token, so a leaked one is recognisable. */
export const INVITATION_TOKEN_PREFIX = 'dfs_';
const HOUR_MS = 3_600_000;
/** A user invitation can be accepted for a week; a link for a day unless it says otherwise, at most 30 days. */
const USER_INVITATION_TTL_MS = 7 * 24 * HOUR_MS;
const LINK_DEFAULT_TTL_MS = 24 * HOUR_MS;
const LINK_MAX_TTL_MS = 30 * 24 * HOUR_MS;

export type InviteInput =
  | { userId: number; access: SessionAccess }
  | { email: string; access: SessionAccess }
  | { link: true; access: SessionAccess; expiresAt?: string | undefined; maxUses?: number | undefined };

/** What creating an invitation answers: a link's token and URL are in this answer only. */
export interface CreatedInvitation {
  id: string;
  type: InvitationType;
  access: SessionAccess;
  url?: string;
  token?: string;
  expiresAt: string;
  maxUses: number | null;
  uses: number;
  createdAt: string;
}

/** The application page that accepts an invitation: `{APP_URL}/device-farm/session-invite/{token}`. */
export const invitationUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/+$/, '')}/device-farm/session-invite/${encodeURIComponent(token)}`;

/**
 * Sharing a session: invitations to named coworkers (mailed) and shareable links (shown once, stored
 * as a hash), accepting them, revoking them, and disconnecting a viewer for good. Every change is an
 * event on the session's sharing stream; answers wait for the `df-session-sharing` read model.
 */
export class SharingService {
  /** The installation's mail limits, shared with the organization's invitations and password resets. */
  private readonly sendLimits: SendLimits;

  constructor(private readonly platform: Platform, private readonly hub: ScreenHub) {
    this.sendLimits = sendLimitsOf(platform.counters, platform.config);
  }

  private async run(sessionId: string, command: SharingCommand, context: CommandContext): Promise<SharingEvent[]> {
    const result = await handleCommand({ store: this.platform.store, streamId: sharingStream(sessionId), decider: sharingDecider, command, context, maxAttempts: 10 });
    if (result.position !== null) await this.platform.readModels.waitFor(result.position, { names: [READ_MODEL] });
    return result.events;
  }

  private actor(caller: { userId: number }, session: Pick<SessionRecord, 'companyId' | 'workspaceId'>): CommandActor {
    return { actorId: caller.userId, companyId: session.companyId, workspaceId: session.workspaceId };
  }

  /**
   * Invites a coworker (mailed a link) or creates a shareable link to an active session. A mailed
   * invitation counts against the hourly mail limits (`MAIL_MAX_PER_ADDRESS_PER_HOUR` per inviting
   * address, `MAIL_MAX_PER_EMAIL_PER_HOUR` per recipient, with every other mail to them), so no one
   * can flood a coworker's mailbox through a session.
   */
  async invite(session: SessionRecord, caller: Caller, input: InviteInput): Promise<CreatedInvitation> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `Only active sessions can be shared; this one is ${session.status}`);
    if (session.type === 'automation' && input.access === 'control') {
      throw new AppError('SESSION_VIEW_ONLY', 'An automation session can be shared to watch it (access "view"), not to control it');
    }
    const now = this.platform.now();
    const token = `${INVITATION_TOKEN_PREFIX}${randomToken(32)}`;
    const invitationId = randomUUID();
    let invitee: { id: number; email: string } | null = null;
    let expiresAt: Date;
    let maxUses: number | null = null;
    if ('link' in input) {
      expiresAt = input.expiresAt ? new Date(input.expiresAt) : new Date(now.getTime() + LINK_DEFAULT_TTL_MS);
      if (expiresAt.getTime() <= now.getTime()) throw new AppError('BAD_REQUEST', 'expiresAt must be in the future');
      if (expiresAt.getTime() > now.getTime() + LINK_MAX_TTL_MS) throw new AppError('BAD_REQUEST', 'A link is valid for at most 30 days');
      maxUses = input.maxUses ?? null;
    } else {
      const user = 'userId' in input ? await getUser(this.platform.db, session.companyId, input.userId) : await getUserByEmail(this.platform.db, session.companyId, input.email);
      if (!user || user.status !== 'active') throw new AppError('NOT_FOUND', 'No active coworker with this id or e-mail address');
      if (user.id === session.ownerId) throw new AppError('BAD_REQUEST', "The session's owner has access already");
      // Before anything is recorded: a refused invitation (429 with Retry-After) leaves no trace to accept.
      const client = currentRequest()?.clientAddress;
      if (client) await this.sendLimits.chargeAddress('mail', client);
      await this.sendLimits.chargeRecipient(user.email);
      invitee = { id: user.id, email: user.email };
      expiresAt = new Date(now.getTime() + USER_INVITATION_TTL_MS);
    }
    const type: InvitationType = invitee ? 'user' : 'link';
    await this.run(
      session.id,
      {
        type: 'CreateInvitation',
        invitation: {
          sessionId: session.id,
          invitationId,
          type,
          access: input.access,
          userId: invitee?.id ?? null,
          email: invitee?.email ?? null,
          tokenHash: hashToken(token),
          expiresAt: expiresAt.toISOString(),
          maxUses,
          companyId: session.companyId,
          workspaceId: session.workspaceId,
          createdBy: caller.userId,
        },
      },
      commandContext(this.platform, this.actor(caller, session)),
    );
    const url = invitationUrl(this.platform.publicAddress.base, token);
    const created: CreatedInvitation = { id: invitationId, type, access: input.access, expiresAt: expiresAt.toISOString(), maxUses, uses: 0, createdAt: now.toISOString() };
    if (!invitee) return { ...created, url, token };
    const inviter = await userName(this.platform.db, session.companyId, caller.userId);
    const what = input.access === 'control' ? 'watch and control' : 'watch';
    await this.platform.mailer.send({
      to: invitee.email,
      subject: `${inviter} invited you to a device session`,
      text: `${inviter} invited you to ${what} the device session "${session.name}" on ${session.deviceName}.\n\nOpen it here (valid until ${expiresAt.toISOString()}): ${url}\n`,
    });
    return created;
  }

  /** Revokes an invitation: it cannot be accepted any more, and the access it gave ends (their viewers are disconnected). */
  async revoke(session: SessionRecord, caller: Caller, invitationId: string, type: InvitationType): Promise<void> {
    const invitation = found(await findInvitation(this.platform.db, session.id, invitationId, type), 'Invitation not found');
    const holders = await holdersOf(this.platform.db, invitation.id);
    const before = new Map<number, SessionAccess | null>();
    for (const u of holders) before.set(u, await sharedAccess(this.platform.db, session.id, u));
    await this.run(session.id, { type: 'RevokeInvitation', sessionId: session.id, invitationId: invitation.id }, commandContext(this.platform, this.actor(caller, session)));
    for (const u of holders) {
      if (u === session.ownerId) continue;
      if ((await sharedAccess(this.platform.db, session.id, u)) !== before.get(u)) await this.hub.disconnectEverywhere(session.id, u, { code: 'INVITATION_REVOKED', message: 'The invitation that gave you access to this session was revoked' });
    }
  }

  /** Accepts an invitation by its token: the user gets its access to that one session. */
  async accept(token: string, user: { userId: number; companyId: number }): Promise<{ sessionId: string; workspaceId: number; access: SessionAccess }> {
    const invitation = await invitationByTokenHash(this.platform.db, hashToken(token));
    if (!invitation || invitation.companyId !== user.companyId) throw new AppError('NOT_FOUND', 'Invitation not found');
    const session = found(await sessionById(this.platform.db, invitation.sessionId), 'Invitation not found');
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The shared session is ${session.status}`);
    await this.run(
      session.id,
      { type: 'AcceptInvitation', sessionId: session.id, invitationId: invitation.id, userId: user.userId, at: this.platform.now().toISOString() },
      commandContext(this.platform, this.actor(user, session)),
    );
    return { sessionId: session.id, workspaceId: session.workspaceId, access: session.type === 'automation' ? 'view' : invitation.access };
  }

  /** Records that a user started watching the session (the audit's "who watched"); their context carries the address. */
  async viewerJoined(session: SessionRecord, userId: number, access: SessionAccess): Promise<void> {
    await handleCommand({
      store: this.platform.store,
      streamId: sharingStream(session.id),
      decider: sharingDecider,
      command: { type: 'RecordViewerJoined', sessionId: session.id, userId, access },
      context: commandContext(this.platform, this.actor({ userId }, session)),
      maxAttempts: 10,
    });
  }

  /** Disconnects a user's viewers of the session at once and withdraws their access to it. */
  async disconnect(session: SessionRecord, caller: Caller, userId: number): Promise<number> {
    await this.run(session.id, { type: 'DisconnectViewer', sessionId: session.id, userId }, commandContext(this.platform, this.actor(caller, session)));
    return this.hub.disconnectEverywhere(session.id, userId);
  }
}

