import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { healthcheckApiKeyDecider } from './decide.js';

const spec = deciderSpec(healthcheckApiKeyDecider);
const created = { keyId: 'k-1', name: 'CI', keyHash: 'h', prefix: 'hck_abcd', userId: 1, companyId: 1, workspaceId: 1 };
const createdEvent = { type: 'HealthcheckApiKeyCreated' as const, payload: created };
const revokedEvent = { type: 'HealthcheckApiKeyRevoked' as const, payload: { keyId: 'k-1' } };

describe('health-check API key decider', () => {
  it('given nothing, when a key is created, then it is created', () => {
    spec.given([]).when({ type: 'CreateHealthcheckApiKey', ...created }).then([createdEvent]);
  });
  it('given a key, when it is created again, then it is refused', () => {
    spec.given([createdEvent]).when({ type: 'CreateHealthcheckApiKey', ...created }).thenRefused('ALREADY_EXISTS');
  });
  it('given a live key, when it is revoked, then it is revoked', () => {
    spec.given([createdEvent]).when({ type: 'RevokeHealthcheckApiKey', keyId: 'k-1' }).then([revokedEvent]);
  });
  it('given a revoked key, when it is revoked again, then nothing happens', () => {
    spec.given([createdEvent, revokedEvent]).when({ type: 'RevokeHealthcheckApiKey', keyId: 'k-1' }).then([]);
  });
  it('given no key, when it is revoked, then it is not found', () => {
    spec.given([]).when({ type: 'RevokeHealthcheckApiKey', keyId: 'k-1' }).thenRefused('NOT_FOUND');
  });
});
