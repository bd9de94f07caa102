import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { orgWebhooksProjection } from './projection.js';
import { allLiveWebhooks, findWebhook, getWebhook, listWebhooks, webhooksFor } from './queries.js';

const created = (webhookId: number, workspaceId: number, events: string[], companyId = 1) => ({
  type: 'WebhookCreated',
  payload: { webhookId, companyId, workspaceId, url: `https://hooks.test/${webhookId}`, events, enabled: true, secret: `whsec_${webhookId}`, createdBy: 3 },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(orgWebhooksProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('org-webhooks read model', () => {
  it("given endpoints of two workspaces and two companies, each workspace lists its own and an event finds only its workspace's subscribers", async () => {
    await spec.given(created(1, 10, ['session.ended']), created(2, 11, ['session.ended', 'host.lost']), created(3, 20, ['session.ended'], 2));
    expect((await listWebhooks(spec.db, 1, 10)).map((w) => w.id)).toEqual([1]);
    expect(await getWebhook(spec.db, 1, 10, 2)).toBeNull();
    expect(await getWebhook(spec.db, 2, 10, 1)).toBeNull();
    expect(await getWebhook(spec.db, 1, 10, 1)).toEqual({
      id: 1, companyId: 1, workspaceId: 10, url: 'https://hooks.test/1', events: ['session.ended'], enabled: true, secret: 'whsec_1', createdBy: 3, createdAt: SPEC_TIME, disabledReason: null,
      previousSecret: null, previousSecretUntil: null,
    });
    expect((await webhooksFor(spec.db, 1, [10], 'session.ended')).map((w) => w.id)).toEqual([1]);
    expect((await webhooksFor(spec.db, 1, null, 'session.ended')).map((w) => w.id)).toEqual([1, 2]);
    expect((await webhooksFor(spec.db, 1, null, 'host.lost')).map((w) => w.id)).toEqual([2]);
  });

  it('given rotations, the replaced secret is kept with the end of its overlap; a second rotation replaces it', async () => {
    const rotated = (secret: string, overlapEndsAt: string) => ({ type: 'WebhookSecretRotated', payload: { webhookId: 1, secret, overlapEndsAt } });
    await spec.given(created(1, 10, ['session.ended']), rotated('whsec_2', '2026-03-02T10:00:00.000Z'));
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ secret: 'whsec_2', previousSecret: 'whsec_1', previousSecretUntil: '2026-03-02T10:00:00.000Z' });
    await spec.given(rotated('whsec_3', '2026-03-03T10:00:00.000Z'));
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ secret: 'whsec_3', previousSecret: 'whsec_2', previousSecretUntil: '2026-03-03T10:00:00.000Z' });
  });

  it('given the secrets sealed again, both are replaced as the event carries them; the end of the overlap stays', async () => {
    const rotated = { type: 'WebhookSecretRotated', payload: { webhookId: 1, secret: 'whsec_2', overlapEndsAt: '2026-03-02T10:00:00.000Z' } };
    const resealed = (secret: string, previousSecret: string | null) => ({ type: 'WebhookSecretResealed', payload: { webhookId: 1, secret, previousSecret } });
    await spec.given(created(1, 10, ['session.ended']), rotated, resealed('sealed:v1:k2:two', 'sealed:v1:k2:one'));
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ secret: 'sealed:v1:k2:two', previousSecret: 'sealed:v1:k2:one', previousSecretUntil: '2026-03-02T10:00:00.000Z' });
    await spec.given(resealed('sealed:v1:k3:two', null));
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ secret: 'sealed:v1:k3:two', previousSecret: null });
    expect(JSON.stringify(await allLiveWebhooks(spec.db))).not.toContain('whsec_');
  });

  it('given a change, a disabling and an enabling, the row follows; a disabled or deleted endpoint hears nothing', async () => {
    await spec.given(created(1, 10, ['session.ended']), { type: 'WebhookChanged', payload: { webhookId: 1, events: ['session.ended', 'reservation.ended'] } });
    expect((await getWebhook(spec.db, 1, 10, 1))?.events).toEqual(['session.ended', 'reservation.ended']);
    await spec.given({ type: 'WebhookDisabled', payload: { webhookId: 1, reason: 'failing' } });
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ enabled: false, disabledReason: 'failing' });
    expect(await webhooksFor(spec.db, 1, [10], 'session.ended')).toEqual([]);
    await spec.given({ type: 'WebhookChanged', payload: { webhookId: 1, enabled: true } });
    expect(await getWebhook(spec.db, 1, 10, 1)).toMatchObject({ enabled: true, disabledReason: null });
    await spec.given({ type: 'WebhookDeleted', payload: { webhookId: 1, url: 'https://hooks.test/1' } });
    expect(await listWebhooks(spec.db, 1, 10)).toEqual([]);
    expect(await webhooksFor(spec.db, 1, [10], 'session.ended')).toEqual([]);
    expect((await findWebhook(spec.db, 1))?.deleted).toBe(true);
  });
});
