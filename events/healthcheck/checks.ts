import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** `new` until the first heartbeat; `up` / `down` by heartbeats and deadlines; `paused` by a user. */
export type CheckStatus = 'new' | 'up' | 'down' | 'paused';

const CheckSettings = {
  name: z.string(),
  description: z.string(),
  intervalSeconds: z.number().int().positive(),
  graceSeconds: z.number().int().nonnegative(),
  tags: z.array(z.string()),
};

export const HealthCheckCreatedPayload = z.object({
  checkId: z.string(),
  ...CheckSettings,
  /** SHA-256 of the push token; the token itself is shown once. */
  tokenHash: z.string(),
  tokenPrefix: z.string(),
  createdBy: z.number().int(),
  ...tenantScope,
});
export const HealthCheckUpdatedPayload = z.object({ checkId: z.string(), ...CheckSettings });
export const HealthCheckTokenRotatedPayload = z.object({ checkId: z.string(), tokenHash: z.string(), tokenPrefix: z.string() });
export const HealthCheckIdPayload = z.object({ checkId: z.string() });
export const HealthCheckWentUpPayload = z.object({ checkId: z.string(), heartbeatAt: z.string() });
export const HealthCheckWentDownPayload = z.object({
  checkId: z.string(),
  /** `overdue`: no heartbeat before the deadline; `failure-reported`: a heartbeat said `fail`. */
  reason: z.enum(['overdue', 'failure-reported']),
  lastHeartbeatAt: z.string().nullable(),
  /** When the check was due at the latest (overdue only). */
  deadline: z.string().nullable(),
  message: z.string().nullable(),
});
export const HealthCheckRecoveredPayload = z.object({ checkId: z.string(), heartbeatAt: z.string(), downSince: z.string().nullable() });

export const healthCheckEvents = defineEvents({
  HealthCheckCreated: HealthCheckCreatedPayload,
  HealthCheckUpdated: HealthCheckUpdatedPayload,
  HealthCheckTokenRotated: HealthCheckTokenRotatedPayload,
  HealthCheckPaused: HealthCheckIdPayload,
  HealthCheckResumed: HealthCheckIdPayload,
  HealthCheckDeleted: HealthCheckIdPayload,
  HealthCheckWentUp: HealthCheckWentUpPayload,
  HealthCheckWentDown: HealthCheckWentDownPayload,
  HealthCheckRecovered: HealthCheckRecoveredPayload,
});
export type HealthCheckEvent = EventOf<typeof healthCheckEvents>;

export const healthCheckStream = (checkId: string) => `hc-check-${checkId}`;
