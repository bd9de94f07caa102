import { defineDecider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import {
  ApiKeyCreatedPayload,
  ApiKeyRateLimitSetPayload,
  ApiKeyRevokedPayload,
  OAuthClientCreatedPayload,
  OAuthClientDeletedPayload,
  OAuthClientRateLimitSetPayload,
  type ApiKeyEvent,
  type OAuthClientEvent,
} from '#events/organization/credentials.js';

type KeyCreated = Extract<ApiKeyEvent, { type: 'ApiKeyCreated' }>['payload'];
type ClientCreated = Extract<OAuthClientEvent, { type: 'OAuthClientCreated' }>['payload'];

export interface ApiKeyState {
  key: KeyCreated | null;
  revoked: boolean;
}

export type ApiKeyCommand =
  | ({ type: 'CreateApiKey' } & KeyCreated)
  | { type: 'RevokeApiKey'; keyId: string; revokedBy: number }
  | { type: 'SetApiKeyRateLimit'; keyId: string; rateLimit: number | null; setBy: number };

/**
 * A `/v1` API key: created once, revoked at most once (revoking again changes nothing); its request
 * budget set while it lives (setting what it already has changes nothing).
 */
export const apiKeyDecider = defineDecider<ApiKeyCommand, ApiKeyEvent, ApiKeyState>({
  initialState: () => ({ key: null, revoked: false }),
  evolve: {
    ApiKeyCreated: (state, event) => ({ ...state, key: event.payload }),
    ApiKeyRevoked: (state, event) => ({ ...state, revoked: true }),
    ApiKeyRateLimitSet: (state, event) => ({ ...state, key: state.key && { ...state.key, rateLimit: event.payload.rateLimit } }),
  },
  decide: {
    CreateApiKey: (command, state) => {
      if (state.key) throw new AppError('ALREADY_EXISTS', 'API key already exists');
      const { type: _type, ...payload } = command;
      return [{ type: 'ApiKeyCreated', payload: ApiKeyCreatedPayload.parse(payload) }];
    },
    RevokeApiKey: (command, state) => {
      if (!state.key) throw new AppError('NOT_FOUND', 'API key not found');
      if (state.revoked) return [];
      return [{ type: 'ApiKeyRevoked', payload: ApiKeyRevokedPayload.parse({ keyId: command.keyId, revokedBy: command.revokedBy }) }];
    },
    SetApiKeyRateLimit: (command, state) => {
      if (!state.key) throw new AppError('NOT_FOUND', 'API key not found');
      if (state.revoked) throw new AppError('CONFLICT', 'The API key is revoked');
      if ((state.key.rateLimit ?? null) === command.rateLimit) return [];
      const { type: _type, ...payload } = command;
      return [{ type: 'ApiKeyRateLimitSet', payload: ApiKeyRateLimitSetPayload.parse(payload) }];
    },
  },
});

export interface OAuthClientState {
  client: ClientCreated | null;
  deleted: boolean;
}

export type OAuthClientCommand =
  | ({ type: 'CreateOAuthClient' } & ClientCreated)
  | { type: 'DeleteOAuthClient'; id: string; deletedBy: number }
  | { type: 'SetOAuthClientRateLimit'; id: string; rateLimit: number | null; setBy: number };

/** An OAuth client: created once, deleted at most once; a deleted client is gone (404). */
export const oauthClientDecider = defineDecider<OAuthClientCommand, OAuthClientEvent, OAuthClientState>({
  initialState: () => ({ client: null, deleted: false }),
  evolve: {
    OAuthClientCreated: (state, event) => ({ ...state, client: event.payload }),
    OAuthClientDeleted: (state, event) => ({ ...state, deleted: true }),
    OAuthClientRateLimitSet: (state, event) => ({ ...state, client: state.client && { ...state.client, rateLimit: event.payload.rateLimit } }),
  },
  decide: {
    CreateOAuthClient: (command, state) => {
      if (state.client) throw new AppError('ALREADY_EXISTS', 'OAuth client already exists');
      const { type: _type, ...payload } = command;
      return [{ type: 'OAuthClientCreated', payload: OAuthClientCreatedPayload.parse(payload) }];
    },
    DeleteOAuthClient: (command, state) => {
      if (!state.client || state.deleted) throw new AppError('NOT_FOUND', 'OAuth client not found');
      return [{ type: 'OAuthClientDeleted', payload: OAuthClientDeletedPayload.parse({ id: command.id, deletedBy: command.deletedBy }) }];
    },
    SetOAuthClientRateLimit: (command, state) => {
      if (!state.client || state.deleted) throw new AppError('NOT_FOUND', 'OAuth client not found');
      if ((state.client.rateLimit ?? null) === command.rateLimit) return [];
      const { type: _type, ...payload } = command;
      return [{ type: 'OAuthClientRateLimitSet', payload: OAuthClientRateLimitSetPayload.parse(payload) }];
    },
  },
});
