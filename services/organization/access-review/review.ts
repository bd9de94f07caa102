// The review of one workspace as a fold left the company: who could enter it and how, the roles and keys
// each held there, their teams, the workspace's grants; and, for one key, who could use it and through what.
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { effectivePermissions } from '../roles/index.js';
import type { AccessState, PersonState, PersonStatus, RoleState, WorkspaceState } from './fold.js';

/** How a person could enter the workspace: as a company administrator, by a grant to them, or to a team of theirs. */
export type AccessPath = { via: 'admin' } | { via: 'user' } | { via: 'team'; teamId: number; teamName: string };

export interface ReviewedRole {
  id: number;
  name: string;
  /** `company`: one of the person's roles everywhere; `workspace`: a member role in this workspace. */
  scope: 'company' | 'workspace';
  builtIn: boolean;
  /** The keys the role gave at that moment (a built-in role's: today's catalog, as `permissionsOf` reads it). */
  permissions: string[];
}

export interface ReviewedPerson {
  id: number;
  name: string;
  email: string;
  status: PersonStatus;
  isAdmin: boolean;
  /** Empty: the person held member roles here but could not enter the workspace. */
  access: AccessPath[];
  teams: { id: number; name: string }[];
  roles: ReviewedRole[];
  /** The keys the person held in the workspace (every key for an administrator); none without access. */
  permissions: string[];
}

/** Through what a holder could use a key: administrator, or a role (company or member role). */
export type KeySource = { kind: 'admin' } | { kind: 'role'; roleId: number; roleName: string; scope: 'company' | 'workspace' };

export interface KeyHolder {
  userId: number;
  name: string;
  email: string;
  through: KeySource[];
  access: AccessPath[];
}

export interface AccessReview {
  workspace: { id: number; name: string; archived: boolean };
  people: ReviewedPerson[];
  grants: { users: { id: number; name: string; email: string }[]; teams: { id: number; name: string; memberIds: number[] }[] };
  permissionKey?: { key: string; holders: KeyHolder[] };
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

function accessOf(state: AccessState, ws: WorkspaceState, person: PersonState): AccessPath[] {
  const paths: AccessPath[] = [];
  if (person.isAdmin) paths.push({ via: 'admin' });
  if (ws.users.has(person.id)) paths.push({ via: 'user' });
  for (const teamId of [...ws.teams].sort((a, b) => a - b)) {
    const team = state.teams.get(teamId);
    if (team?.members.has(person.id)) paths.push({ via: 'team', teamId, teamName: team.name });
  }
  return paths;
}

const reviewedRole = (role: RoleState, scope: 'company' | 'workspace'): ReviewedRole => ({
  id: role.id,
  name: role.name,
  scope,
  builtIn: role.builtIn,
  permissions: [...effectivePermissions(role)].sort(),
});

function rolesOf(state: AccessState, ws: WorkspaceState, person: PersonState): ReviewedRole[] {
  const company = [...person.roleIds].flatMap((id) => (state.roles.has(id) ? [reviewedRole(state.roles.get(id)!, 'company')] : []));
  const member = [...(ws.memberRoles.get(person.id) ?? [])].flatMap((id) => (state.roles.has(id) ? [reviewedRole(state.roles.get(id)!, 'workspace')] : []));
  return [...company.sort(byId), ...member.sort(byId)];
}

/** As `permissionsOf`: every key for an administrator; else the union of the company roles' and member roles' keys, only with access. */
function keysOf(person: PersonState, access: AccessPath[], roles: ReviewedRole[]): string[] {
  if (access.length === 0) return [];
  if (person.isAdmin) return [...ALL_PERMISSION_KEYS].sort();
  return [...new Set(roles.flatMap((r) => r.permissions))].sort();
}

function reviewPerson(state: AccessState, ws: WorkspaceState, person: PersonState): ReviewedPerson {
  const access = accessOf(state, ws, person);
  const roles = rolesOf(state, ws, person);
  const teams = [...state.teams.values()].filter((t) => t.members.has(person.id)).map((t) => ({ id: t.id, name: t.name })).sort(byId);
  return { id: person.id, name: person.name, email: person.email, status: person.status, isAdmin: person.isAdmin, access, teams, roles, permissions: keysOf(person, access, roles) };
}

/** Who could use `key` in the workspace: active people who could enter it and held the key, with what gave it. */
function holdersOf(people: ReviewedPerson[], key: string): KeyHolder[] {
  const holders: KeyHolder[] = [];
  for (const p of people) {
    if (p.status !== 'active' || !p.permissions.includes(key)) continue;
    const through: KeySource[] = p.isAdmin ? [{ kind: 'admin' }] : [];
    for (const r of p.roles) if (r.permissions.includes(key)) through.push({ kind: 'role', roleId: r.id, roleName: r.name, scope: r.scope });
    holders.push({ userId: p.id, name: p.name, email: p.email, through, access: p.access });
  }
  return holders;
}

/** The review of `workspaceId` in `state`; null when the workspace did not exist (in that company) then. */
export function reviewWorkspace(state: AccessState, workspaceId: number, permissionKey?: string): AccessReview | null {
  const ws = state.workspaces.get(workspaceId);
  if (!ws) return null;
  const people = [...state.people.values()]
    .map((person) => reviewPerson(state, ws, person))
    .filter((p) => p.access.length > 0 || p.roles.some((r) => r.scope === 'workspace'))
    .sort(byId);
  const users = [...ws.users].flatMap((id) => {
    const p = state.people.get(id);
    return p ? [{ id, name: p.name, email: p.email }] : [];
  });
  const teams = [...ws.teams].flatMap((id) => {
    const t = state.teams.get(id);
    return t ? [{ id, name: t.name, memberIds: [...t.members].sort((a, b) => a - b) }] : [];
  });
  return {
    workspace: { id: ws.id, name: ws.name, archived: ws.archived },
    people,
    grants: { users: users.sort(byId), teams: teams.sort(byId) },
    ...(permissionKey !== undefined ? { permissionKey: { key: permissionKey, holders: holdersOf(people, permissionKey) } } : {}),
  };
}
