import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dfApiKeysProjection } from './df-api-keys/projection.js';
import { activeKeyByHash as dfActive, findApiKey as dfFind, listApiKeys as dfList } from './df-api-keys/queries.js';
import { hcApiKeysProjection } from './hc-api-keys/projection.js';
import * as hc from './hc-api-keys/queries.js';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from './testing.js';

// The device-testing and health-check API keys are one read-model definition over two tables: the same
// given events must give the same rows in each.
const models = [
  { projection: dfApiKeysProjection, created: 'DfApiKeyCreated', revoked: 'DfApiKeyRevoked', list: dfList, find: dfFind, active: dfActive },
  { projection: hcApiKeysProjection, created: 'HealthcheckApiKeyCreated', revoked: 'HealthcheckApiKeyRevoked', list: hc.listHcApiKeys, find: hc.findHcApiKey, active: hc.activeHcApiKeyByHash },
];

describe.each(models)('$projection.name read model', (m) => {
  const K1 = 'key-1';
  const scope = { companyId: 1, workspaceId: 1 };
  const created = { type: m.created, payload: { keyId: K1, keyHash: 'hash-1', prefix: 'k_ab', name: 'CI', userId: 9, companyId: 1, workspaceId: 1 } };
  let spec: ProjectionSpec;
  beforeAll(async () => (spec = await projectionSpec(m.projection)));
  afterAll(() => spec.close());
  beforeEach(() => spec.reset());

  it('given a key created, lists it in its workspace without its hash and resolves the hash to who it acts for', async () => {
    await spec.given(created);
    // A key made before sign-in methods were recorded counts as made from a password sign-in.
    expect(await m.find(spec.db, scope, K1)).toEqual({ id: K1, name: 'CI', prefix: 'k_ab', createdBy: 9, workspaceId: 1, createdAt: SPEC_TIME, revokedAt: null, revoked: false, signIn: 'password' });
    expect((await m.list(spec.db, { companyId: 2, workspaceId: 1 }, { page: 0, size: 10 })).totalElements).toBe(0);
    expect(await m.active(spec.db, 'hash-1')).toMatchObject({ keyId: K1, userId: 9, companyId: 1, workspaceId: 1 });
  });

  it('given a key made through single sign-on, it says so in its view and its hash look-up', async () => {
    await spec.given({ ...created, payload: { ...created.payload, signIn: 'sso' } });
    expect(await m.find(spec.db, scope, K1)).toMatchObject({ signIn: 'sso' });
    expect(await m.active(spec.db, 'hash-1')).toMatchObject({ keyId: K1, signIn: 'sso' });
  });

  it('given a revocation, the hash resolves to nothing and the first revocation time stays', async () => {
    await spec.given(created, { type: m.revoked, payload: { keyId: K1 } }, { type: m.revoked, payload: { keyId: K1 }, metadata: { occurredAt: '2027-01-01T00:00:00.000Z' } });
    expect(await m.active(spec.db, 'hash-1')).toBeNull();
    expect(await m.find(spec.db, scope, K1)).toMatchObject({ revoked: true, revokedAt: SPEC_TIME });
  });
});
