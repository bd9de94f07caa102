import { CREDENTIAL_EVENT_TYPES, credentialApprovalEvents, type CredentialApprovalEvent, type CredentialEvent } from '#events/organization/credentials.js';
import { applyByType, type Projection } from '../types.js';

/**
 * `/v1` API keys and OAuth clients, by hash and by workspace: for verifying them on every `/v1`
 * request and for the management endpoints. Secrets are only ever here as SHA-256 hashes.
 *
 * `org_credential_usage` (last use of each credential) is written by the credentials themselves, at
 * most once a minute each, not by events; it is created here but is not one of this projection's
 * `tables`, so a rebuild keeps it.
 */
/** What both kinds of credential carry: its name, whom it acts as and where, what it may do, when it was made. */
const GRANT_COLUMNS = `name text NOT NULL,
      scopes text[] NOT NULL,
      user_id integer NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      created_at timestamptz NOT NULL`;

export const orgCredentialsProjection: Projection = {
  name: 'org-credentials',
  // 3: how each credential's creator was signed in, and approvals where single sign-on is required.
  version: 3,
  eventTypes: [...CREDENTIAL_EVENT_TYPES, ...credentialApprovalEvents.types],
  schema: `
    CREATE TABLE IF NOT EXISTS org_api_keys (
      key_id text PRIMARY KEY,
      key_hash text NOT NULL UNIQUE,
      prefix text NOT NULL,
      ${GRANT_COLUMNS},
      revoked_at timestamptz,
      revoked_by integer,
      rate_limit integer
    );
    CREATE INDEX IF NOT EXISTS org_api_keys_workspace ON org_api_keys (company_id, workspace_id, created_at);
    CREATE TABLE IF NOT EXISTS org_oauth_clients (
      id text PRIMARY KEY,
      client_id text NOT NULL UNIQUE,
      secret_hash text NOT NULL,
      ${GRANT_COLUMNS},
      deleted_at timestamptz,
      deleted_by integer,
      rate_limit integer
    );
    CREATE INDEX IF NOT EXISTS org_oauth_clients_workspace ON org_oauth_clients (company_id, workspace_id, created_at);
    ALTER TABLE org_api_keys ADD COLUMN IF NOT EXISTS sign_in text NOT NULL DEFAULT 'password';
    ALTER TABLE org_oauth_clients ADD COLUMN IF NOT EXISTS sign_in text NOT NULL DEFAULT 'password';
    CREATE TABLE IF NOT EXISTS org_credential_approvals (
      credential_id text PRIMARY KEY,
      kind text NOT NULL,
      user_id integer NOT NULL,
      approved_by integer NOT NULL,
      approved_at timestamptz NOT NULL
    );
    CREATE TABLE IF NOT EXISTS org_credential_usage (
      credential_id text PRIMARY KEY,
      last_used_at timestamptz NOT NULL
    );`,
  tables: ['org_api_keys', 'org_oauth_clients', 'org_credential_approvals'],
  apply: applyByType<CredentialEvent | CredentialApprovalEvent>({
    ApiKeyCreated: async (tx, { payload: p }, at) => {
      await tx.query(
        `INSERT INTO org_api_keys (key_id, key_hash, prefix, name, scopes, user_id, company_id, workspace_id, created_at, rate_limit, sign_in)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (key_id) DO NOTHING`,
        [p.keyId, p.keyHash, p.prefix, p.name, p.scopes, p.userId, p.companyId, p.workspaceId, at, p.rateLimit ?? null, p.signIn ?? 'password'],
      );
    },
    ApiKeyRevoked: async (tx, { payload: p }, at) => {
      await tx.query(`UPDATE org_api_keys SET revoked_at = coalesce(revoked_at, $2), revoked_by = coalesce(revoked_by, $3) WHERE key_id = $1`, [p.keyId, at, p.revokedBy]);
    },
    OAuthClientCreated: async (tx, { payload: p }, at) => {
      await tx.query(
        `INSERT INTO org_oauth_clients (id, client_id, secret_hash, name, scopes, user_id, company_id, workspace_id, created_at, rate_limit, sign_in)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (id) DO NOTHING`,
        [p.id, p.clientId, p.secretHash, p.name, p.scopes, p.userId, p.companyId, p.workspaceId, at, p.rateLimit ?? null, p.signIn ?? 'password'],
      );
    },
    ApiKeyRateLimitSet: async (tx, event) => {
      await tx.query(`UPDATE org_api_keys SET rate_limit = $2 WHERE key_id = $1`, [event.payload.keyId, event.payload.rateLimit]);
    },
    OAuthClientRateLimitSet: async (tx, event) => {
      await tx.query(`UPDATE org_oauth_clients SET rate_limit = $2 WHERE id = $1`, [event.payload.id, event.payload.rateLimit]);
    },
    CredentialApproved: async (tx, { payload: p }, at) => {
      await tx.query(
        `INSERT INTO org_credential_approvals (credential_id, kind, user_id, approved_by, approved_at) VALUES ($1,$2,$3,$4,$5) ON CONFLICT (credential_id) DO NOTHING`,
        [p.credentialId, p.kind, p.userId, p.approvedBy, at],
      );
    },
    OAuthClientDeleted: async (tx, { payload: p }, at) => {
      await tx.query(`UPDATE org_oauth_clients SET deleted_at = coalesce(deleted_at, $2), deleted_by = coalesce(deleted_by, $3) WHERE id = $1`, [p.id, at, p.deletedBy]);
    },
  }),
};
