import { json } from '#shared/db/index.js';
import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';

export interface SignInEntry {
  at: string;
  success: boolean;
  reason: string | null;
  address: string;
  userAgent: string | null;
  /** The identity provider the sign-in went through; null for a password sign-in. */
  provider: { id: number; type: 'oidc' | 'saml' | 'ldap'; name: string } | null;
}

/** One user's sign-in attempts within a company, newest first, paged. */
export async function listSignIns(db: Sql, companyId: number, userId: number, page: number, size: number): Promise<Page<SignInEntry>> {
  const total = Number(
    (await db.query<{ n: unknown }>('SELECT count(*) AS n FROM org_sign_in_log WHERE user_id = $1 AND company_id = $2', [userId, companyId])).rows[0]?.n ?? 0,
  );
  const r = await db.query<{ at: Date | string; success: boolean; reason: string | null; address: string; userAgent: string | null; provider: unknown }>(
    `SELECT at, success, reason, address, user_agent AS "userAgent", provider FROM org_sign_in_log
      WHERE user_id = $1 AND company_id = $2 ORDER BY at DESC, position DESC NULLS LAST LIMIT $3 OFFSET $4`,
    [userId, companyId, size, page * size],
  );
  return {
    content: r.rows.map((row) => ({ ...row, at: new Date(row.at).toISOString(), provider: row.provider ? json<SignInEntry['provider']>(row.provider) : null })),
    page,
    size,
    totalElements: total,
    totalPages: Math.ceil(total / size),
  };
}
