import type { Sql } from '#shared/db/index.js';
import { iso, json, type Row } from '#shared/db/index.js';
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

/**
 * The enabled providers of one company that list this domain, oldest first: what a sign-in page offers for
 * an address of a domain the company owns (the owner is the domains read model's to say).
 */
export async function companyProvidersForDomain(db: Sql, companyId: number, domain: string): Promise<IdentityProviderRow[]> {
  const r = await db.query<Row>(`SELECT * FROM org_identity_providers WHERE company_id = $1 AND $2 = ANY(domains) AND enabled AND ${LIVE} ORDER BY id`, [companyId, domain]);
  return r.rows.map(rowOf);
}

/** Every provider not deleted, of every company, by id (the start-up re-sealing of their secrets). */
export async function liveIdentityProviderIds(db: Sql): Promise<{ id: number; companyId: number }[]> {
  const r = await db.query<{ id: unknown; company_id: unknown }>(`SELECT id, company_id FROM org_identity_providers WHERE deleted_at IS NULL ORDER BY id`);
  return r.rows.map((row) => ({ id: Number(row.id), companyId: Number(row.company_id) }));
}
