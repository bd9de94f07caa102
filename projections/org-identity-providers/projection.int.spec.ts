import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgIdentityProvidersProjection } from './projection.js';
import { companyProvidersForDomain, findEnabledIdentityProvider, getIdentityProvider, listIdentityProviders, liveIdentityProviderIds } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgIdentityProvidersProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const LATER = '2027-01-01T00:00:00.000Z';
const config = { issuer: 'https://idp.example.com', clientId: 'qa', clientSecret: 's3cret' };
const mappings = [{ group: 'qa', roleIds: [3], teamIds: [], workspaceIds: [1] }];
const settings = { name: 'Okta', enabled: true, domains: ['example.com'], enforce: false, jitProvisioning: true, mappings, config };
const created = (providerId: number, companyId: number, extra: Partial<typeof settings> = {}) => ({
  type: 'IdentityProviderCreated',
  payload: { providerId, companyId, type: 'oidc', ...settings, ...extra },
});

describe('org-identity-providers read model', () => {
  it('given providers created, each company lists its own with their settings and secrets, and a domain finds the enabled ones that list it', async () => {
    await spec.given(created(1, 1), created(2, 1, { name: 'Off', enabled: false }), created(3, 2, { name: 'Other' }));
    expect(await listIdentityProviders(spec.db, 1)).toEqual([
      { id: 1, companyId: 1, type: 'oidc', ...settings, createdAt: SPEC_TIME, updatedAt: SPEC_TIME },
      { id: 2, companyId: 1, type: 'oidc', ...settings, name: 'Off', enabled: false, createdAt: SPEC_TIME, updatedAt: SPEC_TIME },
    ]);
    expect(await getIdentityProvider(spec.db, 1, 3)).toBeNull();
    expect((await companyProvidersForDomain(spec.db, 1, 'example.com')).map((p) => p.id)).toEqual([1]);
    expect(await companyProvidersForDomain(spec.db, 1, 'elsewhere.com')).toEqual([]);
    expect(await findEnabledIdentityProvider(spec.db, 2)).toBeNull();
  });

  it('given a change, the provider takes the new settings whole and its update time', async () => {
    const changed = { ...settings, name: 'Okta SSO', enabled: false, domains: ['example.org'], enforce: true, mappings: [], config: { ...config, clientId: 'qa2' } };
    await spec.given(created(1, 1), { type: 'IdentityProviderChanged', payload: { providerId: 1, ...changed }, metadata: { occurredAt: LATER } });
    expect(await getIdentityProvider(spec.db, 1, 1)).toEqual({ id: 1, companyId: 1, type: 'oidc', ...changed, createdAt: SPEC_TIME, updatedAt: LATER });
    expect(await findEnabledIdentityProvider(spec.db, 1)).toBeNull();
  });

  it('given a deletion, the provider leaves every list and look-up, and a replay changes nothing', async () => {
    const events = await spec.given(created(1, 1), created(2, 1, { name: 'Kept' }), { type: 'IdentityProviderDeleted', payload: { providerId: 1, name: 'Okta' } });
    await spec.replay(events);
    expect((await listIdentityProviders(spec.db, 1)).map((p) => p.name)).toEqual(['Kept']);
    expect(await getIdentityProvider(spec.db, 1, 1)).toBeNull();
    expect(await findEnabledIdentityProvider(spec.db, 1)).toBeNull();
    expect(await liveIdentityProviderIds(spec.db)).toEqual([{ id: 2, companyId: 1 }]);
    expect(await spec.rows('SELECT deleted_at FROM org_identity_providers WHERE id = 1')).toEqual([{ deleted_at: new Date(SPEC_TIME) }]);
  });
});
