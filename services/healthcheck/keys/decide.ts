import { revocableKeyDecider } from '#shared/es/index.js';
import type { HealthcheckApiKeyEvent } from '#events/healthcheck/keys.js';

type Created = Extract<HealthcheckApiKeyEvent, { type: 'HealthcheckApiKeyCreated' }>['payload'];

/** A health-check API key: created once, revoked at most once (revoking again changes nothing). */
export const healthcheckApiKeyDecider = revocableKeyDecider<
  Created,
  'CreateHealthcheckApiKey',
  'RevokeHealthcheckApiKey',
  'HealthcheckApiKeyCreated',
  'HealthcheckApiKeyRevoked'
>({
  create: 'CreateHealthcheckApiKey',
  revoke: 'RevokeHealthcheckApiKey',
  created: 'HealthcheckApiKeyCreated',
  revoked: 'HealthcheckApiKeyRevoked',
  label: 'Health-check API key',
});
