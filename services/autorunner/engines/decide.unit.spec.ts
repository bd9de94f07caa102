import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { engineDecider } from './decide.js';
import type { EngineEvent } from '#events/autorunner/engines.js';

const spec = deciderSpec(engineDecider);
const engineId = 'e-1';
const registered = { engineId, name: 'CI runner', labels: ['linux'], tokenHash: 'h', tokenPrefix: 'aet_abcd', registeredBy: 1, companyId: 1, workspaceId: 2, signIn: 'password' as const };
const registeredEvent: EngineEvent = { type: 'EngineRegistered', payload: registered };
const rotatedEvent: EngineEvent = { type: 'EngineTokenRotated', payload: { engineId, tokenHash: 'h2', tokenPrefix: 'aet_efgh', signIn: 'sso' } };
const revokedEvent: EngineEvent = { type: 'EngineRevoked', payload: { engineId } };

describe('engine decider', () => {
  it('given nothing, when an engine is registered, then it is registered', () => {
    spec.given([]).when({ type: 'RegisterEngine', ...registered }).then([registeredEvent]);
  });
  it('given an engine, when it is registered again, then it is refused', () => {
    spec.given([registeredEvent]).when({ type: 'RegisterEngine', ...registered }).thenRefused('ALREADY_EXISTS');
  });
  it('given a live engine, when its token is rotated, then the new hash is recorded with how its maker was signed in', () => {
    spec.given([registeredEvent]).when({ type: 'RotateEngineToken', engineId, tokenHash: 'h2', tokenPrefix: 'aet_efgh', signIn: 'sso' }).then([rotatedEvent]);
  });
  it('given a revoked engine, when its token is rotated, then it is refused', () => {
    spec.given([registeredEvent, revokedEvent]).when({ type: 'RotateEngineToken', engineId, tokenHash: 'h3', tokenPrefix: 'aet_x', signIn: 'sso' }).thenRefused('CONFLICT');
  });
  it('given a live engine, when it is revoked, then it is revoked; revoking again changes nothing', () => {
    spec.given([registeredEvent, rotatedEvent]).when({ type: 'RevokeEngine', engineId }).then([revokedEvent]);
    spec.given([registeredEvent, revokedEvent]).when({ type: 'RevokeEngine', engineId }).then([]);
  });
  it('given no engine, when it is rotated or revoked, then it is not found', () => {
    spec.given([]).when({ type: 'RevokeEngine', engineId }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RotateEngineToken', engineId, tokenHash: 'h', tokenPrefix: 'aet_x', signIn: 'password' }).thenRefused('NOT_FOUND');
  });
});
