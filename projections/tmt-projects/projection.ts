import type { ProjectEvent } from '#events/tmt/projects.js';
import { PROJECT_EVENT_TYPES } from '#events/tmt/projects.js';
import { applyByType, type Projection } from '../types.js';

/** The projects of each workspace, for `/v1/projects` and `/tmt/company/api/v1/projects`. */
export const tmtProjectsProjection: Projection = {
  name: 'tmt-projects',
  version: 1,
  eventTypes: PROJECT_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_projects (
      project_id uuid PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      key text NOT NULL,
      description text NOT NULL,
      created_pos bigint NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      created_by text
    );
    CREATE INDEX IF NOT EXISTS tmt_projects_workspace ON tmt_projects (company_id, workspace_id, created_pos);`,
  tables: ['tmt_projects'],
  apply: applyByType<ProjectEvent>({
    ProjectCreated: async (tx, event, at, recorded) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO tmt_projects (project_id, company_id, workspace_id, name, key, description, created_pos, created_at, updated_at, created_by)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$8,$9) ON CONFLICT (project_id) DO NOTHING`,
        [p.projectId, p.companyId, p.workspaceId, p.name, p.key, p.description, recorded.position.toString(), at, String(recorded.metadata.actorId ?? '')],
      );
    },
    ProjectUpdated: async (tx, event, at) => {
      const c = event.payload.changes;
      await tx.query(
        `UPDATE tmt_projects SET name = coalesce($2, name), key = coalesce($3, key), description = coalesce($4, description), updated_at = $5 WHERE project_id = $1`,
        [event.payload.projectId, c.name ?? null, c.key ?? null, c.description ?? null, at],
      );
    },
    ProjectDeleted: (tx, event) => tx.query(`DELETE FROM tmt_projects WHERE project_id = $1`, [event.payload.projectId]),
  }),
};
