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
 * creation (and of each rotation) because every delivery signs with it, sealed under `SECRETS_KEY`
 * (`sealed:v1:...`, bound to the webhook and the field: docs/operations.md, "Secrets at rest"); events
 * recorded before sealing carry it as it was (`whsec_...`). The audit redacts it, the API shows it only once.
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
  /**
   * The same secrets sealed again under the current key (after a key rotation, or sealed for the first
   * time when recorded before sealing): an event of the platform itself, made at start-up. `previousSecret`
   * is the replaced secret, sealed again while it still signs, null when it no longer does (dropped).
   */
  WebhookSecretResealed: z.object({ webhookId: id, secret: z.string(), previousSecret: z.string().nullable() }),
});
export type WebhookEvent = EventOf<typeof webhookEvents>;
export const webhookStream = (webhookId: number): string => `webhook-${webhookId}`;
