// Who held what in a company at a moment, folded from the company's own events (never from today's
// read models): people, roles and their keys, teams and their members, workspaces and their grants.
// Pure: the events in, the state out. The rules are the directory's (projections/org-directory) and
// `permissionsOf`'s (roles/permissions-of.ts), replayed in memory.

/** The event types that change who may do what; the fold reads no others. */
export const ACCESS_EVENT_TYPES = [
  'UserRegistered',
  'UserInvited',
  'UserActivated',
  'UserDeactivated',
  'UserReactivated',
  'UserUpdated',
  'UserRolesReplaced',
  'AdminGranted',
  'AdminRevoked',
  'UserDeleted',
  'RoleCreated',
  'RoleUpdated',
  'RoleDeleted',
  'TeamCreated',
  'TeamUpdated',
  'TeamDeleted',
  'TeamMemberAdded',
  'TeamMemberRemoved',
  'WorkspaceCreated',
  'WorkspaceUpdated',
  'WorkspaceArchived',
  'WorkspaceUnarchived',
  'WorkspaceDeleted',
  'WorkspaceAccessGranted',
  'WorkspaceAccessRevoked',
  'WorkspaceMemberRolesAssigned',
  'WorkspaceMemberRoleRemoved',
] as const;

/** One stored event as the fold needs it: its type and payload (the payload as recorded). */
export interface AccessEvent {
  type: string;
  payload: Record<string, unknown>;
}

export type PersonStatus = 'passive' | 'active' | 'deactivated';

export interface PersonState {
  id: number;
  name: string;
  email: string;
  status: PersonStatus;
  isAdmin: boolean;
  roleIds: Set<number>;
}

export interface RoleState {
  id: number;
  name: string;
  builtIn: boolean;
  permissions: readonly string[];
}

export interface TeamState {
  id: number;
  name: string;
  members: Set<number>;
}

export interface WorkspaceState {
  id: number;
  name: string;
  archived: boolean;
  users: Set<number>;
  teams: Set<number>;
  /** Member roles: user id → role ids. */
  memberRoles: Map<number, Set<number>>;
}

/** The company as its events left it. */
export interface AccessState {
  companyId: number;
  people: Map<number, PersonState>;
  roles: Map<number, RoleState>;
  teams: Map<number, TeamState>;
  workspaces: Map<number, WorkspaceState>;
}

export const emptyAccessState = (companyId: number): AccessState => ({
  companyId,
  people: new Map(),
  roles: new Map(),
  teams: new Map(),
  workspaces: new Map(),
});

type Apply = (s: AccessState, p: Record<string, any>) => void;

const setStatus =
  (status: PersonStatus): Apply =>
  (s, p) => {
    const person = s.people.get(p.userId);
    if (person) person.status = status;
  };

const setAdmin =
  (isAdmin: boolean): Apply =>
  (s, p) => {
    const person = s.people.get(p.userId);
    if (person) person.isAdmin = isAdmin;
  };

/** Only roles that exist when the event happens count, as in the directory. */
const existingRoles = (s: AccessState, ids: unknown): Set<number> => new Set(((ids as number[] | undefined) ?? []).filter((id) => s.roles.has(id)));

const setArchived =
  (archived: boolean): Apply =>
  (s, p) => {
    const ws = s.workspaces.get(p.workspaceId);
    if (ws) ws.archived = archived;
  };

const personEvents: Record<string, Apply> = {
  UserRegistered: (s, p) => {
    if (p.companyId !== s.companyId) return;
    s.people.set(p.userId, { id: p.userId, name: p.name, email: p.email, status: 'active', isAdmin: p.isAdmin === true, roleIds: existingRoles(s, p.roleIds) });
  },
  UserInvited: (s, p) => {
    if (p.companyId !== s.companyId) return;
    s.people.set(p.userId, { id: p.userId, name: '', email: p.email, status: 'passive', isAdmin: false, roleIds: existingRoles(s, p.roleIds) });
  },
  UserActivated: (s, p) => {
    const person = s.people.get(p.userId);
    if (!person) return;
    person.status = 'active';
    person.name = p.name;
  },
  UserDeactivated: setStatus('deactivated'),
  UserReactivated: setStatus('active'),
  UserUpdated: (s, p) => {
    const person = s.people.get(p.userId);
    if (person && typeof p.changes?.name === 'string') person.name = p.changes.name;
  },
  UserRolesReplaced: (s, p) => {
    const person = s.people.get(p.userId);
    if (person) person.roleIds = existingRoles(s, p.roleIds);
  },
  AdminGranted: setAdmin(true),
  AdminRevoked: setAdmin(false),
  UserDeleted: (s, p) => {
    s.people.delete(p.userId);
    for (const team of s.teams.values()) team.members.delete(p.userId);
    for (const ws of s.workspaces.values()) {
      ws.users.delete(p.userId);
      ws.memberRoles.delete(p.userId);
    }
  },
};

