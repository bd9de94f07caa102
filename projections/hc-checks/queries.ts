import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import type { CheckStatus } from '#events/healthcheck/checks.js';
import { type Row, iso } from '#shared/db/rows.js';

export interface Scope {
  companyId: number;
  workspaceId: number;
}

/** A check as listed: never its push token or the token's hash. */
export interface CheckRecord {
  id: string;
  workspaceId: number;
  name: string;
  description: string;
  intervalSeconds: number;
  graceSeconds: number;
  tags: string[];
  status: CheckStatus;
  statusChangedAt: string;
  tokenPrefix: string;
  createdBy: number;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (r: Row): CheckRecord => ({
  id: String(r.check_id),
  workspaceId: Number(r.workspace_id),
  name: String(r.name),
  description: String(r.description),
  intervalSeconds: Number(r.interval_seconds),
  graceSeconds: Number(r.grace_seconds),
  tags: (typeof r.tags === 'string' ? JSON.parse(r.tags) : r.tags) as string[],
  status: String(r.status) as CheckStatus,
  statusChangedAt: iso(r.status_changed_at),
  tokenPrefix: String(r.token_prefix),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Live checks of the workspace, oldest first, optionally by status and tag. */
export async function listChecks(
  db: Sql,
  scope: Scope,
  filter: { page: number; size: number; status?: CheckStatus | undefined; tag?: string | undefined },
): Promise<Page<CheckRecord>> {
  const where = ['company_id = $1', 'workspace_id = $2', 'deleted_at IS NULL'];
  const params: unknown[] = [scope.companyId, scope.workspaceId];
  if (filter.status) {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  if (filter.tag) {
    params.push(JSON.stringify([filter.tag]));
    where.push(`tags @> $${params.length}::jsonb`);
  }
  const w = where.join(' AND ');
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM hc_checks WHERE ${w} ORDER BY created_at, check_id LIMIT ${filter.size} OFFSET ${filter.page * filter.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM hc_checks WHERE ${w}`, params),
  ]);
  return toPage(rows.rows.map(toRecord), Number(total.rows[0]?.n ?? 0), filter.page, filter.size);
}

/** One live check of the workspace, or null (also for another tenant's id). */
export async function findCheck(db: Sql, scope: Scope, checkId: string): Promise<CheckRecord | null> {
  const r = await db.query(`SELECT * FROM hc_checks WHERE check_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL`, [
    checkId,
    scope.companyId,
    scope.workspaceId,
  ]);
  return r.rows[0] ? toRecord(r.rows[0]) : null;
}

/** The live check a push token belongs to. */
export async function checkByTokenHash(db: Sql, tokenHash: string): Promise<{ checkId: string; companyId: number; workspaceId: number } | null> {
  const r = await db.query(`SELECT check_id, company_id, workspace_id FROM hc_checks WHERE token_hash = $1 AND deleted_at IS NULL`, [tokenHash]);
  const row = r.rows[0];
  return row ? { checkId: String(row.check_id), companyId: Number(row.company_id), workspaceId: Number(row.workspace_id) } : null;
}

export interface CheckHistoryEntry {
  eventId: string;
  type: string;
  actorId: number | null;
  occurredAt: string;
  detail: Record<string, unknown>;
}

/** The state changes of one check of the workspace, oldest first. */
export async function checkHistory(db: Sql, scope: Scope, checkId: string, paging: { page: number; size: number }): Promise<Page<CheckHistoryEntry>> {
  const params = [checkId, scope.companyId, scope.workspaceId];
  const w = 'check_id = $1 AND company_id = $2 AND workspace_id = $3';
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM hc_check_history WHERE ${w} ORDER BY position LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM hc_check_history WHERE ${w}`, params),
  ]);
  const content = rows.rows.map((r) => ({
    eventId: String(r.event_id),
    type: String(r.event_type),
    actorId: r.actor_id === null || r.actor_id === undefined ? null : Number(r.actor_id),
    occurredAt: iso(r.occurred_at),
    detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
  }));
  return toPage(content, Number(total.rows[0]?.n ?? 0), paging.page, paging.size);
}
