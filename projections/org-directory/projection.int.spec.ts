import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgDirectoryProjection } from './projection.js';
import { findAccessibleWorkspace, findUserByLogin, getRole, getTeam, getUser, getWorkspace, listAccessibleWorkspaces } from './queries/index.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgDirectoryProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const company = { type: 'CompanyRegistered', payload: { companyId: 1, name: 'Acme' } };
const admin = {
  type: 'UserRegistered',
  payload: { userId: 1, companyId: 1, email: 'ada@example.com', username: 'ada', name: 'Ada', passwordHash: 'h', isAdmin: true, roles: ['Admin'], roleIds: [] },
};
const workspace = (workspaceId: number, name = `W${workspaceId}`) => ({
  type: 'WorkspaceCreated',
  payload: { workspaceId, companyId: 1, name, description: '', settings: {}, modules: ['DF', 'TMT'] },
});
const role = (roleId: number) => ({ type: 'RoleCreated', payload: { roleId, companyId: 1, name: `Role ${roleId}`, description: '', permissions: ['USER_READ'], builtIn: false } });
const invited = { type: 'UserInvited', payload: { userId: 2, companyId: 1, email: 'bob@example.com', username: 'bob', roleIds: [10], invitedBy: 1 } };
const activated = { type: 'UserActivated', payload: { userId: 2, name: 'Bob', passwordHash: 'hb' } };
const bob = { userId: 2, companyId: 1 };

describe('org-directory read model', () => {
  it('given a company and its administrator, the administrator signs in by e-mail or username and enters every workspace', async () => {
    await spec.given(company, admin, workspace(1), workspace(2));
    expect(await findUserByLogin(spec.db, 'ADA@example.com')).toMatchObject({ id: 1, companyId: 1, isAdmin: true, status: 'active' });
    expect((await findUserByLogin(spec.db, 'ada'))?.id).toBe(1);
    expect((await listAccessibleWorkspaces(spec.db, { userId: 1, companyId: 1 })).map((w) => w.id)).toEqual([1, 2]);
    expect(await getUser(spec.db, 2, 1)).toBeNull();
  });

  it('given an invitation and its activation, the user is passive and then active, with the roles that exist', async () => {
    await spec.given(company, admin, role(10), invited);
    expect(await getUser(spec.db, 1, 2)).toMatchObject({ status: 'passive', name: '', roleIds: [10], roles: [{ id: 10, name: 'Role 10' }], activatedAt: null });
    await spec.given(activated, { type: 'UserRolesReplaced', payload: { userId: 2, roleIds: [10, 99] } });
    expect(await getUser(spec.db, 1, 2)).toMatchObject({ status: 'active', name: 'Bob', roleIds: [10], activatedAt: SPEC_TIME });
  });

  it('given access granted to a team the user belongs to, the user enters that workspace only; revoked, no longer', async () => {
    await spec.given(
      company, admin, invited, activated, workspace(1), workspace(2),
      { type: 'TeamCreated', payload: { teamId: 5, companyId: 1, name: 'QA', description: '' } },
      { type: 'TeamMemberAdded', payload: { teamId: 5, userId: 2 } },
      { type: 'WorkspaceAccessGranted', payload: { workspaceId: 2, grantee: { kind: 'team', teamId: 5 } } },
    );
    expect((await getTeam(spec.db, 1, 5))?.memberIds).toEqual([2]);
    expect((await listAccessibleWorkspaces(spec.db, bob)).map((w) => w.id)).toEqual([2]);
    expect(await findAccessibleWorkspace(spec.db, bob, 1)).toBeNull();
    await spec.given({ type: 'WorkspaceAccessRevoked', payload: { workspaceId: 2, grantee: { kind: 'team', teamId: 5 } } });
    expect(await listAccessibleWorkspaces(spec.db, bob)).toEqual([]);
  });

  it('given a workspace archived, its modules changed and then deleted, the row follows and the access goes with it', async () => {
    await spec.given(
      company, admin, invited, activated, workspace(1),
      { type: 'WorkspaceAccessGranted', payload: { workspaceId: 1, grantee: { kind: 'user', userId: 2 } } },
      { type: 'WorkspaceArchived', payload: { workspaceId: 1 } },
      { type: 'WorkspaceModulesChanged', payload: { workspaceId: 1, modules: ['DF'] } },
    );
    expect(await getWorkspace(spec.db, 1, 1)).toMatchObject({ archived: true, modules: ['DF'] });
    expect(await findAccessibleWorkspace(spec.db, bob, 1)).toMatchObject({ id: 1, archived: true });
    await spec.given({ type: 'WorkspaceDeleted', payload: { workspaceId: 1 } });
    expect(await getWorkspace(spec.db, 1, 1)).toBeNull();
    expect(await spec.rows('SELECT * FROM org_workspace_user_access')).toEqual([]);
  });

  it('given a role deleted and a user deleted, no user keeps the role and the user is gone with their memberships', async () => {
    await spec.given(
      company, admin, role(10), invited, activated,
      { type: 'TeamCreated', payload: { teamId: 5, companyId: 1, name: 'QA', description: '' } },
      { type: 'TeamMemberAdded', payload: { teamId: 5, userId: 2 } },
      { type: 'RoleDeleted', payload: { roleId: 10 } },
    );
    expect(await getRole(spec.db, 1, 10)).toBeNull();
    expect((await getUser(spec.db, 1, 2))?.roleIds).toEqual([]);
    await spec.given({ type: 'UserDeleted', payload: { userId: 2, email: 'bob@example.com', username: 'bob' } });
    expect(await getUser(spec.db, 1, 2)).toBeNull();
    expect((await getTeam(spec.db, 1, 5))?.memberIds).toEqual([]);
  });
});
