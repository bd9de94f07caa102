import { describeRevocableKeysContract } from '../revocable-keys.contract.js';
import { hcApiKeysProjection } from './projection.js';
import { activeHcApiKeyByHash, findHcApiKey, listHcApiKeys } from './queries.js';

// One definition with the device-testing keys (projections/revocable-keys.ts): the shared contract, on this table.
describeRevocableKeysContract({
  projection: hcApiKeysProjection,
  created: 'HealthcheckApiKeyCreated',
  revoked: 'HealthcheckApiKeyRevoked',
  list: listHcApiKeys,
  find: findHcApiKey,
  active: activeHcApiKeyByHash,
});
