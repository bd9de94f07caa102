import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { tmtMockServicesProjection } from './projection.js';
import { findMockService, findMockServiceByPublicId, listMockServices } from './queries.js';

const M1 = '00000000-0000-4000-8000-0000000000c1';
const route = { method: 'GET', path: '/hello', status: 200, headers: { 'content-type': 'text/plain' }, body: 'hi', delayMs: 0 };
const scope = { companyId: 1, workspaceId: 1 };
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtMockServicesProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const created = { type: 'MockServiceCreated', payload: { mockId: M1, companyId: 1, workspaceId: 1, publicId: 'pub1', enabled: true, createdBy: 4, name: 'Pay', module: 'payments', routes: [route] } };

describe('tmt-mock-services read model', () => {
  it('given a mock service created, finds it by id in its workspace and by its public id', async () => {
    await spec.given(created);
    expect(await findMockService(spec.db, scope, M1)).toMatchObject({ publicId: 'pub1', name: 'Pay', module: 'payments', routes: [route], enabled: true, createdBy: 4 });
    expect((await findMockServiceByPublicId(spec.db, 'pub1'))?.id).toBe(M1);
    expect(await findMockService(spec.db, { companyId: 2, workspaceId: 1 }, M1)).toBeNull();
    expect((await listMockServices(spec.db, scope, { page: 0, size: 10, module: 'other' })).totalElements).toBe(0);
  });

  it('given a redefinition and a disable, holds the new routes and is disabled; enabling turns it back on', async () => {
    const routes = [{ ...route, path: '/bye', status: 201 }];
    await spec.given(created, { type: 'MockServiceRedefined', payload: { mockId: M1, name: 'Pay2', module: 'payments', routes } }, { type: 'MockServiceDisabled', payload: { mockId: M1 } });
    expect(await findMockService(spec.db, scope, M1)).toMatchObject({ name: 'Pay2', routes, enabled: false });
    await spec.given({ type: 'MockServiceEnabled', payload: { mockId: M1 } });
    expect((await findMockService(spec.db, scope, M1))?.enabled).toBe(true);
  });

  it('given a deletion, the public id answers nothing', async () => {
    await spec.given(created, { type: 'MockServiceDeleted', payload: { mockId: M1, name: 'Pay' } });
    expect(await findMockServiceByPublicId(spec.db, 'pub1')).toBeNull();
  });
});
