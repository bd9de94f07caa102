import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** A test engine and its token (`X-Engine-Token`): only the token's SHA-256 is ever stored. */
export const engineEvents = defineEvents({
  EngineRegistered: z.object({
    engineId: z.string(),
    name: z.string(),
    labels: z.array(z.string()),
    tokenHash: z.string(),
    tokenPrefix: z.string(),
    registeredBy: z.number().int(),
    ...tenantScope,
  }),
  EngineTokenRotated: z.object({ engineId: z.string(), tokenHash: z.string(), tokenPrefix: z.string() }),
  EngineRevoked: z.object({ engineId: z.string() }),
});
export type EngineEvent = EventOf<typeof engineEvents>;

export const engineStream = (engineId: string) => `ar-engine-${engineId}`;
