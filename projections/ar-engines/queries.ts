import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { type Row, isoOrNull as iso } from '#shared/db/rows.js';

export interface Scope {
  companyId: number;
  workspaceId: number;
}

/** An engine as listed: never its token or the token's hash. */
export interface EngineView {
  id: string;
  name: string;
  labels: string[];
  tokenPrefix: string;
  registeredBy: number;
  workspaceId: number;
  createdAt: string;
  tokenRotatedAt: string | null;
  revokedAt: string | null;
  revoked: boolean;
}

const toView = (r: Row): EngineView => ({
  id: String(r.engine_id),
  name: String(r.name),
  labels: (typeof r.labels === 'string' ? JSON.parse(r.labels) : r.labels) as string[],
  tokenPrefix: String(r.token_prefix),
  registeredBy: Number(r.registered_by),
  workspaceId: Number(r.workspace_id),
  createdAt: iso(r.created_at)!,
  tokenRotatedAt: iso(r.token_rotated_at),
  revokedAt: iso(r.revoked_at),
  revoked: r.revoked_at !== null && r.revoked_at !== undefined,
});

/** Engines of the workspace, oldest first. */
export async function listEngines(db: Sql, scope: Scope, paging: { page: number; size: number }): Promise<Page<EngineView>> {
  const params = [scope.companyId, scope.workspaceId];
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM ar_engines WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_at, engine_id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ar_engines WHERE company_id = $1 AND workspace_id = $2`, params),
  ]);
  return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), paging.page, paging.size);
}

/** One engine of the workspace, or null (also for another tenant's id). */
export async function findEngine(db: Sql, scope: Scope, engineId: string): Promise<EngineView | null> {
  const r = await db.query(`SELECT * FROM ar_engines WHERE engine_id = $1 AND company_id = $2 AND workspace_id = $3`, [engineId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** The live engine with this token hash. */
export async function activeEngineByTokenHash(
  db: Sql,
  tokenHash: string,
): Promise<{ engineId: string; registeredBy: number; companyId: number; workspaceId: number; createdAt: Date } | null> {
  const r = await db.query(`SELECT engine_id, registered_by, company_id, workspace_id, created_at FROM ar_engines WHERE token_hash = $1 AND revoked_at IS NULL`, [
    tokenHash,
  ]);
  const row = r.rows[0];
  return row
    ? {
        engineId: String(row.engine_id),
        registeredBy: Number(row.registered_by),
        companyId: Number(row.company_id),
        workspaceId: Number(row.workspace_id),
        createdAt: new Date(row.created_at as string),
      }
    : null;
}
