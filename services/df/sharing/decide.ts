import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { SessionAccess, SharingEvent } from '#events/df/sharing.js';

type Created = Extract<SharingEvent, { type: 'DeviceSessionInvitationCreated' }>['payload'];

export interface InvitationState {
  invitation: Created;
  uses: number;
  revoked: boolean;
  /** Users who accepted it and still hold the access it gave. */
  holders: number[];
}

/** One session's sharing: its invitations, and the users whose access the owner withdrew. */
export interface SharingState {
  invitations: Record<string, InvitationState>;
  withdrawn: number[];
}

export type SharingCommand =
  | { type: 'CreateInvitation'; invitation: Created }
  | { type: 'RevokeInvitation'; sessionId: string; invitationId: string }
  /** `at`: the command's time, against which the invitation's expiry is checked. */
  | { type: 'AcceptInvitation'; sessionId: string; invitationId: string; userId: number; at: string }
  | { type: 'DisconnectViewer'; sessionId: string; userId: number }
  | { type: 'RecordViewerJoined'; sessionId: string; userId: number; access: SessionAccess };

const RANK: Record<SessionAccess, number> = { view: 1, control: 2 };

/** The strongest access a user holds through the session's invitations, or null. */
export function accessOf(state: SharingState, userId: number): SessionAccess | null {
  let best: SessionAccess | null = null;
  for (const i of Object.values(state.invitations)) {
    if (i.revoked || !i.holders.includes(userId)) continue;
    if (best === null || RANK[i.invitation.access] > RANK[best]) best = i.invitation.access;
  }
  return best;
}

const invitationOf = (state: SharingState, invitationId: string): InvitationState => {
  const found = state.invitations[invitationId];
  if (!found) throw new AppError('NOT_FOUND', 'Invitation not found');
  return found;
};

const update = (state: SharingState, invitationId: string, change: (i: InvitationState) => InvitationState): SharingState => {
  const current = state.invitations[invitationId];
  return current ? { ...state, invitations: { ...state.invitations, [invitationId]: change(current) } } : state;
};

/**
 * Invitations to one session. A user invitation is accepted only by the user it names; a link by any
 * coworker, until it expires, is revoked or has been accepted `maxUses` times (a user accepting again
 * is not counted twice). Disconnecting a viewer withdraws every access they were given and refuses
 * links to them afterwards; only a new user invitation naming them gives access back.
 */
export const sharingDecider = defineDecider<SharingCommand, SharingEvent, SharingState>({
  initialState: () => ({ invitations: {}, withdrawn: [] }),
  evolve: {
    DeviceSessionInvitationCreated: (state, { payload }) => ({
      invitations: { ...state.invitations, [payload.invitationId]: { invitation: payload, uses: 0, revoked: false, holders: [] } },
      withdrawn: payload.userId === null ? state.withdrawn : state.withdrawn.filter((u) => u !== payload.userId),
    }),
    DeviceSessionInvitationRevoked: (state, { payload }) => update(state, payload.invitationId, (i) => ({ ...i, revoked: true, holders: [] })),
    DeviceSessionInvitationAccepted: (state, { payload }) =>
      update(state, payload.invitationId, (i) => ({ ...i, uses: payload.uses, holders: [...i.holders.filter((u) => u !== payload.userId), payload.userId] })),
    DeviceSessionViewerDisconnected: (state, { payload }) => {
      const invitations: Record<string, InvitationState> = {};
      for (const [id, i] of Object.entries(state.invitations)) invitations[id] = { ...i, holders: i.holders.filter((u) => u !== payload.userId) };
      return { invitations, withdrawn: [...state.withdrawn.filter((u) => u !== payload.userId), payload.userId] };
    },
    // A record of who watched (for the audit); it changes no one's access.
    DeviceSessionViewerJoined: (state) => state,
  },
  decide: {
    CreateInvitation: ({ invitation }, state) => {
      if (state.invitations[invitation.invitationId]) throw new AppError('ALREADY_EXISTS', 'Invitation already exists');
      return [{ type: 'DeviceSessionInvitationCreated', payload: invitation }];
    },
    RevokeInvitation: (command, state) =>
      invitationOf(state, command.invitationId).revoked ? [] : [{ type: 'DeviceSessionInvitationRevoked', payload: { sessionId: command.sessionId, invitationId: command.invitationId } }],
    AcceptInvitation: (command, state) => {
      const found = invitationOf(state, command.invitationId);
      const { invitation } = found;
      // A user invitation is not even revealed to anyone but the user it names.
      if (invitation.type === 'user' && invitation.userId !== command.userId) throw new AppError('NOT_FOUND', 'Invitation not found');
      if (found.revoked) throw new AppError('INVITATION_REVOKED', 'This invitation was revoked');
      if (found.holders.includes(command.userId)) return [];
      if (Date.parse(command.at) >= Date.parse(invitation.expiresAt)) throw new AppError('INVITATION_EXPIRED', `This invitation expired at ${invitation.expiresAt}`);
      if (state.withdrawn.includes(command.userId)) throw new AppError('SESSION_ACCESS_WITHDRAWN', "The session's owner disconnected you from this session");
      if (invitation.maxUses !== null && found.uses >= invitation.maxUses) throw new AppError('INVITATION_EXHAUSTED', `This link was used ${found.uses} of ${invitation.maxUses} times`);
      return [
        {
          type: 'DeviceSessionInvitationAccepted',
          payload: { sessionId: command.sessionId, invitationId: command.invitationId, userId: command.userId, access: invitation.access, uses: found.uses + 1 },
        },
      ];
    },
    DisconnectViewer: (command) => [{ type: 'DeviceSessionViewerDisconnected', payload: { sessionId: command.sessionId, userId: command.userId } }],
    RecordViewerJoined: (command) => [{ type: 'DeviceSessionViewerJoined', payload: { sessionId: command.sessionId, userId: command.userId, access: command.access } }],
  },
});
