import { AppError } from '../errors.js';
import type { Decider, DomainEvent } from './decider.js';

/** Names compare case-insensitively and without surrounding blanks. */
export const foldName = (name: string): string => name.trim().toLowerCase();

type Claim<Scope, Owner> = { scope: Scope; name: string; ownerId: Owner };

export type NameClaimEvents<Claimed extends string, Released extends string, Scope, Owner> =
  | DomainEvent<Claimed, Claim<Scope, Owner>>
  | DomainEvent<Released, Claim<Scope, Owner>>;

export type NameClaimCommands<ClaimT extends string, ReleaseT extends string, Scope, Owner> =
  | ({ type: ClaimT; what: string } & Claim<Scope, Owner>)
  | ({ type: ReleaseT } & Claim<Scope, Owner>);

/**
 * Uniqueness without a read model, as for e-mail addresses: a name is held by appending to its own
 * stream (one per scope and folded name) with the expected revision, so of two concurrent claims
 * exactly one wins. Claiming a name one holds already changes nothing; another holder is 409
 * NAME_TAKEN; releasing a name one does not hold changes nothing. Each module names its commands and
 * events (the organization's workspace, role, team and user names; test management's group and
 * mock-service names).
 */
export function nameClaimDecider<Scope, Owner, ClaimT extends string, ReleaseT extends string, Claimed extends string, Released extends string>(names: {
  claim: ClaimT;
  release: ReleaseT;
  claimed: Claimed;
  released: Released;
}): Decider<NameClaimCommands<ClaimT, ReleaseT, Scope, Owner>, NameClaimEvents<Claimed, Released, Scope, Owner>, { ownerId: Owner | null }> {
  type Event = NameClaimEvents<Claimed, Released, Scope, Owner>;
  return {
    initialState: () => ({ ownerId: null }),
    evolve(_state, event) {
      if (event.type === names.claimed) return { ownerId: event.payload.ownerId };
      if (event.type === names.released) return { ownerId: null };
      throw new Error(`Unknown name claim event ${event.type}`);
    },
    decide(command, state) {
      const payload = { scope: command.scope, name: command.name.trim(), ownerId: command.ownerId };
      if (command.type === names.claim) {
        if (state.ownerId === command.ownerId) return [];
        const { what } = command as { what: string };
        if (state.ownerId !== null) throw new AppError('NAME_TAKEN', `${what} "${payload.name}" already exists`);
        return [{ type: names.claimed, payload } as Event];
      }
      if (state.ownerId !== command.ownerId) return [];
      return [{ type: names.released, payload } as Event];
    },
  };
}

/** Holds and frees names for one owner in one scope (a module's claim commands). */
export interface NameClaims {
  claim(name: string): Promise<void>;
  release(name: string): Promise<void>;
}

/**
 * A rename under name claims: the new name is claimed first (so a clash changes nothing), the change
 * applied, then the old name released; when the change fails, the new claim is given back. No new
 * name, or one that folds to the old one, claims nothing.
 */
export async function renameClaimed<T>(names: NameClaims, oldName: string, newName: string | undefined, change: () => Promise<T>): Promise<T> {
  if (newName === undefined || foldName(newName) === foldName(oldName)) return change();
  await names.claim(newName);
  let result: T;
  try {
    result = await change();
  } catch (err) {
    await names.release(newName);
    throw err;
  }
  await names.release(oldName);
  return result;
}
