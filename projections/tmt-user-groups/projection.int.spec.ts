import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { tmtUserGroupsProjection } from './projection.js';
import { findUserGroup, listUserGroups } from './queries.js';

const G1 = '00000000-0000-4000-8000-0000000000a1';
const G2 = '00000000-0000-4000-8000-0000000000a2';
const created = (groupId: string, name: string, companyId = 1, memberIds = [2]) => ({ type: 'UserGroupCreated', payload: { groupId, companyId, name, description: '', memberIds } });
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtUserGroupsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('tmt-user-groups read model', () => {
  it('given groups of two companies, lists the company’s own by name and finds by member and search', async () => {
    await spec.given(created(G1, 'Testers'), created(G2, 'Admins', 1, [3]), created('00000000-0000-4000-8000-0000000000a3', 'Other', 2));
    const all = await listUserGroups(spec.db, 1, { page: 0, size: 10 });
    expect(all.content.map((g) => g.name)).toEqual(['Admins', 'Testers']);
    expect(all.totalElements).toBe(2);
    expect((await listUserGroups(spec.db, 1, { page: 0, size: 10, memberId: 3 })).content.map((g) => g.id)).toEqual([G2]);
    expect((await listUserGroups(spec.db, 1, { page: 0, size: 10, search: 'TEST' })).content.map((g) => g.id)).toEqual([G1]);
    expect(await findUserGroup(spec.db, 2, G1)).toBeNull();
    expect(await findUserGroup(spec.db, 1, G1)).toMatchObject({ createdBy: 1, createdAt: SPEC_TIME, memberIds: [2] });
  });

  it('given members added (twice) and removed and a rename, keeps each member once and the new name', async () => {
    await spec.given(
      created(G1, 'Testers'),
      { type: 'UserGroupMemberAdded', payload: { groupId: G1, userId: 5 } },
      { type: 'UserGroupMemberAdded', payload: { groupId: G1, userId: 5 } },
      { type: 'UserGroupMemberRemoved', payload: { groupId: G1, userId: 2 } },
      { type: 'UserGroupUpdated', payload: { groupId: G1, name: 'QA' } },
    );
    expect(await findUserGroup(spec.db, 1, G1)).toMatchObject({ name: 'QA', description: '', memberIds: [5] });
  });

  it('given a deletion, the group is gone', async () => {
    await spec.given(created(G1, 'Testers'), { type: 'UserGroupDeleted', payload: { groupId: G1, name: 'Testers' } });
    expect(await findUserGroup(spec.db, 1, G1)).toBeNull();
  });
});
