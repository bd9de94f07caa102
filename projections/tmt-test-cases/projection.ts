import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import type { ProjectEvent } from '#events/tmt/projects.js';
import type { TestCaseEvent } from '#events/tmt/test-cases.js';
import { TEST_CASE_EVENT_TYPES } from '#events/tmt/test-cases.js';
import { applyByType, type Projection } from '../types.js';

type Handled = TestCaseEvent | Extract<ProjectEvent, { type: 'ProjectDeleted' }>;

const HANDLED = [...TEST_CASE_EVENT_TYPES, 'ProjectDeleted'] as const satisfies readonly Handled['type'][];

/**
 * Test cases with an index per list filter, and a count per (project, priority, status) so the list's
 * total is a sum over a few rows instead of a `count(*)` over every matching case.
 */
export const tmtTestCasesProjection: Projection = {
  name: 'tmt-test-cases',
  version: 1,
  eventTypes: HANDLED,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_test_cases (
      test_case_id uuid PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      project_id uuid NOT NULL,
      title text NOT NULL,
      description text NOT NULL,
      priority text NOT NULL,
      status text NOT NULL,
      steps jsonb NOT NULL,
      created_pos bigint NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      created_by text
    );
    CREATE INDEX IF NOT EXISTS tmt_test_cases_ws ON tmt_test_cases (company_id, workspace_id, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_cases_project ON tmt_test_cases (company_id, workspace_id, project_id, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_cases_project_title ON tmt_test_cases (company_id, workspace_id, project_id, title);
    CREATE INDEX IF NOT EXISTS tmt_test_cases_project_priority ON tmt_test_cases (company_id, workspace_id, project_id, priority, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_cases_project_status ON tmt_test_cases (company_id, workspace_id, project_id, status, created_pos);
    CREATE INDEX IF NOT EXISTS tmt_test_cases_priority ON tmt_test_cases (company_id, workspace_id, priority, created_pos);
    CREATE TABLE IF NOT EXISTS tmt_test_case_counts (
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      project_id uuid NOT NULL,
      priority text NOT NULL,
      status text NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (company_id, workspace_id, project_id, priority, status)
    );`,
  tables: ['tmt_test_cases', 'tmt_test_case_counts'],
  apply: (tx, recorded) => applyOne(tx, recorded),
  // Consecutive creations (a bulk import, a rebuild) become one multi-row insert.
  async applyBatch(tx, events) {
    await applyEvents(tx, events);
  },
};

/**
 * The planner's statistics of the cases table, kept fresh the way autovacuum's analyze threshold would
 * (PGlite has no autovacuum): after a fifth of the rows counted at the last ANALYZE (at least 2,000)
 * were inserted. With stale statistics a 100,000-case workspace looks empty to the planner, which then
 * sorts every row for the first page instead of reading it from the ordered index.
 */
const statistics = { inserted: 0, rowsAtLastAnalyze: 0 };

async function analyzeWhenGrown(tx: Sql, inserted: number): Promise<void> {
  statistics.inserted += inserted;
  if (statistics.inserted < Math.max(2_000, statistics.rowsAtLastAnalyze / 5)) return;
  await tx.query('ANALYZE tmt_test_cases');
  const r = await tx.query<{ n: unknown }>(`SELECT reltuples AS n FROM pg_class WHERE relname = 'tmt_test_cases'`);
  statistics.rowsAtLastAnalyze = Math.max(0, Number(r.rows[0]?.n ?? 0));
  statistics.inserted = 0;
}

async function applyEvents(tx: Sql, events: readonly RecordedEvent[]): Promise<void> {
  let created: RecordedEvent[] = [];
  for (const recorded of events) {
    if (recorded.type === 'TestCaseCreated') {
      created.push(recorded);
      continue;
    }
    if (created.length > 0) await insertCreated(tx, created);
    created = [];
    await applyOne(tx, recorded);
  }
  if (created.length > 0) await insertCreated(tx, created);
}

/** Inserts new cases and counts only the rows actually inserted, so applying an event twice changes nothing. */
async function insertCreated(tx: Sql, events: readonly RecordedEvent[]): Promise<void> {
  const cols: unknown[][] = Array.from({ length: 12 }, () => []);
  for (const recorded of events) {
    const p = (recorded as RecordedEvent<'TestCaseCreated', Extract<TestCaseEvent, { type: 'TestCaseCreated' }>['payload']>).payload;
    const row = [p.testCaseId, p.companyId, p.workspaceId, p.projectId, p.title, p.description, p.priority, p.status, JSON.stringify(p.steps), recorded.position.toString(), recorded.metadata.occurredAt, String(recorded.metadata.actorId ?? '')];
    row.forEach((v, i) => cols[i]!.push(v));
  }
  const r = await tx.query<{ n: unknown }>(
    `WITH ins AS (
       INSERT INTO tmt_test_cases (test_case_id, company_id, workspace_id, project_id, title, description, priority, status, steps, created_pos, created_at, updated_at, created_by)
       SELECT id, cid, wid, pid, title, descr, prio, st, steps::jsonb, pos, at, at, actor
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::timestamptz[], $12::text[])
         AS t(id, cid, wid, pid, title, descr, prio, st, steps, pos, at, actor)
       ON CONFLICT (test_case_id) DO NOTHING
       RETURNING company_id, workspace_id, project_id, priority, status
     )
     , counted AS (
       INSERT INTO tmt_test_case_counts (company_id, workspace_id, project_id, priority, status, n)
       SELECT company_id, workspace_id, project_id, priority, status, count(*) FROM ins GROUP BY 1, 2, 3, 4, 5
       ON CONFLICT (company_id, workspace_id, project_id, priority, status) DO UPDATE SET n = tmt_test_case_counts.n + excluded.n
     )
     SELECT count(*) AS n FROM ins`,
    cols,
  );
  await analyzeWhenGrown(tx, Number(r.rows[0]?.n ?? 0));
}

async function adjustCount(tx: Sql, row: Record<string, unknown>, delta: number): Promise<void> {
  await tx.query(
    `INSERT INTO tmt_test_case_counts (company_id, workspace_id, project_id, priority, status, n) VALUES ($1,$2,$3,$4,$5,$6)
     ON CONFLICT (company_id, workspace_id, project_id, priority, status) DO UPDATE SET n = tmt_test_case_counts.n + excluded.n`,
    [row.company_id, row.workspace_id, row.project_id, row.priority, row.status, delta],
  );
  await tx.query(`DELETE FROM tmt_test_case_counts WHERE company_id = $1 AND workspace_id = $2 AND project_id = $3 AND priority = $4 AND status = $5 AND n <= 0`, [
    row.company_id,
    row.workspace_id,
    row.project_id,
    row.priority,
    row.status,
  ]);
}

/** One event, as its type's handler applies it (a batch applies creations together, every other event through this). */
const applyOne = applyByType<Handled>({
  TestCaseCreated: (tx, _event, _at, recorded) => insertCreated(tx, [recorded]),
  TestCaseUpdated: async (tx, { payload: { testCaseId, changes: c } }, at) => {
    const before = (await tx.query(`SELECT company_id, workspace_id, project_id, priority, status FROM tmt_test_cases WHERE test_case_id = $1`, [testCaseId])).rows[0];
    if (!before) return;
    await tx.query(
      `UPDATE tmt_test_cases SET title = coalesce($2, title), description = coalesce($3, description), priority = coalesce($4, priority),
         status = coalesce($5, status), steps = coalesce($6::jsonb, steps), updated_at = $7 WHERE test_case_id = $1`,
      [testCaseId, c.title ?? null, c.description ?? null, c.priority ?? null, c.status ?? null, c.steps ? JSON.stringify(c.steps) : null, at],
    );
    const after = { ...before, priority: c.priority ?? before.priority, status: c.status ?? before.status };
    if (after.priority !== before.priority || after.status !== before.status) {
      await adjustCount(tx, before, -1);
      await adjustCount(tx, after, 1);
    }
  },
  TestCaseDeleted: async (tx, { payload: p }) => {
    const gone = (await tx.query(`DELETE FROM tmt_test_cases WHERE test_case_id = $1 RETURNING company_id, workspace_id, project_id, priority, status`, [p.testCaseId])).rows[0];
    if (gone) await adjustCount(tx, gone, -1);
  },
  ProjectDeleted: async (tx, { payload: p }) => {
    // A project's cases go with it.
    await tx.query(`DELETE FROM tmt_test_cases WHERE project_id = $1`, [p.projectId]);
    await tx.query(`DELETE FROM tmt_test_case_counts WHERE project_id = $1`, [p.projectId]);
  },
});
