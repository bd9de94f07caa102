import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** Payloads of the `tmt-user-group-<uuid>` stream, checked when a projection reads them. */
export const userGroupEvents = defineEvents({
  UserGroupCreated: z.object({
    groupId: z.string(),
    companyId: z.number().int(),
    name: z.string(),
    description: z.string(),
    memberIds: z.array(z.number().int()),
  }),
  UserGroupUpdated: z.object({ groupId: z.string(), name: z.string().optional(), description: z.string().optional() }),
  UserGroupMemberAdded: z.object({ groupId: z.string(), userId: z.number().int() }),
  UserGroupMemberRemoved: z.object({ groupId: z.string(), userId: z.number().int() }),
  UserGroupDeleted: z.object({ groupId: z.string(), name: z.string() }),
});

/** A user group of test management: a named set of users of one company. */
export type UserGroupEvent = EventOf<typeof userGroupEvents>;

export const USER_GROUP_EVENT_TYPES = userGroupEvents.types;

export const userGroupStream = (groupId: string): string => `tmt-user-group-${groupId}`;
