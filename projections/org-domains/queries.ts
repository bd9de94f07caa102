import type { Sql } from '#shared/db/index.js';
import { iso, isoOrNull, type Row } from '#shared/db/index.js';

/** A company's e-mail domain: claimed with its token, verified or not yet. */
export interface DomainRow {
  domain: string;
  companyId: number;
  token: string;
  claimedAt: string;
  verifiedAt: string | null;
  /** How it was verified: `dns-txt` or `operator`; null while unverified. */
  verifiedBy: string | null;
}

const rowOf = (r: Row): DomainRow => ({
  domain: String(r.domain),
  companyId: Number(r.company_id),
  token: String(r.token),
  claimedAt: iso(r.claimed_at),
  verifiedAt: isoOrNull(r.verified_at),
  verifiedBy: r.verified_by === null || r.verified_by === undefined ? null : String(r.verified_by),
});

/** The domain of an e-mail address, lower case; null when it is not one. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).trim().toLowerCase() : null;
}

/** The company's domains by name; every company's (`null`: the operator's list) by name and company. */
export async function listDomains(db: Sql, companyId: number | null): Promise<DomainRow[]> {
  const r = await db.query<Row>(`SELECT * FROM org_email_domains WHERE $1::integer IS NULL OR company_id = $1 ORDER BY domain, company_id`, [companyId]);
  return r.rows.map(rowOf);
}

/** One domain of the company; null when it has not claimed it. */
export async function getDomain(db: Sql, companyId: number, domain: string): Promise<DomainRow | null> {
  const r = await db.query<Row>(`SELECT * FROM org_email_domains WHERE company_id = $1 AND domain = $2`, [companyId, domain]);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** The company that verified the domain (its owner); null while nobody has. */
export async function domainOwner(db: Sql, domain: string): Promise<number | null> {
  const r = await db.query<Row>(`SELECT company_id FROM org_email_domains WHERE domain = $1 AND verified_at IS NOT NULL ORDER BY verified_at LIMIT 1`, [domain]);
  return r.rows[0] ? Number(r.rows[0].company_id) : null;
}
