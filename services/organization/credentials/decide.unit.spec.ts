import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { apiKeyDecider, oauthClientDecider } from './decide.js';

const keySpec = deciderSpec(apiKeyDecider);
const clientSpec = deciderSpec(oauthClientDecider);
const keyId = '6f1c1b9e-8f0a-4a57-9a51-0c2b7d9f4e21';
const hash = 'a'.repeat(64);
const key = { keyId, name: 'CI', scopes: ['read' as const], keyHash: hash, prefix: 'qak_abcdefgh', userId: 1, companyId: 2, workspaceId: 3 };
const client = { id: keyId, clientId: 'qoc_x', name: 'Reports', scopes: ['read' as const, 'write' as const], secretHash: hash, userId: 1, companyId: 2, workspaceId: 3 };

describe('/v1 API key decider', () => {
  it('creates a key once and revokes it once', () => {
    keySpec.given([]).when({ type: 'CreateApiKey', ...key }).then([{ type: 'ApiKeyCreated', payload: key }]);
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }]).when({ type: 'CreateApiKey', ...key }).thenRefused('ALREADY_EXISTS');
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }]).when({ type: 'RevokeApiKey', keyId, revokedBy: 1 }).then([{ type: 'ApiKeyRevoked', payload: { keyId, revokedBy: 1 } }]);
    keySpec
      .given([{ type: 'ApiKeyCreated', payload: key }, { type: 'ApiKeyRevoked', payload: { keyId, revokedBy: 1 } }])
      .when({ type: 'RevokeApiKey', keyId, revokedBy: 4 })
      .then([]);
    keySpec.given([]).when({ type: 'RevokeApiKey', keyId, revokedBy: 1 }).thenRefused('NOT_FOUND');
  });

  it('never records a key without scopes or with a value where its hash belongs', () => {
    expect(() => apiKeyDecider.decide({ type: 'CreateApiKey', ...key, scopes: [] }, apiKeyDecider.initialState())).toThrow();
    expect(() => apiKeyDecider.decide({ type: 'CreateApiKey', ...key, keyHash: 'qak_the-key-itself' }, apiKeyDecider.initialState())).toThrow();
  });
});

describe('OAuth client decider', () => {
  it('creates a client once and deletes it once; a deleted client is not found', () => {
    clientSpec.given([]).when({ type: 'CreateOAuthClient', ...client }).then([{ type: 'OAuthClientCreated', payload: client }]);
    clientSpec.given([{ type: 'OAuthClientCreated', payload: client }]).when({ type: 'CreateOAuthClient', ...client }).thenRefused('ALREADY_EXISTS');
    clientSpec.given([{ type: 'OAuthClientCreated', payload: client }]).when({ type: 'DeleteOAuthClient', id: keyId, deletedBy: 1 }).then([{ type: 'OAuthClientDeleted', payload: { id: keyId, deletedBy: 1 } }]);
    clientSpec
      .given([{ type: 'OAuthClientCreated', payload: client }, { type: 'OAuthClientDeleted', payload: { id: keyId, deletedBy: 1 } }])
      .when({ type: 'DeleteOAuthClient', id: keyId, deletedBy: 1 })
      .thenRefused('NOT_FOUND');
    clientSpec.given([]).when({ type: 'DeleteOAuthClient', id: keyId, deletedBy: 1 }).thenRefused('NOT_FOUND');
  });
});

describe('rate budgets of keys and clients', () => {
  const set = { type: 'SetApiKeyRateLimit' as const, keyId, rateLimit: 5, setBy: 1 };
  it('sets a live key’s budget, not again to the same value, never on a revoked or unknown key', () => {
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }]).when(set).then([{ type: 'ApiKeyRateLimitSet', payload: { keyId, rateLimit: 5, setBy: 1 } }]);
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }, { type: 'ApiKeyRateLimitSet', payload: { keyId, rateLimit: 5, setBy: 1 } }]).when(set).then([]);
    keySpec.given([{ type: 'ApiKeyCreated', payload: { ...key, rateLimit: 5 } }]).when({ ...set, rateLimit: null }).then([{ type: 'ApiKeyRateLimitSet', payload: { keyId, rateLimit: null, setBy: 1 } }]);
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }]).when({ ...set, rateLimit: null }).then([]);
    keySpec.given([{ type: 'ApiKeyCreated', payload: key }, { type: 'ApiKeyRevoked', payload: { keyId, revokedBy: 1 } }]).when(set).thenRefused('CONFLICT');
    keySpec.given([]).when(set).thenRefused('NOT_FOUND');
    expect(() => apiKeyDecider.decide({ ...set, rateLimit: 0 }, apiKeyDecider.evolve(apiKeyDecider.initialState(), { type: 'ApiKeyCreated', payload: key } as never))).toThrow();
  });

  it('sets a live client’s budget; a deleted client is not found', () => {
    const setClient = { type: 'SetOAuthClientRateLimit' as const, id: keyId, rateLimit: 10, setBy: 1 };
    clientSpec.given([{ type: 'OAuthClientCreated', payload: client }]).when(setClient).then([{ type: 'OAuthClientRateLimitSet', payload: { id: keyId, rateLimit: 10, setBy: 1 } }]);
    clientSpec.given([{ type: 'OAuthClientCreated', payload: client }, { type: 'OAuthClientDeleted', payload: { id: keyId, deletedBy: 1 } }]).when(setClient).thenRefused('NOT_FOUND');
  });
});
