import { randomUUID } from 'node:crypto';
import { fold } from '#shared/es/index.js';
import { requestDevice, type MendingReport } from '#shared/wire/index.js';
import { deviceHealthStream, isHeldState, type HealthRules, type HealthSample, type MendingOutcome } from '#events/df/health.js';
import type { Platform } from '../../platform.js';
import { deviceHealthDecider, type HealthTenant } from './decide.js';
import { fastPathsDown } from './rules.js';

/** A device mended once is not mended again by its readings for this long (an administrator's release of its quarantine lifts it). */
export const MEND_AGAIN_AFTER_MS = 10 * 60_000;
/**
 * How long the service waits for a host to mend a device: its steps' pauses, minicap's start, and a
 * reboot waited out (the agent's `rebootWaitMs`, 4 minutes at most) — the protocol's longest request.
 */
export const MEND_TIMEOUT_MS = 300_000;
/** A mending under way is over at the latest this long after its start (the request's time-out and a margin), whoever recorded no end. */
export const MENDING_OVER_AFTER_MS = MEND_TIMEOUT_MS + 5_000;

/** What mending writes through the health service: its start and end, each step, and the quarantine of a device mending did not mend. */
export interface MendingHooks {
  /** Records the mending's start (the device `mending` until its end); false when another is under way (nothing is asked then). */
  start(deviceId: string, tenant: HealthTenant, helpersOnly: boolean, until: string): Promise<boolean>;
  end(deviceId: string, tenant: HealthTenant, outcome: MendingOutcome): Promise<void>;
  recordStep(hostId: string, deviceId: string, step: MendingReport): Promise<void>;
  quarantine(deviceId: string, reason: string, tenant: HealthTenant): Promise<void>;
}

/** Why a reading asks for mending: its storage is short (every step), or only a fast path is down (the helpers' restart only); null: it does not. */
export function mendingWanted(sample: HealthSample, rules: HealthRules): { helpersOnly: boolean } | null {
  const storageShort = sample.storageFreeMb !== undefined && sample.storageFreeMb < rules.storageMinMb;
  if (storageShort) return { helpersOnly: false };
  return rules.fastPathDownDegrades && fastPathsDown(sample).length > 0 ? { helpersOnly: true } : null;
}

/**
 * Has a device's host mend it (docs/modules/device-health.md, "Mending"). Free storage below the
 * company's `storageMinMb`: its helpers restarted, its storage freed, a reboot where the rules allow it;
 * only a fast path down: its helpers restarted, nothing more (`helpersOnly`). Each step of the answer is
 * recorded in order (the third failed in a row quarantines it); a mending for storage that ran out of
 * steps with the device still unwell quarantines it too — one for a fast path leaves it `degraded` (its
 * slow path works), to be tried again after the pause. Not while the device is held (a quarantine waits
 * for an administrator), not twice at once, and once per `MEND_AGAIN_AFTER_MS`; a device in a session
 * refuses (`DEVICE_BUSY`) and a later reading asks again. From the decision to the host's answer (or its
 * time-out) the device is `mending`: its start and end are events (`DeviceMendingStarted`, `DeviceMendingEnded`),
 * so every replica, and this one after a restart, sees it; one whose end was never recorded is over at its `until`.
 */
export class DeviceMending {
  /** Devices this replica is having mended now, and when each was last mended (readings come to one replica, a queue group). */
  private readonly now = new Set<string>();
  private readonly last = new Map<string, number>();

  constructor(
    private readonly platform: Platform,
    private readonly hooks: MendingHooks,
  ) {}

  /** Mends the device in the background when `sample` asks for it (`mendingWanted`); failures are logged. */
  afterReading(hostId: string, deviceId: string, tenant: HealthTenant, sample: HealthSample, rules: HealthRules): void {
    const wanted = mendingWanted(sample, rules);
    if (!wanted) return;
    void this.mend(hostId, deviceId, tenant, rules, wanted.helpersOnly).catch((err: unknown) => this.platform.logger.warn({ err, deviceId }, 'mending a device failed'));
  }

  /** An administrator released the device (it was seen to): its readings may have it mended again at once. */
  released(deviceId: string): void {
    this.last.delete(deviceId);
  }

  private async mend(hostId: string, deviceId: string, tenant: HealthTenant, rules: HealthRules, helpersOnly: boolean): Promise<void> {
    const last = this.last.get(deviceId);
    if (this.now.has(deviceId) || (last !== undefined && this.platform.now().getTime() - last < MEND_AGAIN_AFTER_MS)) return;
    const state = fold(deviceHealthDecider, await this.platform.store.readStream(deviceHealthStream(deviceId)));
    if (isHeldState(state.health?.state)) return;
    this.now.add(deviceId);
    let outcome: MendingOutcome = 'failed';
    let started = false;
    try {
      const until = new Date(this.platform.now().getTime() + MENDING_OVER_AFTER_MS).toISOString();
      // Another replica's mending under way (its start recorded): nothing is asked twice.
      started = await this.hooks.start(deviceId, tenant, helpersOnly, until);
      if (!started) return;
      const target = { hostId, deviceId, sessionId: `mend-${randomUUID()}` };
      const plan = { op: 'mend' as const, storageMinMb: rules.storageMinMb, rebootAllowed: rules.rebootAllowed, ...(helpersOnly ? { helpersOnly } : {}) };
      const answer = await requestDevice(this.platform.bus, target, plan, { timeoutMs: MEND_TIMEOUT_MS }).catch((err: unknown) => {
        const code = (err as { code?: string }).code;
        // In a session or being set up: mended after it, when a reading still says so.
        if (code === 'DEVICE_BUSY') return null;
        // A device its driver cannot mend (not Android): asked again only after the pause, not at every reading.
        if (code === 'UNSUPPORTED') {
          this.last.set(deviceId, this.platform.now().getTime());
          return null;
        }
        if (code === 'TIMEOUT') outcome = 'timed-out';
        throw err;
      });
      if (!answer) {
        outcome = 'refused';
        return;
      }
      this.last.set(deviceId, this.platform.now().getTime());
      outcome = answer.mended ? 'mended' : 'not-mended';
      for (const step of answer.steps) await this.hooks.recordStep(hostId, deviceId, step);
      // A fast path that did not come back holds nothing: the device stays degraded, its slow path serving.
      if (answer.mended || helpersOnly) return;
      const lastStep = answer.steps.at(-1);
      const reason = `${answer.trouble ?? 'still unwell'}${lastStep ? `; the last step ${lastStep.step} ${lastStep.result}${lastStep.error ? ` (${lastStep.error})` : ''}` : ''}`;
      await this.hooks.quarantine(deviceId, reason, tenant);
    } finally {
      // The end is recorded whatever happened: a failure to record it leaves the sweep to end it at its `until`.
      if (started) await this.hooks.end(deviceId, tenant, outcome).catch((err: unknown) => this.platform.logger.warn({ err, deviceId }, 'recording the end of a mending failed'));
      this.now.delete(deviceId);
    }
  }
}
