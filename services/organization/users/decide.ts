import { AppError } from '#shared/errors.js';
import type { Decider } from '#shared/es/decider.js';
import type { EmailClaimEvent, UserEvent } from './events.js';

type Payload<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>['payload'];

export type UserCommand =
  | ({ type: 'RegisterUser' } & Payload<'UserRegistered'>)
  | { type: 'ChangePassword'; passwordHash: string; reason: Payload<'UserPasswordChanged'>['reason'] };

export type UserState =
  | { status: 'none' }
  | { status: 'active'; userId: number; companyId: number; email: string; passwordHash: string };

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const p = event.payload;
        return { status: 'active', userId: p.userId, companyId: p.companyId, email: p.email, passwordHash: p.passwordHash };
      }
      case 'UserPasswordChanged':
        return state.status === 'none' ? state : { ...state, passwordHash: event.payload.passwordHash };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'User already exists');
        const { type: _type, ...payload } = command;
        return [{ type: 'UserRegistered', payload }];
      }
      case 'ChangePassword':
        if (state.status === 'none') throw new AppError('NOT_FOUND', 'User not found');
        return [{ type: 'UserPasswordChanged', payload: { userId: state.userId, passwordHash: command.passwordHash, reason: command.reason } }];
      default: {
        const never: never = command;
        return never;
      }
    }
  },
};

export type EmailClaimState = { claimedBy: number | null };

/**
 * An e-mail address is unique across the platform. Its claim stream is appended with `no_stream`,
 * so of two concurrent sign-ups with one address exactly one wins.
 */
export const emailClaimDecider: Decider<{ type: 'ClaimEmail'; email: string; userId: number }, EmailClaimEvent, EmailClaimState> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (_state, event) => ({ claimedBy: event.payload.userId }),
  decide(command, state) {
    if (state.claimedBy !== null) throw new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
    return [{ type: 'EmailClaimed', payload: { email: command.email, userId: command.userId } }];
  },
};
