import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgDirectoryProjection } from '#projections/org-directory/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { commandContext } from '#shared/es/index.js';
import { createSqlEventStore, migrateSqlEventStore, type EventStore } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { emailClaimStream, userStream } from './index.js';
import { registerUser } from './service.js';

/**
 * `registerUser` on a real event store: the address is claimed before anything else is written, so of
 * two creations with one address exactly one person is made and the other leaves nothing behind.
 */
let db: Database;
let store: EventStore;
let platform: Platform;

beforeAll(async () => {
  db = await openPglite();
  await db.exec(orgDirectoryProjection.schema);
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
  // No projection runs here: the directory is empty, so every username is free to claim, and nothing is waited for.
  platform = { db, store, readModels: { waitFor: async () => {} }, now: () => new Date('2026-03-01T10:00:00Z') } as unknown as Platform;
});
afterAll(async () => {
  await store?.close();
  await db?.close();
});

const ctx = () => commandContext(platform, { companyId: 1 });

describe('registerUser', () => {
  it('of two concurrent creations with one address, one makes the person and the other nothing: no user, no username, no company', async () => {
    const madeFor: number[] = [];
    const signUp = (userId: number, email: string) =>
      registerUser(platform, { status: 'active', origin: 'sign-up', companyId: 1, email, name: 'Ada', passwordHash: 'h', roleIds: [] }, ctx(), {
        userId,
        afterClaim: async (id) => {
          madeFor.push(id);
          return { roleIds: [7] };
        },
      });
    const results = await Promise.allSettled([signUp(101, 'race@acme.test'), signUp(102, 'RACE@acme.test')]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : []));
    expect(won).toHaveLength(1);
    expect(lost.map((e) => e.code)).toEqual(['EMAIL_TAKEN']);
    const winner = won[0]!.userId;
    const loser = winner === 101 ? 102 : 101;
    expect(madeFor).toEqual([winner]);
    expect(await store.readStream(userStream(loser))).toEqual([]);
    const claims = await store.readStream(emailClaimStream('race@acme.test'));
    expect(claims.map((e) => [e.type, (e.payload as { userId: number }).userId])).toEqual([['EmailClaimed', winner]]);
    const [registered] = await store.readStream(userStream(winner));
    expect(registered).toMatchObject({ type: 'UserRegistered', payload: { userId: winner, isAdmin: true, roles: ['Admin'], roleIds: [7], username: 'race' } });
    const usernames = (await store.readAll()).filter((e) => e.type === 'NameClaimed');
    expect(usernames.map((e) => (e.payload as { ownerId: number }).ownerId)).toEqual([winner]);
  });

  it('an invitation makes a person without a name or password, with the roles and workspaces it grants on activation', async () => {
    const person = { status: 'invited', origin: 'invitation', companyId: 1, email: 'bob@acme.test', roleIds: [3], invitedBy: 9, workspaceIds: [4] } as const;
    const { userId, username } = await registerUser(platform, person, ctx());
    const events = await store.readStream(userStream(userId));
    expect(events.map((e) => [e.type, e.payload])).toEqual([
      ['UserInvited', { userId, companyId: 1, email: 'bob@acme.test', username, roleIds: [3], invitedBy: 9, workspaceIds: [4] }],
    ]);
  });

  it('a person an identity provider or SCIM vouches for is active, not an administrator, named by their username when nameless, with a password nobody knows', async () => {
    const { userId } = await registerUser(platform, { status: 'active', origin: 'sso', companyId: 1, email: 'cy@acme.test', name: ' ', roleIds: [5] }, ctx());
    const [registered] = await store.readStream(userStream(userId));
    expect(registered).toMatchObject({ type: 'UserRegistered', payload: { name: 'cy', isAdmin: false, roles: [], roleIds: [5] } });
    expect((registered!.payload as { passwordHash: string }).passwordHash).not.toBe('');
    await expect(registerUser(platform, { status: 'active', origin: 'scim', companyId: 1, email: 'CY@acme.test', name: 'Cy', roleIds: [] }, ctx())).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
  });
});
