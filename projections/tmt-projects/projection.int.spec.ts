import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { tmtProjectsProjection } from './projection.js';
import { findProject, listProjects } from './queries.js';

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const created = (projectId: string, workspaceId = 1, key = 'AB') => ({
  type: 'ProjectCreated',
  payload: { projectId, companyId: 1, workspaceId, name: `Project ${key}`, key, description: 'd' },
  metadata: { workspaceId },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtProjectsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('tmt-projects read model', () => {
  it('given a project created, lists it in its workspace only, with its creator and time', async () => {
    await spec.given(created(P1, 1), created(P2, 2, 'CD'));
    const page = await listProjects(spec.db, { companyId: 1, workspaceId: 1 }, { offset: 0, limit: 10 });
    expect(page).toEqual({ total: 1, items: [{ id: P1, name: 'Project AB', key: 'AB', description: 'd', createdAt: SPEC_TIME, updatedAt: SPEC_TIME }] });
    expect(await findProject(spec.db, { companyId: 2, workspaceId: 1 }, P1)).toBeNull();
    expect(await spec.rows('SELECT created_by FROM tmt_projects WHERE project_id = $1', [P1])).toEqual([{ created_by: '1' }]);
  });

  it('given an update of some fields, changes those and keeps the others', async () => {
    await spec.given(created(P1), { type: 'ProjectUpdated', payload: { projectId: P1, changes: { name: 'Renamed' } }, metadata: { occurredAt: '2026-02-01T00:00:00.000Z' } });
    expect(await findProject(spec.db, { companyId: 1, workspaceId: 1 }, P1)).toMatchObject({ name: 'Renamed', key: 'AB', description: 'd', updatedAt: '2026-02-01T00:00:00.000Z' });
  });

  it('given a deletion, the project is gone; replaying the creation again changes nothing twice', async () => {
    const [first] = await spec.given(created(P1));
    await spec.replay([first!]);
    expect((await listProjects(spec.db, { companyId: 1, workspaceId: 1 }, { offset: 0, limit: 10 })).total).toBe(1);
    await spec.given({ type: 'ProjectDeleted', payload: { projectId: P1 } });
    expect(await findProject(spec.db, { companyId: 1, workspaceId: 1 }, P1)).toBeNull();
  });
});
