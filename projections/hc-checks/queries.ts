import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import type { CheckStatus } from '#events/healthcheck/checks.js';
import { type Row, iso, json, numOrNull } from '#shared/db/index.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

export type Scope = WorkspaceScope;

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
  tags: json<string[]>(r.tags),
  status: String(r.status) as CheckStatus,
  statusChangedAt: iso(r.status_changed_at),
  tokenPrefix: String(r.token_prefix),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export interface CheckFilter {
  page: number;
  size: number;
  status?: CheckStatus | undefined;
  /** Only checks carrying this tag. */
  tag?: string | undefined;
}

/** Live checks of the workspace, oldest first, optionally by status and tag. */
export async function listChecks(db: Sql, scope: Scope, filter: CheckFilter): Promise<Page<CheckRecord>> {
  const where = Conditions.inWorkspace(scope, 'deleted_at IS NULL');
  if (filter.status) where.add((n) => `status = ${n}`, filter.status);
  if (filter.tag) where.add((n) => `tags @> ${n}::jsonb`, JSON.stringify([filter.tag]));
  return readPage(db, { from: 'hc_checks', where, orderBy: 'created_at, check_id' }, filter, toRecord);
}

/** One live check of the workspace, or null (also for another tenant's id). */
export async function findCheck(db: Sql, scope: Scope, checkId: string): Promise<CheckRecord | null> {
  return oneOrNull(db, `SELECT * FROM hc_checks WHERE check_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL`, [checkId, scope.companyId, scope.workspaceId], toRecord);
}

/** The live check a push token belongs to. */
export async function checkByTokenHash(db: Sql, tokenHash: string): Promise<{ checkId: string; companyId: number; workspaceId: number } | null> {
  return oneOrNull(db, `SELECT check_id, company_id, workspace_id FROM hc_checks WHERE token_hash = $1 AND deleted_at IS NULL`, [tokenHash], (row) => ({
    checkId: String(row.check_id),
    companyId: Number(row.company_id),
    workspaceId: Number(row.workspace_id),
  }));
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
  const where = Conditions.of(['check_id = $1', 'company_id = $2', 'workspace_id = $3'], [checkId, scope.companyId, scope.workspaceId]);
  return readPage(db, { from: 'hc_check_history', where, orderBy: 'position' }, paging, (r) => ({
    eventId: String(r.event_id),
    type: String(r.event_type),
    actorId: numOrNull(r.actor_id),
    occurredAt: iso(r.occurred_at),
    detail: json<Record<string, unknown>>(r.detail),
  }));
}

/** A check the reaper looks at again: where it is, and its last heartbeat. */
export interface StaleCheck {
  checkId: string;
  companyId: number;
  workspaceId: number;
  lastHeartbeatAt: string;
}

const toStale = (row: Row): StaleCheck => ({
  checkId: String(row.check_id),
  companyId: Number(row.company_id),
  workspaceId: Number(row.workspace_id),
  lastHeartbeatAt: iso(row.last_heartbeat_at),
});

/**
 * The checks with the liveness the module writes straight (`hc_liveness`, services/healthcheck/checks/pulse-store.ts):
 * what the reaper's questions join, in every workspace.
 */
const WITH_LIVENESS = `SELECT c.check_id, c.company_id, c.workspace_id, l.last_heartbeat_at
           FROM hc_checks c JOIN hc_liveness l ON l.check_id = c.check_id`;

/**
 * Checks shown as `up` whose last heartbeat is older than their interval plus grace at `now`, in every
 * workspace, longest silent first: candidates only; the decider has the last word.
 */
export async function overdueChecks(db: Sql, now: Date, limit: number): Promise<StaleCheck[]> {
  const r = await db.query(
    `${WITH_LIVENESS}
          WHERE c.status = 'up' AND c.deleted_at IS NULL
            AND l.last_heartbeat_at + (c.interval_seconds + c.grace_seconds) * interval '1 second' < $1
          ORDER BY l.last_heartbeat_at LIMIT ${limit}`,
    [now.toISOString()],
  );
  return r.rows.map(toStale);
}

/**
 * Checks (not paused) shown as `new` or `down` whose newest heartbeat is an `up` received after that
 * status was recorded, in every workspace: a state change a heartbeat should have caused but did not get appended.
 */
export async function checksWithUnappliedHeartbeats(db: Sql, limit: number): Promise<StaleCheck[]> {
  const r = await db.query(
    `${WITH_LIVENESS}
          WHERE c.status IN ('new', 'down') AND c.deleted_at IS NULL AND l.last_status = 'up' AND l.last_heartbeat_at > c.status_changed_at
          LIMIT ${limit}`,
  );
  return r.rows.map(toStale);
}
