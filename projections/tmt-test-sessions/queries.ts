import type { Sql } from '#shared/db/index.js';
import type { ResultStatus, SessionStatus } from '#events/tmt/test-sessions.js';
import type { TmtActor } from '#events/tmt/test-sessions.js';
import { type Row, iso, json } from '#shared/db/rows.js';

export interface ResultView {
  testCaseId: string;
  status: ResultStatus;
  notes: string | null;
  durationMs: number | null;
  recordedAt: string;
  recordedBy: TmtActor;
}

export interface TestSessionView {
  id: string;
  projectId: string;
  name: string;
  status: SessionStatus;
  testCases: string[];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

type Scope = { companyId: number; workspaceId: number };

const toView = (r: Row): TestSessionView => ({
  id: String(r.session_id),
  projectId: String(r.project_id),
  name: String(r.name),
  status: r.status as SessionStatus,
  testCases: json<string[]>(r.test_case_ids),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  completedAt: r.completed_at ? iso(r.completed_at) : null,
});

const toActor = (s: string): TmtActor => (s.startsWith('engine:') ? { engineId: s.slice('engine:'.length) } : { userId: Number(s.slice('user:'.length)) });

const toResult = (r: Row): ResultView => ({
  testCaseId: String(r.test_case_id),
  status: r.status as ResultStatus,
  notes: r.notes === null || r.notes === undefined ? null : String(r.notes),
  durationMs: r.duration_ms === null || r.duration_ms === undefined ? null : Number(r.duration_ms),
  recordedAt: iso(r.recorded_at),
  recordedBy: toActor(String(r.recorded_by)),
});

/** Sessions of the workspace in creation order, filtered by project and status. */
export async function listTestSessions(
  db: Sql,
  scope: Scope,
  filter: { projectId?: string; status?: SessionStatus },
  paging: { offset: number; limit: number },
): Promise<{ items: TestSessionView[]; total: number }> {
  const where = ['company_id = $1', 'workspace_id = $2'];
  const params: unknown[] = [scope.companyId, scope.workspaceId];
  if (filter.projectId) where.push(`project_id = $${params.push(filter.projectId)}`);
  if (filter.status) where.push(`status = $${params.push(filter.status)}`);
  const cond = where.join(' AND ');
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_test_sessions WHERE ${cond} ORDER BY created_pos LIMIT ${paging.limit} OFFSET ${paging.offset}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_test_sessions WHERE ${cond}`, params),
  ]);
  return { items: rows.rows.map(toView), total: Number(total.rows[0]?.n ?? 0) };
}

/** One session of the workspace, or null (also for another tenant's id). */
export async function findTestSession(db: Sql, scope: Scope, sessionId: string): Promise<TestSessionView | null> {
  const r = await db.query(`SELECT * FROM tmt_test_sessions WHERE session_id = $1 AND company_id = $2 AND workspace_id = $3`, [sessionId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

/** The current result of every case of a session that has one, in the session's case order. */
export async function currentResults(db: Sql, session: TestSessionView): Promise<ResultView[]> {
  const r = await db.query(`SELECT * FROM tmt_test_results WHERE session_id = $1`, [session.id]);
  const order = new Map(session.testCases.map((id, i) => [id, i]));
  return r.rows.map(toResult).sort((a, b) => (order.get(a.testCaseId) ?? 0) - (order.get(b.testCaseId) ?? 0));
}

/** Every result recorded in a session, oldest first, paged. */
export async function resultHistory(db: Sql, sessionId: string, paging: { offset: number; limit: number }): Promise<{ items: ResultView[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_test_result_history WHERE session_id = $1 ORDER BY position, idx LIMIT ${paging.limit} OFFSET ${paging.offset}`, [sessionId]),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_test_result_history WHERE session_id = $1`, [sessionId]),
  ]);
  return { items: rows.rows.map(toResult), total: Number(total.rows[0]?.n ?? 0) };
}
