import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgScimProjection } from './projection.js';
import { activeScimToken, findScimToken, listScimTokens } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgScimProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const T1 = '00000000-0000-4000-8000-000000000001';
const T2 = '00000000-0000-4000-8000-000000000002';
const hash = (c: string) => c.repeat(64);
/** A token as recorded before its creator's sign-in method was kept (`signIn` absent: a password sign-in), or with it. */
const created = (tokenId: string, companyId: number, h: string, name = 'Okta', signIn?: 'password' | 'sso') => ({
  type: 'ScimTokenCreated',
  payload: { tokenId, companyId, name, tokenHash: h, prefix: 'scim_ab', createdBy: 7, roleIds: [3, 4], ...(signIn ? { signIn } : {}) },
});
const LATER = '2027-01-01T00:00:00.000Z';

describe('org-scim read model', () => {
  it('given a token created, lists it for its company without its hash and resolves the hash to the company and roles it provisions', async () => {
    await spec.given(created(T1, 1, hash('a')), created(T2, 2, hash('b'), 'Entra', 'sso'));
    expect(await listScimTokens(spec.db, 1)).toEqual([{ id: T1, name: 'Okta', prefix: 'scim_ab', createdBy: 7, roleIds: [3, 4], createdAt: SPEC_TIME, revokedAt: null, signIn: 'password' }]);
    expect(await activeScimToken(spec.db, hash('a'))).toEqual({ tokenId: T1, companyId: 1, roleIds: [3, 4], createdBy: 7, signIn: 'password' });
    expect(await activeScimToken(spec.db, hash('b'))).toMatchObject({ tokenId: T2, signIn: 'sso' });
    // Another company's token is not found through this one.
    expect(await findScimToken(spec.db, 1, T2)).toBeNull();
    expect(await findScimToken(spec.db, 2, T2)).toMatchObject({ name: 'Entra' });
  });

  it('given a revocation, the hash resolves to nothing, the token stays listed, and a second revocation keeps the first time', async () => {
    await spec.given(
      created(T1, 1, hash('a')),
      { type: 'ScimTokenRevoked', payload: { tokenId: T1, revokedBy: 7 } },
      { type: 'ScimTokenRevoked', payload: { tokenId: T1, revokedBy: 8 }, metadata: { occurredAt: LATER } },
    );
    expect(await activeScimToken(spec.db, hash('a'))).toBeNull();
    expect(await findScimToken(spec.db, 1, T1)).toMatchObject({ revokedAt: SPEC_TIME });
    expect(await spec.rows('SELECT revoked_by FROM org_scim_tokens')).toEqual([{ revoked_by: 7 }]);
  });

  it('given the same events replayed, the rows are the same', async () => {
    const events = await spec.given(created(T1, 1, hash('a')), { type: 'ScimTokenRevoked', payload: { tokenId: T1, revokedBy: 7 } });
    await spec.replay(events);
    expect(await listScimTokens(spec.db, 1)).toEqual([{ id: T1, name: 'Okta', prefix: 'scim_ab', createdBy: 7, roleIds: [3, 4], createdAt: SPEC_TIME, revokedAt: SPEC_TIME, signIn: 'password' }]);
  });

  it('refuses a payload its contract does not allow', async () => {
    await expect(spec.given({ type: 'ScimTokenCreated', payload: { ...created(T1, 1, hash('a')).payload, tokenHash: 'short' } })).rejects.toThrow();
    expect(await listScimTokens(spec.db, 1)).toEqual([]);
  });
});
