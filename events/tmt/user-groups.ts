import { z } from 'zod';

/** Payloads of the `tmt-user-group-<uuid>` stream, checked when a projection reads them. */
export const UserGroupEventPayloads = {
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
} as const;

type Payloads = typeof UserGroupEventPayloads;

/** A user group of test management: a named set of users of one company. */
export type UserGroupEvent = { [K in keyof Payloads]: { type: K; payload: z.infer<Payloads[K]> } }[keyof Payloads];

export const USER_GROUP_EVENT_TYPES = Object.keys(UserGroupEventPayloads) as UserGroupEvent['type'][];

export const userGroupStream = (groupId: string): string => `tmt-user-group-${groupId}`;
