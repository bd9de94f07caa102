import { z } from 'zod';
import { AppError } from '../errors.js';
import type { Decider, DomainEvent } from './decider.js';

/** What a module's API key stores when created: its hash and who it acts for, never its value. */
export const storedKeyPayload = z.object({
  keyId: z.string(),
  name: z.string(),
  keyHash: z.string(),
  prefix: z.string(),
  userId: z.number().int(),
  companyId: z.number().int(),
  workspaceId: z.number().int(),
  /** How its creator was signed in (absent in keys made before it was recorded: `password`). */
  signIn: z.enum(['password', 'sso']).optional(),
});
export type StoredKey = z.output<typeof storedKeyPayload>;
export const revokedKeyPayload = z.object({ keyId: z.string() });

/** The events of a key a module issues: created once (with what it stores), revoked at most once. */
export type KeyEvent<Created extends string, Revoked extends string, Payload extends { keyId: string }> =
  | DomainEvent<Created, Payload>
  | DomainEvent<Revoked, { keyId: string }>;

export type KeyCommand<Create extends string, Revoke extends string, Payload extends { keyId: string }> =
  | ({ type: Create } & Payload)
  | { type: Revoke; keyId: string };

export interface KeyState<Payload> {
  key: Payload | null;
  revoked: boolean;
}

/**
 * The decider of a revocable key (device-testing API keys, health-check API keys): creating it twice is
 * a conflict, revoking an unknown key is 404, revoking again changes nothing. Each module names its own
 * commands and events.
 */
export function revocableKeyDecider<Payload extends { keyId: string }, Create extends string, Revoke extends string, Created extends string, Revoked extends string>(names: {
  create: Create;
  revoke: Revoke;
  created: Created;
  revoked: Revoked;
  /** What the key is called in error messages. */
  label: string;
}): Decider<KeyCommand<Create, Revoke, Payload>, KeyEvent<Created, Revoked, Payload>, KeyState<Payload>> {
  type Event = KeyEvent<Created, Revoked, Payload>;
  return {
    initialState: () => ({ key: null, revoked: false }),
    evolve(state, event) {
      if (event.type === names.created) return { ...state, key: event.payload as Payload };
      if (event.type === names.revoked) return { ...state, revoked: true };
      throw new Error(`Unknown ${names.label} event ${event.type}`);
    },
    decide(command, state) {
      if (command.type === names.create) {
        if (state.key) throw new AppError('ALREADY_EXISTS', `${names.label} already exists`);
        const { type: _type, ...payload } = command as { type: Create } & Payload;
        return [{ type: names.created, payload: payload as unknown as Payload } as DomainEvent<Created, Payload>];
      }
      if (!state.key) throw new AppError('NOT_FOUND', `${names.label} not found`);
      return state.revoked ? [] : [{ type: names.revoked, payload: { keyId: (command as { keyId: string }).keyId } } as Event];
    },
  };
}
