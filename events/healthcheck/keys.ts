import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/event-contract.js';

/** A health-check API key (`X-API-KEY`): only its SHA-256 is ever stored. */
export const HealthcheckApiKeyCreatedPayload = z.object({
  keyId: z.string(),
  name: z.string(),
  keyHash: z.string(),
  prefix: z.string(),
  userId: z.number().int(),
  companyId: z.number().int(),
  workspaceId: z.number().int(),
});
export const HealthcheckApiKeyRevokedPayload = z.object({ keyId: z.string() });

export const healthcheckApiKeyEvents = defineEvents({
  HealthcheckApiKeyCreated: HealthcheckApiKeyCreatedPayload,
  HealthcheckApiKeyRevoked: HealthcheckApiKeyRevokedPayload,
});
export type HealthcheckApiKeyEvent = EventOf<typeof healthcheckApiKeyEvents>;
export const HEALTHCHECK_API_KEY_EVENT_TYPES = healthcheckApiKeyEvents.types;


export const healthcheckApiKeyStream = (keyId: string) => `hc-api-key-${keyId}`;
