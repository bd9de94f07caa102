import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** The workspaces a host's devices serve; `null` for every workspace of its company. */
const workspaceIds = z.array(z.number().int().positive()).nullable();

/**
 * A device host enrolled into one company. Its token is shown once, at enrolment or rotation; only its
 * SHA-256 and a recognisable prefix are stored. The company never changes; the workspaces may.
 */
export const hostEvents = defineEvents({
  HostEnrolled: z.object({
    hostId: z.string(),
    name: z.string(),
    companyId: z.number().int(),
    workspaceIds,
    tokenHash: z.string(),
    tokenPrefix: z.string(),
  }),
  HostRenamed: z.object({ hostId: z.string(), name: z.string() }),
  HostRescoped: z.object({ hostId: z.string(), workspaceIds }),
  HostTokenRotated: z.object({ hostId: z.string(), tokenHash: z.string(), tokenPrefix: z.string() }),
  HostRevoked: z.object({ hostId: z.string(), reason: z.string() }),
  /** The host's first accepted hello (recorded once): until then it is enrolled but waiting to connect. */
  HostFirstConnected: z.object({ hostId: z.string(), nodeName: z.string() }),
});
export type HostEvent = EventOf<typeof hostEvents>;
export const HOST_EVENT_TYPES = hostEvents.types;
/** Stream of one host enrolment. */
export const hostStream = (hostId: string) => `df-host-${hostId}`;
