import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/event-contract.js';

/** A test engine and its token (`X-Engine-Token`): only the token's SHA-256 is ever stored. */
export const EngineRegisteredPayload = z.object({
  engineId: z.string(),
  name: z.string(),
  labels: z.array(z.string()),
  tokenHash: z.string(),
  tokenPrefix: z.string(),
  registeredBy: z.number().int(),
  companyId: z.number().int(),
  workspaceId: z.number().int(),
});
export const EngineTokenRotatedPayload = z.object({ engineId: z.string(), tokenHash: z.string(), tokenPrefix: z.string() });
export const EngineRevokedPayload = z.object({ engineId: z.string() });

export const engineEvents = defineEvents({
  EngineRegistered: EngineRegisteredPayload,
  EngineTokenRotated: EngineTokenRotatedPayload,
  EngineRevoked: EngineRevokedPayload,
});
export type EngineEvent = EventOf<typeof engineEvents>;



export const engineStream = (engineId: string) => `ar-engine-${engineId}`;
