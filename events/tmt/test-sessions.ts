import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

export const SESSION_STATUSES = ['planned', 'in_progress', 'completed'] as const;
export const RESULT_STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/**
 * One result of one test case, as recorded. An imported report also gives the test's name as it ran
 * (`title`) and the device session that ran it, when the report names one (`deviceSessionId`).
 */
const recordedResult = z.object({
  testCaseId: z.string(),
  status: z.enum(RESULT_STATUSES),
  notes: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  title: z.string().optional(),
  deviceSessionId: z.string().optional(),
});
export type RecordedResult = z.output<typeof recordedResult>;

/** Who caused a write: a user, or a principal that is not one (a test engine). */
const tmtActor = z.union([z.object({ userId: z.number().int() }), z.object({ engineId: z.string() })]);
export type TmtActor = z.output<typeof tmtActor>;

/**
 * A test session. It starts `planned`; the first result (or a PUT) moves it to `in_progress`, a PUT
 * (or an import with `close`) completes it. A batch of results is one `TestResultsRecorded` event (one append, one row, however
 * many results it holds).
 */
export const testSessionEvents = defineEvents({
  TestSessionStarted: z.object({
    sessionId: z.string(),
    ...tenantScope,
    projectId: z.string(),
    name: z.string(),
    testCaseIds: z.array(z.string()),
  }),
  TestSessionUpdated: z.object({ sessionId: z.string(), name: z.string().optional(), testCaseIds: z.array(z.string()).optional(), status: z.literal('in_progress').optional() }),
  TestSessionCompleted: z.object({ sessionId: z.string() }),
  /** `imported`: a report's results, each replacing the result an earlier report recorded for the same case in the session. */
  TestResultsRecorded: z.object({ sessionId: z.string(), results: z.array(recordedResult), recordedBy: tmtActor, imported: z.literal(true).optional() }),
});
export type TestSessionEvent = EventOf<typeof testSessionEvents>;
export const TEST_SESSION_EVENT_TYPES = testSessionEvents.types;
export const testSessionStream = (sessionId: string) => `tmt-test-session-${sessionId}`;
