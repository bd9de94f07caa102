import type { ProjectEvent } from '#events/tmt/projects.js';
import type { TestSessionEvent } from '#events/tmt/test-sessions.js';
import { TEST_SESSION_EVENT_TYPES } from '#events/tmt/test-sessions.js';
import type { TmtActor } from '#events/tmt/test-sessions.js';
import { applyByType, type Projection } from '../types.js';

type Handled = TestSessionEvent | Extract<ProjectEvent, { type: 'ProjectDeleted' }>;

const HANDLED = [...TEST_SESSION_EVENT_TYPES, 'ProjectDeleted'] as const satisfies readonly Handled['type'][];

export const actorText = (a: TmtActor): string => ('userId' in a ? `user:${a.userId}` : `engine:${a.engineId}`);

/** A recorded result, the same in the current results and in their history. */
const RESULT_COLUMNS = `test_case_id uuid NOT NULL,
      status text NOT NULL,
      notes text,
      duration_ms integer,
      recorded_at timestamptz NOT NULL,
      recorded_by text NOT NULL,
      title text,
      device_session_id text`;

/** Columns added after the tables first shipped (a result's title and device session; whether a report recorded it). */
const ADDED_COLUMNS = ['tmt_test_results', 'tmt_test_result_history']
  .flatMap((t) => [`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS title text;`, `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS device_session_id text;`])
  .concat('ALTER TABLE tmt_test_result_history ADD COLUMN IF NOT EXISTS imported boolean NOT NULL DEFAULT false;')
  .join('\n    ');

/**
 * Test sessions; the current result of each case (the newest recorded), and every result ever
 * recorded, keyed by the event's position and the result's index in it (so a replay inserts nothing
 * twice) — but of imported results only the newest report's per case.
 */
