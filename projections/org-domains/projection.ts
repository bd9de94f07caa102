import { domainEvents, type DomainEvent } from '#events/organization/domains.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Each company's e-mail domains: claimed with the token it publishes, and verified when it proved the
 * domain is its own. At most one company has a domain verified (its stream's decider sees to that), which
 * makes it the domain's owner: the one whose identity providers enforce and are offered for its addresses.
 */
export const orgDomainsProjection: Projection = {
  name: 'org-domains',
  version: 1,
  eventTypes: domainEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS org_email_domains (
      domain text NOT NULL,
      company_id integer NOT NULL,
      token text NOT NULL,
      claimed_at timestamptz NOT NULL,
      verified_at timestamptz,
      verified_by text,
      PRIMARY KEY (company_id, domain)
    );
    CREATE INDEX IF NOT EXISTS org_email_domains_verified ON org_email_domains (domain) WHERE verified_at IS NOT NULL;`,
  tables: ['org_email_domains'],
  apply: applyByType<DomainEvent>(
    {
      DomainClaimed: async (tx, { payload: p }, at) => {
        await tx.query(`INSERT INTO org_email_domains (domain, company_id, token, claimed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (company_id, domain) DO NOTHING`, [
          p.domain,
          p.companyId,
          p.token,
          at,
        ]);
      },
      DomainVerified: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_email_domains SET verified_at = coalesce(verified_at, $3), verified_by = $4 WHERE company_id = $1 AND domain = $2`, [p.companyId, p.domain, at, p.method]);
      },
      DomainReleased: async (tx, { payload: p }) => {
        await tx.query(`DELETE FROM org_email_domains WHERE company_id = $1 AND domain = $2`, [p.companyId, p.domain]);
      },
    },
    domainEvents,
  ),
};
