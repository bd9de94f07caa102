import type { HealthcheckApiKeyEvent } from '#events/healthcheck/keys.js';
import { revocableKeysProjection } from '../revocable-keys.js';

/** Health-check API keys by hash, for `X-API-KEY` verification and the keys endpoints. */
export const hcApiKeysProjection = revocableKeysProjection({
  name: 'hc-api-keys',
  table: 'hc_api_keys',
  created: 'HealthcheckApiKeyCreated' satisfies HealthcheckApiKeyEvent['type'],
  revoked: 'HealthcheckApiKeyRevoked' satisfies HealthcheckApiKeyEvent['type'],
});
