import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { type Row, iso, json } from '#shared/db/index.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

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
  routes: json<StoredMockRoute[]>(r.routes),
  enabled: Boolean(r.enabled),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Mock services of the workspace by name, optionally of one module. */
export async function listMockServices(
  db: Sql,
  scope: WorkspaceScope,
  f: { page: number; size: number; module?: string | undefined },
): Promise<Page<MockServiceRow>> {
  const where = Conditions.inWorkspace(scope);
  if (f.module !== undefined) where.add((n) => `module = ${n}`, f.module);
  return readPage(db, { from: 'tmt_mock_services', where, orderBy: 'lower(name), mock_id' }, f, toRow);
}

/** One mock service of the workspace, or null (also for another tenant's). */
export async function findMockService(db: Sql, scope: WorkspaceScope, mockId: string): Promise<MockServiceRow | null> {
  return oneOrNull(db, `SELECT * FROM tmt_mock_services WHERE mock_id = $1 AND company_id = $2 AND workspace_id = $3`, [mockId, scope.companyId, scope.workspaceId], toRow);
}

/** The mock service with this public id, whatever its tenant (the public dispatch). */
export async function findMockServiceByPublicId(db: Sql, publicId: string): Promise<MockServiceRow | null> {
  return oneOrNull(db, `SELECT * FROM tmt_mock_services WHERE public_id = $1`, [publicId], toRow);
}
