import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** How a credential's maker was signed in when they made it; absent in events recorded before it was kept. */
const signInMethod = z.enum(['password', 'sso']).optional();

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
    /** How the token's maker was signed in (events recorded before it was kept count as `password`). */
    signIn: signInMethod,
  }),
  EngineTokenRotated: z.object({ engineId: z.string(), tokenHash: z.string(), tokenPrefix: z.string(), signIn: signInMethod }),
  EngineRevoked: z.object({ engineId: z.string() }),
});
export type EngineEvent = EventOf<typeof engineEvents>;

export const engineStream = (engineId: string) => `ar-engine-${engineId}`;
