import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/index.js';
import { activeIn, changedFields, whileActive } from '#shared/es/index.js';
import type { ModuleKey } from '#events/organization/modules.js';
import type { Grantee, WorkspaceEvent } from '#events/organization/workspaces.js';
import { sameJson } from '#shared/canonical.js';

type Created = Extract<WorkspaceEvent, { type: 'WorkspaceCreated' }>['payload'];

/**
 * Commands on a workspace. All but creation carry the caller's `companyId`: another company's
 * workspace is "not found" here too, whatever a read model says.
 */
export type WorkspaceCommand =
  | ({ type: 'CreateWorkspace'; grantCreator?: number } & Created)
  | { type: 'UpdateWorkspace'; companyId: number; name?: string; description?: string; settings?: Record<string, unknown> }
  | { type: 'ArchiveWorkspace'; companyId: number }
  | { type: 'UnarchiveWorkspace'; companyId: number }
  | { type: 'DeleteWorkspace'; companyId: number }
  | { type: 'ChangeModules'; companyId: number; modules: ModuleKey[] }
  | { type: 'GrantAccess'; companyId: number; grantee: Grantee }
  | { type: 'RevokeAccess'; companyId: number; grantee: Grantee }
  | { type: 'AssignMemberRoles'; companyId: number; userId: number; roleIds: number[] }
  | { type: 'RemoveMemberRole'; companyId: number; userId: number; roleId: number };

export interface LiveWorkspace {
  status: 'active';
  workspaceId: number;
  companyId: number;
  name: string;
  description: string;
  settings: Record<string, unknown>;
  modules: ModuleKey[];
  archived: boolean;
  teamGrants: number[];
  userGrants: number[];
  /** Roles of members in this workspace, by user id. */
  memberRoles: Record<number, number[]>;
}

export type WorkspaceState = { status: 'none' } | LiveWorkspace | { status: 'deleted'; workspaceId: number };

const granteeId = (g: Grantee) => (g.kind === 'team' ? g.teamId : g.userId);
const grantsOf = (ws: LiveWorkspace, g: Grantee) => (g.kind === 'team' ? ws.teamGrants : ws.userGrants);

const live = (state: WorkspaceState, companyId: number): LiveWorkspace => activeIn(state, companyId, 'Workspace');

