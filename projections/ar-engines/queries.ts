import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { type Row, isoOrNull as iso, json } from '#shared/db/index.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

export type Scope = WorkspaceScope;

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
  /** How the maker of its current token was signed in. */
  signIn: 'password' | 'sso';
}

const toView = (r: Row): EngineView => ({
  id: String(r.engine_id),
  name: String(r.name),
  labels: json<string[]>(r.labels),
  tokenPrefix: String(r.token_prefix),
  registeredBy: Number(r.registered_by),
  workspaceId: Number(r.workspace_id),
  createdAt: iso(r.created_at)!,
  tokenRotatedAt: iso(r.token_rotated_at),
  revokedAt: iso(r.revoked_at),
  revoked: r.revoked_at !== null && r.revoked_at !== undefined,
  signIn: r.sign_in === 'sso' ? 'sso' : 'password',
});

/** Engines of the workspace, oldest first. */
export async function listEngines(db: Sql, scope: Scope, paging: { page: number; size: number }): Promise<Page<EngineView>> {
  return readPage(db, { from: 'ar_engines', where: Conditions.inWorkspace(scope), orderBy: 'created_at, engine_id' }, paging, toView);
}

/** One engine of the workspace, or null (also for another tenant's id). */
export async function findEngine(db: Sql, scope: Scope, engineId: string): Promise<EngineView | null> {
  return oneOrNull(db, `SELECT * FROM ar_engines WHERE engine_id = $1 AND company_id = $2 AND workspace_id = $3`, [engineId, scope.companyId, scope.workspaceId], toView);
}

/** The live engine with this token hash. */
export async function activeEngineByTokenHash(
  db: Sql,
  tokenHash: string,
): Promise<{ engineId: string; registeredBy: number; companyId: number; workspaceId: number; createdAt: Date; signIn: 'password' | 'sso' } | null> {
  return oneOrNull(db, `SELECT engine_id, registered_by, company_id, workspace_id, created_at, sign_in FROM ar_engines WHERE token_hash = $1 AND revoked_at IS NULL`, [tokenHash], (row) => ({
    engineId: String(row.engine_id),
    registeredBy: Number(row.registered_by),
    companyId: Number(row.company_id),
    workspaceId: Number(row.workspace_id),
    createdAt: new Date(row.created_at as string),
    signIn: row.sign_in === 'sso' ? ('sso' as const) : ('password' as const),
  }));
}
