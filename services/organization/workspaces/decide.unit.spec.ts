import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { companyDecider } from '../companies/decide.js';
import { workspaceDecider } from './decide.js';
import type { WorkspaceEvent } from '#events/organization/workspaces.js';

const payload = { workspaceId: 4, companyId: 2, name: 'Default', description: '', settings: {}, modules: ['TMT' as const, 'DF' as const] };
const created: WorkspaceEvent = { type: 'WorkspaceCreated', payload };
const archived: WorkspaceEvent = { type: 'WorkspaceArchived', payload: { workspaceId: 4 } };
const unarchived: WorkspaceEvent = { type: 'WorkspaceUnarchived', payload: { workspaceId: 4 } };
const deleted: WorkspaceEvent = { type: 'WorkspaceDeleted', payload: { workspaceId: 4, name: 'Default' } };
const team = { kind: 'team' as const, teamId: 9 };
const user = { kind: 'user' as const, userId: 11 };

describe('workspace decider: creation', () => {
  const spec = deciderSpec(workspaceDecider);

  it('creates a workspace', () => {
    spec.given([]).when({ type: 'CreateWorkspace', ...payload }).then([created]);
  });

  it('grants its creator access when asked (a creator who is not an administrator)', () => {
    spec
      .given([])
      .when({ type: 'CreateWorkspace', ...payload, grantCreator: 11 })
      .then([created, { type: 'WorkspaceAccessGranted', payload: { workspaceId: 4, grantee: user } }]);
  });

  it('refuses to create it twice, also after deletion', () => {
    spec.given([created]).when({ type: 'CreateWorkspace', ...payload }).thenRefused('ALREADY_EXISTS');
    spec.given([created, deleted]).when({ type: 'CreateWorkspace', ...payload }).thenRefused('ALREADY_EXISTS');
  });
});

