import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** A route as stored: what `MockRouteInput` produces. */
const StoredRoute = z.object({
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown().optional(),
  delayMs: z.number().int(),
});

const Definition = { name: z.string(), module: z.string(), routes: z.array(StoredRoute) };

/** Payloads of the `tmt-mock-service-<uuid>` stream, checked when a projection reads them. */
export const mockServiceEvents = defineEvents({
  MockServiceCreated: z.object({
    mockId: z.string(),
    ...tenantScope,
    publicId: z.string(),
    enabled: z.boolean(),
    createdBy: z.number().int(),
    ...Definition,
  }),
  MockServiceRedefined: z.object({ mockId: z.string(), ...Definition }),
  MockServiceEnabled: z.object({ mockId: z.string() }),
  MockServiceDisabled: z.object({ mockId: z.string() }),
  MockServiceDeleted: z.object({ mockId: z.string(), name: z.string() }),
});

/** A mock service of a workspace, answered on its public path without any credential. */
export type MockServiceEvent = EventOf<typeof mockServiceEvents>;

export const MOCK_SERVICE_EVENT_TYPES = mockServiceEvents.types;

export const mockServiceStream = (mockId: string): string => `tmt-mock-service-${mockId}`;
