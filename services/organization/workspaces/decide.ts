import { AppError } from '#shared/errors.js';
import type { Decider } from '#shared/es/decider.js';
import type { ModuleKey } from '#events/organization/modules.js';
import type { Grantee, WorkspaceEvent } from '#events/organization/workspaces.js';
import { unreachable } from '#shared/unreachable.js';

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
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function live(state: WorkspaceState, companyId: number): LiveWorkspace {
  if (state.status !== 'active' || state.companyId !== companyId) throw new AppError('NOT_FOUND', 'Workspace not found');
  return state;
}

/** A workspace that may be written to: archived ones are read-only until unarchived. */
function writable(state: WorkspaceState, companyId: number): LiveWorkspace {
  const ws = live(state, companyId);
  if (ws.archived) throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${ws.workspaceId} is archived and read-only`);
  return ws;
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'WorkspaceCreated') {
      const p = event.payload;
      return {
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
      };
    }
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'WorkspaceUpdated': {
        const { workspaceId: _id, ...changes } = event.payload;
        return { ...state, ...changes };
      }
      case 'WorkspaceArchived':
        return { ...state, archived: true };
      case 'WorkspaceUnarchived':
        return { ...state, archived: false };
      case 'WorkspaceDeleted':
        return { status: 'deleted', workspaceId: state.workspaceId };
      case 'WorkspaceModulesChanged':
        return { ...state, modules: event.payload.modules };
      case 'WorkspaceAccessGranted': {
        const g = event.payload.grantee;
        return g.kind === 'team'
          ? { ...state, teamGrants: [...state.teamGrants, g.teamId] }
          : { ...state, userGrants: [...state.userGrants, g.userId] };
      }
      case 'WorkspaceAccessRevoked': {
        const g = event.payload.grantee;
        return g.kind === 'team'
          ? { ...state, teamGrants: state.teamGrants.filter((id) => id !== g.teamId) }
          : { ...state, userGrants: state.userGrants.filter((id) => id !== g.userId) };
      }
      case 'WorkspaceMemberRolesAssigned': {
        const { userId, roleIds } = event.payload;
        const current = state.memberRoles[userId] ?? [];
        return { ...state, memberRoles: { ...state.memberRoles, [userId]: [...new Set([...current, ...roleIds])] } };
      }
      case 'WorkspaceMemberRoleRemoved': {
        const { userId, roleId } = event.payload;
        return { ...state, memberRoles: { ...state.memberRoles, [userId]: (state.memberRoles[userId] ?? []).filter((r) => r !== roleId) } };
      }
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateWorkspace': {
        if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Workspace already exists');
        const { type: _type, grantCreator, ...payload } = command;
        const events: WorkspaceEvent[] = [{ type: 'WorkspaceCreated', payload }];
        // A creator who is not an administrator would otherwise be locked out of what they created.
        if (grantCreator !== undefined) {
          events.push({ type: 'WorkspaceAccessGranted', payload: { workspaceId: payload.workspaceId, grantee: { kind: 'user', userId: grantCreator } } });
        }
        return events;
      }
      case 'UpdateWorkspace': {
        const ws = writable(state, command.companyId);
        const changes: { name?: string; description?: string; settings?: Record<string, unknown> } = {};
        if (command.name !== undefined && command.name !== ws.name) changes.name = command.name;
        if (command.description !== undefined && command.description !== ws.description) changes.description = command.description;
        if (command.settings !== undefined && !sameJson(command.settings, ws.settings)) changes.settings = command.settings;
        return Object.keys(changes).length === 0 ? [] : [{ type: 'WorkspaceUpdated', payload: { workspaceId: ws.workspaceId, ...changes } }];
      }
      case 'ArchiveWorkspace': {
        const ws = live(state, command.companyId);
        if (ws.archived) throw new AppError('CONFLICT', 'Workspace is already archived');
        return [{ type: 'WorkspaceArchived', payload: { workspaceId: ws.workspaceId } }];
      }
      case 'UnarchiveWorkspace': {
        const ws = live(state, command.companyId);
        if (!ws.archived) throw new AppError('CONFLICT', 'Workspace is not archived');
        return [{ type: 'WorkspaceUnarchived', payload: { workspaceId: ws.workspaceId } }];
      }
      case 'DeleteWorkspace': {
        const ws = live(state, command.companyId);
        return [{ type: 'WorkspaceDeleted', payload: { workspaceId: ws.workspaceId, name: ws.name } }];
      }
      case 'ChangeModules': {
        const ws = writable(state, command.companyId);
        const modules = [...new Set(command.modules)];
        if (modules.length === ws.modules.length && modules.every((m) => ws.modules.includes(m))) return [];
        return [{ type: 'WorkspaceModulesChanged', payload: { workspaceId: ws.workspaceId, modules } }];
      }
      case 'GrantAccess': {
        const ws = writable(state, command.companyId);
        if (grantsOf(ws, command.grantee).includes(granteeId(command.grantee))) return [];
        return [{ type: 'WorkspaceAccessGranted', payload: { workspaceId: ws.workspaceId, grantee: command.grantee } }];
      }
      case 'RevokeAccess': {
        const ws = writable(state, command.companyId);
        if (!grantsOf(ws, command.grantee).includes(granteeId(command.grantee))) throw new AppError('NOT_FOUND', 'Access grant not found');
        return [{ type: 'WorkspaceAccessRevoked', payload: { workspaceId: ws.workspaceId, grantee: command.grantee } }];
      }
      case 'AssignMemberRoles': {
        const ws = writable(state, command.companyId);
        const current = ws.memberRoles[command.userId] ?? [];
        const added = [...new Set(command.roleIds)].filter((r) => !current.includes(r)).sort((a, b) => a - b);
        if (added.length === 0) return [];
        return [{ type: 'WorkspaceMemberRolesAssigned', payload: { workspaceId: ws.workspaceId, userId: command.userId, roleIds: added } }];
      }
      case 'RemoveMemberRole': {
        const ws = writable(state, command.companyId);
        if (!(ws.memberRoles[command.userId] ?? []).includes(command.roleId)) throw new AppError('NOT_FOUND', 'The member does not hold this role here');
        return [{ type: 'WorkspaceMemberRoleRemoved', payload: { workspaceId: ws.workspaceId, userId: command.userId, roleId: command.roleId } }];
      }
      default:
        return unreachable(command);
    }
  },
};