describe('workspace decider: archive and unarchive', () => {
  const spec = deciderSpec(workspaceDecider);

  it('archive: not archived -> archived', () => {
    spec.given([created]).when({ type: 'ArchiveWorkspace', companyId: 2 }).then([archived]);
    spec.given([created, archived, unarchived]).when({ type: 'ArchiveWorkspace', companyId: 2 }).then([archived]);
  });

  it('refuses to archive an archived workspace', () => {
    spec.given([created, archived]).when({ type: 'ArchiveWorkspace', companyId: 2 }).thenRefused('CONFLICT');
  });

  it('unarchive: archived -> restored', () => {
    spec.given([created, archived]).when({ type: 'UnarchiveWorkspace', companyId: 2 }).then([unarchived]);
  });

  it('refuses to unarchive a workspace that is not archived', () => {
    spec.given([created]).when({ type: 'UnarchiveWorkspace', companyId: 2 }).thenRefused('CONFLICT');
    spec.given([created, archived, unarchived]).when({ type: 'UnarchiveWorkspace', companyId: 2 }).thenRefused('CONFLICT');
  });

  it('an archived workspace is read-only: every change is refused with WORKSPACE_ARCHIVED', () => {
    const given = spec.given([created, archived]);
    given.when({ type: 'UpdateWorkspace', companyId: 2, name: 'New' }).thenRefused('WORKSPACE_ARCHIVED');
    given.when({ type: 'ChangeModules', companyId: 2, modules: ['TMT'] }).thenRefused('WORKSPACE_ARCHIVED');
    given.when({ type: 'GrantAccess', companyId: 2, grantee: team }).thenRefused('WORKSPACE_ARCHIVED');
    given.when({ type: 'RevokeAccess', companyId: 2, grantee: team }).thenRefused('WORKSPACE_ARCHIVED');
    given.when({ type: 'AssignMemberRoles', companyId: 2, userId: 11, roleIds: [1] }).thenRefused('WORKSPACE_ARCHIVED');
    given.when({ type: 'RemoveMemberRole', companyId: 2, userId: 11, roleId: 1 }).thenRefused('WORKSPACE_ARCHIVED');
  });

  it('delete: archived or not -> deleted, after which it is not found', () => {
    spec.given([created]).when({ type: 'DeleteWorkspace', companyId: 2 }).then([deleted]);
    spec.given([created, archived]).when({ type: 'DeleteWorkspace', companyId: 2 }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteWorkspace', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created, deleted]).when({ type: 'UnarchiveWorkspace', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created, deleted]).when({ type: 'UpdateWorkspace', companyId: 2, name: 'x' }).thenRefused('NOT_FOUND');
  });

  it('answers "not found" to a caller of another company', () => {
    spec.given([created]).when({ type: 'ArchiveWorkspace', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteWorkspace', companyId: 3 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'GrantAccess', companyId: 3, grantee: user }).thenRefused('NOT_FOUND');
  });
});

describe('workspace decider: settings, modules, access, member roles', () => {
  const spec = deciderSpec(workspaceDecider);

  it('records only what an update changes', () => {
    spec
      .given([created])
      .when({ type: 'UpdateWorkspace', companyId: 2, name: 'Default', description: 'Main', settings: { a: 1 } })
      .then([{ type: 'WorkspaceUpdated', payload: { workspaceId: 4, description: 'Main', settings: { a: 1 } } }]);
    spec.given([created]).when({ type: 'UpdateWorkspace', companyId: 2, name: 'Default', settings: {} }).then([]);
  });

  it('changes modules, and records nothing for the same set', () => {
    spec.given([created]).when({ type: 'ChangeModules', companyId: 2, modules: ['DF'] }).then([{ type: 'WorkspaceModulesChanged', payload: { workspaceId: 4, modules: ['DF'] } }]);
    spec.given([created]).when({ type: 'ChangeModules', companyId: 2, modules: ['DF', 'TMT'] }).then([]);
  });

  it('grants a team and a user once; revoking what was not granted is "not found"', () => {
    const granted: WorkspaceEvent = { type: 'WorkspaceAccessGranted', payload: { workspaceId: 4, grantee: team } };
    spec.given([created]).when({ type: 'GrantAccess', companyId: 2, grantee: team }).then([granted]);
    spec.given([created, granted]).when({ type: 'GrantAccess', companyId: 2, grantee: team }).then([]);
    spec.given([created, granted]).when({ type: 'RevokeAccess', companyId: 2, grantee: team }).then([{ type: 'WorkspaceAccessRevoked', payload: { workspaceId: 4, grantee: team } }]);
    spec.given([created, granted]).when({ type: 'RevokeAccess', companyId: 2, grantee: user }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'GrantAccess', companyId: 2, grantee: user }).then([{ type: 'WorkspaceAccessGranted', payload: { workspaceId: 4, grantee: user } }]);
  });

  it('adds member roles (only new ones), and removes one; removing one not held is "not found"', () => {
    const assigned: WorkspaceEvent = { type: 'WorkspaceMemberRolesAssigned', payload: { workspaceId: 4, userId: 11, roleIds: [1, 2] } };
    spec.given([created]).when({ type: 'AssignMemberRoles', companyId: 2, userId: 11, roleIds: [2, 1, 2] }).then([assigned]);
    spec.given([created, assigned]).when({ type: 'AssignMemberRoles', companyId: 2, userId: 11, roleIds: [2, 3] }).then([
      { type: 'WorkspaceMemberRolesAssigned', payload: { workspaceId: 4, userId: 11, roleIds: [3] } },
    ]);
    spec.given([created, assigned]).when({ type: 'AssignMemberRoles', companyId: 2, userId: 11, roleIds: [1] }).then([]);
    spec.given([created, assigned]).when({ type: 'RemoveMemberRole', companyId: 2, userId: 11, roleId: 2 }).then([
      { type: 'WorkspaceMemberRoleRemoved', payload: { workspaceId: 4, userId: 11, roleId: 2 } },
    ]);
    spec.given([created, assigned]).when({ type: 'RemoveMemberRole', companyId: 2, userId: 12, roleId: 2 }).thenRefused('NOT_FOUND');
  });
});

describe('company decider', () => {
  const spec = deciderSpec(companyDecider);

  it('registers a company once', () => {
    spec
      .given([])
      .when({ type: 'RegisterCompany', companyId: 1, name: 'Acme' })
      .then([{ type: 'CompanyRegistered', payload: { companyId: 1, name: 'Acme' } }]);
    spec
      .given([{ type: 'CompanyRegistered', payload: { companyId: 1, name: 'Acme' } }])
      .when({ type: 'RegisterCompany', companyId: 1, name: 'Acme' })
      .thenRefused('ALREADY_EXISTS');
  });
});
