import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';

/** A key as listed: never its value or hash. */
export interface HcApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdBy: number;
  workspaceId: number;
  createdAt: string;
  revokedAt: string | null;
  revoked: boolean;
}

type Row = Record<string, unknown>;
const iso = (v: unknown): string => new Date(v as string).toISOString();
const toView = (r: Row): HcApiKeyView => ({
  id: String(r.key_id),
  name: String(r.name),
  prefix: String(r.prefix),
  createdBy: Number(r.user_id),
  workspaceId: Number(r.workspace_id),
  createdAt: iso(r.created_at),
  revokedAt: r.revoked_at ? iso(r.revoked_at) : null,
  revoked: r.revoked_at !== null && r.revoked_at !== undefined,
});

export interface Scope {
  companyId: number;
  workspaceId: number;
}

/** Keys of the workspace, oldest first. */
export async function listHcApiKeys(db: Sql, scope: Scope, paging: { page: number; size: number }): Promise<Page<HcApiKeyView>> {
  const params = [scope.companyId, scope.workspaceId];
  const [rows, total] = await Promise.all([
    db.query(
      `SELECT * FROM hc_api_keys WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_at, key_id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`,
      params,
    ),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM hc_api_keys WHERE company_id = $1 AND workspace_id = $2`, params),
  ]);
  return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), paging.page, paging.size);
}

/** One key of the workspace, or null. */
export async function findHcApiKey(db: Sql, scope: Scope, keyId: string): Promise<HcApiKeyView | null> {
  const r = await db.query(`SELECT * FROM hc_api_keys WHERE key_id = $1 AND company_id = $2 AND workspace_id = $3`, [keyId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** The live key with this hash: who it acts for and where. */
export async function activeHcApiKeyByHash(
  db: Sql,
  keyHash: string,
): Promise<{ keyId: string; userId: number; companyId: number; workspaceId: number; createdAt: Date } | null> {
  const r = await db.query(`SELECT key_id, user_id, company_id, workspace_id, created_at FROM hc_api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [keyHash]);
  const row = r.rows[0];
  return row
    ? { keyId: String(row.key_id), userId: Number(row.user_id), companyId: Number(row.company_id), workspaceId: Number(row.workspace_id), createdAt: new Date(row.created_at as string) }
    : null;
}
