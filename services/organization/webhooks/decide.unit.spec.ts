import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { webhookDecider } from './decide.js';

describe('webhook decider', () => {
  const spec = deciderSpec(webhookDecider);
  const webhook = { webhookId: 7, companyId: 2, workspaceId: 3, url: 'https://hooks.example.test/in', events: ['session.ended' as const], enabled: true, secret: 'whsec_AAAA', createdBy: 5 };
  const created = { type: 'WebhookCreated' as const, payload: webhook };
  const owner = { companyId: 2, workspaceId: 3 };

  it('creates an endpoint once', () => {
    spec.given([]).when({ type: 'CreateWebhook', webhook }).then([created]);
    spec.given([created]).when({ type: 'CreateWebhook', webhook }).thenRefused('ALREADY_EXISTS');
  });

  it('records only what a change changes, and nothing when nothing does', () => {
    spec
      .given([created])
      .when({ type: 'ChangeWebhook', ...owner, changes: { url: webhook.url, events: ['session.ended', 'host.lost'] } })
      .then([{ type: 'WebhookChanged', payload: { webhookId: 7, events: ['session.ended', 'host.lost'] } }]);
    spec.given([created]).when({ type: 'ChangeWebhook', ...owner, changes: { url: webhook.url, enabled: true } }).then([]);
  });

  it('is disabled by the platform once; enabling it again is a change', () => {
    const disabled = { type: 'WebhookDisabled' as const, payload: { webhookId: 7, reason: 'failing' } };
    spec.given([created]).when({ type: 'DisableWebhook', reason: 'failing' }).then([disabled]);
    spec.given([created, disabled]).when({ type: 'DisableWebhook', reason: 'again' }).then([]);
    spec.given([created, disabled]).when({ type: 'ChangeWebhook', ...owner, changes: { enabled: true } }).then([{ type: 'WebhookChanged', payload: { webhookId: 7, enabled: true } }]);
  });

  it("rotates its secret with the overlap's end; another tenant's or a deleted one is not found", () => {
    const rotate = { type: 'RotateWebhookSecret' as const, ...owner, secret: 'whsec_BBBB', overlapEndsAt: '2026-03-02T10:00:00.000Z' };
    spec.given([created]).when(rotate).then([{ type: 'WebhookSecretRotated', payload: { webhookId: 7, secret: 'whsec_BBBB', overlapEndsAt: '2026-03-02T10:00:00.000Z' } }]);
    spec.given([created]).when({ ...rotate, workspaceId: 4 }).thenRefused('NOT_FOUND');
    spec.given([created, { type: 'WebhookDeleted', payload: { webhookId: 7, url: webhook.url } }]).when(rotate).thenRefused('NOT_FOUND');
    spec.given([]).when(rotate).thenRefused('NOT_FOUND');
  });

  it('seals its secrets again as they were read; not after a rotation since, nor once deleted', () => {
    const rotated = { type: 'WebhookSecretRotated' as const, payload: { webhookId: 7, secret: 'sealed:v1:k1:BBBB', overlapEndsAt: '2026-03-02T10:00:00.000Z' } };
    const reseal = { type: 'ResealWebhookSecret' as const, was: { secret: 'sealed:v1:k1:BBBB', previousSecret: 'whsec_AAAA' }, secret: 'sealed:v1:k2:BBBB', previousSecret: 'sealed:v1:k2:AAAA' };
    const resealed = { type: 'WebhookSecretResealed' as const, payload: { webhookId: 7, secret: 'sealed:v1:k2:BBBB', previousSecret: 'sealed:v1:k2:AAAA' } };
    spec.given([created, rotated]).when(reseal).then([resealed]);
    // Read before a rotation that came first: its secret stays.
    spec.given([created, rotated, { ...rotated, payload: { ...rotated.payload, secret: 'sealed:v1:k2:CCCC' } }]).when(reseal).then([]);
    // Sealed again already (by another process): nothing more.
    spec.given([created, rotated, resealed]).when(reseal).then([]);
    spec.given([created]).when({ ...reseal, was: { secret: 'whsec_AAAA', previousSecret: null }, previousSecret: null }).then([{ ...resealed, payload: { ...resealed.payload, previousSecret: null } }]);
    spec.given([created, rotated, { type: 'WebhookDeleted', payload: { webhookId: 7, url: webhook.url } }]).when(reseal).then([]);
  });

  it("is deleted with its URL; another workspace's or company's, or a deleted one, is not found", () => {
    const deleted = { type: 'WebhookDeleted' as const, payload: { webhookId: 7, url: webhook.url } };
    spec.given([created]).when({ type: 'DeleteWebhook', ...owner }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteWebhook', ...owner }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteWebhook', companyId: 2, workspaceId: 4 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'ChangeWebhook', companyId: 9, workspaceId: 3, changes: { enabled: false } }).thenRefused('NOT_FOUND');
  });
});
