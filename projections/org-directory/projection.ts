import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sql } from '#shared/db/index.js';
import { companyEvents, type CompanyEvent } from '#events/organization/companies.js';
import { roleEvents, type RoleEvent } from '#events/organization/roles.js';
import { teamEvents, type TeamEvent } from '#events/organization/teams.js';
import { userEvents, type SignInEvent, type UserEvent } from '#events/organization/users.js';
import { workspaceEvents, workspaceVisitEvents, type WorkspaceEvent, type WorkspaceVisitEvent } from '#events/organization/workspaces.js';
import { ROOT } from '#shared/root.js';
import { applyByType, type Projection } from '../types.js';

type Handled = CompanyEvent | UserEvent | WorkspaceEvent | WorkspaceVisitEvent | RoleEvent | TeamEvent | Extract<SignInEvent, { type: 'SignInSucceeded' }>;

const schema = readFileSync(join(ROOT, 'projections', 'org-directory', 'schema.sql'), 'utf8');

const HANDLED = [
  ...companyEvents.types,
  ...userEvents.types,
  'SignInSucceeded',
  ...workspaceEvents.types,
  ...workspaceVisitEvents.types,
  ...roleEvents.types,
  ...teamEvents.types,
] as const satisfies readonly Handled['type'][];

/** `SET a = $2, b = $3 ...` for the keys present in `changes`, column names from `columns`. */
async function updateColumns(tx: Sql, table: string, id: number, changes: Record<string, unknown>, columns: Record<string, string>): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [key, column] of Object.entries(columns)) {
    if (changes[key] === undefined) continue;
    values.push(column === 'settings' ? JSON.stringify(changes[key]) : changes[key]);
    sets.push(`${column} = $${values.length}`);
  }
  if (sets.length > 0) await tx.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE id = $1`, values);
}

/**
 * Companies, users, roles, teams, workspaces with their access grants and member roles, and recent
 * visits: what sign-in, the gateway's workspace check, permissions and the organization's queries
 * read. Deletions remove rows (the audit history keeps what happened).
 */
export const orgDirectoryProjection: Projection = {
  name: 'org-directory',
  version: 2,
  eventTypes: HANDLED,
  // An erased person was deleted first, and a deletion removes every row of theirs here.
  erasePerson: async () => {},
  schema,
  tables: [
    'org_workspace_visits',
    'org_team_members',
    'org_teams',
    'org_roles',
    'org_workspace_member_roles',
    'org_workspace_team_access',
    'org_workspace_user_access',
    'org_workspaces',
    'org_users',
    'org_companies',
  ],
  apply: applyByType<Handled>({
    CompanyRegistered: async (tx, event, at) => {
      await tx.query('INSERT INTO org_companies (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
        event.payload.companyId,
        event.payload.name,
        at,
      ]);
    },
    UserRegistered: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO org_users (id, company_id, email, username, name, password_hash, status, is_admin, roles, role_ids, created_at, activated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $10) ON CONFLICT (id) DO NOTHING`,
        [p.userId, p.companyId, p.email, p.username, p.name, p.passwordHash, p.isAdmin, p.roles, p.roleIds ?? [], at],
      );
    },
    UserInvited: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO org_users (id, company_id, email, username, name, status, is_admin, role_ids, created_at)
         VALUES ($1, $2, $3, $4, '', 'passive', false, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [p.userId, p.companyId, p.email, p.username, p.roleIds, at],
      );
    },
    // A new link and the workspaces granted on activation: nothing the directory shows.
    UserReinvited: async () => {},
    UserActivated: async (tx, event, at) => {
      await tx.query(`UPDATE org_users SET status = 'active', name = $2, password_hash = $3, activated_at = $4 WHERE id = $1`, [
        event.payload.userId,
        event.payload.name,
        event.payload.passwordHash,
        at,
      ]);
    },
    UserPasswordChanged: async (tx, event, at) => {
      await tx.query('UPDATE org_users SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [
        event.payload.userId,
        event.payload.passwordHash,
        at,
      ]);
    },
    UserDeactivated: (tx, event) => tx.query(`UPDATE org_users SET status = 'deactivated' WHERE id = $1`, [event.payload.userId]),
    UserReactivated: (tx, event) => tx.query(`UPDATE org_users SET status = 'active' WHERE id = $1`, [event.payload.userId]),
    UserUpdated: async (tx, event) => {
      await updateColumns(tx, 'org_users', event.payload.userId, { ...event.payload.changes }, {
        name: 'name',
        username: 'username',
        title: 'title',
        phone: 'phone',
      });
    },
    UserRolesReplaced: async (tx, event) => {
      // Only roles that still exist: a role deleted before this event grants nothing.
      await tx.query(
        `UPDATE org_users SET role_ids = ARRAY(SELECT r FROM unnest($2::int[]) r WHERE EXISTS (SELECT 1 FROM org_roles WHERE id = r) ORDER BY r)
          WHERE id = $1`,
        [event.payload.userId, event.payload.roleIds],
      );
    },
    AdminGranted: (tx, event) => tx.query('UPDATE org_users SET is_admin = $2 WHERE id = $1', [event.payload.userId, true]),
    AdminRevoked: (tx, event) => tx.query('UPDATE org_users SET is_admin = $2 WHERE id = $1', [event.payload.userId, false]),
    UserProfileImageSet: async (tx, event) => {
      await tx.query('UPDATE org_users SET image_key = $2, image_content_type = $3 WHERE id = $1', [
        event.payload.userId,
        event.payload.image.key,
        event.payload.image.contentType,
      ]);
    },
    UserProfileImageRemoved: (tx, event) => tx.query('UPDATE org_users SET image_key = NULL, image_content_type = NULL WHERE id = $1', [event.payload.userId]),
    UserDeleted: async (tx, event) => {
      const id = event.payload.userId;
      await tx.query('DELETE FROM org_team_members WHERE user_id = $1', [id]);
      await tx.query('DELETE FROM org_workspace_user_access WHERE user_id = $1', [id]);
      await tx.query('DELETE FROM org_workspace_member_roles WHERE user_id = $1', [id]);
      await tx.query('DELETE FROM org_workspace_visits WHERE user_id = $1', [id]);
      await tx.query('DELETE FROM org_users WHERE id = $1', [id]);
    },
    // The user's row went with UserDeleted; what an erasure changes is how their sealed fields read.
    UserErased: async () => {},
    SignInSucceeded: async (tx, event, at) => {
      await tx.query('UPDATE org_users SET last_sign_in_at = GREATEST(last_sign_in_at, $2::timestamptz) WHERE id = $1', [
        event.payload.userId,
        at,
      ]);
    },
    WorkspaceCreated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO org_workspaces (id, company_id, name, description, settings, modules, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [p.workspaceId, p.companyId, p.name, p.description, JSON.stringify(p.settings), p.modules, at],
      );
    },
    WorkspaceUpdated: async (tx, event, at) => {
      await updateColumns(tx, 'org_workspaces', event.payload.workspaceId, { ...event.payload }, {
        name: 'name',
        description: 'description',
        settings: 'settings',
      });
      await tx.query('UPDATE org_workspaces SET updated_at = $2 WHERE id = $1', [event.payload.workspaceId, at]);
    },
    WorkspaceArchived: async (tx, event, at) => {
      await tx.query('UPDATE org_workspaces SET archived = $2, updated_at = $3 WHERE id = $1', [
        event.payload.workspaceId,
        true,
        at,
      ]);
    },
    WorkspaceUnarchived: async (tx, event, at) => {
      await tx.query('UPDATE org_workspaces SET archived = $2, updated_at = $3 WHERE id = $1', [
        event.payload.workspaceId,
        false,
        at,
      ]);
    },
    WorkspaceModulesChanged: (tx, event, at) => tx.query('UPDATE org_workspaces SET modules = $2, updated_at = $3 WHERE id = $1', [event.payload.workspaceId, event.payload.modules, at]),
    WorkspaceDeleted: async (tx, event) => {
      const id = event.payload.workspaceId;
      for (const table of ['org_workspace_user_access', 'org_workspace_team_access', 'org_workspace_member_roles', 'org_workspace_visits']) {
        await tx.query(`DELETE FROM ${table} WHERE workspace_id = $1`, [id]);
      }
      await tx.query('DELETE FROM org_workspaces WHERE id = $1', [id]);
    },
    WorkspaceAccessGranted: async (tx, event) => {
      const { workspaceId, grantee } = event.payload;
      if (grantee.kind === 'team') {
        await tx.query(
          `INSERT INTO org_workspace_team_access (workspace_id, team_id)
           SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM org_teams WHERE id = $2) ON CONFLICT DO NOTHING`,
          [workspaceId, grantee.teamId],
        );
      } else {
        await tx.query(
          `INSERT INTO org_workspace_user_access (workspace_id, user_id)
           SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM org_users WHERE id = $2) ON CONFLICT DO NOTHING`,
          [workspaceId, grantee.userId],
        );
      }
    },
    WorkspaceAccessRevoked: async (tx, event) => {
      const { workspaceId, grantee } = event.payload;
      if (grantee.kind === 'team') {
        await tx.query('DELETE FROM org_workspace_team_access WHERE workspace_id = $1 AND team_id = $2', [workspaceId, grantee.teamId]);
      } else {
        await tx.query('DELETE FROM org_workspace_user_access WHERE workspace_id = $1 AND user_id = $2', [workspaceId, grantee.userId]);
      }
    },
    WorkspaceMemberRolesAssigned: async (tx, event) => {
      await tx.query(
        `INSERT INTO org_workspace_member_roles (workspace_id, user_id, role_id)
         SELECT $1, $2, r FROM unnest($3::int[]) r WHERE EXISTS (SELECT 1 FROM org_roles WHERE id = r)
         ON CONFLICT DO NOTHING`,
        [event.payload.workspaceId, event.payload.userId, event.payload.roleIds],
      );
    },
    WorkspaceMemberRoleRemoved: async (tx, event) => {
      await tx.query('DELETE FROM org_workspace_member_roles WHERE workspace_id = $1 AND user_id = $2 AND role_id = $3', [
        event.payload.workspaceId,
        event.payload.userId,
        event.payload.roleId,
      ]);
    },
    WorkspaceVisited: async (tx, event, at, recorded) => {
      await tx.query(
        `INSERT INTO org_workspace_visits (user_id, workspace_id, visited_at, position)
         SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM org_workspaces WHERE id = $2)
         ON CONFLICT (user_id, workspace_id) DO UPDATE SET visited_at = EXCLUDED.visited_at, position = EXCLUDED.position
         WHERE org_workspace_visits.position < EXCLUDED.position`,
        [event.payload.userId, event.payload.workspaceId, at, recorded.position.toString()],
      );
    },
    RoleCreated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO org_roles (id, company_id, name, description, permissions, built_in, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [p.roleId, p.companyId, p.name, p.description, p.permissions, p.builtIn, at],
      );
    },
    RoleUpdated: async (tx, event) => {
      await updateColumns(tx, 'org_roles', event.payload.roleId, { ...event.payload }, {
        name: 'name',
        description: 'description',
        permissions: 'permissions',
      });
    },
    RoleDeleted: async (tx, event) => {
      const id = event.payload.roleId;
      await tx.query('UPDATE org_users SET role_ids = array_remove(role_ids, $1) WHERE $1 = ANY(role_ids)', [id]);
      await tx.query('DELETE FROM org_workspace_member_roles WHERE role_id = $1', [id]);
      await tx.query('DELETE FROM org_roles WHERE id = $1', [id]);
    },
    TeamCreated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        'INSERT INTO org_teams (id, company_id, name, description, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING',
        [p.teamId, p.companyId, p.name, p.description, at],
      );
    },
    TeamUpdated: (tx, event) => updateColumns(tx, 'org_teams', event.payload.teamId, { ...event.payload }, { name: 'name', description: 'description' }),
    TeamDeleted: async (tx, event) => {
      const id = event.payload.teamId;
      await tx.query('DELETE FROM org_team_members WHERE team_id = $1', [id]);
      await tx.query('DELETE FROM org_workspace_team_access WHERE team_id = $1', [id]);
      await tx.query('DELETE FROM org_teams WHERE id = $1', [id]);
    },
    TeamMemberAdded: async (tx, event) => {
      await tx.query(
        `INSERT INTO org_team_members (team_id, user_id)
         SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM org_teams WHERE id = $1) AND EXISTS (SELECT 1 FROM org_users WHERE id = $2)
         ON CONFLICT DO NOTHING`,
        [event.payload.teamId, event.payload.userId],
      );
    },
    TeamMemberRemoved: (tx, event) => tx.query('DELETE FROM org_team_members WHERE team_id = $1 AND user_id = $2', [event.payload.teamId, event.payload.userId]),
  }),
};
