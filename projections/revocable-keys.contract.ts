import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KeyScope, KeyView, ActiveKey } from './revocable-keys.js';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from './testing.js';
import type { Projection } from './types.js';
import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';

// The device-testing and health-check API keys are one read-model definition (revocable-keys.ts) over two
// tables: each module's spec runs this one contract on its own, so the same given events give the same rows in each.

/** A module's key read model: its projection, its two event types and its queries. */
export interface RevocableKeysModel {
  projection: Projection;
  created: string;
  revoked: string;
  list(db: Sql, scope: KeyScope, paging: { page: number; size: number }): Promise<Page<KeyView>>;
  find(db: Sql, scope: KeyScope, keyId: string): Promise<KeyView | null>;
  active(db: Sql, keyHash: string): Promise<ActiveKey | null>;
}

export function describeRevocableKeysContract(m: RevocableKeysModel): void {
  describe(`${m.projection.name} read model`, () => {
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
}
