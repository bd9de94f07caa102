import { AppError } from '#shared/errors.js';
import type { Decider } from '#shared/es/decider.js';
import type { NameClaimEvent, NameScope } from './events.js';

export type NameClaimCommand =
  | { type: 'ClaimName'; scope: NameScope; name: string; ownerId: number; what: string }
  | { type: 'ReleaseName'; scope: NameScope; name: string; ownerId: number };

export type NameClaimState = { ownerId: number | null };

/**
 * Uniqueness without a read model, as for e-mail addresses: a name is held by appending to its own
 * stream with the expected revision, so of two concurrent claims exactly one wins. A rename claims the
 * new name before it releases the old one; a delete releases it.
 */
export const nameClaimDecider: Decider<NameClaimCommand, NameClaimEvent, NameClaimState> = {
  initialState: () => ({ ownerId: null }),
  evolve(_state, event) {
    switch (event.type) {
      case 'NameClaimed':
        return { ownerId: event.payload.ownerId };
      case 'NameReleased':
        return { ownerId: null };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimName': {
        if (state.ownerId === command.ownerId) return [];
        if (state.ownerId !== null) throw new AppError('NAME_TAKEN', `${command.what} "${command.name.trim()}" already exists`);
        return [{ type: 'NameClaimed', payload: { scope: command.scope, name: command.name.trim(), ownerId: command.ownerId } }];
      }
      case 'ReleaseName':
        if (state.ownerId !== command.ownerId) return [];
        return [{ type: 'NameReleased', payload: { scope: command.scope, name: command.name.trim(), ownerId: command.ownerId } }];
      default: {
        const never: never = command;
        return never;
      }
    }
  },
};
