import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { companyDecider } from '../companies/decide.js';
import { workspaceDecider } from './decide.js';

describe('workspace decider', () => {
  const spec = deciderSpec(workspaceDecider);
  const create = {
    type: 'CreateWorkspace' as const,
    workspaceId: 4,
    companyId: 2,
    name: 'Default',
    description: '',
    settings: {},
    modules: ['TMT' as const, 'DF' as const],
  };
  const { type: _t, ...payload } = create;

  it('creates a workspace', () => {
    spec.given([]).when(create).then([{ type: 'WorkspaceCreated', payload }]);
  });

  it('refuses to create it twice', () => {
    spec.given([{ type: 'WorkspaceCreated', payload }]).when(create).thenRefused('ALREADY_EXISTS');
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
