import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore, type EventStore } from '#shared/es/index.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { openTestPostgres } from '#test/helpers/postgres.js';
import { accessStateAt } from './reads.js';
import { reviewWorkspace } from './review.js';
import { reviewCsv } from './csv.js';

/*
 * The read and fold behind GET /access-review against the SQL event store, on PGlite and on PostgreSQL:
 * events appended as the deciders record them (companyId in the metadata, so in the company's chain), each
 * at a time of its own; the state at several moments, read in pages of any size, and deletions cascading
 * as the directory does.
 */

type Spec = { db: Database; store: EventStore; close(): Promise<void> };

async function openPostgresSpec(): Promise<Spec> {
  const pg = await openTestPostgres();
  await migrateSqlEventStore(pg.db);
  const store = createSqlEventStore(pg.db);
  return {
    db: pg.db,
    store,
    async close() {
      await store.close();
      await pg.dispose();
    },
  };
}

describe.each(['PGlite', 'PostgreSQL'] as const)('on %s', (backend) => {
  let spec: Spec;
  const T0 = Date.parse('2026-03-01T00:00:00.000Z');
  const HOUR = 3_600_000;
  /** The time of the n-th event appended (n from 0): an hour apart. */
  let n = 0;

  async function append(companyId: number, stream: string, type: string, payload: Record<string, unknown>): Promise<Date> {
    const at = new Date(T0 + n++ * HOUR);
    await spec.store.append(stream, [{ type, payload, metadata: { actorId: 1, companyId, occurredAt: at.toISOString() } }], 'any');
    return at;
  }

  const moments: Date[] = [];

  beforeAll(async () => {
    spec = backend === 'PGlite' ? await openPgliteStore() : await openPostgresSpec();
    const c = 1;
    await append(c, 'role-1', 'RoleCreated', { roleId: 1, companyId: c, name: 'Tester', description: '', permissions: ['TMT_READ'], builtIn: false });
    await append(c, 'workspace-1', 'WorkspaceCreated', { workspaceId: 1, companyId: c, name: 'W', description: '', settings: {}, modules: [] });
    await append(c, 'team-1', 'TeamCreated', { teamId: 1, companyId: c, name: 'T', description: '' });
    await append(c, 'user-1', 'UserInvited', { userId: 1, companyId: c, email: 'a@x.test', username: 'a', roleIds: [1], invitedBy: 9 });
    await append(c, 'user-2', 'UserRegistered', { userId: 2, companyId: c, email: '=b@x.test', username: 'b', name: 'B, "the second"', passwordHash: 'h', isAdmin: false, roles: [] });
    await append(c, 'team-1', 'TeamMemberAdded', { teamId: 1, userId: 2 });
    await append(c, 'workspace-1', 'WorkspaceAccessGranted', { workspaceId: 1, grantee: { kind: 'team', teamId: 1 } });
    await append(c, 'workspace-1', 'WorkspaceAccessGranted', { workspaceId: 1, grantee: { kind: 'user', userId: 1 } });
    moments.push(await append(c, 'workspace-1', 'WorkspaceMemberRolesAssigned', { workspaceId: 1, userId: 2, roleIds: [1] }));
    // Another company's events in between: a workspace with the same id in its payload, and a grant to it.
    await append(2, 'workspace-1', 'WorkspaceAccessGranted', { workspaceId: 1, grantee: { kind: 'user', userId: 77 } });
    await append(2, 'user-77', 'UserRegistered', { userId: 77, companyId: 2, email: 'z@y.test', username: 'z', name: 'Z', passwordHash: 'h', isAdmin: true, roles: [] });
    moments.push(await append(c, 'user-1', 'UserActivated', { userId: 1, name: 'A', passwordHash: 'h' }));
    await append(c, 'role-1', 'RoleDeleted', { roleId: 1, name: 'Tester' });
    moments.push(await append(c, 'team-1', 'TeamDeleted', { teamId: 1, name: 'T' }));
    moments.push(await append(c, 'user-1', 'UserDeleted', { userId: 1, email: 'a@x.test', username: 'a' }));
  });

  afterAll(async () => {
    await spec?.close();
  });

  const people = async (at: Date, pageSize?: number) => {
    const review = reviewWorkspace(await accessStateAt(spec.db, 1, at, pageSize), 1, 'TMT_READ');
    return review && { people: review.people.map((p) => ({ id: p.id, name: p.name, status: p.status, access: p.access.map((a) => a.via), roles: p.roles.map((r) => `${r.scope}:${r.name}`), permissions: p.permissions })), holders: review.permissionKey!.holders.map((h) => h.userId) };
  };

  describe('the state of a company at a moment, from its chain', () => {
    it('before the workspace existed there is no review of it', async () => {
      expect(await people(new Date(T0))).toBeNull();
    });

    it('after the grants: a passive invitee in by a grant, a member in by the team with a member role', async () => {
      expect(await people(moments[0]!)).toEqual({
        people: [
          { id: 1, name: '', status: 'passive', access: ['user'], roles: ['company:Tester'], permissions: ['TMT_READ'] },
          { id: 2, name: 'B, "the second"', status: 'active', access: ['team'], roles: ['workspace:Tester'], permissions: ['TMT_READ'] },
        ],
        holders: [2],
      });
    });

    it("another company's events change nothing; activation makes the invitee a holder", async () => {
      expect(await people(moments[1]!)).toEqual({
        people: [
          { id: 1, name: 'A', status: 'active', access: ['user'], roles: ['company:Tester'], permissions: ['TMT_READ'] },
          { id: 2, name: 'B, "the second"', status: 'active', access: ['team'], roles: ['workspace:Tester'], permissions: ['TMT_READ'] },
        ],
        holders: [1, 2],
      });
    });

    it('a deleted role leaves every holder, a deleted team its grant, a deleted user everything', async () => {
      expect((await people(moments[2]!))!.people).toEqual([{ id: 1, name: 'A', status: 'active', access: ['user'], roles: [], permissions: [] }]);
      expect((await people(moments[3]!))!.people).toEqual([]);
    });

    it('reads the same state in pages of any size', async () => {
      for (const m of moments) for (const size of [1, 2, 3, 5]) expect(await people(m, size)).toEqual(await people(m));
    });

    it('compares times written in another form (an offset, no milliseconds) as times, to the millisecond', async () => {
      const write = (stream: string, type: string, payload: Record<string, unknown>, occurredAt: string) =>
        spec.store.append(stream, [{ type, payload, metadata: { actorId: 1, companyId: 3, occurredAt } }], 'any');
      await write('team-5', 'TeamCreated', { teamId: 5, companyId: 3, name: 'Late', description: '' }, '2026-04-01T10:20:00.000Z');
      await write('workspace-30', 'WorkspaceCreated', { workspaceId: 30, companyId: 3, name: 'Z', description: '', settings: {}, modules: [] }, '2026-04-01T12:00:00+02:00');
      await write('workspace-30', 'WorkspaceAccessGranted', { workspaceId: 30, grantee: { kind: 'team', teamId: 5 } }, '2026-04-01T10:30:00Z');
      const grants = async (at: string) => reviewWorkspace(await accessStateAt(spec.db, 3, new Date(at)), 30)?.grants.teams.map((t) => t.id) ?? null;
      expect(await grants('2026-04-01T09:59:59.999Z')).toBeNull();
      expect(await grants('2026-04-01T10:00:00.000Z')).toEqual([]);
      expect(await grants('2026-04-01T10:29:59.999Z')).toEqual([]);
      expect(await grants('2026-04-01T10:30:00.000Z')).toEqual([5]);
    });

    it('writes CSV cells quoted, and never as a formula', async () => {
      const review = reviewWorkspace(await accessStateAt(spec.db, 1, moments[0]!), 1)!;
      const lines = reviewCsv({ ...review, at: moments[0]!.toISOString() }).split('\r\n');
      expect(lines.find((l) => l.includes(',2,'))).toBe(`${moments[0]!.toISOString()},1,2,"B, ""the second""",'=b@x.test,active,workspace-access,1,T,team,`);
    });
  });
});
