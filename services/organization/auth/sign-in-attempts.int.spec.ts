import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgDirectoryProjection } from '#projections/org-directory/index.js';
import { userSignInStream } from '#events/organization/users.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore, type EventStore } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { SignInSessions } from './sessions.js';
import { SignInAttempts } from './sign-in-attempts.js';

/** Password and provider sign-ins recorded by the one record, on a real event store. */
let db: Database;
let store: EventStore;
let attempts: SignInAttempts;
let sessions: SignInSessions;

const client = { address: '10.0.0.7', userAgent: 'curl/8', requestId: 'req-1' };
const ldap = { id: 4, type: 'ldap', name: 'Corp directory' } as const;

beforeAll(async () => {
  db = await openPglite();
  await db.exec(orgDirectoryProjection.schema);
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
  const platform = { db, store, now: () => new Date('2026-03-01T10:00:00Z'), config: { REFRESH_TOKEN_TTL: 60_000 } } as unknown as Platform;
  // Recording touches neither refresh tokens nor revocations.
  sessions = new SignInSessions(platform, {} as never, {} as never);
  attempts = new SignInAttempts(platform, sessions);
});
afterAll(async () => {
  await store?.close();
  await db?.close();
});

const recorded = async (userId: number) => (await store.readStream(userSignInStream(userId))).map((e) => ({ type: e.type, payload: e.payload, correlationId: e.metadata.correlationId, actorId: e.metadata.actorId, companyId: e.metadata.companyId }));

describe('sign-in attempts', () => {
  it('a password failure names no provider; a directory failure names its provider; both correlate with the request', async () => {
    await attempts.record({ method: 'password', who: { user: { id: 1, companyId: 2 } }, failure: 'bad_password', client });
    await attempts.record({ method: 'ldap', provider: ldap, who: { user: { id: 1, companyId: 2 } }, failure: 'inactive', client });
    expect(await recorded(1)).toEqual([
      { type: 'SignInFailed', payload: { userId: 1, address: '10.0.0.7', userAgent: 'curl/8', reason: 'bad_password' }, correlationId: 'req-1', actorId: 1, companyId: 2 },
      { type: 'SignInFailed', payload: { userId: 1, address: '10.0.0.7', userAgent: 'curl/8', reason: 'inactive', provider: ldap }, correlationId: 'req-1', actorId: 1, companyId: 2 },
    ]);
  });

  it('a success is appended with the session it starts, in one append', async () => {
    const started = sessions.startedEvent({ userId: 3, companyId: 2 }, 'fam-1', client, undefined, 'sso');
    await attempts.record({ method: 'sso', provider: { id: 5, type: 'oidc', name: 'Okta' }, who: { user: { id: 3, companyId: 2 } }, failure: null, client }, started);
    const events = await store.readStream(userSignInStream(3));
    expect(events.map((e) => e.type)).toEqual(['SignInSucceeded', 'SignInSessionStarted']);
    expect(events[0]!.payload).toEqual({ userId: 3, address: '10.0.0.7', userAgent: 'curl/8', provider: { id: 5, type: 'oidc', name: 'Okta' } });
    expect(events[1]!.position >> 16n).toBe(events[0]!.position >> 16n);
  });

  it('an address without an account in the company records nothing', async () => {
    const before = (await store.readAll()).length;
    expect(await attempts.record({ method: 'ldap', provider: ldap, who: { email: 'nobody@corp.test', companyId: 2 }, failure: 'bad_password', client })).toBe(false);
    expect((await store.readAll()).length).toBe(before);
  });
});
