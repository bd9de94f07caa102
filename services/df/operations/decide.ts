import { TERMINAL_STATES, type OperationEvent, type OperationState } from '#events/df/operations.js';
import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';

type Started = Extract<OperationEvent, { type: 'OperationStarted' }>['payload'];

export interface OperationStateOf {
  operation: Started | null;
  state: OperationState;
  progress: number;
  runner: string | null;
}

export type OperationCommand =
  | ({ type: 'StartOperation' } & Started)
  | { type: 'RunOperation'; operationId: string; runner: string }
  | { type: 'ReportProgress'; operationId: string; progress: number }
  | { type: 'SucceedOperation'; operationId: string; result: Record<string, unknown> }
  | { type: 'FailOperation'; operationId: string; error: { code: string; message: string } }
  | { type: 'CancelOperation'; operationId: string; reason: string };

const open = (s: OperationStateOf): Started => {
  if (!s.operation) throw new AppError('NOT_FOUND', 'Operation not found');
  return s.operation;
};
const finished = (s: OperationStateOf) => TERMINAL_STATES.includes(s.state);

/**
 * One long-running operation: `pending → running → succeeded | failed | cancelled`. A final state
 * never changes again: a late report from a job that was already declared dead is dropped.
 */
export const operationDecider = defineDecider<OperationCommand, OperationEvent, OperationStateOf>({
  initialState: () => ({ operation: null, state: 'pending', progress: 0, runner: null }),
  evolve: {
    OperationStarted: (s, e) => ({ ...s, operation: e.payload, state: 'pending' }),
    OperationRunning: (s, e) => ({ ...s, state: 'running', runner: e.payload.runner }),
    OperationProgressed: (s, e) => ({ ...s, progress: e.payload.progress }),
    OperationSucceeded: (s) => ({ ...s, state: 'succeeded', progress: 100 }),
    OperationFailed: (s) => ({ ...s, state: 'failed' }),
    OperationCancelled: (s) => ({ ...s, state: 'cancelled' }),
  },
  decide: {
    StartOperation: (command, state) => [firstEvent(state.operation, 'Operation', 'OperationStarted', command)],
    RunOperation: (command, state) => {
      open(state);
      if (state.state !== 'pending') throw new AppError('INVALID_TRANSITION', `The operation is ${state.state}`);
      return [{ type: 'OperationRunning', payload: { operationId: command.operationId, runner: command.runner } }];
    },
    ReportProgress: (command, state) => {
      open(state);
      if (finished(state) || command.progress <= state.progress) return [];
      return [{ type: 'OperationProgressed', payload: { operationId: command.operationId, progress: Math.min(100, Math.round(command.progress)) } }];
    },
    SucceedOperation: (command, state) => {
      open(state);
      return finished(state) ? [] : [{ type: 'OperationSucceeded', payload: { operationId: command.operationId, result: command.result } }];
    },
    FailOperation: (command, state) => {
      open(state);
      return finished(state) ? [] : [{ type: 'OperationFailed', payload: { operationId: command.operationId, error: command.error } }];
    },
    CancelOperation: (command, state) => {
      open(state);
      return finished(state) ? [] : [{ type: 'OperationCancelled', payload: { operationId: command.operationId, reason: command.reason } }];
    },
  },
});
