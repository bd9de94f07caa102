import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { roleDecider } from './decide.js';

describe('role decider', () => {
  const spec = deciderSpec(roleDecider);
  const custom = { roleId: 5, companyId: 2, name: 'Tester', description: '', permissions: ['TMT_WRITE', 'TMT_READ'], builtIn: false };
  const created = { type: 'RoleCreated' as const, payload: { ...custom, permissions: ['TMT_READ', 'TMT_WRITE'] } };
  const builtIn = { type: 'RoleCreated' as const, payload: { ...custom, roleId: 1, name: 'Admin', builtIn: true } };

  it('creates a role with its keys as a sorted set', () => {
    spec.given([]).when({ type: 'CreateRole', ...custom, permissions: ['TMT_WRITE', 'TMT_READ', 'TMT_WRITE'] }).then([created]);
  });

  it('records only what an update changes', () => {
    spec.given([created]).when({ type: 'UpdateRole', companyId: 2, name: 'Tester', permissions: ['TMT_WRITE', 'TMT_READ'] }).then([]);
    spec.given([created]).when({ type: 'UpdateRole', companyId: 2, permissions: ['TMT_READ'] }).then([{ type: 'RoleUpdated', payload: { roleId: 5, permissions: ['TMT_READ'] } }]);
  });

  it('refuses to change or delete a built-in role', () => {
    spec.given([builtIn]).when({ type: 'UpdateRole', companyId: 2, name: 'Boss' }).thenRefused('BUILT_IN_ROLE');
    spec.given([builtIn]).when({ type: 'DeleteRole', companyId: 2 }).thenRefused('BUILT_IN_ROLE');
  });

  it('deletes a custom role, after which it is not found; another company never finds it', () => {
    spec.given([created]).when({ type: 'DeleteRole', companyId: 2 }).then([{ type: 'RoleDeleted', payload: { roleId: 5, name: 'Tester' } }]);
    spec.given([created, { type: 'RoleDeleted', payload: { roleId: 5, name: 'Tester' } }]).when({ type: 'DeleteRole', companyId: 2 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteRole', companyId: 3 }).thenRefused('NOT_FOUND');
  });
});
