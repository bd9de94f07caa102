import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { engineEvents, type EngineEvent } from '#events/autorunner/engines.js';

type Registered = Extract<EngineEvent, { type: 'EngineRegistered' }>['payload'];

export interface EngineState {
  engine: Registered | null;
  revoked: boolean;
}

export type EngineCommand =
  | ({ type: 'RegisterEngine' } & Registered)
  | { type: 'RotateEngineToken'; engineId: string; tokenHash: string; tokenPrefix: string; signIn: 'password' | 'sso' }
  | { type: 'RevokeEngine'; engineId: string };

/** A test engine: registered once; its token rotated while it lives; revoked for good (again changes nothing). */
export const engineDecider = defineDecider<EngineCommand, EngineEvent, EngineState>({
  initialState: () => ({ engine: null, revoked: false }),
  evolve: {
    EngineRegistered: (state, event) => ({ ...state, engine: event.payload }),
    EngineTokenRotated: (state, event) => state.engine ? { ...state, engine: { ...state.engine, tokenHash: event.payload.tokenHash, tokenPrefix: event.payload.tokenPrefix } } : state,
    EngineRevoked: (state, event) => ({ ...state, revoked: true }),
  },
  decide: {
    RegisterEngine: (command, state) => engineEvents.checked([firstEvent(state.engine, 'Engine', 'EngineRegistered', command)]),
    RotateEngineToken: (command, state) => {
      if (!state.engine) throw new AppError('NOT_FOUND', 'Engine not found');
      if (state.revoked) throw new AppError('CONFLICT', 'A revoked engine gets no new token; register a new engine');
      return engineEvents.checked([{ type: 'EngineTokenRotated', payload: { engineId: command.engineId, tokenHash: command.tokenHash, tokenPrefix: command.tokenPrefix, signIn: command.signIn } }]);
    },
    RevokeEngine: (command, state) => {
      if (!state.engine) throw new AppError('NOT_FOUND', 'Engine not found');
      return state.revoked ? [] : engineEvents.checked([{ type: 'EngineRevoked', payload: { engineId: command.engineId } }]);
    },
  },
});
