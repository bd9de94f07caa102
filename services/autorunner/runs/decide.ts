import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { runEvents, type RunEvent, type RunStatus } from '#events/autorunner/runs.js';

type Payload<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>['payload'];

export interface RunState {
  run: Payload<'RunStarted'> | null;
  status: RunStatus;
}

/** Each command carries the payload of the event it records. */
export type RunCommand =
  | ({ type: 'StartRun' } & Payload<'RunStarted'>)
  | ({ type: 'ReportRunResults' } & Payload<'RunResultsReported'>)
  | ({ type: 'CompleteRun' } & Payload<'RunCompleted'>);

const started = (state: RunState): Payload<'RunStarted'> => {
  if (!state.run) throw new AppError('NOT_FOUND', 'Run not found');
  return state.run;
};

/**
 * A run of a test engine against one test session: `running` from its start, results reported any
 * number of times while it runs, then completed once. Completing again with the same status changes
 * nothing (an engine retrying its last call); anything else after completion is refused.
 */
export const runDecider = defineDecider<RunCommand, RunEvent, RunState>({
  initialState: () => ({ run: null, status: 'running' }),
  evolve: {
    RunStarted: (_state, event) => ({ run: event.payload, status: 'running' }),
    RunResultsReported: (state) => state,
    RunCompleted: (state, event) => ({ ...state, status: event.payload.status }),
  },
  decide: {
    StartRun: (command, state) => runEvents.checked([firstEvent(state.run, 'Run', 'RunStarted', command)]),
    ReportRunResults: (command, state) => {
      started(state);
      if (state.status !== 'running') throw new AppError('RUN_NOT_RUNNING', `Run is ${state.status}; it takes no more results`);
      const { type: _type, ...payload } = command;
      return runEvents.checked([{ type: 'RunResultsReported', payload }]);
    },
    CompleteRun: (command, state) => {
      started(state);
      if (state.status === command.status) return [];
      if (state.status !== 'running') throw new AppError('RUN_NOT_RUNNING', `Run is already ${state.status}`);
      return runEvents.checked([{ type: 'RunCompleted', payload: { runId: command.runId, status: command.status } }]);
    },
  },
});
