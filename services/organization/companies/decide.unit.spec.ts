import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { companyDecider } from './decide.js';

describe('company decider', () => {
  const spec = deciderSpec(companyDecider);
  const registered = { type: 'CompanyRegistered' as const, payload: { companyId: 4, name: 'Acme' } };

  it('registers a company with its name', () => {
    spec.given([]).when({ type: 'RegisterCompany', companyId: 4, name: 'Acme' }).then([registered]);
  });

  it('refuses to register a company twice, under the same name or another', () => {
    spec.given([registered]).when({ type: 'RegisterCompany', companyId: 4, name: 'Acme' }).thenRefused('ALREADY_EXISTS');
    spec.given([registered]).when({ type: 'RegisterCompany', companyId: 4, name: 'Other' }).thenRefused('ALREADY_EXISTS');
  });
});
