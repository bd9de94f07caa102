import type { ApiKeyEvent } from '#events/df/keys.js';
import { revocableKeysProjection } from '../revocable-keys.js';

/** Device-testing API keys by hash, for `X-Api-Key` verification and the keys endpoints. */
export const dfApiKeysProjection = revocableKeysProjection({
  name: 'df-api-keys',
  table: 'df_api_keys',
  created: 'DfApiKeyCreated' satisfies ApiKeyEvent['type'],
  revoked: 'DfApiKeyRevoked' satisfies ApiKeyEvent['type'],
});
