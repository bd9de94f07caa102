import { z } from 'zod';
import type { DomainEvent } from '#shared/es/decider.js';

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

export type HealthcheckApiKeyEvent =
  | DomainEvent<'HealthcheckApiKeyCreated', z.infer<typeof HealthcheckApiKeyCreatedPayload>>
  | DomainEvent<'HealthcheckApiKeyRevoked', z.infer<typeof HealthcheckApiKeyRevokedPayload>>;

export const HEALTHCHECK_API_KEY_EVENT_TYPES = ['HealthcheckApiKeyCreated', 'HealthcheckApiKeyRevoked'] as const satisfies readonly HealthcheckApiKeyEvent['type'][];

export const healthcheckApiKeyStream = (keyId: string) => `hc-api-key-${keyId}`;
