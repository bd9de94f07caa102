import { operationEvents, type OperationEvent } from '#events/df/operations.js';
import { applyByType, type Projection } from '../types.js';

/** Long-running operations, for `GET /df/api/operations/{id}` on any replica and the checks that ask which jobs run. */
export const dfOperationsProjection: Projection = {
  name: 'df-operations',
  version: 1,
  eventTypes: operationEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS df_operations (
      operation_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      type text NOT NULL,
      state text NOT NULL,
      progress integer NOT NULL DEFAULT 0,
      target jsonb NOT NULL,
      result jsonb,
      error jsonb,
      runner text,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_operations_open ON df_operations (state) WHERE state IN ('pending', 'running');`,
  tables: ['df_operations'],
  apply: applyByType<OperationEvent>({
    OperationStarted: (tx, e, at) =>
      tx.query(
        `INSERT INTO df_operations (operation_id, company_id, workspace_id, type, state, target, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'pending', $5::jsonb, $6, $7, $7) ON CONFLICT (operation_id) DO NOTHING`,
        [e.payload.operationId, e.payload.companyId, e.payload.workspaceId, e.payload.operationType, JSON.stringify(e.payload.target), e.payload.createdBy, at],
      ),
    OperationRunning: (tx, e, at) => tx.query(`UPDATE df_operations SET state = 'running', runner = $2, updated_at = $3 WHERE operation_id = $1`, [e.payload.operationId, e.payload.runner, at]),
    OperationProgressed: (tx, e, at) => tx.query(`UPDATE df_operations SET progress = GREATEST(progress, $2), updated_at = $3 WHERE operation_id = $1`, [e.payload.operationId, e.payload.progress, at]),
    OperationSucceeded: (tx, e, at) =>
      tx.query(`UPDATE df_operations SET state = 'succeeded', progress = 100, result = $2::jsonb, updated_at = $3 WHERE operation_id = $1`, [e.payload.operationId, JSON.stringify(e.payload.result), at]),
    OperationFailed: (tx, e, at) => tx.query(`UPDATE df_operations SET state = 'failed', error = $2::jsonb, updated_at = $3 WHERE operation_id = $1`, [e.payload.operationId, JSON.stringify(e.payload.error), at]),
    OperationCancelled: (tx, e, at) =>
      tx.query(`UPDATE df_operations SET state = 'cancelled', error = $2::jsonb, updated_at = $3 WHERE operation_id = $1`, [e.payload.operationId, JSON.stringify({ code: 'CANCELLED', message: e.payload.reason }), at]),
  }),
};
