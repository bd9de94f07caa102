import type { Sql } from '#shared/db/index.js';
import { iso, isoOrNull, type Row } from '#shared/db/index.js';

/** A SCIM token as listed: never its value or hash. */
export interface ScimTokenView {
  id: string;
  name: string;
  prefix: string;
  createdBy: number;
  /** Roles given to every user it provisions. */
  roleIds: number[];
  createdAt: string;
  revokedAt: string | null;
  /** How its creator was signed in when they made it. */
  signIn: 'password' | 'sso';
}

/** An integer[] column (an array, or PostgreSQL's `{1,2}` text on some paths). */
const intArray = (v: unknown): number[] => (Array.isArray(v) ? v : String(v ?? '').replace(/[{}]/g, '').split(',').filter(Boolean)).map(Number);

const view = (r: Row): ScimTokenView => ({
  id: String(r.token_id),
  name: String(r.name),
  prefix: String(r.prefix),
  createdBy: Number(r.created_by),
  roleIds: intArray(r.role_ids),
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
  signIn: r.sign_in === 'sso' ? 'sso' : 'password',
});

/** The company's SCIM tokens (revoked ones too), oldest first. */
export async function listScimTokens(db: Sql, companyId: number): Promise<ScimTokenView[]> {
  const r = await db.query(`SELECT * FROM org_scim_tokens WHERE company_id = $1 ORDER BY created_at, token_id`, [companyId]);
  return r.rows.map(view);
}

/** One of the company's SCIM tokens, or null (also for another company's). */
export async function findScimToken(db: Sql, companyId: number, tokenId: string): Promise<ScimTokenView | null> {
  const r = await db.query(`SELECT * FROM org_scim_tokens WHERE token_id = $1 AND company_id = $2`, [tokenId, companyId]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

/** The company a live token with this hash provisions, or null. */
export async function activeScimToken(
  db: Sql,
  tokenHash: string,
): Promise<{ tokenId: string; companyId: number; roleIds: number[]; createdBy: number; signIn: 'password' | 'sso' } | null> {
  const r = await db.query(`SELECT token_id, company_id, role_ids, created_by, sign_in FROM org_scim_tokens WHERE token_hash = $1 AND revoked_at IS NULL`, [tokenHash]);
  const row = r.rows[0];
  return row
    ? { tokenId: String(row.token_id), companyId: Number(row.company_id), roleIds: intArray(row.role_ids), createdBy: Number(row.created_by), signIn: row.sign_in === 'sso' ? 'sso' : 'password' }
    : null;
}
