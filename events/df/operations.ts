import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** `pending → running → succeeded | failed | cancelled`; the last three are final. */
export const OPERATION_STATES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];
export const TERMINAL_STATES: readonly OperationState[] = ['succeeded', 'failed', 'cancelled'];

const id = { operationId: z.string() };

/** A long-running job (`df-operation-<id>`): an install, a catalog backfill, later exports. */
export const operationEvents = defineEvents({
  OperationStarted: z.object({
    ...id,
    /** `app-install`, `catalog-backfill`, ... */
    operationType: z.string(),
    ...tenantScope,
    createdBy: z.number().int(),
    /** What it works on (`{sessionId, versionId}`, ...), so a rule can ask which jobs touch a resource. */
    target: z.record(z.string(), z.unknown()),
  }),
  /** `runner`: the process running it, whose liveness decides whether it died. */
  OperationRunning: z.object({ ...id, runner: z.string() }),
  OperationProgressed: z.object({ ...id, progress: z.number().int().min(0).max(100) }),
  OperationSucceeded: z.object({ ...id, result: z.record(z.string(), z.unknown()) }),
  OperationFailed: z.object({ ...id, error: z.object({ code: z.string(), message: z.string() }) }),
  OperationCancelled: z.object({ ...id, reason: z.string() }),
});
export type OperationEvent = EventOf<typeof operationEvents>;
export const OPERATION_EVENT_TYPES = operationEvents.types;
/** Stream of one operation. */
export const operationStream = (operationId: string) => `df-operation-${operationId}`;
