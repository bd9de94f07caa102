import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/**
 * A device's health (docs/modules/device-health.md): `healthy`; `degraded` (usable, warned);
 * `cooling` and `charging` (held until the device recovers by itself); `quarantined` (held until an
 * administrator releases it); `maintenance` (held by an administrator until its end time or until ended).
 */
export const HEALTH_STATES = ['healthy', 'degraded', 'cooling', 'charging', 'quarantined', 'maintenance'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** The states that keep a device out of use: no session, WebDriver session, booking's session or test run gets it. */
export const HELD_HEALTH_STATES = ['cooling', 'charging', 'quarantined', 'maintenance'] as const satisfies readonly HealthState[];
export type HeldHealthState = (typeof HELD_HEALTH_STATES)[number];

/** Whether a health state keeps a device out of use. */
export function isHeldState(state: string | null | undefined): state is HeldHealthState {
  return (HELD_HEALTH_STATES as readonly string[]).includes(state ?? '');
}

export { HealthSample } from '#shared/wire/index.js';

/**
 * The mending steps, in the order they are tried (docs/modules/device-health.md, "Mending"): a lost
 * link is connected again; a device that is there but unwell has its helpers restarted, its storage
 * freed and, where its company's rules allow it, is rebooted.
 */
export const MENDING_STEPS = ['reconnect', 'restart-helpers', 'free-storage', 'reboot'] as const;
export type MendingStep = (typeof MENDING_STEPS)[number];
/** How a mending under way ended (`DeviceMendingEnded`). */
export const MENDING_OUTCOMES = ['mended', 'not-mended', 'refused', 'failed', 'timed-out'] as const;
export type MendingOutcome = (typeof MENDING_OUTCOMES)[number];

/** A mending under way, as the device read model and API show it: since when, until when at most, and the step begun last (null: none said yet). */
export const DeviceMendingRecord = z.object({ since: z.string(), until: z.string(), step: z.enum(MENDING_STEPS).nullable() });
export type DeviceMendingRecord = z.output<typeof DeviceMendingRecord>;

/** Failed mending steps in a row after which the device is quarantined (cause `mending-failed`). */
export const MENDING_FAILURES_TO_QUARANTINE = 3;

/**
 * How a session that ended without its runner's verdict counts as failed for its device
 * (docs/modules/device-health.md, "Failed sessions in a row"): the device broke or lost the session, or
 * the WebDriver session could not be created on it. A session that could not be prepared (`failed`)
 * counts too; ends that say nothing of the device (its user, a time-out, a client gone, a host gone) do not.
 */
export const FAILING_END_REASONS = ['device-error', 'device-reset', 'webdriver-session-failed'] as const;

/** A company's thresholds; each bound is validated where it is set (`PUT /df/api/fleet/health-rules`). */
export const HealthRules = z.object({
  /** Below this level and not charging: `charging` (held until it charges). */
  batteryMinPercent: z.number().int().min(0).max(100),
  /** Above this battery temperature: `cooling` (held until it is 3 °C below). */
  temperatureMaxC: z.number().min(20).max(80),
  /** Below this free storage on `/data`: `degraded`. */
  storageMinMb: z.number().int().min(0).max(1_000_000),
  /** Whether mending may reboot a device (the last step before a quarantine); a reboot ends whatever the device was doing, so only where the company allows it. */
  rebootAllowed: z.boolean().default(false),
  /** After this many sessions in a row failed on a device, it is quarantined (cause `sessions-failed`); 0 (or left out): never. */
  failedSessionsMax: z.number().int().min(0).max(100).default(0),
  /** Whether a fast path down (minicap, the touch path) makes a device `degraded` and has it mended; left out: true. */
  fastPathDownDegrades: z.boolean().default(true),
});
export type HealthRules = z.output<typeof HealthRules>;

/** The rules of a company that set none. */
export const DEFAULT_HEALTH_RULES: HealthRules = { batteryMinPercent: 15, temperatureMaxC: 45, storageMinMb: 500, rebootAllowed: false, failedSessionsMax: 0, fastPathDownDegrades: true };

/** What the device record shows of its health (`health` of a device). */
export const DeviceHealthRecord = z.object({
  state: z.enum(HEALTH_STATES),
  reasons: z.array(z.string()),
  battery: z.object({ level: z.number(), charging: z.boolean(), temperatureC: z.number().optional() }).optional(),
  storageFreeMb: z.number().optional(),
  checkedAt: z.string(),
  /** In maintenance: when it ends by itself. */
  until: z.string().optional(),
});
export type DeviceHealthRecord = z.output<typeof DeviceHealthRecord>;

/**
 * A device's health (`device-health-<deviceId>`) and a company's health rules (`df-health-rules-<companyId>`).
 * Samples themselves are not events (a module table keeps a bounded series); only a change of state is.
 * `cause` says what moved it: a sample, an administrator's maintenance or release, a maintenance's end time, or
 * a clean-device reset after a session that failed (`reset-failed`: quarantined, the failure as its reason), or
 * mending that failed `MENDING_FAILURES_TO_QUARANTINE` steps in a row (`mending-failed`). `DeviceMendingStep`:
 * each mending step and its result; mending that ran out of steps with the device still unwell
 * quarantines it too (`mending-failed`). `sessions-failed`: the company's `failedSessionsMax` sessions in a row
 * failed on the device (quarantined, the count and the last failure as its reason).
 */
export const healthEvents = defineEvents({
  DeviceHealthChanged: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    /** The workspaces the device serves (null: all of its company's), for webhooks. */
    workspaceIds: z.array(z.number().int()).nullable(),
    /** The state before; null for a device's first reading. */
    from: z.enum(HEALTH_STATES).nullable(),
    health: DeviceHealthRecord,
    cause: z.enum(['sample', 'maintenance-started', 'maintenance-ended', 'quarantine-released', 'reset-failed', 'mending-failed', 'sessions-failed']),
    /** While in maintenance: why and until when. */
    maintenance: z.object({ reason: z.string(), until: z.string() }).optional(),
  }),
  /** One mending step the device's host ran (reconnecting its lost link, ...) and its result; `attempt` counts from 1 within a mending. */
  DeviceMendingStep: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    workspaceIds: z.array(z.number().int()).nullable(),
    step: z.enum(MENDING_STEPS),
    attempt: z.number().int().min(1),
    result: z.enum(['ok', 'failed', 'skipped']),
    error: z.string().optional(),
    at: z.string(),
  }),
  /**
   * The service asked the device's host to mend it (docs/modules/device-health.md, "Mending"): from now
   * until `DeviceMendingEnded`, or `until` (the request's time-out) when no end was recorded, the device is
   * `mending` and no allocation hands it out.
   */
  DeviceMendingStarted: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    workspaceIds: z.array(z.number().int()).nullable(),
    /** Only the helpers are restarted (a fast path down, storage fine). */
    helpersOnly: z.boolean(),
    at: z.string(),
    until: z.string(),
  }),
  /** The host began a step of the mending under way (`rebooting` while its reboot is waited out). */
  DeviceMendingStepBegun: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    workspaceIds: z.array(z.number().int()).nullable(),
    step: z.enum(MENDING_STEPS),
    at: z.string(),
  }),
  /**
   * The mending under way is over: the host answered (`mended`, `not-mended`), refused (`refused`: in a
   * session, or a driver that cannot mend), failed to answer (`failed`), or its time-out passed (`timed-out`,
   * also when the process that asked is gone).
   */
  DeviceMendingEnded: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    workspaceIds: z.array(z.number().int()).nullable(),
    outcome: z.enum(MENDING_OUTCOMES),
    at: z.string(),
  }),
  /**
   * An administrator had the device's settings baseline re-taken (what every session's end restores,
   * `agent/android/baseline.ts`): the settings its host read then, `namespace/key` → value (null: unset).
   */
  DeviceBaselineRetaken: z.object({
    deviceId: z.string(),
    companyId: z.number().int().nullable(),
    workspaceIds: z.array(z.number().int()).nullable(),
    settings: z.record(z.string(), z.string().nullable()),
    at: z.string(),
  }),
  DfHealthRulesSet: HealthRules.extend({ companyId: z.number().int() }),
});
export type HealthEvent = EventOf<typeof healthEvents>;
export const HEALTH_EVENT_TYPES = healthEvents.types;
export const deviceHealthStream = (deviceId: string) => `device-health-${deviceId}`;
export const healthRulesStream = (companyId: number) => `df-health-rules-${companyId}`;
