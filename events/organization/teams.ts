import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

const membership = z.object({ teamId: z.number().int(), userId: z.number().int() });

/** Events of the `team-<id>` stream. */
export const teamEvents = defineEvents({
  TeamCreated: z.object({ teamId: z.number().int(), companyId: z.number().int(), name: z.string(), description: z.string() }),
  TeamUpdated: z.object({ teamId: z.number().int(), name: z.string().optional(), description: z.string().optional() }),
  TeamDeleted: z.object({ teamId: z.number().int(), name: z.string() }),
  TeamMemberAdded: membership,
  TeamMemberRemoved: membership,
});
export type TeamEvent = EventOf<typeof teamEvents>;
export const teamStream = (teamId: number): string => `team-${teamId}`;
