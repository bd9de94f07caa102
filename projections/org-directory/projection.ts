import { readFileSync } from 'node:fs';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/types.js';
import type { CompanyEvent } from '#events/organization/companies.js';
import type { RoleEvent } from '#events/organization/roles.js';
import type { TeamEvent } from '#events/organization/teams.js';
import type { SignInEvent, UserEvent } from '#events/organization/users.js';
import type { WorkspaceEvent, WorkspaceVisitEvent } from '#events/organization/workspaces.js';
import type { Projection } from '../types.js';
import { unreachable } from '#shared/unreachable.js';

type Handled = CompanyEvent | UserEvent | WorkspaceEvent | WorkspaceVisitEvent | RoleEvent | TeamEvent | Extract<SignInEvent, { type: 'SignInSucceeded' }>;

const schema = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8');

const HANDLED = [
  'CompanyRegistered',
  'UserRegistered',
  'UserPasswordChanged',
  'UserInvited',
  'UserActivated',
  'UserDeactivated',
  'UserReactivated',
  'UserUpdated',
  'UserRolesReplaced',
  'AdminGranted',
  'AdminRevoked',
  'UserProfileImageSet',
  'UserProfileImageRemoved',
  'UserDeleted',
  'SignInSucceeded',
  'WorkspaceCreated',
  'WorkspaceUpdated',
  'WorkspaceArchived',
  'WorkspaceUnarchived',
  'WorkspaceDeleted',
  'WorkspaceModulesChanged',
  'WorkspaceAccessGranted',
  'WorkspaceAccessRevoked',
  'WorkspaceMemberRolesAssigned',
  'WorkspaceMemberRoleRemoved',
  'WorkspaceVisited',
  'RoleCreated',
  'RoleUpdated',
  'RoleDeleted',
  'TeamCreated',
  'TeamUpdated',
  'TeamDeleted',
  'TeamMemberAdded',
  'TeamMemberRemoved',
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
  async apply(tx, recorded: RecordedEvent) {
    const event = { type: recorded.type, payload: recorded.payload } as Handled;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'CompanyRegistered':
        await tx.query('INSERT INTO org_companies (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
          event.payload.companyId,
          event.payload.name,
          at,
        ]);
        return;
      case 'UserRegistered': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO org_users (id, company_id, email, username, name, password_hash, status, is_admin, roles, role_ids, created_at, activated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $10) ON CONFLICT (id) DO NOTHING`,
          [p.userId, p.companyId, p.email, p.username, p.name, p.passwordHash, p.isAdmin, p.roles, p.roleIds ?? [], at],
        );
        return;
      }
      case 'UserInvited': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO org_users (id, company_id, email, username, name, status, is_admin, role_ids, created_at)
           VALUES ($1, $2, $3, $4, '', 'passive', false, $5, $6) ON CONFLICT (id) DO NOTHING`,
          [p.userId, p.companyId, p.email, p.username, p.roleIds, at],
        );
        return;
      }
      case 'UserActivated':
        await tx.query(`UPDATE org_users SET status = 'active', name = $2, password_hash = $3, activated_at = $4 WHERE id = $1`, [
          event.payload.userId,
          event.payload.name,
          event.payload.passwordHash,
          at,
        ]);
        return;
      case 'UserPasswordChanged':
        await tx.query('UPDATE org_users SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [
          event.payload.userId,
          event.payload.passwordHash,
          at,
        ]);
        return;
      case 'UserDeactivated':
        await tx.query(`UPDATE org_users SET status = 'deactivated' WHERE id = $1`, [event.payload.userId]);
        return;
      case 'UserReactivated':
        await tx.query(`UPDATE org_users SET status = 'active' WHERE id = $1`, [event.payload.userId]);
        return;
      case 'UserUpdated':
        await updateColumns(tx, 'org_users', event.payload.userId, { ...event.payload.changes }, {
          name: 'name',
          username: 'username',
          title: 'title',
          phone: 'phone',
        });
        return;
      case 'UserRolesReplaced':
        // Only roles that still exist: a role deleted before this event grants nothing.
        await tx.query(
          `UPDATE org_users SET role_ids = ARRAY(SELECT r FROM unnest($2::int[]) r WHERE EXISTS (SELECT 1 FROM org_roles WHERE id = r) ORDER BY r)
            WHERE id = $1`,
          [event.payload.userId, event.payload.roleIds],
        );
        return;
      case 'AdminGranted':
      case 'AdminRevoked':
        await tx.query('UPDATE org_users SET is_admin = $2 WHERE id = $1', [event.payload.userId, event.type === 'AdminGranted']);
        return;
      case 'UserProfileImageSet':
        await tx.query('UPDATE org_users SET image_key = $2, image_content_type = $3 WHERE id = $1', [
          event.payload.userId,
          event.payload.image.key,
          event.payload.image.contentType,
        ]);
        return;
      case 'UserProfileImageRemoved':
        await tx.query('UPDATE org_users SET image_key = NULL, image_content_type = NULL WHERE id = $1', [event.payload.userId]);
        return;
      case 'UserDeleted': {
        const id = event.payload.userId;
        await tx.query('DELETE FROM org_team_members WHERE user_id = $1', [id]);
        await tx.query('DELETE FROM org_workspace_user_access WHERE user_id = $1', [id]);
        await tx.query('DELETE FROM org_workspace_member_roles WHERE user_id = $1', [id]);
        await tx.query('DELETE FROM org_workspace_visits WHERE user_id = $1', [id]);
        await tx.query('DELETE FROM org_users WHERE id = $1', [id]);
        return;
      }
      case 'SignInSucceeded':
        await tx.query('UPDATE org_users SET last_sign_in_at = GREATEST(last_sign_in_at, $2::timestamptz) WHERE id = $1', [
          event.payload.userId,
          at,
        ]);
        return;
      case 'WorkspaceCreated': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO org_workspaces (id, company_id, name, description, settings, modules, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [p.workspaceId, p.companyId, p.name, p.description, JSON.stringify(p.settings), p.modules, at],
        );
        return;
      }
      case 'WorkspaceUpdated':
        await updateColumns(tx, 'org_workspaces', event.payload.workspaceId, { ...event.payload }, {
          name: 'name',
          description: 'description',
          settings: 'settings',
        });
        await tx.query('UPDATE org_workspaces SET updated_at = $2 WHERE id = $1', [event.payload.workspaceId, at]);
        return;
      case 'WorkspaceArchived':
      case 'WorkspaceUnarchived':
        await tx.query('UPDATE org_workspaces SET archived = $2, updated_at = $3 WHERE id = $1', [
          event.payload.workspaceId,
          event.type === 'WorkspaceArchived',
          at,
        ]);
        return;
      case 'WorkspaceModulesChanged':
        await tx.query('UPDATE org_workspaces SET modules = $2, updated_at = $3 WHERE id = $1', [event.payload.workspaceId, event.payload.modules, at]);
        return;
      case 'WorkspaceDeleted': {
        const id = event.payload.workspaceId;
        for (const table of ['org_workspace_user_access', 'org_workspace_team_access', 'org_workspace_member_roles', 'org_workspace_visits']) {
          await tx.query(`DELETE FROM ${table} WHERE workspace_id = $1`, [id]);
        }
        await tx.query('DELETE FROM org_workspaces WHERE id = $1', [id]);
        return;
      }
      case 'WorkspaceAccessGranted': {
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
        return;
      }
      case 'WorkspaceAccessRevoked': {
        const { workspaceId, grantee } = event.payload;
        if (grantee.kind === 'team') {
          await tx.query('DELETE FROM org_workspace_team_access WHERE workspace_id = $1 AND team_id = $2', [workspaceId, grantee.teamId]);
        } else {
          await tx.query('DELETE FROM org_workspace_user_access WHERE workspace_id = $1 AND user_id = $2', [workspaceId, grantee.userId]);
        }
        return;
      }
      case 'WorkspaceMemberRolesAssigned':
        await tx.query(
          `INSERT INTO org_workspace_member_roles (workspace_id, user_id, role_id)
           SELECT $1, $2, r FROM unnest($3::int[]) r WHERE EXISTS (SELECT 1 FROM org_roles WHERE id = r)
           ON CONFLICT DO NOTHING`,
          [event.payload.workspaceId, event.payload.userId, event.payload.roleIds],
        );
        return;
      case 'WorkspaceMemberRoleRemoved':
        await tx.query('DELETE FROM org_workspace_member_roles WHERE workspace_id = $1 AND user_id = $2 AND role_id = $3', [
          event.payload.workspaceId,
          event.payload.userId,
          event.payload.roleId,
        ]);
        return;
      case 'WorkspaceVisited':
        await tx.query(
          `INSERT INTO org_workspace_visits (user_id, workspace_id, visited_at, position)
           SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM org_workspaces WHERE id = $2)
           ON CONFLICT (user_id, workspace_id) DO UPDATE SET visited_at = EXCLUDED.visited_at, position = EXCLUDED.position
           WHERE org_workspace_visits.position < EXCLUDED.position`,
          [event.payload.userId, event.payload.workspaceId, at, recorded.position.toString()],
        );
        return;
      case 'RoleCreated': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO org_roles (id, company_id, name, description, permissions, built_in, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [p.roleId, p.companyId, p.name, p.description, p.permissions, p.builtIn, at],
        );
        return;
      }
      case 'RoleUpdated':
        await updateColumns(tx, 'org_roles', event.payload.roleId, { ...event.payload }, {
          name: 'name',
          description: 'description',
          permissions: 'permissions',
        });
        return;
      case 'RoleDeleted': {
        const id = event.payload.roleId;
        await tx.query('UPDATE org_users SET role_ids = array_remove(role_ids, $1) WHERE $1 = ANY(role_ids)', [id]);
        await tx.query('DELETE FROM org_workspace_member_roles WHERE role_id = $1', [id]);
        await tx.query('DELETE FROM org_roles WHERE id = $1', [id]);
        return;
      }
      case 'TeamCreated': {
        const p = event.payload;
        await tx.query(
          'INSERT INTO org_teams (id, company_id, name, description, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING',
          [p.teamId, p.companyId, p.name, p.description, at],
        );
        return;
      }
      case 'TeamUpdated':
        await updateColumns(tx, 'org_teams', event.payload.teamId, { ...event.payload }, { name: 'name', description: 'description' });
        return;
      case 'TeamDeleted': {
        const id = event.payload.teamId;
        await tx.query('DELETE FROM org_team_members WHERE team_id = $1', [id]);
        await tx.query('DELETE FROM org_workspace_team_access WHERE team_id = $1', [id]);
        await tx.query('DELETE FROM org_teams WHERE id = $1', [id]);
        return;
      }
      case 'TeamMemberAdded':
        await tx.query(
          `INSERT INTO org_team_members (team_id, user_id)
           SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM org_teams WHERE id = $1) AND EXISTS (SELECT 1 FROM org_users WHERE id = $2)
           ON CONFLICT DO NOTHING`,
          [event.payload.teamId, event.payload.userId],
        );
        return;
      case 'TeamMemberRemoved':
        await tx.query('DELETE FROM org_team_members WHERE team_id = $1 AND user_id = $2', [event.payload.teamId, event.payload.userId]);
        return;
      default:
        return unreachable(event);
    }
  },
};
