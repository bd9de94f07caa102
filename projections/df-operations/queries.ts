import type { OperationState } from '#events/df/operations.js';
import type { Sql } from '#shared/db/index.js';
import { iso, json, type Row } from '#shared/db/index.js';

/** An operation as the API shows it. */
export interface OperationView {
  id: string;
  type: string;
  state: OperationState;
  progress: number;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface OperationRecord extends OperationView {
  companyId: number;
  workspaceId: number;
  target: Record<string, unknown>;
  runner: string | null;
}

const toRecord = (r: Row): OperationRecord => ({
  id: String(r.operation_id),
  type: String(r.type),
  state: r.state as OperationState,
  progress: Number(r.progress),
  result: r.result === null ? null : json<Record<string, unknown>>(r.result),
  error: r.error === null ? null : json<{ code: string; message: string }>(r.error),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  companyId: Number(r.company_id),
  workspaceId: Number(r.workspace_id),
  target: json<Record<string, unknown>>(r.target),
  runner: r.runner === null ? null : String(r.runner),
});

/** The API's view of an operation record. */
export const operationView = (o: OperationRecord): OperationView => ({ id: o.id, type: o.type, state: o.state, progress: o.progress, result: o.result, error: o.error, createdAt: o.createdAt, updatedAt: o.updatedAt });

/** One operation of the workspace, or null (another company's or workspace's is not found). */
export async function findOperation(db: Sql, scope: { companyId: number; workspaceId: number }, operationId: string): Promise<OperationRecord | null> {
  const r = await db.query(`SELECT * FROM df_operations WHERE operation_id = $1 AND company_id = $2 AND workspace_id = $3`, [operationId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toRecord(r.rows[0]) : null;
}

/** Operations not finished: pending or running. */
export async function openOperations(db: Sql, filter: { type?: string; targetKey?: string; targetValue?: string } = {}): Promise<OperationRecord[]> {
  const where = [`state IN ('pending', 'running')`];
  const params: unknown[] = [];
  if (filter.type) {
    params.push(filter.type);
    where.push(`type = $${params.length}`);
  }
  if (filter.targetKey && filter.targetValue !== undefined) {
    params.push(filter.targetKey, filter.targetValue);
    where.push(`target ->> $${params.length - 1} = $${params.length}`);
  }
  const r = await db.query(`SELECT * FROM df_operations WHERE ${where.join(' AND ')} ORDER BY created_at`, params);
  return r.rows.map(toRecord);
}
