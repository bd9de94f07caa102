import { MOCK_SERVICE_EVENT_TYPES, mockServiceEvents, type MockServiceEvent } from '#events/tmt/mock-services.js';
import { applyByType, type Projection } from '../types.js';

/** Mock services of each workspace, found by id for their owners and by public id for the public dispatch. */
export const tmtMockServicesProjection: Projection = {
  name: 'tmt-mock-services',
  version: 1,
  eventTypes: MOCK_SERVICE_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_mock_services (
      mock_id text PRIMARY KEY,
      public_id text NOT NULL UNIQUE,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      module text NOT NULL,
      routes jsonb NOT NULL,
      enabled boolean NOT NULL,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tmt_mock_services_workspace ON tmt_mock_services (company_id, workspace_id, lower(name));`,
  tables: ['tmt_mock_services'],
  apply: applyByType<MockServiceEvent>({
    MockServiceCreated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO tmt_mock_services (mock_id, public_id, company_id, workspace_id, name, module, routes, enabled, created_by, created_at, updated_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9,$10,$10) ON CONFLICT (mock_id) DO NOTHING`,
        [p.mockId, p.publicId, p.companyId, p.workspaceId, p.name, p.module, JSON.stringify(p.routes), p.enabled, p.createdBy, at],
      );
    },
    MockServiceRedefined: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(`UPDATE tmt_mock_services SET name = $2, module = $3, routes = $4::jsonb, updated_at = $5 WHERE mock_id = $1`, [
        p.mockId,
        p.name,
        p.module,
        JSON.stringify(p.routes),
        at,
      ]);
    },
    MockServiceEnabled: (tx, event, at) => tx.query(`UPDATE tmt_mock_services SET enabled = $2, updated_at = $3 WHERE mock_id = $1`, [event.payload.mockId, true, at]),
    MockServiceDisabled: (tx, event, at) => tx.query(`UPDATE tmt_mock_services SET enabled = $2, updated_at = $3 WHERE mock_id = $1`, [event.payload.mockId, false, at]),
    MockServiceDeleted: (tx, event) => tx.query(`DELETE FROM tmt_mock_services WHERE mock_id = $1`, [event.payload.mockId]),
  }, mockServiceEvents),
};
