import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { MODULE_KEYS } from './modules.js';

const id = z.number().int();
const modules = z.array(z.enum(MODULE_KEYS));
const settings = z.record(z.string(), z.unknown());

/** Who a workspace access grant is for. */
const grantee = z.discriminatedUnion('kind', [z.object({ kind: z.literal('team'), teamId: id }), z.object({ kind: z.literal('user'), userId: id })]);
export type Grantee = z.output<typeof grantee>;

/** Events of the `workspace-<id>` stream; `WorkspaceCreated` keeps its original payload. */
export const workspaceEvents = defineEvents({
  WorkspaceCreated: z.object({ workspaceId: id, companyId: id, name: z.string(), description: z.string(), settings, modules }),
  WorkspaceUpdated: z.object({ workspaceId: id, name: z.string().optional(), description: z.string().optional(), settings: settings.optional() }),
  WorkspaceArchived: z.object({ workspaceId: id }),
  WorkspaceUnarchived: z.object({ workspaceId: id }),
  WorkspaceDeleted: z.object({ workspaceId: id, name: z.string() }),
  WorkspaceModulesChanged: z.object({ workspaceId: id, modules }),
  WorkspaceAccessGranted: z.object({ workspaceId: id, grantee }),
  WorkspaceAccessRevoked: z.object({ workspaceId: id, grantee }),
  WorkspaceMemberRolesAssigned: z.object({ workspaceId: id, userId: id, roleIds: z.array(id) }),
  WorkspaceMemberRoleRemoved: z.object({ workspaceId: id, userId: id, roleId: id }),
});
export type WorkspaceEvent = EventOf<typeof workspaceEvents>;
export const workspaceStream = (workspaceId: number): string => `workspace-${workspaceId}`;

/** A user entered a workspace (touch or switch), in the user's `workspace-visits-<userId>` stream. */
export const workspaceVisitEvents = defineEvents({ WorkspaceVisited: z.object({ workspaceId: id, userId: id }) });
export type WorkspaceVisitEvent = EventOf<typeof workspaceVisitEvents>;
export const workspaceVisitStream = (userId: number): string => `workspace-visits-${userId}`;
