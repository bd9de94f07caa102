import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/event-contract.js';

export const RUN_RESULT_STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
export const RUN_END_STATUSES = ['passed', 'failed', 'error', 'cancelled'] as const;
export type RunStatus = 'running' | (typeof RUN_END_STATUSES)[number];

export const RunResult = z.object({
  testCaseId: z.string(),
  status: z.enum(RUN_RESULT_STATUSES),
  notes: z.string().nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
});

export const RunStartedPayload = z.object({
  runId: z.string(),
  engineId: z.string(),
  testSessionId: z.string(),
  name: z.string().nullable(),
  externalId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  companyId: z.number().int(),
  workspaceId: z.number().int(),
});
export const RunResultsReportedPayload = z.object({ runId: z.string(), results: z.array(RunResult).min(1), recorded: z.number().int().nonnegative() });
export const RunCompletedPayload = z.object({ runId: z.string(), status: z.enum(RUN_END_STATUSES) });

export const runEvents = defineEvents({
  RunStarted: RunStartedPayload,
  RunResultsReported: RunResultsReportedPayload,
  RunCompleted: RunCompletedPayload,
});
export type RunEvent = EventOf<typeof runEvents>;



export const runStream = (runId: string) => `ar-run-${runId}`;
