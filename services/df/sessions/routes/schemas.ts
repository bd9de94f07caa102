import { z } from 'zod';
import { SessionOutcome } from '#events/df/sessions.js';
import { idParam } from '../../http.js';

/** The schemas the `/df/api/sessions` routes share. */

/** When a session started, became ready (null until its device was) and ended (null while open), and why. */
const lifecycle = { startedAt: z.string(), readyAt: z.string().nullable(), endedAt: z.string().nullable(), endReason: z.string().nullable() };
export const SessionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    deviceId: z.string(),
    deviceName: z.string(),
    type: z.string(),
    status: z.string(),
    ...lifecycle,
    outcome: SessionOutcome.nullable().describe('The test outcome its runner set; null while none is set'),
    outcomeReason: z.string().nullable().describe('Why, when the runner said (the first failure)'),
    buildName: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    ownerId: z.number().int(),
    workspaceId: z.number().int(),
    lastActivityAt: z.string(),
    screen: z.object({ width: z.number(), height: z.number(), scale: z.number() }).nullable(),
  })
  .meta({ id: 'DfSession' });

export const Activity = z.object({ id: z.string(), kind: z.string(), detail: z.record(z.string(), z.unknown()), actorId: z.string().nullable(), at: z.string() }).meta({ id: 'DfSessionActivity' });
export const Metadata = z.record(z.string(), z.unknown()).refine((m) => JSON.stringify(m).length <= 16_384, 'metadata is limited to 16 KiB of JSON');
export const SessionType = z.enum(['manual', 'automation', 'debug']);
export const SessionStatus = z.enum(['starting', 'active', 'ended', 'failed']);
export { SessionOutcome };

export const tags = ['Device testing: sessions'];
export const Params = z.object({ sessionId: idParam });

/** An answer of raw bytes (an image), as the OpenAPI document describes it. */
export const imageResponse = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: z.unknown().meta({ type: 'string', format: 'binary' }) }])),
});
