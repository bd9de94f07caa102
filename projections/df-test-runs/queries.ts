import type { Sql } from '#shared/db/index.js';
import { iso, isoOrNull, json, textOrNull, type Row } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import type { ShardEnd, TestOutcome, TestRunCounts, TestRunState } from '#events/df/test-runs.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

/** A run as the list shows it; `counts` once it has ended. */
export interface TestRunSummary {
  id: string;
  name: string | null;
  state: TestRunState;
  projectId: string | null;
  appVersionId: string;
  testVersionId: string;
  testPackage: string;
  total: number;
  counts: TestRunCounts | null;
  reason: string | null;
  queuedAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface TestRunShardView {
  deviceId: string;
  state: 'planned' | 'running' | ShardEnd;
  /** Tests planned on it, retries and moved tests included. */
  tests: number;
  /** `className#methodName` of the test it runs now, or null. */
  currentTest: string | null;
  startedAt: string | null;
  endedAt: string | null;
  reason: string | null;
  /** The device session the shard ran in, once its device was taken. */
  sessionId: string | null;
}

/** One run with its counts (while it runs, as its rows stand) and its shards. */
export interface TestRunDetail extends Omit<TestRunSummary, 'counts'> {
  userId: number;
  basis: 'uniform' | 'duration' | null;
  devices: Record<string, unknown>;
  tests: Record<string, unknown>;
  strategy: Record<string, unknown>;
  rerunOf: string | null;
  counts: TestRunCounts;
  shards: TestRunShardView[];
  /** The test session of the run's project its results were filed in, once filed. */
  testSessionId: string | null;
  /** Why the results could not be filed, when they could not. */
  resultsReason: string | null;
}

/** One test's attempt (or an ignored test, skipped on no device). */
export interface TestAttemptView {
  className: string;
  methodName: string;
  deviceId: string | null;
  attempt: number;
  outcome: TestOutcome;
  durationMs: number;
  message: string | null;
  stack: string | null;
  /** A failure's screenshot: an artifact of the shard's device session, `url` its download path. */
  artifacts: { name: string; fileId: string; url?: string }[];
  /** The device log between the test's start and end. */
  logcat: string[];
  finishedAt: string;
}

export interface TestRunFilters {
  state?: readonly string[] | undefined;
  /** Runs queued at or after. */
  from?: Date | undefined;
  /** Runs queued before. */
  to?: Date | undefined;
}

const summary = (r: Row): TestRunSummary => ({
  id: String(r.run_id),
  name: textOrNull(r.name),
  state: String(r.state) as TestRunState,
  projectId: textOrNull(r.project_id),
  appVersionId: String(r.app_version_id),
  testVersionId: String(r.test_version_id),
  testPackage: String(r.test_package),
  total: Number(r.total),
  counts: r.counts === null || r.counts === undefined ? null : json<TestRunCounts>(r.counts),
  reason: textOrNull(r.reason),
  queuedAt: iso(r.queued_at),
  startedAt: isoOrNull(r.started_at),
  endedAt: isoOrNull(r.ended_at),
});

/** A page of the workspace's runs, newest first unless asked otherwise. */
export async function listTestRuns(db: Sql, scope: WorkspaceScope, filters: TestRunFilters, paging: { page: number; size: number; sortDir: 'asc' | 'desc' }): Promise<Page<TestRunSummary>> {
  const where = Conditions.inWorkspace(scope);
  if (filters.state?.length) where.add((n) => `state = ANY(${n}::text[])`, filters.state);
  if (filters.from) where.add((n) => `queued_at >= ${n}`, filters.from.toISOString());
  if (filters.to) where.add((n) => `queued_at < ${n}`, filters.to.toISOString());
  const dir = paging.sortDir === 'asc' ? 'ASC' : 'DESC';
  return readPage(db, { from: 'df_test_runs', where, orderBy: `queued_at ${dir}, run_id ${dir}` }, paging, summary);
}

/** The counts of a run from its rows: each test by its attempts (a pass beside a failure is flaky), the rest not run. */
async function countsFromRows(db: Sql, runId: string, total: number): Promise<TestRunCounts> {
  const r = await db.query<{ passed: boolean; failed: boolean }>(
    `SELECT bool_or(outcome IN ('passed', 'flaky')) AS passed, bool_or(outcome IN ('failed', 'errored')) AS failed
       FROM df_test_run_tests WHERE run_id = $1 GROUP BY class_name, method_name`,
    [runId],
  );
  const counts: TestRunCounts = { total, passed: 0, failed: 0, flaky: 0, skipped: 0, notRun: 0 };
  for (const t of r.rows) counts[t.passed ? (t.failed ? 'flaky' : 'passed') : t.failed ? 'failed' : 'skipped'] += 1;
  counts.notRun = total - r.rows.length;
  return counts;
}

/** One run of the caller's company and workspace, or null (also for another tenant's run). */
export async function getTestRun(db: Sql, scope: WorkspaceScope, runId: string): Promise<TestRunDetail | null> {
  const row = await oneOrNull(db, `SELECT * FROM df_test_runs WHERE run_id = $1 AND company_id = $2 AND workspace_id = $3`, [runId, scope.companyId, scope.workspaceId], (r) => r);
  if (!row) return null;
  const base = summary(row);
  const shards = await db.query(`SELECT * FROM df_test_run_shards WHERE run_id = $1 ORDER BY ordinal`, [runId]);
  return {
    ...base,
    userId: Number(row.user_id),
    basis: textOrNull(row.basis) as TestRunDetail['basis'],
    devices: json(row.devices),
    tests: json(row.filter),
    strategy: json(row.strategy),
    rerunOf: textOrNull(row.rerun_of),
    counts: base.counts ?? (await countsFromRows(db, runId, base.total)),
    shards: shards.rows.map((s) => ({
      deviceId: String(s.device_id),
      state: String(s.state) as TestRunShardView['state'],
      tests: Number(s.tests),
      currentTest: textOrNull(s.current_test),
      startedAt: isoOrNull(s.started_at),
      endedAt: isoOrNull(s.ended_at),
      reason: textOrNull(s.reason),
      sessionId: textOrNull(s.session_id),
    })),
    testSessionId: textOrNull(row.test_session_id),
    resultsReason: textOrNull(row.results_reason),
  };
}

/** Every attempt of a run's tests (null for a run not in the caller's workspace), by class, method and attempt. */
export async function testRunAttempts(db: Sql, scope: WorkspaceScope, runId: string): Promise<TestAttemptView[] | null> {
  const owned = await oneOrNull(db, `SELECT 1 FROM df_test_runs WHERE run_id = $1 AND company_id = $2 AND workspace_id = $3`, [runId, scope.companyId, scope.workspaceId], () => true);
  if (!owned) return null;
  const r = await db.query(`SELECT * FROM df_test_run_tests WHERE run_id = $1 ORDER BY class_name, method_name, attempt`, [runId]);
  return r.rows.map((t) => ({
    className: String(t.class_name),
    methodName: String(t.method_name),
    deviceId: textOrNull(t.device_id),
    attempt: Number(t.attempt),
    outcome: String(t.outcome) as TestOutcome,
    durationMs: Number(t.duration_ms),
    message: textOrNull(t.message),
    stack: textOrNull(t.stack),
    artifacts: json(t.artifacts),
    logcat: json(t.logcat),
    finishedAt: iso(t.finished_at),
  }));
}

/** What the workspace's earlier runs of a test APK say of one test. */
export interface TestHistoryRow {
  className: string;
  methodName: string;
  /** Mean duration of its passing attempts, or of all its attempts when none passed. */
  meanMs: number;
  attempts: number;
  passes: number;
}

/**
 * Durations and pass counts per test over the last `runs` ended runs of a test APK package in one
 * workspace (skipped attempts left out). Cancelled runs count: what they ran, ran.
 */
export async function testHistoryRows(db: Sql, scope: WorkspaceScope, testPackage: string, runs = 20): Promise<TestHistoryRow[]> {
  const r = await db.query(
    `WITH recent AS (
       SELECT run_id FROM df_test_runs
        WHERE company_id = $1 AND workspace_id = $2 AND test_package = $3 AND ended_at IS NOT NULL
        ORDER BY ended_at DESC, run_id DESC LIMIT $4)
     SELECT t.class_name, t.method_name,
            coalesce(avg(t.duration_ms) FILTER (WHERE t.outcome IN ('passed', 'flaky')), avg(t.duration_ms)) AS mean_ms,
            count(*) AS attempts,
            count(*) FILTER (WHERE t.outcome IN ('passed', 'flaky')) AS passes
       FROM df_test_run_tests t JOIN recent USING (run_id)
      WHERE t.outcome <> 'skipped'
      GROUP BY t.class_name, t.method_name
      ORDER BY t.class_name, t.method_name`,
    [scope.companyId, scope.workspaceId, testPackage, runs],
  );
  return r.rows.map((t) => ({ className: String(t.class_name), methodName: String(t.method_name), meanMs: Math.round(Number(t.mean_ms)), attempts: Number(t.attempts), passes: Number(t.passes) }));
}

/** A run not ended, with its tenancy, its user and the device sessions its shards hold (the sweeper's view). */
export interface UnfinishedTestRun {
  runId: string;
  name: string | null;
  companyId: number;
  workspaceId: number;
  userId: number;
  queuedAt: string;
  sessionIds: string[];
}

/** Runs of every tenant not ended yet, oldest first (at most `limit`): for the sweeper that ends orphaned ones. */
export async function unfinishedTestRuns(db: Sql, limit = 100): Promise<UnfinishedTestRun[]> {
  const r = await db.query(
    `SELECT r.run_id, r.name, r.company_id, r.workspace_id, r.user_id, r.queued_at,
            coalesce(array_agg(s.session_id) FILTER (WHERE s.session_id IS NOT NULL AND s.state IN ('planned', 'running')), '{}') AS session_ids
       FROM df_test_runs r LEFT JOIN df_test_run_shards s USING (run_id)
      WHERE r.state IN ('queued', 'running')
      GROUP BY r.run_id, r.name, r.company_id, r.workspace_id, r.user_id, r.queued_at
      ORDER BY r.queued_at, r.run_id LIMIT $1`,
    [limit],
  );
  return r.rows.map((row) => ({
    runId: String(row.run_id),
    name: textOrNull(row.name),
    companyId: Number(row.company_id),
    workspaceId: Number(row.workspace_id),
    userId: Number(row.user_id),
    queuedAt: iso(row.queued_at),
    sessionIds: (row.session_ids as string[]).map(String),
  }));
}
