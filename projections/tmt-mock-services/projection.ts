import { MOCK_SERVICE_EVENT_TYPES, MockServiceEventPayloads, type MockServiceEvent } from '#events/tmt/mock-services.js';
import type { Projection } from '../types.js';
import { unreachable } from '#shared/unreachable.js';

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
  async apply(tx, recorded) {
    const type = recorded.type as MockServiceEvent['type'];
    const event = { type, payload: MockServiceEventPayloads[type].parse(recorded.payload) } as MockServiceEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'MockServiceCreated': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO tmt_mock_services (mock_id, public_id, company_id, workspace_id, name, module, routes, enabled, created_by, created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9,$10,$10) ON CONFLICT (mock_id) DO NOTHING`,
          [p.mockId, p.publicId, p.companyId, p.workspaceId, p.name, p.module, JSON.stringify(p.routes), p.enabled, p.createdBy, at],
        );
        return;
      }
      case 'MockServiceRedefined': {
        const p = event.payload;
        await tx.query(`UPDATE tmt_mock_services SET name = $2, module = $3, routes = $4::jsonb, updated_at = $5 WHERE mock_id = $1`, [
          p.mockId,
          p.name,
          p.module,
          JSON.stringify(p.routes),
          at,
        ]);
        return;
      }
      case 'MockServiceEnabled':
      case 'MockServiceDisabled':
        await tx.query(`UPDATE tmt_mock_services SET enabled = $2, updated_at = $3 WHERE mock_id = $1`, [event.payload.mockId, event.type === 'MockServiceEnabled', at]);
        return;
      case 'MockServiceDeleted':
        await tx.query(`DELETE FROM tmt_mock_services WHERE mock_id = $1`, [event.payload.mockId]);
        return;
      default:
        return unreachable(event);
    }
  },
};
