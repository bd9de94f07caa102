import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { dfSessionSharingProjection } from './projection.js';
import { accessWithdrawn, findInvitation, holdersOf, invitationByTokenHash, listInvitations, sharedAccess } from './queries.js';

const S1 = 'sess-1';
const base = { sessionId: S1, companyId: 1, workspaceId: 1, createdBy: 7 };
const link = {
  type: 'DeviceSessionInvitationCreated',
  payload: { ...base, invitationId: 'l-1', type: 'link', access: 'control', userId: null, email: null, tokenHash: 'hash-l', expiresAt: '2026-01-03T00:00:00.000Z', maxUses: 3 },
};
const forUser = {
  type: 'DeviceSessionInvitationCreated',
  payload: { ...base, invitationId: 'u-1', type: 'user', access: 'view', userId: 9, email: 'nine@x.test', tokenHash: 'hash-u', expiresAt: '2026-01-09T00:00:00.000Z', maxUses: null },
};
const accepted = (invitationId: string, userId: number, access: string, uses: number) => ({
  type: 'DeviceSessionInvitationAccepted',
  payload: { sessionId: S1, invitationId, userId, access, uses },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfSessionSharingProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-session-sharing read model', () => {
  it('given a link and a user invitation, lists each by type, finds them by token hash, never shows the hash', async () => {
    await spec.given(link, forUser);
    expect(await listInvitations(spec.db, S1, 'link')).toEqual([
      { id: 'l-1', type: 'link', access: 'control', userId: null, email: null, expiresAt: '2026-01-03T00:00:00.000Z', maxUses: 3, uses: 0, createdAt: SPEC_TIME, createdBy: 7, revokedAt: null },
    ]);
    expect((await listInvitations(spec.db, S1, 'user')).map((i) => [i.id, i.userId, i.email, i.maxUses])).toEqual([['u-1', 9, 'nine@x.test', null]]);
    expect(await invitationByTokenHash(spec.db, 'hash-u')).toMatchObject({ id: 'u-1', sessionId: S1, companyId: 1, workspaceId: 1 });
    expect(await invitationByTokenHash(spec.db, 'nope')).toBeNull();
    expect(JSON.stringify(await listInvitations(spec.db, S1, 'link'))).not.toContain('hash-l');
  });

  it('given acceptances, counts uses and grants the strongest access; revoking an invitation takes its grants away', async () => {
    await spec.given(link, forUser, accepted('u-1', 9, 'view', 1), accepted('l-1', 9, 'control', 1), accepted('l-1', 10, 'control', 2));
    expect(await sharedAccess(spec.db, S1, 9)).toBe('control');
    expect(await sharedAccess(spec.db, S1, 11)).toBeNull();
    expect((await findInvitation(spec.db, S1, 'l-1', 'link'))?.uses).toBe(2);
    expect((await holdersOf(spec.db, 'l-1')).sort((a, b) => a - b)).toEqual([9, 10]);
    await spec.given({ type: 'DeviceSessionInvitationRevoked', payload: { sessionId: S1, invitationId: 'l-1' }, metadata: { occurredAt: '2026-01-02T05:00:00.000Z' } });
    expect(await sharedAccess(spec.db, S1, 9)).toBe('view');
    expect(await sharedAccess(spec.db, S1, 10)).toBeNull();
    expect(await listInvitations(spec.db, S1, 'link')).toEqual([]);
    expect(await findInvitation(spec.db, S1, 'l-1', 'link')).toMatchObject({ revokedAt: '2026-01-02T05:00:00.000Z' });
  });

  it('given a disconnected viewer, withdraws their access until a user invitation names them again', async () => {
    await spec.given(link, accepted('l-1', 9, 'control', 1), { type: 'DeviceSessionViewerDisconnected', payload: { sessionId: S1, userId: 9 }, metadata: { actorId: 7 } });
    expect(await sharedAccess(spec.db, S1, 9)).toBeNull();
    expect(await accessWithdrawn(spec.db, S1, 9)).toBe(true);
    expect(await spec.rows('SELECT withdrawn_by FROM df_session_withdrawals')).toEqual([{ withdrawn_by: 7 }]);
    await spec.given(forUser);
    expect(await accessWithdrawn(spec.db, S1, 9)).toBe(false);
  });

  it('applies a replayed batch without counting anything twice', async () => {
    const recorded = await spec.given(link, accepted('l-1', 9, 'control', 1));
    await spec.replay(recorded);
    expect((await findInvitation(spec.db, S1, 'l-1', 'link'))?.uses).toBe(1);
    expect(await spec.rows('SELECT user_id FROM df_session_grants')).toEqual([{ user_id: 9 }]);
  });
});
