import type { DomainEvent } from '#shared/es/decider.js';

/** A device-testing API key (`X-Api-Key`); only its SHA-256 is ever stored. */
export type ApiKeyEvent =
  | DomainEvent<
      'DfApiKeyCreated',
      { keyId: string; name: string; keyHash: string; prefix: string; userId: number; companyId: number; workspaceId: number }
    >
  | DomainEvent<'DfApiKeyRevoked', { keyId: string }>;

export const API_KEY_EVENT_TYPES = ['DfApiKeyCreated', 'DfApiKeyRevoked'] as const satisfies readonly ApiKeyEvent['type'][];

export const apiKeyStream = (keyId: string) => `df-api-key-${keyId}`;
