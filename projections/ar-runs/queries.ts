import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import type { RunStatus } from '#events/autorunner/runs.js';
import { type Row, isoOrNull as iso, json, numOrNull, textOrNull } from '#shared/db/index.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

export type Scope = WorkspaceScope;

export interface RunView {
  id: string;
  engineId: string;
  testSessionId: string;
  name: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  status: RunStatus;
  resultsReported: number;
  startedAt: string;
  completedAt: string | null;
}

export interface RunResultView {
  testCaseId: string;
  status: string;
  notes: string | null;
  durationMs: number | null;
  reportedAt: string;
}

const toView = (r: Row): RunView => ({
  id: String(r.run_id),
  engineId: String(r.engine_id),
  testSessionId: String(r.test_session_id),
  name: textOrNull(r.name),
  externalId: textOrNull(r.external_id),
  metadata: json<Record<string, unknown>>(r.metadata),
  status: String(r.status) as RunStatus,
  resultsReported: Number(r.results_reported),
  startedAt: iso(r.started_at)!,
  completedAt: iso(r.completed_at),
});

export interface RunFilter {
  page: number;
  size: number;
  /** Only this engine's runs (an engine sees its own). */
  engineId?: string | undefined;
  testSessionId?: string | undefined;
  status?: string | undefined;
}

/** Runs of the workspace, newest first. */
export async function listRuns(db: Sql, scope: Scope, f: RunFilter): Promise<Page<RunView>> {
  const where = Conditions.inWorkspace(scope);
  for (const [column, value] of [
    ['engine_id', f.engineId],
    ['test_session_id', f.testSessionId],
    ['status', f.status],
  ] as const) {
    if (value !== undefined) where.add((n) => `${column} = ${n}`, value);
  }
  return readPage(db, { from: 'ar_runs', where, orderBy: 'started_at DESC, run_id' }, f, toView);
}

/** One run of the workspace (of one engine when given), or null. */
export async function findRun(db: Sql, scope: Scope, runId: string, engineId?: string): Promise<RunView | null> {
  const params: unknown[] = [runId, scope.companyId, scope.workspaceId];
  if (engineId !== undefined) params.push(engineId);
  return oneOrNull(db, `SELECT * FROM ar_runs WHERE run_id = $1 AND company_id = $2 AND workspace_id = $3${engineId !== undefined ? ' AND engine_id = $4' : ''}`, params, toView);
}

/** The results a run reported, in the order reported. */
export async function runResults(db: Sql, runId: string, limit = 1000): Promise<RunResultView[]> {
  const r = await db.query(`SELECT * FROM ar_run_results WHERE run_id = $1 ORDER BY position, idx LIMIT ${limit}`, [runId]);
  return r.rows.map((row) => ({
    testCaseId: String(row.test_case_id),
    status: String(row.status),
    notes: textOrNull(row.notes),
    durationMs: numOrNull(row.duration_ms),
    reportedAt: iso(row.reported_at)!,
  }));
}
