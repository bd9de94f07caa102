import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { apiKeyDecider } from './decide.js';

const spec = deciderSpec(apiKeyDecider);
const created = { keyId: 'k-1', name: 'CI', keyHash: 'h', prefix: 'dfk_abcd', userId: 1, companyId: 1, workspaceId: 1 };

describe('API key decider', () => {
  it('creates a key once and revokes it once', () => {
    spec.given([]).when({ type: 'CreateApiKey', ...created }).then([{ type: 'DfApiKeyCreated', payload: created }]);
    spec.given([{ type: 'DfApiKeyCreated', payload: created }]).when({ type: 'RevokeApiKey', keyId: 'k-1' }).then([{ type: 'DfApiKeyRevoked', payload: { keyId: 'k-1' } }]);
    spec.given([{ type: 'DfApiKeyCreated', payload: created }, { type: 'DfApiKeyRevoked', payload: { keyId: 'k-1' } }]).when({ type: 'RevokeApiKey', keyId: 'k-1' }).then([]);
    spec.given([]).when({ type: 'RevokeApiKey', keyId: 'k-1' }).thenRefused('NOT_FOUND');
  });
});
