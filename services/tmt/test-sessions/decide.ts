import { defineDecider, firstEvent, type CommandOf } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { TmtActor } from '../http.js';
import type { RecordedResult, SessionStatus, TestSessionEvent } from '#events/tmt/test-sessions.js';

type Started = Extract<TestSessionEvent, { type: 'TestSessionStarted' }>['payload'];

export interface TestSessionState {
  session: Started | null;
  status: SessionStatus;
  /** The cases of the session, for the membership check of every result. */
  caseIds: ReadonlySet<string>;
}

export type TestSessionCommand =
  | ({ type: 'StartTestSession' } & Started)
  | { type: 'UpdateTestSession'; name?: string; testCaseIds?: string[]; status?: SessionStatus }
  /**
   * `imported`: the results of an imported report (JUnit), each replacing what an earlier report
   * recorded for its case. Recording no results refuses a session that is missing or completed.
   */
  | { type: 'RecordResults'; results: RecordedResult[]; recordedBy: TmtActor; imported?: true };

/** Results per `TestResultsRecorded` event: an import larger than this is recorded as several events of one append. */
export const RESULTS_PER_EVENT = 1_000;

/** The legal moves of a session's status: forward one step at a time. */
const NEXT: Record<SessionStatus, SessionStatus | null> = { planned: 'in_progress', in_progress: 'completed', completed: null };

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

const live = (state: TestSessionState): Started => {
  if (!state.session) throw new AppError('NOT_FOUND', 'Test session not found');
  return state.session;
};

/** A test session: its case list, its status transitions, and the results recorded in it. */
export const testSessionDecider = defineDecider<TestSessionCommand, TestSessionEvent, TestSessionState>({
  initialState: () => ({ session: null, status: 'planned', caseIds: new Set() }),
  evolve: {
    TestSessionStarted: (state, event) => ({ session: event.payload, status: 'planned', caseIds: new Set(event.payload.testCaseIds) }),
    TestSessionUpdated: (state, event) => {
      if (!state.session) return state;
      const { name, testCaseIds, status } = event.payload;
      return {
        session: { ...state.session, ...(name !== undefined ? { name } : {}), ...(testCaseIds ? { testCaseIds } : {}) },
        status: status ?? state.status,
        caseIds: testCaseIds ? new Set(testCaseIds) : state.caseIds,
      };
    },
    TestSessionCompleted: (state, event) => ({ ...state, status: 'completed' }),
    TestResultsRecorded: (state, event) => state,
  },
  decide: {
    StartTestSession: (command, state) => [firstEvent(state.session, 'Test session', 'TestSessionStarted', command)],
    UpdateTestSession: (command, state) => {
      const session = live(state);
      const { sessionId } = session;
      const rename = command.name !== undefined && command.name !== session.name ? command.name : undefined;
      const cases = command.testCaseIds !== undefined && !sameList(command.testCaseIds, session.testCaseIds) ? command.testCaseIds : undefined;
      const move = command.status !== undefined && command.status !== state.status ? command.status : undefined;
      if (cases && state.status === 'completed') throw new AppError('SESSION_COMPLETED', 'The test cases of a completed session cannot change');
      if (move && NEXT[state.status] !== move) {
        throw new AppError('INVALID_TRANSITION', `A session cannot go from ${state.status} to ${move}`);
      }
      const events: TestSessionEvent[] = [];
      if (rename !== undefined || cases || move === 'in_progress') {
        events.push({
          type: 'TestSessionUpdated',
          payload: { sessionId, ...(rename !== undefined ? { name: rename } : {}), ...(cases ? { testCaseIds: cases } : {}), ...(move === 'in_progress' ? { status: 'in_progress' as const } : {}) },
        });
      }
      if (move === 'completed') events.push({ type: 'TestSessionCompleted', payload: { sessionId } });
      return events;
    },
    RecordResults: (command, state) => {
      const session = live(state);
      if (state.status === 'completed') throw new AppError('SESSION_COMPLETED', 'The session is completed; no more results can be recorded');
      const outside = command.results.findIndex((r) => !state.caseIds.has(r.testCaseId));
      if (outside !== -1) {
        const id = command.results[outside]!.testCaseId;
        throw new AppError('TEST_CASE_NOT_IN_SESSION', `results[${outside}]: test case ${id} is not in this session`, {
          details: [{ path: `${outside}.testCaseId`, message: `test case ${id} is not in this session` }],
        });
      }
      if (command.results.length === 0) return [];
      const events: TestSessionEvent[] = [];
      if (state.status === 'planned') events.push({ type: 'TestSessionUpdated', payload: { sessionId: session.sessionId, status: 'in_progress' } });
      events.push({
        type: 'TestResultsRecorded',
        payload: { sessionId: session.sessionId, results: command.results, recordedBy: command.recordedBy, ...(command.imported ? { imported: true } : {}) },
      });
      return events;
    },
  },
});

/** An imported report (JUnit): the results, the session to start with them (`start`), and whether it ends (`close`). */
export interface Import {
  start?: Started;
  results: RecordedResult[];
  recordedBy: TmtActor;
  close?: boolean;
}

/**
 * An imported report as one batch of commands (one append): with `start` the session is started,
 * otherwise it must be open; the report's cases not in the session join it and a planned session moves
 * to in_progress; the results are recorded in events of at most `RESULTS_PER_EVENT`; with `close` the
 * session is completed after them.
 */
export function importCommands(report: Import): CommandOf<TestSessionCommand, TestSessionState>[] {
  const { results, recordedBy } = report;
  const joinAndBegin = (state: TestSessionState): TestSessionCommand => {
    const current = state.session!.testCaseIds;
    const known = new Set(current);
    const added = [...new Set(results.map((r) => r.testCaseId))].filter((id) => !known.has(id));
    const begins = state.status === 'planned' && (results.length > 0 || report.close === true);
    return { type: 'UpdateTestSession', ...(added.length > 0 ? { testCaseIds: [...current, ...added] } : {}), ...(begins ? { status: 'in_progress' as const } : {}) };
  };
  const chunks: TestSessionCommand[] = [];
  for (let i = 0; i < results.length; i += RESULTS_PER_EVENT) {
    chunks.push({ type: 'RecordResults', results: results.slice(i, i + RESULTS_PER_EVENT), recordedBy, imported: true });
  }
  return [
    report.start ? { type: 'StartTestSession', ...report.start } : { type: 'RecordResults', results: [], recordedBy },
    joinAndBegin,
    ...chunks,
    ...(report.close ? [{ type: 'UpdateTestSession' as const, status: 'completed' as const }] : []),
  ];
}
