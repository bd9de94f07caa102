import { describe, expect, it } from 'vitest';
import { foldAccess, type AccessEvent } from './fold.js';
import { reviewItems, stillHeld } from './items.js';
import { reviewWorkspace } from './review.js';

const e = (type: string, payload: Record<string, unknown>): AccessEvent => ({ type, payload });

/** Company 1: Ada (administrator), Alice (Tester everywhere, granted the workspace), Bob (in QA, granted it; Auditor there). */
const history = [
  e('RoleCreated', { roleId: 20, companyId: 1, name: 'Tester', builtIn: false, permissions: ['TMT_READ'] }),
  e('RoleCreated', { roleId: 21, companyId: 1, name: 'Auditor', builtIn: false, permissions: ['AUDIT_READ'] }),
  e('UserRegistered', { userId: 1, companyId: 1, name: 'Ada', email: 'ada@x.test', isAdmin: true, roleIds: [] }),
  e('UserRegistered', { userId: 2, companyId: 1, name: 'Alice', email: 'alice@x.test', roleIds: [20] }),
  e('UserRegistered', { userId: 3, companyId: 1, name: 'Bob', email: 'bob@x.test', roleIds: [] }),
  e('TeamCreated', { teamId: 30, companyId: 1, name: 'QA' }),
  e('TeamMemberAdded', { teamId: 30, userId: 3 }),
  e('WorkspaceCreated', { workspaceId: 40, companyId: 1, name: 'Payments' }),
  e('WorkspaceAccessGranted', { workspaceId: 40, grantee: { kind: 'user', userId: 2 } }),
  e('WorkspaceAccessGranted', { workspaceId: 40, grantee: { kind: 'team', teamId: 30 } }),
  e('WorkspaceMemberRolesAssigned', { workspaceId: 40, userId: 3, roleIds: [21] }),
];

describe('the grants of a review', () => {
  it('lists every grant of the workspace, each with an id made of what it grants, and the names then', () => {
    const items = reviewItems(reviewWorkspace(foldAccess(1, history), 40)!);
    expect(items.map((i) => i.itemId)).toEqual(['workspace-user-2', 'workspace-team-30', 'team-member-30-3', 'admin-1', 'company-role-2-20', 'workspace-role-3-21']);
    expect(items.find((i) => i.itemId === 'team-member-30-3')).toEqual({ itemId: 'team-member-30-3', kind: 'team-member', teamId: 30, teamName: 'QA', userId: 3, userName: 'Bob', userEmail: 'bob@x.test' });
    expect(items.find((i) => i.itemId === 'company-role-2-20')).toMatchObject({ roleName: 'Tester', permissions: ['TMT_READ'] });
  });

  it('tells whether each grant is still held after later events', () => {
    const items = reviewItems(reviewWorkspace(foldAccess(1, history), 40)!);
    const later = foldAccess(1, [
      ...history,
      e('WorkspaceAccessRevoked', { workspaceId: 40, grantee: { kind: 'user', userId: 2 } }),
      e('TeamMemberRemoved', { teamId: 30, userId: 3 }),
      e('AdminRevoked', { userId: 1 }),
    ]);
    expect(Object.fromEntries(items.map((i) => [i.itemId, stillHeld(later, 40, i)]))).toEqual({
      'workspace-user-2': false,
      'workspace-team-30': true,
      'team-member-30-3': false,
      'admin-1': false,
      'company-role-2-20': true,
      'workspace-role-3-21': true,
    });
    const gone = foldAccess(1, [...history, e('WorkspaceDeleted', { workspaceId: 40 }), e('RoleDeleted', { roleId: 20 })]);
    expect(items.filter((i) => stillHeld(gone, 40, i)).map((i) => i.itemId)).toEqual(['team-member-30-3', 'admin-1']);
  });
});
