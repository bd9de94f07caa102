import { revocableKeyDecider } from '#shared/es/index.js';
import type { ApiKeyEvent } from '#events/df/keys.js';

type Created = Extract<ApiKeyEvent, { type: 'DfApiKeyCreated' }>['payload'];

/** A device-testing API key: created once, revoked at most once. */
export const apiKeyDecider = revocableKeyDecider<Created, 'CreateApiKey', 'RevokeApiKey', 'DfApiKeyCreated', 'DfApiKeyRevoked'>({
  create: 'CreateApiKey',
  revoke: 'RevokeApiKey',
  created: 'DfApiKeyCreated',
  revoked: 'DfApiKeyRevoked',
  label: 'API key',
});