/** A workspace that may be written to: archived ones are read-only until unarchived. */
function writable(state: WorkspaceState, companyId: number): LiveWorkspace {
  const ws = live(state, companyId);
  if (ws.archived) throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${ws.workspaceId} is archived and read-only`);
  return ws;
}

export const workspaceDecider = defineDecider<WorkspaceCommand, WorkspaceEvent, WorkspaceState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    WorkspaceCreated: (_state, { payload: p }) => ({
      status: 'active',
      workspaceId: p.workspaceId,
      companyId: p.companyId,
      name: p.name,
      description: p.description,
      settings: p.settings,
      modules: p.modules,
      archived: false,
      teamGrants: [],
      userGrants: [],
      memberRoles: {},
    }),
    WorkspaceUpdated: whileActive((state, { payload: { workspaceId: _id, ...changes } }) => ({ ...state, ...changes })),
    WorkspaceArchived: whileActive((state) => ({ ...state, archived: true })),
    WorkspaceUnarchived: whileActive((state) => ({ ...state, archived: false })),
    WorkspaceDeleted: whileActive((state) => ({ status: 'deleted', workspaceId: state.workspaceId })),
    WorkspaceModulesChanged: whileActive((state, event) => ({ ...state, modules: event.payload.modules })),
    WorkspaceAccessGranted: whileActive((state, { payload: { grantee: g } }) =>
      g.kind === 'team' ? { ...state, teamGrants: [...state.teamGrants, g.teamId] } : { ...state, userGrants: [...state.userGrants, g.userId] },
    ),
    WorkspaceAccessRevoked: whileActive((state, { payload: { grantee: g } }) =>
      g.kind === 'team'
        ? { ...state, teamGrants: state.teamGrants.filter((id) => id !== g.teamId) }
        : { ...state, userGrants: state.userGrants.filter((id) => id !== g.userId) },
    ),
    WorkspaceMemberRolesAssigned: whileActive((state, { payload: { userId, roleIds } }) => {
      const current = state.memberRoles[userId] ?? [];
      return { ...state, memberRoles: { ...state.memberRoles, [userId]: [...new Set([...current, ...roleIds])] } };
    }),
    WorkspaceMemberRoleRemoved: whileActive((state, { payload: { userId, roleId } }) => ({
      ...state,
      memberRoles: { ...state.memberRoles, [userId]: (state.memberRoles[userId] ?? []).filter((r) => r !== roleId) },
    })),
  },
  decide: {
    CreateWorkspace: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Workspace already exists');
      const { type: _type, grantCreator, ...payload } = command;
      const events: WorkspaceEvent[] = [{ type: 'WorkspaceCreated', payload }];
      // A creator who is not an administrator would otherwise be locked out of what they created.
      if (grantCreator !== undefined) {
        events.push({ type: 'WorkspaceAccessGranted', payload: { workspaceId: payload.workspaceId, grantee: { kind: 'user', userId: grantCreator } } });
      }
      return events;
    },
    UpdateWorkspace: (command, state) => {
      const ws = writable(state, command.companyId);
      const changes = changedFields(ws, command, ['name', 'description', 'settings'], sameJson);
      return Object.keys(changes).length === 0 ? [] : [{ type: 'WorkspaceUpdated', payload: { workspaceId: ws.workspaceId, ...changes } }];
    },
    ArchiveWorkspace: (command, state) => {
      const ws = live(state, command.companyId);
      if (ws.archived) throw new AppError('CONFLICT', 'Workspace is already archived');
      return [{ type: 'WorkspaceArchived', payload: { workspaceId: ws.workspaceId } }];
    },
    UnarchiveWorkspace: (command, state) => {
      const ws = live(state, command.companyId);
      if (!ws.archived) throw new AppError('CONFLICT', 'Workspace is not archived');
      return [{ type: 'WorkspaceUnarchived', payload: { workspaceId: ws.workspaceId } }];
    },
    DeleteWorkspace: (command, state) => {
      const ws = live(state, command.companyId);
      return [{ type: 'WorkspaceDeleted', payload: { workspaceId: ws.workspaceId, name: ws.name } }];
    },
    ChangeModules: (command, state) => {
      const ws = writable(state, command.companyId);
      const modules = [...new Set(command.modules)];
      if (modules.length === ws.modules.length && modules.every((m) => ws.modules.includes(m))) return [];
      return [{ type: 'WorkspaceModulesChanged', payload: { workspaceId: ws.workspaceId, modules } }];
    },
    GrantAccess: (command, state) => {
      const ws = writable(state, command.companyId);
      if (grantsOf(ws, command.grantee).includes(granteeId(command.grantee))) return [];
      return [{ type: 'WorkspaceAccessGranted', payload: { workspaceId: ws.workspaceId, grantee: command.grantee } }];
    },
    RevokeAccess: (command, state) => {
      const ws = writable(state, command.companyId);
      if (!grantsOf(ws, command.grantee).includes(granteeId(command.grantee))) throw new AppError('NOT_FOUND', 'Access grant not found');
      return [{ type: 'WorkspaceAccessRevoked', payload: { workspaceId: ws.workspaceId, grantee: command.grantee } }];
    },
    AssignMemberRoles: (command, state) => {
      const ws = writable(state, command.companyId);
      const current = ws.memberRoles[command.userId] ?? [];
      const added = [...new Set(command.roleIds)].filter((r) => !current.includes(r)).sort((a, b) => a - b);
      if (added.length === 0) return [];
      return [{ type: 'WorkspaceMemberRolesAssigned', payload: { workspaceId: ws.workspaceId, userId: command.userId, roleIds: added } }];
    },
    RemoveMemberRole: (command, state) => {
      const ws = writable(state, command.companyId);
      if (!(ws.memberRoles[command.userId] ?? []).includes(command.roleId)) throw new AppError('NOT_FOUND', 'The member does not hold this role here');
      return [{ type: 'WorkspaceMemberRoleRemoved', payload: { workspaceId: ws.workspaceId, userId: command.userId, roleId: command.roleId } }];
    },
  },
});
