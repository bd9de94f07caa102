import { defineDecider, firstEvent, type DomainEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { apiKeyEvents, oauthClientEvents, type ApiKeyEvent, type OAuthClientEvent } from '#events/organization/credentials.js';

type KeyCreated = Extract<ApiKeyEvent, { type: 'ApiKeyCreated' }>['payload'];
type ClientCreated = Extract<OAuthClientEvent, { type: 'OAuthClientCreated' }>['payload'];

/** A credential as its events left it: what its creation recorded (with its current budget), and whether it has ended. */
export interface CredentialState<Created> {
  credential: Created | null;
  /** Revoked (an API key) or deleted (an OAuth client). */
  ended: boolean;
}

/** How the events of either kind of credential change its state. */
const credentialEvolve = {
  created: <C>(state: CredentialState<C>, event: { payload: C }): CredentialState<C> => ({ ...state, credential: event.payload }),
  ended: <C>(state: CredentialState<C>): CredentialState<C> => ({ ...state, ended: true }),
  budgetSet: <C extends object>(state: CredentialState<C>, event: { payload: { rateLimit: number | null } }): CredentialState<C> => ({
    ...state,
    credential: state.credential ? { ...state.credential, rateLimit: event.payload.rateLimit } : null,
  }),
};

/** The credential a command acts on: 404 when it was never created, or when it is `gone` (an ended credential that is no more). */
function credentialOf<C>(state: CredentialState<C>, what: string, gone = false): C {
  if (!state.credential || gone) throw new AppError('NOT_FOUND', `${what} not found`);
  return state.credential;
}

/** The event that sets a credential's request budget to the command's; none when it already has that budget. */
function budgetChange<Type extends string, Command extends { type: string; rateLimit: number | null }>(
  current: { rateLimit?: number | null },
  type: Type,
  command: Command,
): DomainEvent<Type, Omit<Command, 'type'>>[] {
  if ((current.rateLimit ?? null) === command.rateLimit) return [];
  const { type: _type, ...payload } = command;
  return [{ type, payload }];
}

export type ApiKeyState = CredentialState<KeyCreated>;

export type ApiKeyCommand =
  | ({ type: 'CreateApiKey' } & KeyCreated)
  | { type: 'RevokeApiKey'; keyId: string; revokedBy: number }
  | { type: 'SetApiKeyRateLimit'; keyId: string; rateLimit: number | null; setBy: number };

/**
 * A `/v1` API key: created once, revoked at most once (revoking again changes nothing); its request
 * budget set while it lives (setting what it already has changes nothing). Every payload is checked
 * against the contract before it is recorded.
 */
export const apiKeyDecider = defineDecider<ApiKeyCommand, ApiKeyEvent, ApiKeyState>({
  initialState: () => ({ credential: null, ended: false }),
  evolve: { ApiKeyCreated: credentialEvolve.created, ApiKeyRevoked: credentialEvolve.ended, ApiKeyRateLimitSet: credentialEvolve.budgetSet },
  decide: {
    CreateApiKey: (command, state) => [apiKeyEvents.parse(firstEvent(state.credential, 'API key', 'ApiKeyCreated', command))],
    RevokeApiKey: (command, state) => {
      credentialOf(state, 'API key');
      if (state.ended) return [];
      return [apiKeyEvents.parse({ type: 'ApiKeyRevoked', payload: { keyId: command.keyId, revokedBy: command.revokedBy } })];
    },
    SetApiKeyRateLimit: (command, state) => {
      const key = credentialOf(state, 'API key');
      if (state.ended) throw new AppError('CONFLICT', 'The API key is revoked');
      return budgetChange(key, 'ApiKeyRateLimitSet', command).map((event) => apiKeyEvents.parse(event));
    },
  },
});

export type OAuthClientState = CredentialState<ClientCreated>;

export type OAuthClientCommand =
  | ({ type: 'CreateOAuthClient' } & ClientCreated)
  | { type: 'DeleteOAuthClient'; id: string; deletedBy: number }
  | { type: 'SetOAuthClientRateLimit'; id: string; rateLimit: number | null; setBy: number };

/** A deleted client is gone: 404 like one never created. */
const liveClient = (state: OAuthClientState): ClientCreated => credentialOf(state, 'OAuth client', state.ended);

/** An OAuth client: created once, deleted at most once; a deleted client is gone (404). */
export const oauthClientDecider = defineDecider<OAuthClientCommand, OAuthClientEvent, OAuthClientState>({
  initialState: () => ({ credential: null, ended: false }),
  evolve: { OAuthClientCreated: credentialEvolve.created, OAuthClientDeleted: credentialEvolve.ended, OAuthClientRateLimitSet: credentialEvolve.budgetSet },
  decide: {
    CreateOAuthClient: (command, state) => [oauthClientEvents.parse(firstEvent(state.credential, 'OAuth client', 'OAuthClientCreated', command))],
    DeleteOAuthClient: (command, state) => {
      liveClient(state);
      return [oauthClientEvents.parse({ type: 'OAuthClientDeleted', payload: { id: command.id, deletedBy: command.deletedBy } })];
    },
    SetOAuthClientRateLimit: (command, state) => budgetChange(liveClient(state), 'OAuthClientRateLimitSet', command).map((event) => oauthClientEvents.parse(event)),
  },
});
