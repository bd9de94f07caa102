import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { CREDENTIAL_SCOPES } from '#shared/http/principal.js';
import { SIGN_IN_METHODS } from './users.js';

/**
 * How the creator of a credential was signed in when they made it (absent in credentials made before it
 * was recorded: they count as `password`). Where a company requires single sign-on, a credential made
 * from a password sign-in waits for an administrator's approval (docs/modules/identity.md, "What
 * enforcement ends").
 */
export const CredentialSignIn = z.enum(SIGN_IN_METHODS).optional();

/**
 * Credentials of the `/v1` set (docs/api-conventions.md, "The /v1 set"): API keys (`Authorization: Bearer qak_...`) and OAuth
 * clients (client credentials at `POST /oauth/token`). Only SHA-256 hashes of the secrets are ever
 * stored, in events and read models alike.
 */
export const Scopes = z.array(z.enum(CREDENTIAL_SCOPES)).min(1);

/** The most requests per rate-limit window an administrator may give one credential. */
export const MAX_CREDENTIAL_RATE_LIMIT = 1_000_000;
/**
 * A credential's own request budget per rate-limit window (docs/modules/credentials.md, "Rate
 * budget"); null: the deployment's default for credentials (`RATE_LIMIT_PER_CREDENTIAL`).
 */
export const RateLimit = z.number().int().min(1).max(MAX_CREDENTIAL_RATE_LIMIT).nullable();

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
  /** Its own request budget; absent in keys created before budgets existed (the default). */
  rateLimit: RateLimit.optional(),
  signIn: CredentialSignIn,
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
  rateLimit: RateLimit.optional(),
  signIn: CredentialSignIn,
});
export const OAuthClientDeletedPayload = z.object({ id: z.uuid(), deletedBy: z.number().int().positive() });
/** An administrator set (or, with null, reset to the default) a credential's request budget. */
export const ApiKeyRateLimitSetPayload = z.object({ keyId: z.uuid(), rateLimit: RateLimit, setBy: z.number().int().positive() });
export const OAuthClientRateLimitSetPayload = z.object({ id: z.uuid(), rateLimit: RateLimit, setBy: z.number().int().positive() });

export const apiKeyEvents = defineEvents({ ApiKeyCreated: ApiKeyCreatedPayload, ApiKeyRevoked: ApiKeyRevokedPayload, ApiKeyRateLimitSet: ApiKeyRateLimitSetPayload });
export type ApiKeyEvent = EventOf<typeof apiKeyEvents>;

export const oauthClientEvents = defineEvents({
  OAuthClientCreated: OAuthClientCreatedPayload,
  OAuthClientDeleted: OAuthClientDeletedPayload,
  OAuthClientRateLimitSet: OAuthClientRateLimitSetPayload,
});
export type OAuthClientEvent = EventOf<typeof oauthClientEvents>;

export type CredentialEvent = ApiKeyEvent | OAuthClientEvent;

/** Payload schema of every credential event, for checking what is appended and what is read back. */
export const CREDENTIAL_EVENT_PAYLOADS = { ...apiKeyEvents.schemas, ...oauthClientEvents.schemas };
export const CREDENTIAL_EVENT_TYPES = [...apiKeyEvents.types, ...oauthClientEvents.types];

export const apiKeyStream = (keyId: string) => `api-key-${keyId}`;
export const oauthClientStream = (id: string) => `oauth-client-${id}`;

/** The kinds of credential an administrator approves where single sign-on is required. */
export const APPROVABLE_CREDENTIALS = ['api-key', 'oauth-client', 'df-api-key', 'hc-api-key', 'engine', 'scim-token'] as const;
export type ApprovableCredential = (typeof APPROVABLE_CREDENTIALS)[number];

/**
 * The `credential-approval-<id>` stream: an administrator let a credential made from a password sign-in
 * work although its owner's company requires single sign-on.
 */
export const credentialApprovalEvents = defineEvents({
  CredentialApproved: z.object({ credentialId: z.string(), kind: z.enum(APPROVABLE_CREDENTIALS), userId: z.number().int().positive(), approvedBy: z.number().int().positive() }),
});
export type CredentialApprovalEvent = EventOf<typeof credentialApprovalEvents>;
export const credentialApprovalStream = (credentialId: string) => `credential-approval-${credentialId}`;
