import { z } from 'zod';
import { PROTOCOL_VERSION } from './subjects.js';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/**
 * A fast path's state as its driver last knew it (docs/modules/device-health.md, "Fast paths"): `up`
 * (it worked at its last start or use), `down` (the device should have it but it failed to start or
 * died, `reason` says why) or `unavailable` (the device cannot have it: no build for its ABI or SDK).
 */
export const FastPathState = z.object({ state: z.enum(['up', 'down', 'unavailable']), reason: z.string().max(300).optional() });
export type FastPathState = z.infer<typeof FastPathState>;

/**
 * One reading of a device's health signals (docs/modules/device-health.md); every signal is optional, as
 * a device may lack it. Read by the agent on a schedule and at each session's end.
 */
export const HealthSample = z.object({
  battery: z
    .object({
      level: z.number().int().min(0).max(100),
      charging: z.boolean(),
      temperatureC: z.number().min(-50).max(150).optional(),
      /** Android's `BatteryManager.BATTERY_HEALTH_*` as a word. */
      health: z.enum(['good', 'overheat', 'dead', 'over_voltage', 'failure', 'cold', 'unknown']).optional(),
    })
    .optional(),
  storageFreeMb: z.number().int().min(0).optional(),
  /** Android's thermal status (0 none … 6 shutdown), where the device reports it. */
  thermalStatus: z.number().int().min(0).max(6).optional(),
  airplaneMode: z.boolean().optional(),
  /** The operating system's version as the device gives it at this reading (iOS: lockdown's `ProductVersion`). */
  osVersion: z.string().max(64).optional(),
  /** Whether the device's WebDriverAgent answered its `/status` at this reading (iOS), and why not when it did not. */
  wda: z.object({ answering: z.boolean(), reason: z.string().max(500).optional() }).optional(),
  /** Memory in megabytes (Android: `MemTotal` and, where the kernel gives it, `MemAvailable` of `/proc/meminfo`). */
  memory: z.object({ totalMb: z.number().int().min(0).max(16_777_216), availableMb: z.number().int().min(0).max(16_777_216).optional() }).optional(),
  /** Whether Wi-Fi is switched on, and whether it is connected (its interface holds an IPv4 address). */
  wifi: z.object({ on: z.boolean(), connected: z.boolean() }).optional(),
  /** Whether the lock screen (keyguard) is showing. */
  screenLocked: z.boolean().optional(),
  /** Seconds since the device booted. */
  uptimeS: z.number().int().min(0).max(3_153_600_000).optional(),
  /** Free megabytes of `/sdcard`, only where it differs from the free storage of `/data`. */
  sdcardFreeMb: z.number().int().min(0).max(1_073_741_824).optional(),
  /** How long this reading's device command took, in milliseconds, as the agent measured it. */
  lastCommandMs: z.number().int().min(0).max(3_600_000).optional(),
  /** How many times the device's link (adb transport) went away and came back since its agent started. */
  linkReconnects: z.number().int().min(0).max(1_000_000).optional(),
  /** The fast paths the driver has tried (Android: `screen`, minicap; `touch`, minitouch or the UiAutomator2 server's), each as it last knew it; a path not tried yet is left out. */
  fastPaths: z.object({ screen: FastPathState.optional(), touch: FastPathState.optional() }).optional(),
  checkedAt: z.string().max(40),
});
export type HealthSample = z.infer<typeof HealthSample>;

/** One mending step a host ran on a device (docs/modules/device-health.md, "Mending") and its result. */
export const MendingReport = z.object({
  step: z.enum(['reconnect', 'restart-helpers', 'free-storage', 'reboot']),
  attempt: z.number().int().min(1).max(100),
  result: z.enum(['ok', 'failed', 'skipped']),
  error: z.string().max(500).optional(),
  at: z.string().max(40),
});
export type MendingReport = z.infer<typeof MendingReport>;

/** What the service asks of a host mending a device that is there but unwell (the `mend` operation): the company's rules it mends by. */
export const MendPlan = z.object({
  storageMinMb: z.number().int().min(0).max(1_000_000),
  rebootAllowed: z.boolean(),
  /** Only a fast path is down (storage is fine): its helpers are restarted and nothing more is tried. */
  helpersOnly: z.boolean().optional(),
});

/** A mending's answer: each step run, in order; whether the device is well after them, else what is still wrong. */
export const MendResult = z.object({ mended: z.boolean(), steps: z.array(MendingReport).max(10), trouble: z.string().max(500).optional() });

/** A mending step the host begins (the device shows it while it runs: `reboot` while the reboot is waited out). */
export const MendingStepBegun = z.object({ step: MendingReport.shape.step, at: z.string().max(40) });
export type MendingStepBegun = z.infer<typeof MendingStepBegun>;

/**
 * A device's health reading, one mending step ended (`mending`), or one begun (`mendingStep`), published by
 * its host (`df.agent.<hostId>.health`). A service that does not know `mendingStep` drops it and reads the rest.
 */
export const HealthReport = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  hostId: id,
  deviceId: id,
  sample: HealthSample.optional(),
  mending: MendingReport.optional(),
  mendingStep: MendingStepBegun.optional(),
});
export type HealthReport = z.infer<typeof HealthReport>;

/** What an administrator's re-take of a device's settings baseline keeps: `namespace/key` → value (null: the device has no such setting). */
export const BaselineSettings = z.object({ settings: z.record(z.string(), z.string().nullable()) });
