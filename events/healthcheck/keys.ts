import { defineEvents, type EventOf } from '#shared/es/event-contract.js';
import { revokedKeyPayload, storedKeyPayload } from '#shared/es/revocable-key-decider.js';

/** A health-check API key (`X-API-KEY`): only its SHA-256 is ever stored. */
export const healthcheckApiKeyEvents = defineEvents({ HealthcheckApiKeyCreated: storedKeyPayload, HealthcheckApiKeyRevoked: revokedKeyPayload });
export type HealthcheckApiKeyEvent = EventOf<typeof healthcheckApiKeyEvents>;
export const healthcheckApiKeyStream = (keyId: string) => `hc-api-key-${keyId}`;
