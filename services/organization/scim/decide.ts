import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { scimTokenEvents, type ScimTokenEvent } from '#events/organization/scim.js';

type Created = Extract<ScimTokenEvent, { type: 'ScimTokenCreated' }>['payload'];

export interface ScimTokenState {
  token: Created | null;
  revoked: boolean;
}

export type ScimTokenCommand = ({ type: 'CreateScimToken' } & Created) | { type: 'RevokeScimToken'; companyId: number; revokedBy: number };

/** A SCIM token: created once, revoked at most once (revoking again changes nothing); another company's token is not found. */
export const scimTokenDecider = defineDecider<ScimTokenCommand, ScimTokenEvent, ScimTokenState>({
  initialState: () => ({ token: null, revoked: false }),
  evolve: {
    ScimTokenCreated: (state, event) => ({ ...state, token: event.payload }),
    ScimTokenRevoked: (state) => ({ ...state, revoked: true }),
  },
  decide: {
    CreateScimToken: (command, state) => {
      if (state.token) throw new AppError('ALREADY_EXISTS', 'SCIM token already exists');
      const { type: _type, ...payload } = command;
      return scimTokenEvents.checked([{ type: 'ScimTokenCreated', payload }]);
    },
    RevokeScimToken: (command, state) => {
      if (!state.token || state.token.companyId !== command.companyId) throw new AppError('NOT_FOUND', 'SCIM token not found');
      if (state.revoked) return [];
      return scimTokenEvents.checked([{ type: 'ScimTokenRevoked', payload: { tokenId: state.token.tokenId, revokedBy: command.revokedBy } }]);
    },
  },
});
