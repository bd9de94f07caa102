import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, type ProjectionSpec } from '../testing.js';
import { signInLogProjection } from './projection.js';
import { listSignIns } from './queries.js';

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(signInLogProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const attempt = (type: 'SignInSucceeded' | 'SignInFailed', occurredAt: string, extra: object = {}, companyId = 1) => ({
  type,
  payload: { userId: 7, address: '10.0.0.1', userAgent: 'curl/8', ...extra },
  metadata: { occurredAt, companyId },
});

describe('sign-in-log read model', () => {
  it('given successes and failures, lists a user’s attempts in their company newest first, with the failure reason and the provider', async () => {
    await spec.given(
      attempt('SignInFailed', '2026-01-01T10:00:00.000Z', { reason: 'bad_password' }),
      attempt('SignInSucceeded', '2026-01-01T10:01:00.000Z', { provider: { id: 4, type: 'ldap', name: 'Corp Directory' } }),
      attempt('SignInSucceeded', '2026-01-01T10:02:00.000Z', {}, 2),
    );
    const page = await listSignIns(spec.db, 1, 7, 0, 10);
    expect(page.totalElements).toBe(2);
    expect(page.content).toEqual([
      { at: '2026-01-01T10:01:00.000Z', success: true, reason: null, address: '10.0.0.1', userAgent: 'curl/8', provider: { id: 4, type: 'ldap', name: 'Corp Directory' } },
      { at: '2026-01-01T10:00:00.000Z', success: false, reason: 'bad_password', address: '10.0.0.1', userAgent: 'curl/8', provider: null },
    ]);
  });

  it('keeps one row per event when an event is applied again', async () => {
    const events = await spec.given(attempt('SignInSucceeded', '2026-01-01T10:01:00.000Z'));
    await spec.replay(events);
    expect((await listSignIns(spec.db, 1, 7, 0, 10)).totalElements).toBe(1);
  });
});
