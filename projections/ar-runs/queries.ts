import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import type { RunStatus } from '#events/autorunner/runs.js';
import { type Row, isoOrNull as iso } from '#shared/db/rows.js';

export interface Scope {
  companyId: number;
  workspaceId: number;
}

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
  name: r.name === null ? null : String(r.name),
  externalId: r.external_id === null ? null : String(r.external_id),
  metadata: (typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata) as Record<string, unknown>,
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
  const where = ['company_id = $1', 'workspace_id = $2'];
  const params: unknown[] = [scope.companyId, scope.workspaceId];
  for (const [column, value] of [
    ['engine_id', f.engineId],
    ['test_session_id', f.testSessionId],
    ['status', f.status],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  const w = where.join(' AND ');
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM ar_runs WHERE ${w} ORDER BY started_at DESC, run_id LIMIT ${f.size} OFFSET ${f.page * f.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ar_runs WHERE ${w}`, params),
  ]);
  return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), f.page, f.size);
}

/** One run of the workspace (of one engine when given), or null. */
export async function findRun(db: Sql, scope: Scope, runId: string, engineId?: string): Promise<RunView | null> {
  const params: unknown[] = [runId, scope.companyId, scope.workspaceId];
  if (engineId !== undefined) params.push(engineId);
  const r = await db.query(`SELECT * FROM ar_runs WHERE run_id = $1 AND company_id = $2 AND workspace_id = $3${engineId !== undefined ? ' AND engine_id = $4' : ''}`, params);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** The results a run reported, in the order reported. */
export async function runResults(db: Sql, runId: string, limit = 1000): Promise<RunResultView[]> {
  const r = await db.query(`SELECT * FROM ar_run_results WHERE run_id = $1 ORDER BY position, idx LIMIT ${limit}`, [runId]);
  return r.rows.map((row) => ({
    testCaseId: String(row.test_case_id),
    status: String(row.status),
    notes: row.notes === null ? null : String(row.notes),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    reportedAt: iso(row.reported_at)!,
  }));
}
