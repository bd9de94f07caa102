import { z } from 'zod';
import type { DomainEvent } from '#shared/es/decider.js';
import { CREDENTIAL_SCOPES } from '#shared/http/principal.js';

/**
 * Credentials of the `/v1` set (decisions.md): API keys (`Authorization: Bearer qak_...`) and OAuth
 * clients (client credentials at `POST /oauth/token`). Only SHA-256 hashes of the secrets are ever
 * stored, in events and read models alike.
 */
export const Scopes = z.array(z.enum(CREDENTIAL_SCOPES)).min(1);

export const ApiKeyCreatedPayload = z.object({
  keyId: z.uuid(),
  name: z.string(),
  scopes: Scopes,
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The first characters of the key, to recognise it in lists. */
  prefix: z.string(),
  /** The user who created it and whom it acts as. */
  userId: z.number().int().positive(),
  companyId: z.number().int().positive(),
  /** The workspace active when it was created: the only one it acts in. */
  workspaceId: z.number().int().positive(),
});
export const ApiKeyRevokedPayload = z.object({ keyId: z.uuid(), revokedBy: z.number().int().positive() });

export const OAuthClientCreatedPayload = z.object({
  /** The record id (`/api/v1/oauth-clients/{id}`). */
  id: z.uuid(),
  /** The public `client_id`. */
  clientId: z.string(),
  name: z.string(),
  scopes: Scopes,
  secretHash: z.string().regex(/^[0-9a-f]{64}$/),
  userId: z.number().int().positive(),
  companyId: z.number().int().positive(),
  workspaceId: z.number().int().positive(),
});
export const OAuthClientDeletedPayload = z.object({ id: z.uuid(), deletedBy: z.number().int().positive() });

export type ApiKeyEvent =
  | DomainEvent<'ApiKeyCreated', z.infer<typeof ApiKeyCreatedPayload>>
  | DomainEvent<'ApiKeyRevoked', z.infer<typeof ApiKeyRevokedPayload>>;

export type OAuthClientEvent =
  | DomainEvent<'OAuthClientCreated', z.infer<typeof OAuthClientCreatedPayload>>
  | DomainEvent<'OAuthClientDeleted', z.infer<typeof OAuthClientDeletedPayload>>;

export type CredentialEvent = ApiKeyEvent | OAuthClientEvent;

/** Payload schema of every credential event, for checking what is appended and what is read back. */
export const CREDENTIAL_EVENT_PAYLOADS = {
  ApiKeyCreated: ApiKeyCreatedPayload,
  ApiKeyRevoked: ApiKeyRevokedPayload,
  OAuthClientCreated: OAuthClientCreatedPayload,
  OAuthClientDeleted: OAuthClientDeletedPayload,
} as const satisfies Record<CredentialEvent['type'], z.ZodType>;

export const CREDENTIAL_EVENT_TYPES = Object.keys(CREDENTIAL_EVENT_PAYLOADS) as CredentialEvent['type'][];

export const apiKeyStream = (keyId: string) => `api-key-${keyId}`;
export const oauthClientStream = (id: string) => `oauth-client-${id}`;
