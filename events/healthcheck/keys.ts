import { defineEvents, type EventOf } from '#shared/es/index.js';
import { revokedKeyPayload, storedKeyPayload } from '#shared/es/index.js';

/** A health-check API key (`X-API-KEY`): only its SHA-256 is ever stored. */
export const healthcheckApiKeyEvents = defineEvents({ HealthcheckApiKeyCreated: storedKeyPayload, HealthcheckApiKeyRevoked: revokedKeyPayload });
export type HealthcheckApiKeyEvent = EventOf<typeof healthcheckApiKeyEvents>;
export const healthcheckApiKeyStream = (keyId: string) => `hc-api-key-${keyId}`;
