import { identityProviderEvents, type IdentityProviderEvent } from '#events/organization/identity-providers.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Each company's identity providers (OpenID Connect, SAML 2.0, LDAP) with their settings, for the
 * administration routes, the sign-in page's list (by e-mail domain) and the sign-in flows. The
 * configuration's secrets are here because the sign-in needs them; the routes never show them.
 */
export const orgIdentityProvidersProjection: Projection = {
  name: 'org-identity-providers',
  version: 1,
  eventTypes: identityProviderEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS org_identity_providers (
      id integer PRIMARY KEY,
      company_id integer NOT NULL,
      type text NOT NULL,
      name text NOT NULL,
      enabled boolean NOT NULL,
      domains text[] NOT NULL,
      enforce boolean NOT NULL,
      jit_provisioning boolean NOT NULL,
      mappings jsonb NOT NULL,
      config jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS org_identity_providers_company ON org_identity_providers (company_id, id);
    CREATE INDEX IF NOT EXISTS org_identity_providers_domains ON org_identity_providers USING gin (domains);`,
  tables: ['org_identity_providers'],
  apply: applyByType<IdentityProviderEvent>(
    {
      IdentityProviderCreated: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO org_identity_providers (id, company_id, type, name, enabled, domains, enforce, jit_provisioning, mappings, config, created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$11) ON CONFLICT (id) DO NOTHING`,
          [p.providerId, p.companyId, p.type, p.name, p.enabled, p.domains, p.enforce, p.jitProvisioning, JSON.stringify(p.mappings), JSON.stringify(p.config), at],
        );
      },
      IdentityProviderChanged: async (tx, { payload: p }, at) => {
        await tx.query(
          `UPDATE org_identity_providers SET name = $2, enabled = $3, domains = $4, enforce = $5, jit_provisioning = $6, mappings = $7, config = $8, updated_at = $9 WHERE id = $1`,
          [p.providerId, p.name, p.enabled, p.domains, p.enforce, p.jitProvisioning, JSON.stringify(p.mappings), JSON.stringify(p.config), at],
        );
      },
      IdentityProviderDeleted: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_identity_providers SET deleted_at = coalesce(deleted_at, $2) WHERE id = $1`, [p.providerId, at]);
      },
    },
    identityProviderEvents,
  ),
};
