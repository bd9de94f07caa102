// What the directory's queries share: the shapes they answer, who may enter a workspace (`ACCESS`), and a user as clients see it.
import type { ModuleKey } from '#events/organization/modules.js';
import { iso, isoOrNull } from '#shared/db/index.js';

/** A user as sign-in reads it (with the password hash: never sent to a client). */
export interface DirectoryUser {
  id: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  /** Null until an invited user accepts the invitation. */
  passwordHash: string | null;
  status: string;
  isAdmin: boolean;
  roles: string[];
}

export interface AccessibleWorkspace {
  id: number;
  companyId: number;
  name: string;
  archived: boolean;
  modules: ModuleKey[];
}

/** A user as clients see it. */
export interface UserView {
  id: number;
  companyId: number;
  email: string;
  username: string;
  name: string;
  title: string | null;
  phone: string | null;
  status: 'passive' | 'active' | 'deactivated';
  isAdmin: boolean;
  roleIds: number[];
  roles: { id: number; name: string }[];
  hasProfileImage: boolean;
  createdAt: string;
  activatedAt: string | null;
  lastSignInAt: string | null;
}

export interface RoleRow {
  id: number;
  companyId: number;
  name: string;
  description: string;
  permissions: string[];
  builtIn: boolean;
}

export interface TeamView {
  id: number;
  name: string;
  description: string;
  memberIds: number[];
}

export interface WorkspaceView {
  id: number;
  companyId: number;
  name: string;
  description: string;
  settings: Record<string, unknown>;
  archived: boolean;
  modules: ModuleKey[];
  createdAt: string;
}

/**
 * Whether user `u` may enter workspace `w`: a company administrator enters every workspace of the
 * company; others need a grant to them or to one of their teams. Deleted workspaces have no row.
 */
export const ACCESS = `(u.is_admin
  OR EXISTS (SELECT 1 FROM org_workspace_user_access a WHERE a.workspace_id = w.id AND a.user_id = u.id)
  OR EXISTS (SELECT 1 FROM org_workspace_team_access t JOIN org_team_members m ON m.team_id = t.team_id
              WHERE t.workspace_id = w.id AND m.user_id = u.id))`;

export const userView = `u.id, u.company_id AS "companyId", u.email, u.username, u.name, u.title, u.phone, u.status,
  u.is_admin AS "isAdmin", u.role_ids AS "roleIds", u.image_key IS NOT NULL AS "hasProfileImage",
  u.created_at AS "createdAt", u.activated_at AS "activatedAt", u.last_sign_in_at AS "lastSignInAt",
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.id)
              FROM org_roles r WHERE r.id = ANY(u.role_ids)), '[]'::json) AS roles`;

export function toUserView(row: Record<string, unknown>): UserView {
  const roles = typeof row.roles === 'string' ? (JSON.parse(row.roles) as UserView['roles']) : (row.roles as UserView['roles']);
  return {
    ...(row as unknown as UserView),
    roles,
    createdAt: iso(row.createdAt),
    activatedAt: isoOrNull(row.activatedAt),
    lastSignInAt: isoOrNull(row.lastSignInAt),
  };
}
