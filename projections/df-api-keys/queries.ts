import type { Sql } from '#shared/db/index.js';

/** A key as listed: never its value or hash. */
export interface ApiKeyView {
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
const toView = (r: Row): ApiKeyView => ({
  id: String(r.key_id),
  name: String(r.name),
  prefix: String(r.prefix),
  createdBy: Number(r.user_id),
  workspaceId: Number(r.workspace_id),
  createdAt: new Date(r.created_at as string).toISOString(),
  revokedAt: r.revoked_at ? new Date(r.revoked_at as string).toISOString() : null,
  revoked: r.revoked_at !== null && r.revoked_at !== undefined,
});

/** Keys of the workspace, oldest first. */
export async function listApiKeys(db: Sql, scope: { companyId: number; workspaceId: number }, paging: { page: number; size: number }) {
  const params = [scope.companyId, scope.workspaceId];
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM df_api_keys WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_at, key_id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM df_api_keys WHERE company_id = $1 AND workspace_id = $2`, params),
  ]);
  const totalElements = Number(total.rows[0]?.n ?? 0);
  return { content: rows.rows.map(toView), page: paging.page, size: paging.size, totalElements, totalPages: Math.ceil(totalElements / paging.size) };
}

/** One key of the workspace, or null. */
export async function findApiKey(db: Sql, scope: { companyId: number; workspaceId: number }, keyId: string): Promise<ApiKeyView | null> {
  const r = await db.query(`SELECT * FROM df_api_keys WHERE key_id = $1 AND company_id = $2 AND workspace_id = $3`, [keyId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** The live key with this hash: who it acts for and where. */
export async function activeKeyByHash(db: Sql, keyHash: string): Promise<{ keyId: string; userId: number; companyId: number; workspaceId: number; createdAt: Date } | null> {
  const r = await db.query(`SELECT key_id, user_id, company_id, workspace_id, created_at FROM df_api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [keyHash]);
  const row = r.rows[0];
  return row
    ? { keyId: String(row.key_id), userId: Number(row.user_id), companyId: Number(row.company_id), workspaceId: Number(row.workspace_id), createdAt: new Date(row.created_at as string) }
    : null;
}
