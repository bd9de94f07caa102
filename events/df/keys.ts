import { defineEvents, type EventOf } from '#shared/es/index.js';
import { revokedKeyPayload, storedKeyPayload } from '#shared/es/index.js';

/** A device-testing API key (`X-Api-Key`); only its SHA-256 is ever stored. */
export const apiKeyEvents = defineEvents({ DfApiKeyCreated: storedKeyPayload, DfApiKeyRevoked: revokedKeyPayload });
export type ApiKeyEvent = EventOf<typeof apiKeyEvents>;
export const apiKeyStream = (keyId: string) => `df-api-key-${keyId}`;
