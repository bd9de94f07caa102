import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { type Row, iso } from '#shared/db/rows.js';

export interface StoredMockRoute {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  delayMs: number;
}

export interface MockServiceRow {
  id: string;
  publicId: string;
  companyId: number;
  workspaceId: number;
  name: string;
  module: string;
  routes: StoredMockRoute[];
  enabled: boolean;
  createdBy: number;
  createdAt: string;
  updatedAt: string;
}

const toRow = (r: Row): MockServiceRow => ({
  id: String(r.mock_id),
  publicId: String(r.public_id),
  companyId: Number(r.company_id),
  workspaceId: Number(r.workspace_id),
  name: String(r.name),
  module: String(r.module),
  routes: (typeof r.routes === 'string' ? JSON.parse(r.routes) : r.routes) as StoredMockRoute[],
  enabled: Boolean(r.enabled),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Mock services of the workspace by name, optionally of one module. */
export async function listMockServices(
  db: Sql,
  scope: { companyId: number; workspaceId: number },
  f: { page: number; size: number; module?: string | undefined },
): Promise<Page<MockServiceRow>> {
  const params: unknown[] = [scope.companyId, scope.workspaceId];
  let clause = 'company_id = $1 AND workspace_id = $2';
  if (f.module !== undefined) {
    params.push(f.module);
    clause += ` AND module = $${params.length}`;
  }
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_mock_services WHERE ${clause} ORDER BY lower(name), mock_id LIMIT ${f.size} OFFSET ${f.page * f.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_mock_services WHERE ${clause}`, params),
  ]);
  return toPage(rows.rows.map(toRow), Number(total.rows[0]?.n ?? 0), f.page, f.size);
}

/** One mock service of the workspace, or null (also for another tenant's). */
export async function findMockService(db: Sql, scope: { companyId: number; workspaceId: number }, mockId: string): Promise<MockServiceRow | null> {
  const r = await db.query(`SELECT * FROM tmt_mock_services WHERE mock_id = $1 AND company_id = $2 AND workspace_id = $3`, [mockId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/** The mock service with this public id, whatever its tenant (the public dispatch). */
export async function findMockServiceByPublicId(db: Sql, publicId: string): Promise<MockServiceRow | null> {
  const r = await db.query(`SELECT * FROM tmt_mock_services WHERE public_id = $1`, [publicId]);
  return r.rows[0] ? toRow(r.rows[0]) : null;
}
