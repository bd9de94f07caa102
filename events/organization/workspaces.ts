import type { ModuleKey } from './modules.js';

/** Who a workspace access grant is for. */
export type Grantee = { kind: 'team'; teamId: number } | { kind: 'user'; userId: number };

/** Events of the `workspace-<id>` stream; `WorkspaceCreated` keeps its original payload. */
export type WorkspaceEvent =
  | {
      type: 'WorkspaceCreated';
      payload: {
        workspaceId: number;
        companyId: number;
        name: string;
        description: string;
        settings: Record<string, unknown>;
        modules: ModuleKey[];
      };
    }
  | {
      type: 'WorkspaceUpdated';
      payload: { workspaceId: number; name?: string; description?: string; settings?: Record<string, unknown> };
    }
  | { type: 'WorkspaceArchived'; payload: { workspaceId: number } }
  | { type: 'WorkspaceUnarchived'; payload: { workspaceId: number } }
  | { type: 'WorkspaceDeleted'; payload: { workspaceId: number; name: string } }
  | { type: 'WorkspaceModulesChanged'; payload: { workspaceId: number; modules: ModuleKey[] } }
  | { type: 'WorkspaceAccessGranted'; payload: { workspaceId: number; grantee: Grantee } }
  | { type: 'WorkspaceAccessRevoked'; payload: { workspaceId: number; grantee: Grantee } }
  | { type: 'WorkspaceMemberRolesAssigned'; payload: { workspaceId: number; userId: number; roleIds: number[] } }
  | { type: 'WorkspaceMemberRoleRemoved'; payload: { workspaceId: number; userId: number; roleId: number } };

/** A user entered a workspace (touch or switch), in the user's `workspace-visits-<userId>` stream. */
export type WorkspaceVisitEvent = { type: 'WorkspaceVisited'; payload: { workspaceId: number; userId: number } };

export const workspaceStream = (workspaceId: number): string => `workspace-${workspaceId}`;
export const workspaceVisitStream = (userId: number): string => `workspace-visits-${userId}`;
