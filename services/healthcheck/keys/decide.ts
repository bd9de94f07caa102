import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { HealthcheckApiKeyEvent } from './events.js';

type Created = Extract<HealthcheckApiKeyEvent, { type: 'HealthcheckApiKeyCreated' }>['payload'];

export interface HealthcheckApiKeyState {
  key: Created | null;
  revoked: boolean;
}

export type HealthcheckApiKeyCommand = ({ type: 'CreateHealthcheckApiKey' } & Created) | { type: 'RevokeHealthcheckApiKey'; keyId: string };

/** A health-check API key: created once, revoked at most once (revoking again changes nothing). */
export const healthcheckApiKeyDecider: Decider<HealthcheckApiKeyCommand, HealthcheckApiKeyEvent, HealthcheckApiKeyState> = {
  initialState: () => ({ key: null, revoked: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'HealthcheckApiKeyCreated':
        return { ...state, key: event.payload };
      case 'HealthcheckApiKeyRevoked':
        return { ...state, revoked: true };
      default: {
        const never: never = event;
        return never;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateHealthcheckApiKey': {
        if (state.key) throw new AppError('ALREADY_EXISTS', 'API key already exists');
        const { type: _type, ...payload } = command;
        return [{ type: 'HealthcheckApiKeyCreated', payload }];
      }
      case 'RevokeHealthcheckApiKey':
        if (!state.key) throw new AppError('NOT_FOUND', 'API key not found');
        return state.revoked ? [] : [{ type: 'HealthcheckApiKeyRevoked', payload: { keyId: command.keyId } }];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },
};
