import type { Sql } from '#shared/db/index.js';
import type { ResultStatus, SessionStatus } from '#events/tmt/test-sessions.js';
import type { TmtActor } from '#events/tmt/test-sessions.js';
import { type Row, iso, isoOrNull, json, numOrNull, textOrNull } from '#shared/db/index.js';
import { Conditions, oneOrNull, rowsAndTotal, type WorkspaceScope } from '../queries.js';

export interface ResultView {
  testCaseId: string;
  status: ResultStatus;
  notes: string | null;
  durationMs: number | null;
  recordedAt: string;
  recordedBy: TmtActor;
  /** The test's name as an imported report gave it; null for a result recorded on its own. */
  title: string | null;
  /** The device session that ran the test, when its report named one. */
  deviceSessionId: string | null;
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

const toView = (r: Row): TestSessionView => ({
  id: String(r.session_id),
  projectId: String(r.project_id),
  name: String(r.name),
  status: r.status as SessionStatus,
  testCases: json<string[]>(r.test_case_ids),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  completedAt: isoOrNull(r.completed_at),
});

const toActor = (s: string): TmtActor => (s.startsWith('engine:') ? { engineId: s.slice('engine:'.length) } : { userId: Number(s.slice('user:'.length)) });

const toResult = (r: Row): ResultView => ({
  testCaseId: String(r.test_case_id),
  status: r.status as ResultStatus,
  notes: textOrNull(r.notes),
  durationMs: numOrNull(r.duration_ms),
  recordedAt: iso(r.recorded_at),
  recordedBy: toActor(String(r.recorded_by)),
  title: textOrNull(r.title),
  deviceSessionId: textOrNull(r.device_session_id),
});

/** Sessions of the workspace in creation order, filtered by project and status. */
export async function listTestSessions(
  db: Sql,
  scope: WorkspaceScope,
  filter: { projectId?: string; status?: SessionStatus },
  paging: { offset: number; limit: number },
): Promise<{ items: TestSessionView[]; total: number }> {
  const where = Conditions.inWorkspace(scope);
  if (filter.projectId) where.add((n) => `project_id = ${n}`, filter.projectId);
  if (filter.status) where.add((n) => `status = ${n}`, filter.status);
  const { rows, total } = await rowsAndTotal(db, { from: 'tmt_test_sessions', where, orderBy: 'created_pos' }, paging);
  return { items: rows.map(toView), total };
}

/** One session of the workspace, or null (also for another tenant's id). */
export async function findTestSession(db: Sql, scope: WorkspaceScope, sessionId: string): Promise<TestSessionView | null> {
  return oneOrNull(db, `SELECT * FROM tmt_test_sessions WHERE session_id = $1 AND company_id = $2 AND workspace_id = $3`, [sessionId, scope.companyId, scope.workspaceId], toView);
}

/** The current result of every case of a session that has one, in the session's case order. */
export async function currentResults(db: Sql, session: TestSessionView): Promise<ResultView[]> {
  const r = await db.query(`SELECT * FROM tmt_test_results WHERE session_id = $1`, [session.id]);
  const order = new Map(session.testCases.map((id, i) => [id, i]));
  return r.rows.map(toResult).sort((a, b) => (order.get(a.testCaseId) ?? 0) - (order.get(b.testCaseId) ?? 0));
}

/** Every result recorded in a session, oldest first, paged. */
export async function resultHistory(db: Sql, sessionId: string, paging: { offset: number; limit: number }): Promise<{ items: ResultView[]; total: number }> {
  const { rows, total } = await rowsAndTotal(db, { from: 'tmt_test_result_history', where: Conditions.of(['session_id = $1'], [sessionId]), orderBy: 'position, idx' }, paging);
  return { items: rows.map(toResult), total };
}
