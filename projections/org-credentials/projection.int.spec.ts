import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgCredentialsProjection } from './projection.js';
import { activeApiKeyByHash, findApiKey, findOAuthClient, listApiKeys, listOAuthClients, oauthClientByClientId, recordCredentialUse } from './queries.js';

const all = { companyId: 1, workspaceId: 1, userId: null };
const key = (keyId: string, userId: number) => ({
  type: 'ApiKeyCreated',
  payload: { keyId, keyHash: `hash-${keyId}`, prefix: 'qak_ab', name: 'CI', scopes: ['read'], userId, companyId: 1, workspaceId: 1 },
});
const client = { type: 'OAuthClientCreated', payload: { id: 'c1', clientId: 'qoc_1', secretHash: 'sh', name: 'Reports', scopes: ['read', 'write'], userId: 3, companyId: 1, workspaceId: 1 } };
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgCredentialsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('org-credentials read model', () => {
  it('given keys of two users, the workspace sees both and a user only their own; the hash resolves to the key', async () => {
    await spec.given(key('k1', 3), key('k2', 4));
    expect((await listApiKeys(spec.db, all)).map((k) => k.id)).toEqual(['k1', 'k2']);
    expect((await listApiKeys(spec.db, { ...all, userId: 4 })).map((k) => k.id)).toEqual(['k2']);
    expect(await findApiKey(spec.db, { ...all, userId: 4 }, 'k1')).toBeNull();
    expect(await findApiKey(spec.db, all, 'k1')).toEqual({ id: 'k1', name: 'CI', prefix: 'qak_ab', scopes: ['read'], workspaceId: 1, createdBy: 3, createdAt: SPEC_TIME, lastUsedAt: null, revokedAt: null, rateLimit: null, signIn: 'password', approved: false });
    expect(await activeApiKeyByHash(spec.db, 'hash-k1')).toMatchObject({ keyId: 'k1', userId: 3, scopes: ['read'] });
  });

  it('given a revocation, the key is listed as revoked and its hash no longer resolves', async () => {
    await spec.given(key('k1', 3), { type: 'ApiKeyRevoked', payload: { keyId: 'k1', revokedBy: 1 } });
    expect((await findApiKey(spec.db, all, 'k1'))?.revokedAt).toBe(SPEC_TIME);
    expect(await activeApiKeyByHash(spec.db, 'hash-k1')).toBeNull();
  });

  it('given an OAuth client, finds it by client id with its last use; deleted, it is gone', async () => {
    await spec.given(client);
    await recordCredentialUse(spec.db, 'c1', new Date('2026-05-05T00:00:00.000Z'));
    expect(await findOAuthClient(spec.db, all, 'c1')).toMatchObject({ clientId: 'qoc_1', scopes: ['read', 'write'], lastUsedAt: '2026-05-05T00:00:00.000Z' });
    expect(await oauthClientByClientId(spec.db, 'qoc_1')).toMatchObject({ id: 'c1', secretHash: 'sh', userId: 3 });
    await spec.given({ type: 'OAuthClientDeleted', payload: { id: 'c1', deletedBy: 1 } });
    expect(await listOAuthClients(spec.db, all)).toEqual([]);
    expect(await oauthClientByClientId(spec.db, 'qoc_1')).toBeNull();
  });
});
