import { healthCheckEvents, type HealthCheckEvent } from '#events/healthcheck/checks.js';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { applyByType, type Projection } from '../types.js';

type Change<E extends HealthCheckEvent> = (tx: Sql, event: E, at: string) => Promise<unknown>;

/** A check's status set by an event, with the time it changed. */
const status =
  (s: string): Change<HealthCheckEvent> =>
  (tx, { payload: p }, at) =>
    tx.query(`UPDATE hc_checks SET status = $2, status_changed_at = $3 WHERE check_id = $1`, [p.checkId, s, at]);

/** An event's change to its check, then its line in the check's history (which never shows token hashes). */
const withHistory =
  <E extends HealthCheckEvent>(change: Change<E>) =>
  async (tx: Sql, event: E, at: string, recorded: RecordedEvent): Promise<void> => {
    await change(tx, event, at);
    const { tokenHash: _hash, ...detail } = event.payload as Record<string, unknown>;
    const actor = recorded.metadata.actorId;
    await tx.query(
      `INSERT INTO hc_check_history (event_id, position, check_id, company_id, workspace_id, event_type, actor_id, occurred_at, detail)
       SELECT $1, $2, c.check_id, c.company_id, c.workspace_id, $4, $5, $6, $7 FROM hc_checks c WHERE c.check_id = $3
       ON CONFLICT (event_id) DO NOTHING`,
      [recorded.id, recorded.position.toString(), event.payload.checkId, event.type, typeof actor === 'number' ? actor : null, at, JSON.stringify(detail)],
    );
  };

/**
 * Health checks with their status and push-token hash, and each check's history of state changes.
 * Heartbeats and metric samples are not here: the module writes them to its own bounded tables.
 */
export const hcChecksProjection: Projection = {
  name: 'hc-checks',
  version: 1,
  eventTypes: healthCheckEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS hc_checks (
      check_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      description text NOT NULL,
      interval_seconds integer NOT NULL,
      grace_seconds integer NOT NULL,
      tags jsonb NOT NULL,
      token_hash text NOT NULL,
      token_prefix text NOT NULL,
      status text NOT NULL,
      status_changed_at timestamptz NOT NULL,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS hc_checks_workspace ON hc_checks (company_id, workspace_id, created_at);
    CREATE UNIQUE INDEX IF NOT EXISTS hc_checks_token ON hc_checks (token_hash);
    CREATE INDEX IF NOT EXISTS hc_checks_up ON hc_checks (status) WHERE deleted_at IS NULL;
    CREATE TABLE IF NOT EXISTS hc_check_history (
      event_id uuid PRIMARY KEY,
      position bigint NOT NULL,
      check_id text NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      event_type text NOT NULL,
      actor_id integer,
      occurred_at timestamptz NOT NULL,
      detail jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS hc_check_history_check ON hc_check_history (check_id, position);`,
  tables: ['hc_checks', 'hc_check_history'],
  apply: applyByType<HealthCheckEvent>({
    HealthCheckCreated: withHistory((tx, { payload: p }, at) =>
      tx.query(
        `INSERT INTO hc_checks (check_id, company_id, workspace_id, name, description, interval_seconds, grace_seconds, tags,
                                token_hash, token_prefix, status, status_changed_at, created_by, created_at, updated_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,'new',$11,$12,$11,$11) ON CONFLICT (check_id) DO NOTHING`,
        [p.checkId, p.companyId, p.workspaceId, p.name, p.description, p.intervalSeconds, p.graceSeconds, JSON.stringify(p.tags), p.tokenHash, p.tokenPrefix, at, p.createdBy],
      ),
    ),
    HealthCheckUpdated: withHistory((tx, { payload: p }, at) =>
      tx.query(`UPDATE hc_checks SET name = $2, description = $3, interval_seconds = $4, grace_seconds = $5, tags = $6, updated_at = $7 WHERE check_id = $1`, [
        p.checkId,
        p.name,
        p.description,
        p.intervalSeconds,
        p.graceSeconds,
        JSON.stringify(p.tags),
        at,
      ]),
    ),
    HealthCheckTokenRotated: withHistory((tx, { payload: p }, at) =>
      tx.query(`UPDATE hc_checks SET token_hash = $2, token_prefix = $3, updated_at = $4 WHERE check_id = $1`, [p.checkId, p.tokenHash, p.tokenPrefix, at]),
    ),
    HealthCheckPaused: withHistory(status('paused')),
    HealthCheckResumed: withHistory(status('new')),
    HealthCheckDeleted: withHistory((tx, { payload: p }, at) => tx.query(`UPDATE hc_checks SET deleted_at = coalesce(deleted_at, $2) WHERE check_id = $1`, [p.checkId, at])),
    HealthCheckWentUp: withHistory(status('up')),
    HealthCheckRecovered: withHistory(status('up')),
    HealthCheckWentDown: withHistory(status('down')),
  }),
};
