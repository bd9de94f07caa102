import { AppError } from '#shared/errors.js';
import { defineDecider, firstEvent } from '#shared/es/index.js';
import { changedFields, evolveWhile } from '#shared/es/index.js';
import type { EmailClaimEvent, ProfileImage, UserChanges, UserEvent } from '#events/organization/users.js';

type Payload<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>['payload'];

/**
 * Commands on a user. Those issued by a caller carry the caller's `companyId`: a user of another
 * company is then "not found", a tenant wall on the write side that does not trust any read model.
 */
export type UserCommand =
  | ({ type: 'RegisterUser' } & Payload<'UserRegistered'>)
  | ({ type: 'InviteUser' } & Payload<'UserInvited'>)
  | { type: 'ReinviteUser'; companyId: number; invitedBy: number; workspaceIds?: number[] }
  | { type: 'ActivateUser'; name?: string; passwordHash: string; image?: ProfileImage }
  | { type: 'DeactivateUser'; companyId: number }
  | { type: 'ReactivateUser'; companyId: number }
  | { type: 'UpdateUser'; companyId: number; changes: UserChanges }
  | { type: 'ReplaceRoles'; companyId: number; roleIds: number[] }
  | { type: 'SetAdmin'; companyId: number; isAdmin: boolean }
  | { type: 'SetProfileImage'; companyId: number; image: ProfileImage }
  | { type: 'RemoveProfileImage'; companyId: number }
  | { type: 'ChangePassword'; companyId?: number; passwordHash: string; reason: Payload<'UserPasswordChanged'>['reason'] }
  | { type: 'DeleteUser'; companyId: number }
  | { type: 'EraseUser'; companyId: number };

export type UserStatus = 'passive' | 'active' | 'deactivated';

export interface LiveUser {
  status: UserStatus;
  userId: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  /** Null until an invited user sets one. */
  passwordHash: string | null;
  isAdmin: boolean;
  roleIds: number[];
  image: ProfileImage | null;
  title: string | null;
  phone: string | null;
  /** Who invited the user last and the workspaces granted on activation; null for a sign-up. */
  invitation: { invitedBy: number; workspaceIds: number[] } | null;
}

/** A deleted user: whose company they were of (absent in states folded before it was kept) and whether they are erased. */
export type UserState = { status: 'none' } | LiveUser | { status: 'deleted'; userId: number; companyId?: number; erased?: boolean };

const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x));

const isLive = (state: UserState): state is LiveUser => state.status !== 'none' && state.status !== 'deleted';

/** Events other than registration, invitation and deletion change a user who is there (invited, active or deactivated). */
const whileLive = evolveWhile(isLive);

function live(state: UserState, companyId: number | undefined): LiveUser {
  if (!isLive(state)) throw new AppError('NOT_FOUND', 'User not found');
  if (companyId !== undefined && state.companyId !== companyId) throw new AppError('NOT_FOUND', 'User not found');
  return state;
}

/** What every new user starts with, signed up or invited: who they are, no image, title or phone. */
const newUser = (p: { userId: number; companyId: number; email: string; username: string }) => ({
  userId: p.userId,
  companyId: p.companyId,
  email: p.email,
  username: p.username,
  image: null,
  title: null,
  phone: null,
});

