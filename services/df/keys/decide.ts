import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { ApiKeyEvent } from './events.js';

type Created = Extract<ApiKeyEvent, { type: 'DfApiKeyCreated' }>['payload'];

export interface ApiKeyState {
  key: Created | null;
  revoked: boolean;
}

export type ApiKeyCommand = ({ type: 'CreateApiKey' } & Created) | { type: 'RevokeApiKey'; keyId: string };

/** An API key: created once, revoked at most once. */
export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: () => ({ key: null, revoked: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'DfApiKeyCreated':
        return { ...state, key: event.payload };
      case 'DfApiKeyRevoked':
        return { ...state, revoked: true };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.key) throw new AppError('ALREADY_EXISTS', 'API key already exists');
        const { type: _type, ...payload } = command;
        return [{ type: 'DfApiKeyCreated', payload }];
      }
      case 'RevokeApiKey':
        if (!state.key) throw new AppError('NOT_FOUND', 'API key not found');
        return state.revoked ? [] : [{ type: 'DfApiKeyRevoked', payload: { keyId: command.keyId } }];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },
};