export const tmtTestSessionsProjection: Projection = {
  name: 'tmt-test-sessions',
  version: 1,
  eventTypes: HANDLED,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_test_sessions (
      session_id uuid PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      project_id uuid NOT NULL,
      name text NOT NULL,
      status text NOT NULL,
      test_case_ids jsonb NOT NULL,
      created_pos bigint NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      completed_at timestamptz,
      created_by text
    );
    CREATE INDEX IF NOT EXISTS tmt_test_sessions_ws ON tmt_test_sessions (company_id, workspace_id, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_sessions_project ON tmt_test_sessions (company_id, workspace_id, project_id, status, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_sessions_status ON tmt_test_sessions (company_id, workspace_id, status, created_pos);
    CREATE TABLE IF NOT EXISTS tmt_test_results (
      session_id uuid NOT NULL,
      ${RESULT_COLUMNS},
      position bigint NOT NULL,
      idx integer NOT NULL,
      PRIMARY KEY (session_id, test_case_id)
    );
    CREATE TABLE IF NOT EXISTS tmt_test_result_history (
      session_id uuid NOT NULL,
      position bigint NOT NULL,
      idx integer NOT NULL,
      ${RESULT_COLUMNS},
      imported boolean NOT NULL DEFAULT false,
      PRIMARY KEY (session_id, position, idx)
    );
    ${ADDED_COLUMNS}`,
  tables: ['tmt_test_sessions', 'tmt_test_results', 'tmt_test_result_history'],
  apply: applyByType<Handled>({
    TestSessionStarted: async (tx, event, at, recorded) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO tmt_test_sessions (session_id, company_id, workspace_id, project_id, name, status, test_case_ids, created_pos, created_at, updated_at, created_by)
         VALUES ($1,$2,$3,$4,$5,'planned',$6::jsonb,$7,$8,$8,$9) ON CONFLICT (session_id) DO NOTHING`,
        [p.sessionId, p.companyId, p.workspaceId, p.projectId, p.name, JSON.stringify(p.testCaseIds), recorded.position.toString(), at, String(recorded.metadata.actorId ?? '')],
      );
    },
    TestSessionUpdated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `UPDATE tmt_test_sessions SET name = coalesce($2, name), test_case_ids = coalesce($3::jsonb, test_case_ids), status = coalesce($4, status), updated_at = $5
         WHERE session_id = $1`,
        [p.sessionId, p.name ?? null, p.testCaseIds ? JSON.stringify(p.testCaseIds) : null, p.status ?? null, at],
      );
      // A case taken out of the session takes its current result with it; its history stays.
      if (p.testCaseIds) {
        await tx.query(`DELETE FROM tmt_test_results WHERE session_id = $1 AND NOT (test_case_id = ANY($2::uuid[]))`, [p.sessionId, p.testCaseIds]);
      }
    },
    TestSessionCompleted: (tx, event, at) => tx.query(`UPDATE tmt_test_sessions SET status = 'completed', completed_at = $2, updated_at = $2 WHERE session_id = $1`, [event.payload.sessionId, at]),
    TestResultsRecorded: async (tx, event, at, recorded) => {
      const { sessionId, results, recordedBy } = event.payload;
      const imported = event.payload.imported === true;
      const by = actorText(recordedBy);
      const pos = recorded.position.toString();
      // A report imported again replaces what earlier reports recorded for its cases: the history holds
      // each imported test once. Only earlier positions go, so applying the event again changes nothing.
      if (imported) {
        await tx.query(`DELETE FROM tmt_test_result_history WHERE session_id = $1 AND imported AND position < $2 AND test_case_id = ANY($3::uuid[])`, [
          sessionId,
          pos,
          results.map((r) => r.testCaseId),
        ]);
      }
      await tx.query(
        `INSERT INTO tmt_test_result_history (session_id, position, idx, test_case_id, status, notes, duration_ms, recorded_at, recorded_by, title, device_session_id, imported)
         SELECT $1, $2, idx - 1, cid, st, notes, dur, $3, $4, title, dsid, $11
         FROM unnest($5::uuid[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[]) WITH ORDINALITY AS t(cid, st, notes, dur, title, dsid, idx)
         ON CONFLICT (session_id, position, idx) DO NOTHING`,
        [
          sessionId,
          pos,
          at,
          by,
          results.map((r) => r.testCaseId),
          results.map((r) => r.status),
          results.map((r) => r.notes),
          results.map((r) => r.durationMs),
          results.map((r) => r.title ?? null),
          results.map((r) => r.deviceSessionId ?? null),
          imported,
        ],
      );
      // The newest result of each case in the batch; one row per key in a multi-row upsert.
      const last = new Map<string, number>();
      results.forEach((r, i) => last.set(r.testCaseId, i));
      const idxs = [...last.values()];
      await tx.query(
        `INSERT INTO tmt_test_results (session_id, test_case_id, status, notes, duration_ms, recorded_at, recorded_by, position, idx, title, device_session_id)
         SELECT $1, cid, st, notes, dur, $2, $3, $4, idx, title, dsid
         FROM unnest($5::uuid[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[], $11::text[]) AS t(cid, st, notes, dur, idx, title, dsid)
         ON CONFLICT (session_id, test_case_id) DO UPDATE SET status = excluded.status, notes = excluded.notes, duration_ms = excluded.duration_ms,
           recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by, position = excluded.position, idx = excluded.idx,
           title = excluded.title, device_session_id = excluded.device_session_id
         WHERE (tmt_test_results.position, tmt_test_results.idx) < (excluded.position, excluded.idx)`,
        [
          sessionId,
          at,
          by,
          pos,
          idxs.map((i) => results[i]!.testCaseId),
          idxs.map((i) => results[i]!.status),
          idxs.map((i) => results[i]!.notes),
          idxs.map((i) => results[i]!.durationMs),
          idxs,
          idxs.map((i) => results[i]!.title ?? null),
          idxs.map((i) => results[i]!.deviceSessionId ?? null),
        ],
      );
      await tx.query(`UPDATE tmt_test_sessions SET updated_at = $2 WHERE session_id = $1`, [sessionId, at]);
    },
    ProjectDeleted: async (tx, event) => {
      // A project's sessions go with it, with their results.
      const sessions = `SELECT session_id FROM tmt_test_sessions WHERE project_id = $1`;
      await tx.query(`DELETE FROM tmt_test_results WHERE session_id IN (${sessions})`, [event.payload.projectId]);
      await tx.query(`DELETE FROM tmt_test_result_history WHERE session_id IN (${sessions})`, [event.payload.projectId]);
      await tx.query(`DELETE FROM tmt_test_sessions WHERE project_id = $1`, [event.payload.projectId]);
    },
  }),
};
