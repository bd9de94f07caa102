import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/event-contract.js';

/** A device-testing API key (`X-Api-Key`); only its SHA-256 is ever stored. */
export const apiKeyEvents = defineEvents({
  DfApiKeyCreated: z.object({
    keyId: z.string(),
    name: z.string(),
    keyHash: z.string(),
    prefix: z.string(),
    userId: z.number().int(),
    companyId: z.number().int(),
    workspaceId: z.number().int(),
  }),
  DfApiKeyRevoked: z.object({ keyId: z.string() }),
});
export type ApiKeyEvent = EventOf<typeof apiKeyEvents>;
export const API_KEY_EVENT_TYPES = apiKeyEvents.types;
export const apiKeyStream = (keyId: string) => `df-api-key-${keyId}`;
