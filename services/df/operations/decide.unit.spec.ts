import { describe, it } from 'vitest';
import type { OperationEvent } from '#events/df/operations.js';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { operationDecider } from './decide.js';

const spec = deciderSpec(operationDecider);
const started: OperationEvent = { type: 'OperationStarted', payload: { operationId: 'op-1', operationType: 'app-install', companyId: 1, workspaceId: 2, createdBy: 7, target: { versionId: 'v-1' } } };
const running: OperationEvent = { type: 'OperationRunning', payload: { operationId: 'op-1', runner: 'r-1' } };
const failed: OperationEvent = { type: 'OperationFailed', payload: { operationId: 'op-1', error: { code: 'RUNNER_LOST', message: 'gone' } } };

describe('operation decider', () => {
  it('goes pending → running → succeeded, with progress only forward', () => {
    spec.given([started]).when({ type: 'RunOperation', operationId: 'op-1', runner: 'r-1' }).then([running]);
    spec.given([started, running]).when({ type: 'ReportProgress', operationId: 'op-1', progress: 40 }).then([{ type: 'OperationProgressed', payload: { operationId: 'op-1', progress: 40 } }]);
    spec.given([started, running, { type: 'OperationProgressed', payload: { operationId: 'op-1', progress: 40 } }]).when({ type: 'ReportProgress', operationId: 'op-1', progress: 30 }).then([]);
    spec.given([started, running]).when({ type: 'SucceedOperation', operationId: 'op-1', result: { ok: true } }).then([{ type: 'OperationSucceeded', payload: { operationId: 'op-1', result: { ok: true } } }]);
  });

  it('never leaves a final state: a late success of a job declared dead is dropped', () => {
    spec.given([started, running, failed]).when({ type: 'SucceedOperation', operationId: 'op-1', result: {} }).then([]);
    spec.given([started, running, failed]).when({ type: 'ReportProgress', operationId: 'op-1', progress: 90 }).then([]);
    spec.given([started, running, failed]).when({ type: 'CancelOperation', operationId: 'op-1', reason: 'x' }).then([]);
    spec.given([started, running, failed]).when({ type: 'RunOperation', operationId: 'op-1', runner: 'r-2' }).thenRefused('INVALID_TRANSITION');
  });

  it('refuses an operation that does not exist, and starting one twice', () => {
    spec.given([]).when({ type: 'FailOperation', operationId: 'op-1', error: { code: 'X', message: 'y' } }).thenRefused('NOT_FOUND');
    spec.given([started]).when({ type: 'StartOperation', operationId: 'op-1', operationType: 'x', companyId: 1, workspaceId: 2, createdBy: 7, target: {} }).thenRefused('ALREADY_EXISTS');
  });
});
