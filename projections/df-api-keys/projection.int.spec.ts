import { describeRevocableKeysContract } from '../revocable-keys.contract.js';
import { dfApiKeysProjection } from './projection.js';
import { activeKeyByHash, findApiKey, listApiKeys } from './queries.js';

// One definition with the health-check keys (projections/revocable-keys.ts): the shared contract, on this table.
describeRevocableKeysContract({ projection: dfApiKeysProjection, created: 'DfApiKeyCreated', revoked: 'DfApiKeyRevoked', list: listApiKeys, find: findApiKey, active: activeKeyByHash });
