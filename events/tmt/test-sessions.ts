import type { DomainEvent } from '#shared/es/decider.js';

export const SESSION_STATUSES = ['planned', 'in_progress', 'completed'] as const;
export const RESULT_STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** One result of one test case, as recorded. */
export interface RecordedResult {
  testCaseId: string;
  status: ResultStatus;
  notes: string | null;
  durationMs: number | null;
}

/**
 * A test session. It starts `planned`; the first result (or a PUT) moves it to `in_progress`, a PUT
 * completes it. A batch of results is one `TestResultsRecorded` event (one append, one row, however
 * many results it holds).
 */
/** Who caused a write: a user, or a principal that is not one (a test engine). */
export type TmtActor = { userId: number } | { engineId: string };

export type TestSessionEvent =
  | DomainEvent<'TestSessionStarted', { sessionId: string; companyId: number; workspaceId: number; projectId: string; name: string; testCaseIds: string[] }>
  | DomainEvent<'TestSessionUpdated', { sessionId: string; name?: string; testCaseIds?: string[]; status?: 'in_progress' }>
  | DomainEvent<'TestSessionCompleted', { sessionId: string }>
  | DomainEvent<'TestResultsRecorded', { sessionId: string; results: RecordedResult[]; recordedBy: TmtActor }>;

export const TEST_SESSION_EVENT_TYPES = [
  'TestSessionStarted',
  'TestSessionUpdated',
  'TestSessionCompleted',
  'TestResultsRecorded',
] as const satisfies readonly TestSessionEvent['type'][];

export const testSessionStream = (sessionId: string) => `tmt-test-session-${sessionId}`;
