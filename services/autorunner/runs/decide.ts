import { type Decider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import { runEvents, type RunEvent, type RunStatus } from '#events/autorunner/runs.js';
import { unreachable } from '#shared/unreachable.js';

type Started = Extract<RunEvent, { type: 'RunStarted' }>['payload'];
type Reported = Extract<RunEvent, { type: 'RunResultsReported' }>['payload'];
type Completed = Extract<RunEvent, { type: 'RunCompleted' }>['payload'];

export interface RunState {
  run: Started | null;
  status: RunStatus;
}

export type RunCommand =
  | ({ type: 'StartRun' } & Started)
  | ({ type: 'ReportRunResults' } & Reported)
  | ({ type: 'CompleteRun' } & Completed);

/**
 * A run of a test engine against one test session: `running` from its start, results reported any
 * number of times while it runs, then completed once. Completing again with the same status changes
 * nothing (an engine retrying its last call); anything else after completion is refused.
 */
export const runDecider: Decider<RunCommand, RunEvent, RunState> = {
  initialState: () => ({ run: null, status: 'running' }),
  evolve(state, event) {
    switch (event.type) {
      case 'RunStarted':
        return { run: event.payload, status: 'running' };
      case 'RunResultsReported':
        return state;
      case 'RunCompleted':
        return { ...state, status: event.payload.status };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    if (command.type === 'StartRun') return runEvents.checked([firstEvent(state.run, 'Run', 'RunStarted', command)]);
    if (!state.run) throw new AppError('NOT_FOUND', 'Run not found');
    switch (command.type) {
      case 'ReportRunResults': {
        if (state.status !== 'running') throw new AppError('RUN_NOT_RUNNING', `Run is ${state.status}; it takes no more results`);
        const { type: _type, ...payload } = command;
        return runEvents.checked([{ type: 'RunResultsReported', payload }]);
      }
      case 'CompleteRun':
        if (state.status === command.status) return [];
        if (state.status !== 'running') throw new AppError('RUN_NOT_RUNNING', `Run is already ${state.status}`);
        return runEvents.checked([{ type: 'RunCompleted', payload: { runId: command.runId, status: command.status } }]);
      default:
        return unreachable(command, 'command');
    }
  },
};
