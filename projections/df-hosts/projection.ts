import { hostEvents, type HostEvent } from '#events/df/hosts.js';
import { applyByType, type Projection } from '../types.js';

/** Enrolled device hosts, for the hosts endpoints (who may connect is decided from the event store). */
export const dfHostsProjection: Projection = {
  name: 'df-hosts',
  version: 2,
  eventTypes: hostEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS df_hosts (
      host_id text PRIMARY KEY,
      company_id integer NOT NULL,
      name text NOT NULL,
      workspace_ids jsonb,
      token_prefix text NOT NULL,
      created_by text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    ALTER TABLE df_hosts ADD COLUMN IF NOT EXISTS first_connected_at timestamptz;
    CREATE INDEX IF NOT EXISTS df_hosts_company ON df_hosts (company_id, created_at);`,
  tables: ['df_hosts'],
  apply: applyByType<HostEvent>({
    HostEnrolled: (tx, e, at, recorded) =>
      tx.query(
        `INSERT INTO df_hosts (host_id, company_id, name, workspace_ids, token_prefix, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $7) ON CONFLICT (host_id) DO NOTHING`,
        [e.payload.hostId, e.payload.companyId, e.payload.name, JSON.stringify(e.payload.workspaceIds), e.payload.tokenPrefix, recorded.metadata.actorId === undefined || recorded.metadata.actorId === null ? null : String(recorded.metadata.actorId), at],
      ),
    HostRenamed: (tx, e, at) => tx.query(`UPDATE df_hosts SET name = $2, updated_at = $3 WHERE host_id = $1`, [e.payload.hostId, e.payload.name, at]),
    HostRescoped: (tx, e, at) =>
      tx.query(`UPDATE df_hosts SET workspace_ids = $2::jsonb, updated_at = $3 WHERE host_id = $1`, [e.payload.hostId, JSON.stringify(e.payload.workspaceIds), at]),
    HostTokenRotated: (tx, e, at) => tx.query(`UPDATE df_hosts SET token_prefix = $2, updated_at = $3 WHERE host_id = $1`, [e.payload.hostId, e.payload.tokenPrefix, at]),
    HostRevoked: (tx, e, at) => tx.query(`UPDATE df_hosts SET revoked_at = $2, updated_at = $2 WHERE host_id = $1`, [e.payload.hostId, at]),
    HostFirstConnected: (tx, e, at) => tx.query(`UPDATE df_hosts SET first_connected_at = $2 WHERE host_id = $1 AND first_connected_at IS NULL`, [e.payload.hostId, at]),
  }),
};
