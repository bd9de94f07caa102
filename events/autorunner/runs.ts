import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

export const RUN_RESULT_STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
export const RUN_END_STATUSES = ['passed', 'failed', 'error', 'cancelled'] as const;
export type RunStatus = 'running' | (typeof RUN_END_STATUSES)[number];

const RunResult = z.object({
  testCaseId: z.string(),
  status: z.enum(RUN_RESULT_STATUSES),
  notes: z.string().nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
});

/** What a run is started with besides its id and tenant: recorded when it starts, and part of every answer about it. */
export const runDescription = {
  engineId: z.string(),
  testSessionId: z.string(),
  name: z.string().nullable(),
  externalId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
};

/** A run of a test engine against one test session (`ar-run-<uuid>`): started, results reported, completed. */
export const runEvents = defineEvents({
  RunStarted: z.object({ runId: z.string(), ...runDescription, ...tenantScope }),
  RunResultsReported: z.object({ runId: z.string(), results: z.array(RunResult).min(1), recorded: z.number().int().nonnegative() }),
  RunCompleted: z.object({ runId: z.string(), status: z.enum(RUN_END_STATUSES) }),
});
export type RunEvent = EventOf<typeof runEvents>;

export const runStream = (runId: string) => `ar-run-${runId}`;
