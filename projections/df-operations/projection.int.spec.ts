import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { dfOperationsProjection } from './projection.js';
import { findOperation, openOperations, operationView } from './queries.js';

const scope = { companyId: 1, workspaceId: 2 };
const id = { operationId: 'op-1' };
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfOperationsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-operations read model', () => {
  it('given an operation started, running, progressing and failed, shows each state and keeps the error', async () => {
    await spec.given({ type: 'OperationStarted', payload: { ...id, operationType: 'app-install', companyId: 1, workspaceId: 2, createdBy: 7, target: { versionId: 'v-1' } } });
    expect(operationView((await findOperation(spec.db, scope, 'op-1'))!)).toMatchObject({ id: 'op-1', type: 'app-install', state: 'pending', progress: 0, result: null, error: null });
    await spec.given({ type: 'OperationRunning', payload: { ...id, runner: 'r-1' } }, { type: 'OperationProgressed', payload: { ...id, progress: 40 } });
    expect((await openOperations(spec.db, { type: 'app-install', targetKey: 'versionId', targetValue: 'v-1' })).map((o) => [o.id, o.state, o.runner, o.progress])).toEqual([['op-1', 'running', 'r-1', 40]]);
    await spec.given({ type: 'OperationFailed', payload: { ...id, error: { code: 'RUNNER_LOST', message: 'gone' } } });
    expect(await findOperation(spec.db, scope, 'op-1')).toMatchObject({ state: 'failed', progress: 40, error: { code: 'RUNNER_LOST', message: 'gone' } });
    expect(await openOperations(spec.db)).toEqual([]);
    expect(await findOperation(spec.db, { companyId: 2, workspaceId: 2 }, 'op-1')).toBeNull();
  });

  it('given a success, shows 100 and the result', async () => {
    await spec.given(
      { type: 'OperationStarted', payload: { ...id, operationType: 'catalog-backfill', companyId: 1, workspaceId: 2, createdBy: 7, target: {} } },
      { type: 'OperationRunning', payload: { ...id, runner: 'r-1' } },
      { type: 'OperationSucceeded', payload: { ...id, result: { catalogued: 2 } } },
    );
    expect(await findOperation(spec.db, scope, 'op-1')).toMatchObject({ state: 'succeeded', progress: 100, result: { catalogued: 2 } });
  });
});
