import { readFileSync } from 'node:fs';
import type { RecordedEvent } from '#shared/es/types.js';
import type { CompanyEvent } from '#services/organization/companies/index.js';
import type { UserEvent } from '#services/organization/users/index.js';
import type { WorkspaceEvent } from '#services/organization/workspaces/index.js';
import type { Projection } from '../types.js';

type Handled = CompanyEvent | UserEvent | WorkspaceEvent;

const schema = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8');

/** Companies, users and workspaces as the sign-in flow and the gateway read them. */
export const orgDirectoryProjection: Projection = {
  name: 'org-directory',
  version: 1,
  eventTypes: ['CompanyRegistered', 'UserRegistered', 'UserPasswordChanged', 'WorkspaceCreated'] satisfies Handled['type'][],
  schema,
  tables: ['org_workspace_user_access', 'org_workspaces', 'org_users', 'org_companies'],
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
          `INSERT INTO org_users (id, company_id, email, username, name, password_hash, status, is_admin, roles, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [p.userId, p.companyId, p.email, p.username, p.name, p.passwordHash, p.isAdmin, p.roles, at],
        );
        return;
      }
      case 'UserPasswordChanged':
        await tx.query('UPDATE org_users SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [
          event.payload.userId,
          event.payload.passwordHash,
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
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};
