import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { signInSessionsProjection } from './projection.js';
import { findSignInSession, listActiveSignInSessions, recordSignInSessionUse } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(signInSessionsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const FUTURE = '2099-01-01T00:00:00.000Z';
const NOW = new Date('2026-06-01T00:00:00.000Z');
const started = (sid: string, at: string, userId = 7, expiresAt = FUTURE) => ({
  type: 'SignInSessionStarted',
  payload: { userId, signInSessionId: sid, address: '10.0.0.1', userAgent: `agent ${sid}`, expiresAt },
  metadata: { occurredAt: at },
});
const ids = async (userId = 7) => (await listActiveSignInSessions(spec.db, userId, NOW, 0, 50)).content.map((s) => s.id);

describe('sign-in-sessions read model', () => {
  it('lists the active sessions of a user, the latest used first, without ended, expired or other users’ ones', async () => {
    await spec.given(
      started('a', '2026-01-01T10:00:00.000Z'),
      started('b', '2026-01-01T11:00:00.000Z'),
      started('c', '2026-01-01T12:00:00.000Z'),
      started('old', '2025-01-01T12:00:00.000Z', 7, '2025-02-01T00:00:00.000Z'),
      started('theirs', '2026-01-01T12:00:00.000Z', 8),
      { type: 'SignInSessionEnded', payload: { userId: 7, signInSessionId: 'b', reason: 'logout' }, metadata: { occurredAt: '2026-01-01T13:00:00.000Z' } },
    );
    await recordSignInSessionUse(spec.db, 'a', new Date('2026-01-02T00:00:00.000Z'), '10.0.0.9');
    // An older use never moves the last use back.
    await recordSignInSessionUse(spec.db, 'a', new Date('2026-01-01T23:00:00.000Z'), '10.0.0.8');
    expect(await ids()).toEqual(['a', 'c']);
    const a = (await listActiveSignInSessions(spec.db, 7, NOW, 0, 50)).content[0]!;
    expect(a).toMatchObject({ startedAt: '2026-01-01T10:00:00.000Z', lastUsedAt: '2026-01-02T00:00:00.000Z', lastAddress: '10.0.0.9', address: '10.0.0.1', userAgent: 'agent a' });
    expect(await findSignInSession(spec.db, 7, 'b')).toMatchObject({ endedAt: '2026-01-01T13:00:00.000Z', endReason: 'logout' });
    expect(await findSignInSession(spec.db, 7, 'theirs')).toBeNull();
  });

  it('ends every session started before a sign out everywhere, a password change, deactivation or deletion; later ones go on', async () => {
    await spec.given(
      started('a', '2026-01-01T10:00:00.000Z'),
      { type: 'SignInSessionsEnded', payload: { userId: 7, reason: 'signed_out_everywhere' }, metadata: { occurredAt: '2026-01-01T11:00:00.000Z' } },
      started('b', '2026-01-01T12:00:00.000Z'),
      started('theirs', '2026-01-01T12:00:00.000Z', 8),
    );
    expect(await ids()).toEqual(['b']);
    expect(await findSignInSession(spec.db, 7, 'a')).toMatchObject({ endReason: 'signed_out_everywhere' });
    await spec.given({ type: 'UserPasswordChanged', payload: { userId: 7, passwordHash: 'x', reason: 'self' } });
    expect(await ids()).toEqual([]);
    expect(await findSignInSession(spec.db, 7, 'b')).toMatchObject({ endReason: 'password_changed' });
    expect(await ids(8)).toEqual(['theirs']);
    await spec.given({ type: 'UserDeactivated', payload: { userId: 8 } });
    expect(await findSignInSession(spec.db, 8, 'theirs')).toMatchObject({ endReason: 'deactivated' });
  });

  it('keeps one row per session when events are applied again, and the first end', async () => {
    const events = await spec.given(
      started('a', '2026-01-01T10:00:00.000Z'),
      { type: 'SignInSessionEnded', payload: { userId: 7, signInSessionId: 'a', reason: 'refresh_token_reused' }, metadata: { occurredAt: '2026-01-01T11:00:00.000Z' } },
      { type: 'UserDeleted', payload: { userId: 7, email: 'x@y.z', username: 'x' }, metadata: { occurredAt: '2026-01-01T12:00:00.000Z' } },
    );
    await spec.replay(events);
    expect(await spec.rows('SELECT session_id FROM org_sign_in_sessions')).toHaveLength(1);
    expect(await findSignInSession(spec.db, 7, 'a')).toMatchObject({ endReason: 'refresh_token_reused', endedAt: '2026-01-01T11:00:00.000Z' });
  });
});
