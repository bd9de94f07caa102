import { runEvents, type RunEvent } from '#events/autorunner/runs.js';
import { applyByType, type Projection } from '../types.js';

/** Runs of test engines and the results each reported. */
export const arRunsProjection: Projection = {
  name: 'ar-runs',
  version: 1,
  eventTypes: runEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS ar_runs (
      run_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      engine_id text NOT NULL,
      test_session_id text NOT NULL,
      name text,
      external_id text,
      metadata jsonb NOT NULL,
      status text NOT NULL,
      results_reported integer NOT NULL DEFAULT 0,
      started_at timestamptz NOT NULL,
      completed_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS ar_runs_workspace ON ar_runs (company_id, workspace_id, started_at);
    CREATE TABLE IF NOT EXISTS ar_run_results (
      position bigint NOT NULL,
      idx integer NOT NULL,
      run_id text NOT NULL,
      test_case_id text NOT NULL,
      status text NOT NULL,
      notes text,
      duration_ms integer,
      reported_at timestamptz NOT NULL,
      PRIMARY KEY (position, idx)
    );
    CREATE INDEX IF NOT EXISTS ar_run_results_run ON ar_run_results (run_id, position, idx);`,
  tables: ['ar_runs', 'ar_run_results'],
  apply: applyByType<RunEvent>({
    RunStarted: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO ar_runs (run_id, company_id, workspace_id, engine_id, test_session_id, name, external_id, metadata, status, started_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'running',$9) ON CONFLICT (run_id) DO NOTHING`,
        [p.runId, p.companyId, p.workspaceId, p.engineId, p.testSessionId, p.name, p.externalId, JSON.stringify(p.metadata), at],
      );
    },
    RunResultsReported: async (tx, event, at, recorded) => {
      const p = event.payload;
      const inserted = await tx.query(
        `INSERT INTO ar_run_results (position, idx, run_id, test_case_id, status, notes, duration_ms, reported_at)
         SELECT $1, r.idx, $2, r.test_case_id, r.status, r.notes, r.duration_ms, $4
           FROM jsonb_to_recordset($3::jsonb) AS r(idx integer, test_case_id text, status text, notes text, duration_ms integer)
         ON CONFLICT DO NOTHING`,
        [
          recorded.position.toString(),
          p.runId,
          JSON.stringify(p.results.map((x, idx) => ({ idx, test_case_id: x.testCaseId, status: x.status, notes: x.notes, duration_ms: x.durationMs }))),
          at,
        ],
      );
      await tx.query(`UPDATE ar_runs SET results_reported = results_reported + $2 WHERE run_id = $1`, [p.runId, inserted.rowCount]);
    },
    RunCompleted: (tx, event, at) => tx.query(`UPDATE ar_runs SET status = $2, completed_at = $3 WHERE run_id = $1`, [event.payload.runId, event.payload.status, at]),
  }),
};
