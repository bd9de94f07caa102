import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** Events of the `role-<id>` stream. */
export const roleEvents = defineEvents({
  RoleCreated: z.object({ roleId: z.number().int(), companyId: z.number().int(), name: z.string(), description: z.string(), permissions: z.array(z.string()), builtIn: z.boolean() }),
  RoleUpdated: z.object({ roleId: z.number().int(), name: z.string().optional(), description: z.string().optional(), permissions: z.array(z.string()).optional() }),
  RoleDeleted: z.object({ roleId: z.number().int(), name: z.string() }),
});
export type RoleEvent = EventOf<typeof roleEvents>;
export const roleStream = (roleId: number): string => `role-${roleId}`;
