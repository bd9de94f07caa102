import { scimTokenEvents, type ScimTokenEvent } from '#events/organization/scim.js';
import { applyByType, type Projection } from '../types.js';

/**
 * A company's SCIM provisioning tokens, by hash (to verify each `/scim/v2` request) and by company
 * (the administration list). The tokens themselves are never here, only their SHA-256.
 */
export const orgScimProjection: Projection = {
  name: 'org-scim',
  version: 2,
  eventTypes: scimTokenEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS org_scim_tokens (
      token_id text PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      prefix text NOT NULL,
      name text NOT NULL,
      company_id integer NOT NULL,
      created_by integer NOT NULL,
      role_ids integer[] NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_by integer,
      sign_in text NOT NULL DEFAULT 'password'
    );
    ALTER TABLE org_scim_tokens ADD COLUMN IF NOT EXISTS sign_in text NOT NULL DEFAULT 'password';
    CREATE INDEX IF NOT EXISTS org_scim_tokens_company ON org_scim_tokens (company_id, created_at);`,
  tables: ['org_scim_tokens'],
  apply: applyByType<ScimTokenEvent>(
    {
      ScimTokenCreated: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO org_scim_tokens (token_id, token_hash, prefix, name, company_id, created_by, role_ids, created_at, sign_in)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (token_id) DO NOTHING`,
          [p.tokenId, p.tokenHash, p.prefix, p.name, p.companyId, p.createdBy, p.roleIds, at, p.signIn ?? 'password'],
        );
      },
      ScimTokenRevoked: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_scim_tokens SET revoked_at = coalesce(revoked_at, $2), revoked_by = coalesce(revoked_by, $3) WHERE token_id = $1`, [
          p.tokenId,
          at,
          p.revokedBy,
        ]);
      },
    },
    scimTokenEvents,
  ),
};
