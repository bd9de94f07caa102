import { testRunEvents, type TestRunEvent } from '#events/df/test-runs.js';
import type { Sql } from '#shared/db/index.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Adds `delta` planned tests to a shard, once per event: the shard's `last_position` guards the
 * increment, so an event applied again (a replay) leaves the count as it was.
 */
const addTests = (tx: Sql, runId: string, deviceId: string, delta: number, position: bigint) =>
  tx.query(`UPDATE df_test_run_shards SET tests = tests + $3, last_position = $4 WHERE run_id = $1 AND device_id = $2 AND last_position < $4`, [runId, deviceId, delta, position.toString()]);

/**
 * Test runs (an instrumentation suite sharded over devices): the runs, their shards, and one row per
 * test and attempt — what the run endpoints, the JUnit report and the next run's planning read.
 */
export const dfTestRunsProjection: Projection = {
  name: 'df-test-runs',
  version: 2,
  eventTypes: testRunEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS df_test_runs (
      run_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      project_id text,
      user_id integer NOT NULL,
      name text,
      app_version_id text NOT NULL,
      test_version_id text NOT NULL,
      test_package text NOT NULL,
      devices jsonb NOT NULL,
      filter jsonb NOT NULL,
      strategy jsonb NOT NULL,
      rerun_of text,
      state text NOT NULL,
      basis text,
      reason text,
      total integer NOT NULL,
      counts jsonb,
      queued_at timestamptz NOT NULL,
      started_at timestamptz,
      ended_at timestamptz,
      test_session_id text,
      results_reason text
    );
    CREATE INDEX IF NOT EXISTS df_test_runs_workspace ON df_test_runs (company_id, workspace_id, queued_at);
    CREATE INDEX IF NOT EXISTS df_test_runs_package ON df_test_runs (company_id, workspace_id, test_package, ended_at);
    CREATE TABLE IF NOT EXISTS df_test_run_shards (
      run_id text NOT NULL,
      device_id text NOT NULL,
      ordinal integer NOT NULL,
      state text NOT NULL,
      tests integer NOT NULL,
      current_test text,
      session_id text,
      started_at timestamptz,
      ended_at timestamptz,
      reason text,
      last_position bigint NOT NULL,
      PRIMARY KEY (run_id, device_id)
    );
    CREATE TABLE IF NOT EXISTS df_test_run_tests (
      run_id text NOT NULL,
      class_name text NOT NULL,
      method_name text NOT NULL,
      attempt integer NOT NULL,
      device_id text,
      outcome text NOT NULL,
      duration_ms integer NOT NULL,
      message text,
      stack text,
      artifacts jsonb NOT NULL,
      logcat jsonb NOT NULL DEFAULT '[]'::jsonb,
      finished_at timestamptz NOT NULL,
      PRIMARY KEY (run_id, class_name, method_name, attempt)
    );`,
  tables: ['df_test_runs', 'df_test_run_shards', 'df_test_run_tests'],
  apply: applyByType<TestRunEvent>(
    {
      TestRunQueued: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_test_runs (run_id, company_id, workspace_id, project_id, user_id, name, app_version_id, test_version_id, test_package, devices, filter, strategy, rerun_of, state, total, queued_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,'queued',$14,$15) ON CONFLICT (run_id) DO NOTHING`,
          [p.runId, p.companyId, p.workspaceId, p.projectId, p.userId, p.name, p.appVersionId, p.testVersionId, p.testPackage, JSON.stringify(p.devices), JSON.stringify(p.filter), JSON.stringify(p.strategy), p.rerunOf, p.tests.length + p.skipped.length, p.queuedAt],
        );
        // The APK's ignored tests: skipped from the start, on no device.
        await tx.query(
          `INSERT INTO df_test_run_tests (run_id, class_name, method_name, attempt, device_id, outcome, duration_ms, message, artifacts, finished_at)
           SELECT $1, t.class_name, t.method_name, 1, NULL, 'skipped', 0, 'Ignored', '[]'::jsonb, $3
             FROM jsonb_to_recordset($2::jsonb) AS t(class_name text, method_name text)
           ON CONFLICT DO NOTHING`,
          [p.runId, JSON.stringify(p.skipped.map((t) => ({ class_name: t.className, method_name: t.methodName }))), at],
        );
      },
      TestRunPlanned: async (tx, { payload: p }, _at, recorded) => {
        await tx.query(`UPDATE df_test_runs SET basis = $2 WHERE run_id = $1`, [p.runId, p.basis]);
        await tx.query(
          `INSERT INTO df_test_run_shards (run_id, device_id, ordinal, state, tests, last_position)
           SELECT $1, s.device_id, s.ordinal, 'planned', s.tests, $3 FROM jsonb_to_recordset($2::jsonb) AS s(device_id text, ordinal integer, tests integer)
           ON CONFLICT DO NOTHING`,
          [p.runId, JSON.stringify(p.shards.map((s, ordinal) => ({ device_id: s.deviceId, ordinal, tests: s.tests.length }))), recorded.position.toString()],
        );
      },
      TestRunShardStarted: async (tx, { payload: p }) => {
        await tx.query(`UPDATE df_test_run_shards SET state = 'running', started_at = coalesce(started_at, $3), session_id = coalesce(session_id, $4) WHERE run_id = $1 AND device_id = $2`, [p.runId, p.deviceId, p.startedAt, p.sessionId]);
        await tx.query(`UPDATE df_test_runs SET state = 'running', started_at = coalesce(started_at, $2) WHERE run_id = $1 AND state = 'queued'`, [p.runId, p.startedAt]);
      },
      TestStarted: (tx, { payload: p }) =>
        tx.query(`UPDATE df_test_run_shards SET current_test = $3 WHERE run_id = $1 AND device_id = $2`, [p.runId, p.deviceId, `${p.className}#${p.methodName}`]),
      TestFinished: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_test_run_tests (run_id, class_name, method_name, attempt, device_id, outcome, duration_ms, message, stack, artifacts, logcat, finished_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) ON CONFLICT DO NOTHING`,
          [p.runId, p.className, p.methodName, p.attempt, p.deviceId, p.outcome, p.durationMs, p.message, p.stack, JSON.stringify(p.artifacts), JSON.stringify(p.logcat), at],
        );
        await tx.query(`UPDATE df_test_run_shards SET current_test = NULL WHERE run_id = $1 AND device_id = $2`, [p.runId, p.deviceId]);
      },
      TestRetryScheduled: (tx, { payload: p }, _at, recorded) => addTests(tx, p.runId, p.deviceId, 1, recorded.position),
      TestRunShardEnded: (tx, { payload: p }) =>
        tx.query(`UPDATE df_test_run_shards SET state = $3, reason = $4, ended_at = $5, current_test = NULL WHERE run_id = $1 AND device_id = $2`, [p.runId, p.deviceId, p.state, p.reason, p.endedAt]),
      TestsReplanned: async (tx, { payload: p }, _at, recorded) => {
        // The shard gives up what it had left; each receiving shard (its own among them after a crash) takes its share.
        const moved = p.shards.reduce((n, s) => n + s.tests.length, 0);
        const deltas = new Map<string, number>([[p.fromDeviceId, -moved]]);
        for (const s of p.shards) deltas.set(s.deviceId, (deltas.get(s.deviceId) ?? 0) + s.tests.length);
        for (const [deviceId, delta] of deltas) await addTests(tx, p.runId, deviceId, delta, recorded.position);
      },
      TestRunFinished: (tx, { payload: p }) =>
        tx.query(`UPDATE df_test_runs SET state = $2, reason = $3, counts = $4, ended_at = $5 WHERE run_id = $1`, [p.runId, p.state, p.reason, JSON.stringify(p.counts), p.endedAt]),
      // The run's end (TestRunFinished, right after) records the state and the reason.
      TestRunCancelled: async () => undefined,
      TestRunResultsFiled: (tx, { payload: p }) => tx.query(`UPDATE df_test_runs SET test_session_id = $2, results_reason = $3 WHERE run_id = $1`, [p.runId, p.testSessionId, p.reason]),
    },
    testRunEvents,
  ),
};