const roleAndTeamEvents: Record<string, Apply> = {
  RoleCreated: (s, p) => {
    if (p.companyId !== s.companyId) return;
    s.roles.set(p.roleId, { id: p.roleId, name: p.name, builtIn: p.builtIn === true, permissions: [...(p.permissions as string[])] });
  },
  RoleUpdated: (s, p) => {
    const role = s.roles.get(p.roleId);
    if (!role) return;
    if (typeof p.name === 'string') role.name = p.name;
    if (Array.isArray(p.permissions)) role.permissions = [...(p.permissions as string[])];
  },
  RoleDeleted: (s, p) => {
    s.roles.delete(p.roleId);
    for (const person of s.people.values()) person.roleIds.delete(p.roleId);
    for (const ws of s.workspaces.values()) for (const ids of ws.memberRoles.values()) ids.delete(p.roleId);
  },
  TeamCreated: (s, p) => {
    if (p.companyId !== s.companyId) return;
    s.teams.set(p.teamId, { id: p.teamId, name: p.name, members: new Set() });
  },
  TeamUpdated: (s, p) => {
    const team = s.teams.get(p.teamId);
    if (team && typeof p.name === 'string') team.name = p.name;
  },
  TeamDeleted: (s, p) => {
    s.teams.delete(p.teamId);
    for (const ws of s.workspaces.values()) ws.teams.delete(p.teamId);
  },
  TeamMemberAdded: (s, p) => {
    if (s.people.has(p.userId)) s.teams.get(p.teamId)?.members.add(p.userId);
  },
  TeamMemberRemoved: (s, p) => {
    s.teams.get(p.teamId)?.members.delete(p.userId);
  },
};

const workspaceEvents: Record<string, Apply> = {
  WorkspaceCreated: (s, p) => {
    if (p.companyId !== s.companyId) return;
    s.workspaces.set(p.workspaceId, { id: p.workspaceId, name: p.name, archived: false, users: new Set(), teams: new Set(), memberRoles: new Map() });
  },
  WorkspaceUpdated: (s, p) => {
    const ws = s.workspaces.get(p.workspaceId);
    if (ws && typeof p.name === 'string') ws.name = p.name;
  },
  WorkspaceArchived: setArchived(true),
  WorkspaceUnarchived: setArchived(false),
  WorkspaceDeleted: (s, p) => {
    s.workspaces.delete(p.workspaceId);
  },
  WorkspaceAccessGranted: (s, p) => {
    const ws = s.workspaces.get(p.workspaceId);
    if (!ws) return;
    if (p.grantee.kind === 'team' && s.teams.has(p.grantee.teamId)) ws.teams.add(p.grantee.teamId);
    if (p.grantee.kind === 'user' && s.people.has(p.grantee.userId)) ws.users.add(p.grantee.userId);
  },
  WorkspaceAccessRevoked: (s, p) => {
    const ws = s.workspaces.get(p.workspaceId);
    if (!ws) return;
    if (p.grantee.kind === 'team') ws.teams.delete(p.grantee.teamId);
    else ws.users.delete(p.grantee.userId);
  },
  WorkspaceMemberRolesAssigned: (s, p) => {
    const ws = s.workspaces.get(p.workspaceId);
    if (!ws) return;
    const held = ws.memberRoles.get(p.userId) ?? new Set<number>();
    for (const id of existingRoles(s, p.roleIds)) held.add(id);
    ws.memberRoles.set(p.userId, held);
  },
  WorkspaceMemberRoleRemoved: (s, p) => {
    const held = s.workspaces.get(p.workspaceId)?.memberRoles.get(p.userId);
    held?.delete(p.roleId);
  },
};

const APPLY: Record<string, Apply> = { ...personEvents, ...roleAndTeamEvents, ...workspaceEvents };

/** Applies one event to the state (in place); types the fold does not know change nothing. */
export function applyAccessEvent(state: AccessState, event: AccessEvent): AccessState {
  APPLY[event.type]?.(state, event.payload);
  return state;
}

/** The state after `events`, in their order. */
export function foldAccess(companyId: number, events: Iterable<AccessEvent>): AccessState {
  const state = emptyAccessState(companyId);
  for (const e of events) applyAccessEvent(state, e);
  return state;
}
