import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/** Defaults new sessions of a workspace take (docs/modules/device-testing.md, "Session defaults"). */
export const SessionDefaults = z.object({
  idleTimeoutSeconds: z.number().int().min(30).max(7 * 86_400),
  maxSessionSeconds: z.number().int().min(60).max(7 * 86_400),
  recordByDefault: z.boolean(),
  /**
   * Automation sessions (WebDriver, the client packages) record even when `recordByDefault` is off, so
   * a failed test's replay shows it; absent (events from before it existed, a PUT without it): on.
   */
  recordAutomation: z.boolean().default(true),
  screenshotFormat: z.enum(['png', 'jpeg']),
  /**
   * Session videos older than this many days (from when each was stored) are removed from the blob
   * store; null (events from before it existed, a PUT without it): kept until the session is deleted.
   */
  videoRetentionDays: z.number().int().min(1).max(3_650).nullable().default(null),
});
export type SessionDefaults = z.output<typeof SessionDefaults>;

/** The plan limits of a company; `null` is no limit (docs/modules/device-testing.md, "Quotas"). */
export const QuotaLimits = z.object({
  concurrentSessions: z.number().int().min(0).nullable(),
  sessionMinutesPerMonth: z.number().int().min(0).nullable(),
  reservationHoursPerMonth: z.number().int().min(0).nullable(),
  storageBytes: z.number().int().min(0).nullable(),
  apiKeys: z.number().int().min(0).nullable(),
});
export type QuotaLimits = z.output<typeof QuotaLimits>;
export const QUOTA_KEYS = Object.keys(QuotaLimits.shape) as (keyof QuotaLimits)[];

/**
 * Fleet settings: a workspace's session defaults (`df-session-defaults-<workspaceId>`) and a company's
 * plan limits (`df-quota-plan-<companyId>`). Each change is an event, so the audit history holds it.
 */
export const fleetEvents = defineEvents({
  DfSessionDefaultsSet: SessionDefaults.extend({ workspaceId: z.number().int(), companyId: z.number().int() }),
  /** `limits` holds only the limits this company has of its own; the others follow the configuration (`DF_QUOTA_*`). */
  DfQuotaPlanSet: z.object({ companyId: z.number().int(), plan: z.string(), limits: QuotaLimits.partial() }),
});
export type FleetEvent = EventOf<typeof fleetEvents>;
export const FLEET_EVENT_TYPES = fleetEvents.types;

export const sessionDefaultsStream = (workspaceId: number) => `df-session-defaults-${workspaceId}`;
export const quotaPlanStream = (companyId: number) => `df-quota-plan-${companyId}`;
