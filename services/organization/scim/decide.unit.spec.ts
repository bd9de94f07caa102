import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { scimTokenDecider } from './decide.js';

const spec = deciderSpec(scimTokenDecider);
const tokenId = '0b6f4f0e-2a7d-4c55-8f61-6d1a3e9c2b10';
const token = { tokenId, companyId: 2, name: 'Okta', tokenHash: 'b'.repeat(64), prefix: 'scim_abcdefgh', createdBy: 1, roleIds: [4] };
const created = { type: 'ScimTokenCreated' as const, payload: token };

describe('SCIM token decider', () => {
  it('creates a token once and revokes it once; revoking again changes nothing', () => {
    spec.given([]).when({ type: 'CreateScimToken', ...token }).then([created]);
    spec.given([created]).when({ type: 'CreateScimToken', ...token }).thenRefused('ALREADY_EXISTS');
    spec.given([created]).when({ type: 'RevokeScimToken', companyId: 2, revokedBy: 1 }).then([{ type: 'ScimTokenRevoked', payload: { tokenId, revokedBy: 1 } }]);
    spec.given([created, { type: 'ScimTokenRevoked', payload: { tokenId, revokedBy: 1 } }]).when({ type: 'RevokeScimToken', companyId: 2, revokedBy: 3 }).then([]);
  });

  it("refuses a token that does not exist, and another company's, as not found", () => {
    spec.given([]).when({ type: 'RevokeScimToken', companyId: 2, revokedBy: 1 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'RevokeScimToken', companyId: 9, revokedBy: 1 }).thenRefused('NOT_FOUND');
  });

  it('never records the token itself where its hash belongs', () => {
    expect(() => scimTokenDecider.decide({ type: 'CreateScimToken', ...token, tokenHash: 'scim_the-token' }, scimTokenDecider.initialState())).toThrow();
  });
});
