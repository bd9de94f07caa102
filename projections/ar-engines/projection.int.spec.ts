import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { arEnginesProjection } from './projection.js';
import { activeEngineByTokenHash, findEngine, listEngines } from './queries.js';

const E1 = '00000000-0000-4000-8000-0000000000d1';
const scope = { companyId: 1, workspaceId: 1 };
const registered = { type: 'EngineRegistered', payload: { engineId: E1, name: 'Runner', labels: ['linux'], tokenHash: 'h1', tokenPrefix: 'are_ab', registeredBy: 3, companyId: 1, workspaceId: 1 } };
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(arEnginesProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('ar-engines read model', () => {
  it('given an engine registered (before sign-in methods were recorded), lists it in its workspace as made from a password sign-in and finds it by its token hash', async () => {
    await spec.given(registered);
    expect(await findEngine(spec.db, scope, E1)).toEqual({
      id: E1, name: 'Runner', labels: ['linux'], tokenPrefix: 'are_ab', registeredBy: 3, workspaceId: 1, createdAt: SPEC_TIME, tokenRotatedAt: null, revokedAt: null, revoked: false, signIn: 'password',
    });
    expect((await listEngines(spec.db, { companyId: 1, workspaceId: 2 }, { page: 0, size: 10 })).totalElements).toBe(0);
    expect(await activeEngineByTokenHash(spec.db, 'h1')).toMatchObject({ engineId: E1, registeredBy: 3, companyId: 1, workspaceId: 1, signIn: 'password' });
  });

  it('given a token rotation by someone signed in through the provider, only the new hash finds the engine, and its token counts as made through single sign-on', async () => {
    await spec.given(registered, { type: 'EngineTokenRotated', payload: { engineId: E1, tokenHash: 'h2', tokenPrefix: 'are_cd', signIn: 'sso' }, metadata: { occurredAt: '2026-03-01T00:00:00.000Z' } });
    expect(await activeEngineByTokenHash(spec.db, 'h1')).toBeNull();
    expect((await activeEngineByTokenHash(spec.db, 'h2'))?.engineId).toBe(E1);
    expect(await findEngine(spec.db, scope, E1)).toMatchObject({ tokenPrefix: 'are_cd', tokenRotatedAt: '2026-03-01T00:00:00.000Z', signIn: 'sso' });
    expect(await activeEngineByTokenHash(spec.db, 'h2')).toMatchObject({ signIn: 'sso' });
  });

  it('given a revocation (twice), the engine is revoked at the first time and its token finds nothing', async () => {
    await spec.given(registered, { type: 'EngineRevoked', payload: { engineId: E1 } }, { type: 'EngineRevoked', payload: { engineId: E1 }, metadata: { occurredAt: '2027-01-01T00:00:00.000Z' } });
    expect(await findEngine(spec.db, scope, E1)).toMatchObject({ revoked: true, revokedAt: SPEC_TIME });
    expect(await activeEngineByTokenHash(spec.db, 'h1')).toBeNull();
  });
});