export const userDecider = defineDecider<UserCommand, UserEvent, UserState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    UserRegistered: (_state, { payload: p }) => ({ ...newUser(p), status: 'active', name: p.name, passwordHash: p.passwordHash, isAdmin: p.isAdmin, roleIds: p.roleIds ?? [], invitation: null }),
    UserInvited: (_state, { payload: p }) => {
      const invitation = { invitedBy: p.invitedBy, workspaceIds: p.workspaceIds ?? [] };
      return { ...newUser(p), status: 'passive', name: '', passwordHash: null, isAdmin: false, roleIds: p.roleIds, invitation };
    },
    UserDeleted: (state, event) => ({ status: 'deleted', userId: event.payload.userId, ...(isLive(state) ? { companyId: state.companyId } : {}), erased: false }),
    UserErased: (state) => (state.status === 'deleted' ? { ...state, erased: true } : state),
    UserPasswordChanged: whileLive((state, event) => ({ ...state, passwordHash: event.payload.passwordHash })),
    UserReinvited: whileLive((state, event) => {
      const workspaceIds = event.payload.workspaceIds ?? state.invitation?.workspaceIds ?? [];
      return { ...state, invitation: { invitedBy: event.payload.invitedBy, workspaceIds } };
    }),
    UserActivated: whileLive((state, event) => ({ ...state, status: 'active', name: event.payload.name, passwordHash: event.payload.passwordHash })),
    UserDeactivated: whileLive((state) => ({ ...state, status: 'deactivated' })),
    UserReactivated: whileLive((state) => ({ ...state, status: 'active' })),
    UserUpdated: whileLive((state, event) => ({ ...state, ...event.payload.changes })),
    UserRolesReplaced: whileLive((state, event) => ({ ...state, roleIds: event.payload.roleIds })),
    AdminGranted: whileLive((state) => ({ ...state, isAdmin: true })),
    AdminRevoked: whileLive((state) => ({ ...state, isAdmin: false })),
    UserProfileImageSet: whileLive((state, event) => ({ ...state, image: event.payload.image })),
    UserProfileImageRemoved: whileLive((state) => ({ ...state, image: null })),
  },
  decide: {
    RegisterUser: (command, state) => [firstEvent(state.status !== 'none', 'User', 'UserRegistered', command)],
    InviteUser: (command, state) => [firstEvent(state.status !== 'none', 'User', 'UserInvited', command)],
    ReinviteUser: (command, state) => {
      const user = live(state, command.companyId);
      if (user.status !== 'passive') throw new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
      const workspaceIds = command.workspaceIds ? [...new Set(command.workspaceIds)].sort((a, b) => a - b) : undefined;
      return [{ type: 'UserReinvited', payload: { userId: user.userId, invitedBy: command.invitedBy, ...(workspaceIds ? { workspaceIds } : {}) } }];
    },
    ActivateUser: (command, state) => {
      const user = live(state, undefined);
      if (user.status !== 'passive') throw new AppError('CONFLICT', 'The invitation has already been accepted');
      const name = command.name?.trim() || user.username;
      const events: UserEvent[] = [{ type: 'UserActivated', payload: { userId: user.userId, name, passwordHash: command.passwordHash } }];
      if (command.image) events.push({ type: 'UserProfileImageSet', payload: { userId: user.userId, image: command.image } });
      return events;
    },
    DeactivateUser: (command, state) => {
      const user = live(state, command.companyId);
      if (user.status === 'deactivated') throw new AppError('CONFLICT', 'User is already deactivated');
      if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet; delete the user instead');
      return [{ type: 'UserDeactivated', payload: { userId: user.userId } }];
    },
    ReactivateUser: (command, state) => {
      const user = live(state, command.companyId);
      if (user.status === 'active') throw new AppError('CONFLICT', 'User is already active');
      if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet');
      return [{ type: 'UserReactivated', payload: { userId: user.userId } }];
    },
    UpdateUser: (command, state) => {
      const user = live(state, command.companyId);
      const changes = changedFields(user, command.changes, ['name', 'username', 'title', 'phone']);
      return Object.keys(changes).length === 0 ? [] : [{ type: 'UserUpdated', payload: { userId: user.userId, changes } }];
    },
    ReplaceRoles: (command, state) => {
      const user = live(state, command.companyId);
      const roleIds = [...new Set(command.roleIds)].sort((a, b) => a - b);
      return sameSet(roleIds, user.roleIds) ? [] : [{ type: 'UserRolesReplaced', payload: { userId: user.userId, roleIds } }];
    },
    SetAdmin: (command, state) => {
      const user = live(state, command.companyId);
      if (user.isAdmin === command.isAdmin) return [];
      return [{ type: command.isAdmin ? 'AdminGranted' : 'AdminRevoked', payload: { userId: user.userId } }];
    },
    SetProfileImage: (command, state) => {
      const user = live(state, command.companyId);
      return [{ type: 'UserProfileImageSet', payload: { userId: user.userId, image: command.image } }];
    },
    RemoveProfileImage: (command, state) => {
      const user = live(state, command.companyId);
      if (!user.image) throw new AppError('NOT_FOUND', 'User has no profile image');
      return [{ type: 'UserProfileImageRemoved', payload: { userId: user.userId } }];
    },
    ChangePassword: (command, state) => {
      const user = live(state, command.companyId);
      if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet');
      return [{ type: 'UserPasswordChanged', payload: { userId: user.userId, passwordHash: command.passwordHash, reason: command.reason } }];
    },
    DeleteUser: (command, state) => {
      const user = live(state, command.companyId);
      return [{ type: 'UserDeleted', payload: { userId: user.userId, email: user.email, username: user.username } }];
    },
    // Only a deleted user's data is erased (the caller deletes first); erasing again records nothing.
    EraseUser: (command, state) => {
      if (state.status !== 'deleted' || state.companyId !== command.companyId) throw new AppError('NOT_FOUND', 'User not found');
      return state.erased ? [] : [{ type: 'UserErased', payload: { userId: state.userId } }];
    },
  },
});

export type EmailClaimState = { claimedBy: number | null };

export type EmailClaimCommand = { type: 'ClaimEmail'; email: string; userId: number } | { type: 'ReleaseEmail'; email: string; userId: number };

/**
 * An e-mail address is unique across the platform. Its claim stream is appended with the expected
 * revision, so of two concurrent sign-ups with one address exactly one wins. Deleting a user
 * releases the address, so it can be invited again.
 */
export const emailClaimDecider = defineDecider<EmailClaimCommand, EmailClaimEvent, EmailClaimState>({
  initialState: () => ({ claimedBy: null }),
  evolve: {
    EmailClaimed: (_state, event) => ({ claimedBy: event.payload.userId }),
    EmailReleased: () => ({ claimedBy: null }),
  },
  decide: {
    ClaimEmail: (command, state) => {
      if (state.claimedBy !== null) throw new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
      return [{ type: 'EmailClaimed', payload: { email: command.email, userId: command.userId } }];
    },
    ReleaseEmail: (command, state) => {
      if (state.claimedBy !== command.userId) return [];
      return [{ type: 'EmailReleased', payload: { email: command.email, userId: command.userId } }];
    },
  },
});
