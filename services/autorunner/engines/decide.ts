import { type Decider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import { ENGINE_PAYLOADS, type EngineEvent } from '#events/autorunner/engines.js';
import { unreachable } from '#shared/unreachable.js';

type Registered = Extract<EngineEvent, { type: 'EngineRegistered' }>['payload'];

export interface EngineState {
  engine: Registered | null;
  revoked: boolean;
}

export type EngineCommand =
  | ({ type: 'RegisterEngine' } & Registered)
  | { type: 'RotateEngineToken'; engineId: string; tokenHash: string; tokenPrefix: string }
  | { type: 'RevokeEngine'; engineId: string };

function checked(events: EngineEvent[]): EngineEvent[] {
  for (const e of events) ENGINE_PAYLOADS[e.type].parse(e.payload);
  return events;
}

/** A test engine: registered once; its token rotated while it lives; revoked for good (again changes nothing). */
export const engineDecider: Decider<EngineCommand, EngineEvent, EngineState> = {
  initialState: () => ({ engine: null, revoked: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'EngineRegistered':
        return { ...state, engine: event.payload };
      case 'EngineTokenRotated':
        return state.engine ? { ...state, engine: { ...state.engine, tokenHash: event.payload.tokenHash, tokenPrefix: event.payload.tokenPrefix } } : state;
      case 'EngineRevoked':
        return { ...state, revoked: true };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterEngine':
        return checked([firstEvent(state.engine, 'Engine', 'EngineRegistered', command)]);
      case 'RotateEngineToken':
        if (!state.engine) throw new AppError('NOT_FOUND', 'Engine not found');
        if (state.revoked) throw new AppError('CONFLICT', 'A revoked engine gets no new token; register a new engine');
        return checked([{ type: 'EngineTokenRotated', payload: { engineId: command.engineId, tokenHash: command.tokenHash, tokenPrefix: command.tokenPrefix } }]);
      case 'RevokeEngine':
        if (!state.engine) throw new AppError('NOT_FOUND', 'Engine not found');
        return state.revoked ? [] : checked([{ type: 'EngineRevoked', payload: { engineId: command.engineId } }]);
      default:
        return unreachable(command, 'command');
    }
  },
};
