import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/**
 * What a workspace's webhooks can be told, in the platform's words (docs/modules/webhooks.md):
 * a device session ended, a booking starts soon, ended, or has its device in maintenance for part of it, an accessibility export is ready, a test
 * session finished, a test run finished, a health check went down or recovered, a device host was lost,
 * a device's health changed (and, among those changes, it was quarantined or recovered).
 */
export const WEBHOOK_EVENT_NAMES = [
  'session.ended',
  'reservation.starting',
  'reservation.ended',
  'reservation.maintenance_conflict',
  'accessibility.export.ready',
  'test_session.finished',
  'test_run.finished',
  'healthcheck.down',
  'healthcheck.recovered',
  'host.lost',
  'device.health_changed',
  'device.quarantined',
  'device.recovered',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

const id = z.number().int();
const events = z.array(z.enum(WEBHOOK_EVENT_NAMES));

/**
 * Events of the `webhook-<id>` stream: one endpoint of a workspace. The signing secret is part of its
 * creation (and of each rotation) because every delivery signs with it; the audit redacts it, the API
 * shows it only once.
 */
export const webhookEvents = defineEvents({
  WebhookCreated: z.object({ webhookId: id, companyId: id, workspaceId: id, url: z.string(), events, enabled: z.boolean(), secret: z.string(), createdBy: id }),
  WebhookChanged: z.object({ webhookId: id, url: z.string().optional(), events: events.optional(), enabled: z.boolean().optional() }),
  /** Turned off by the platform after its deliveries kept failing. */
  WebhookDisabled: z.object({ webhookId: id, reason: z.string() }),
  WebhookDeleted: z.object({ webhookId: id, url: z.string() }),
  /**
   * A new signing secret; the one it replaces still signs beside it until `overlapEndsAt` (ISO time),
   * so receivers can move to the new one without missing a delivery. The audit redacts the secret.
   */
  WebhookSecretRotated: z.object({ webhookId: id, secret: z.string(), overlapEndsAt: z.string() }),
});
export type WebhookEvent = EventOf<typeof webhookEvents>;
export const webhookStream = (webhookId: number): string => `webhook-${webhookId}`;
