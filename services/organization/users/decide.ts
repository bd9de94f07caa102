import { AppError } from '#shared/errors.js';
import { type Decider, defineDecider, firstEvent } from '#shared/es/decider.js';
import type { EmailClaimEvent, ProfileImage, UserChanges, UserEvent } from '#events/organization/users.js';
import { unreachable } from '#shared/unreachable.js';

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
  | { type: 'DeleteUser'; companyId: number };

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

export type UserState = { status: 'none' } | LiveUser | { status: 'deleted'; userId: number };

const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x));

function live(state: UserState, companyId: number | undefined): LiveUser {
  if (state.status === 'none' || state.status === 'deleted') throw new AppError('NOT_FOUND', 'User not found');
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

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const p = event.payload;
        return { ...newUser(p), status: 'active', name: p.name, passwordHash: p.passwordHash, isAdmin: p.isAdmin, roleIds: p.roleIds ?? [], invitation: null };
      }
      case 'UserInvited': {
        const p = event.payload;
        const invitation = { invitedBy: p.invitedBy, workspaceIds: p.workspaceIds ?? [] };
        return { ...newUser(p), status: 'passive', name: '', passwordHash: null, isAdmin: false, roleIds: p.roleIds, invitation };
      }
      case 'UserDeleted':
        return { status: 'deleted', userId: event.payload.userId };
      default:
        break;
    }
    if (state.status === 'none' || state.status === 'deleted') return state;
    switch (event.type) {
      case 'UserPasswordChanged':
        return { ...state, passwordHash: event.payload.passwordHash };
      case 'UserReinvited': {
        const workspaceIds = event.payload.workspaceIds ?? state.invitation?.workspaceIds ?? [];
        return { ...state, invitation: { invitedBy: event.payload.invitedBy, workspaceIds } };
      }
      case 'UserActivated':
        return { ...state, status: 'active', name: event.payload.name, passwordHash: event.payload.passwordHash };
      case 'UserDeactivated':
        return { ...state, status: 'deactivated' };
      case 'UserReactivated':
        return { ...state, status: 'active' };
      case 'UserUpdated':
        return { ...state, ...event.payload.changes };
      case 'UserRolesReplaced':
        return { ...state, roleIds: event.payload.roleIds };
      case 'AdminGranted':
        return { ...state, isAdmin: true };
      case 'AdminRevoked':
        return { ...state, isAdmin: false };
      case 'UserProfileImageSet':
        return { ...state, image: event.payload.image };
      case 'UserProfileImageRemoved':
        return { ...state, image: null };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        return [firstEvent(state.status !== 'none', 'User', 'UserRegistered', command)];
      case 'InviteUser':
        return [firstEvent(state.status !== 'none', 'User', 'UserInvited', command)];
      case 'ReinviteUser': {
        const user = live(state, command.companyId);
        if (user.status !== 'passive') throw new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
        const workspaceIds = command.workspaceIds ? [...new Set(command.workspaceIds)].sort((a, b) => a - b) : undefined;
        return [{ type: 'UserReinvited', payload: { userId: user.userId, invitedBy: command.invitedBy, ...(workspaceIds ? { workspaceIds } : {}) } }];
      }
      case 'ActivateUser': {
        const user = live(state, undefined);
        if (user.status !== 'passive') throw new AppError('CONFLICT', 'The invitation has already been accepted');
        const name = command.name?.trim() || user.username;
        const events: UserEvent[] = [{ type: 'UserActivated', payload: { userId: user.userId, name, passwordHash: command.passwordHash } }];
        if (command.image) events.push({ type: 'UserProfileImageSet', payload: { userId: user.userId, image: command.image } });
        return events;
      }
      case 'DeactivateUser': {
        const user = live(state, command.companyId);
        if (user.status === 'deactivated') throw new AppError('CONFLICT', 'User is already deactivated');
        if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet; delete the user instead');
        return [{ type: 'UserDeactivated', payload: { userId: user.userId } }];
      }
      case 'ReactivateUser': {
        const user = live(state, command.companyId);
        if (user.status === 'active') throw new AppError('CONFLICT', 'User is already active');
        if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet');
        return [{ type: 'UserReactivated', payload: { userId: user.userId } }];
      }
      case 'UpdateUser': {
        const user = live(state, command.companyId);
        const changes: UserChanges = {};
        for (const key of ['name', 'username', 'title', 'phone'] as const) {
          const value = command.changes[key];
          if (value !== undefined && value !== user[key]) Object.assign(changes, { [key]: value });
        }
        return Object.keys(changes).length === 0 ? [] : [{ type: 'UserUpdated', payload: { userId: user.userId, changes } }];
      }
      case 'ReplaceRoles': {
        const user = live(state, command.companyId);
        const roleIds = [...new Set(command.roleIds)].sort((a, b) => a - b);
        return sameSet(roleIds, user.roleIds) ? [] : [{ type: 'UserRolesReplaced', payload: { userId: user.userId, roleIds } }];
      }
      case 'SetAdmin': {
        const user = live(state, command.companyId);
        if (user.isAdmin === command.isAdmin) return [];
        return [{ type: command.isAdmin ? 'AdminGranted' : 'AdminRevoked', payload: { userId: user.userId } }];
      }
      case 'SetProfileImage': {
        const user = live(state, command.companyId);
        return [{ type: 'UserProfileImageSet', payload: { userId: user.userId, image: command.image } }];
      }
      case 'RemoveProfileImage': {
        const user = live(state, command.companyId);
        if (!user.image) throw new AppError('NOT_FOUND', 'User has no profile image');
        return [{ type: 'UserProfileImageRemoved', payload: { userId: user.userId } }];
      }
      case 'ChangePassword': {
        const user = live(state, command.companyId);
        if (user.status === 'passive') throw new AppError('CONFLICT', 'User has not accepted the invitation yet');
        return [{ type: 'UserPasswordChanged', payload: { userId: user.userId, passwordHash: command.passwordHash, reason: command.reason } }];
      }
      case 'DeleteUser': {
        const user = live(state, command.companyId);
        return [{ type: 'UserDeleted', payload: { userId: user.userId, email: user.email, username: user.username } }];
      }
      default:
        return unreachable(command);
    }
  },
};

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
