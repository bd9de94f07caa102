import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { TmtActor } from '../v1-http.js';
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
  | { type: 'RecordResults'; results: RecordedResult[]; recordedBy: TmtActor }
  /**
   * An imported report (JUnit): its cases join the session when they are not in it yet, and its
   * results are recorded, each replacing what an earlier report recorded for its case, all in one
   * append. With `start` the session is started by the same append, with `close` completed by it.
   */
  | { type: 'ImportResults'; start?: Started; results: RecordedResult[]; recordedBy: TmtActor; close?: boolean };

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
      events.push({ type: 'TestResultsRecorded', payload: { sessionId: session.sessionId, results: command.results, recordedBy: command.recordedBy } });
      return events;
    },
    ImportResults: (command, state) => {
      const events: TestSessionEvent[] = [];
      let session: Started;
      let status = state.status;
      if (command.start) {
        events.push(firstEvent(state.session, 'Test session', 'TestSessionStarted', { type: 'StartTestSession', ...command.start }));
        session = command.start;
        status = 'planned';
      } else {
        session = live(state);
        if (status === 'completed') throw new AppError('SESSION_COMPLETED', 'The session is completed; no more results can be recorded');
      }
      const known = new Set(session.testCaseIds);
      const added = [...new Set(command.results.map((r) => r.testCaseId))].filter((id) => !known.has(id));
      const begins = status === 'planned' && (command.results.length > 0 || command.close === true);
      if (added.length > 0 || begins) {
        events.push({
          type: 'TestSessionUpdated',
          payload: { sessionId: session.sessionId, ...(added.length > 0 ? { testCaseIds: [...session.testCaseIds, ...added] } : {}), ...(begins ? { status: 'in_progress' as const } : {}) },
        });
      }
      for (let i = 0; i < command.results.length; i += RESULTS_PER_EVENT) {
        events.push({
          type: 'TestResultsRecorded',
          payload: { sessionId: session.sessionId, results: command.results.slice(i, i + RESULTS_PER_EVENT), recordedBy: command.recordedBy, imported: true },
        });
      }
      if (command.close) events.push({ type: 'TestSessionCompleted', payload: { sessionId: session.sessionId } });
      return events;
    },
  },
});
