import type { Sql } from '#shared/db/index.js';
import { iso, json, type Row } from '#shared/db/rows.js';
import type { IdentityMapping, IdentityProviderType } from '#events/organization/identity-providers.js';

/** An identity provider as the read model holds it (with its secrets: never sent to a client as they are). */
export interface IdentityProviderRow {
  id: number;
  companyId: number;
  type: IdentityProviderType;
  name: string;
  enabled: boolean;
  domains: string[];
  enforce: boolean;
  jitProvisioning: boolean;
  mappings: IdentityMapping[];
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

const rowOf = (r: Row): IdentityProviderRow => ({
  id: Number(r.id),
  companyId: Number(r.company_id),
  type: r.type as IdentityProviderType,
  name: String(r.name),
  enabled: Boolean(r.enabled),
  domains: (r.domains as string[]) ?? [],
  enforce: Boolean(r.enforce),
  jitProvisioning: Boolean(r.jit_provisioning),
  mappings: json<IdentityMapping[]>(r.mappings),
  config: json<Record<string, unknown>>(r.config),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const LIVE = `deleted_at IS NULL`;

/** The company's providers, oldest first. */
export async function listIdentityProviders(db: Sql, companyId: number): Promise<IdentityProviderRow[]> {
  const r = await db.query<Row>(`SELECT * FROM org_identity_providers WHERE company_id = $1 AND ${LIVE} ORDER BY id`, [companyId]);
  return r.rows.map(rowOf);
}

/** One provider of the company; null for another company's, a deleted or an unknown one. */
export async function getIdentityProvider(db: Sql, companyId: number, id: number): Promise<IdentityProviderRow | null> {
  const r = await db.query<Row>(`SELECT * FROM org_identity_providers WHERE company_id = $1 AND id = $2 AND ${LIVE}`, [companyId, id]);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** An enabled provider by id alone: the sign-in flows, which start before anyone is known. */
export async function findEnabledIdentityProvider(db: Sql, id: number): Promise<IdentityProviderRow | null> {
  const r = await db.query<Row>(`SELECT * FROM org_identity_providers WHERE id = $1 AND enabled AND ${LIVE}`, [id]);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** The domain of an e-mail address, lower case; null when it is not one. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).trim().toLowerCase() : null;
}

/** Enabled providers that serve the domain of this address, oldest first. */
export async function identityProvidersForEmail(db: Sql, email: string): Promise<IdentityProviderRow[]> {
  const domain = emailDomain(email);
  if (!domain) return [];
  const r = await db.query<Row>(`SELECT * FROM org_identity_providers WHERE $1 = ANY(domains) AND enabled AND ${LIVE} ORDER BY id`, [domain]);
  return r.rows.map(rowOf);
}

/** The enabled provider that is the only way in for this address's domain; null when password sign-in is allowed. */
export async function enforcingIdentityProvider(db: Sql, email: string): Promise<IdentityProviderRow | null> {
  return (await identityProvidersForEmail(db, email)).find((p) => p.enforce) ?? null;
}
