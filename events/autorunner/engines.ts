import { z } from 'zod';
import type { DomainEvent } from '#shared/es/decider.js';

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

export type EngineEvent =
  | DomainEvent<'EngineRegistered', z.infer<typeof EngineRegisteredPayload>>
  | DomainEvent<'EngineTokenRotated', z.infer<typeof EngineTokenRotatedPayload>>
  | DomainEvent<'EngineRevoked', z.infer<typeof EngineRevokedPayload>>;

export const ENGINE_EVENT_TYPES = ['EngineRegistered', 'EngineTokenRotated', 'EngineRevoked'] as const satisfies readonly EngineEvent['type'][];

export const ENGINE_PAYLOADS: Record<EngineEvent['type'], z.ZodType> = {
  EngineRegistered: EngineRegisteredPayload,
  EngineTokenRotated: EngineTokenRotatedPayload,
  EngineRevoked: EngineRevokedPayload,
};

export const engineStream = (engineId: string) => `ar-engine-${engineId}`;
