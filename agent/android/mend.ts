import type { MendingReport, RpcResult } from '#shared/wire/index.js';
import { shellQuote, type AdbClient } from './adb.js';
import { SCRATCH_ROOT } from './apps.js';

/** The pause before each reconnect attempt of a lost link: three attempts, each waiting longer. */
export const RECONNECT_BACKOFF_MS = [500, 1_000, 2_000] as const;
/** How long a reconnected device has to be listed by the adb server as `device` again. */
const LISTED_WITHIN_MS = 5_000;

/** The host and port of a device adb reaches over the network (`adb connect host:port`); null for a USB serial. */
export function networkSerial(serial: string): { host: string; port: number } | null {
  const m = /^(.+):(\d{1,5})$/.exec(serial);
  return m ? { host: m[1]!, port: Number(m[2]) } : null;
}

export interface ReconnectOptions {
  client: AdbClient;
  serial: string;
  /** False once the device is back by itself or the provider stops: the mending ends, nothing more is tried. */
  stillLost: () => boolean;
  /** Each attempt's result, as it ends. */
  report: (step: MendingReport) => void;
  backoffMs?: readonly number[];
}

/**
 * The first mending step of a device whose network link was lost: `adb connect host:port` again, after
 * a growing pause, until the adb server lists it as `device` again or every attempt failed. Each
 * attempt is reported (`reconnect`, its number, ok or failed with adb's answer); answers whether it came back.
 */
export async function reconnect(options: ReconnectOptions): Promise<boolean> {
  const target = networkSerial(options.serial);
  if (!target) return false;
  const pauses = options.backoffMs ?? RECONNECT_BACKOFF_MS;
  for (let i = 0; i < pauses.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, pauses[i]).unref());
    if (!options.stillLost()) return true;
    const attempt = i + 1;
    try {
      await options.client.connect(target.host, target.port);
      await listedAsDevice(options.client, options.serial);
      options.report({ step: 'reconnect', attempt, result: 'ok', at: new Date().toISOString() });
      return true;
    } catch (err) {
      if (!options.stillLost()) return true;
      options.report({ step: 'reconnect', attempt, result: 'failed', error: String((err as Error).message ?? err).slice(0, 500), at: new Date().toISOString() });
    }
  }
  return false;
}

/** Waits until the adb server lists `serial` in the `device` state; throws past `LISTED_WITHIN_MS`. */
async function listedAsDevice(client: AdbClient, serial: string): Promise<void> {
  const deadline = Date.now() + LISTED_WITHIN_MS;
  for (;;) {
    const state = (await client.listDevices()).find((d: { id: string; type: string }) => d.id === serial)?.type;
    if (state === 'device') return;
    if (Date.now() > deadline) throw new Error(`adb lists ${serial} as ${state ?? 'absent'} after connecting`);
    await new Promise((resolve) => setTimeout(resolve, 200).unref());
  }
}

/** The pause before each step of mending a device that is there but unwell: each step waits longer. */
export const STEP_BACKOFF_MS = [500, 1_000, 2_000] as const;

/** What mending does to a device that is there but unwell, each a step that throws why it failed. */
export interface MendActions {
  /** Stops the device-side helpers the platform runs and starts them again; throws why one did not come back. */
  restartHelpers(): Promise<void>;
  /** Removes what sessions and the platform left on the device. */
  freeStorage(): Promise<void>;
  /** Free megabytes on `/data` now (undefined: the device does not say). */
  storageFreeMb(): Promise<number | undefined>;
  /** `adb reboot`, then waits until the device is back and done booting; throws why it is not (`reboot.ts`). */
  reboot(): Promise<void>;
}

export interface MendOptions {
  storageMinMb: number;
  rebootAllowed: boolean;
  /** Only a fast path is down: the helpers are restarted and nothing more is tried (its storage is not read). */
  helpersOnly?: boolean;
  report: (step: MendingReport) => void;
  /** Each step as it begins (after its pause): the service shows it while it runs. */
  begin?: (step: MendingReport['step']) => void;
  backoffMs?: readonly number[];
}

/**
 * Mends a device that is there but unwell, gentlest step first, after a growing pause before each:
 * its helpers restarted, then its storage freed, then — only where the company's rules allow it — a
 * reboot (else the step is `skipped`), waited out until the device is back and booted, then checked
 * again (its helpers, where they had failed, and a fresh reading of its storage). It stops at the
 * first step after which the device is well (its helpers run and `storageMinMb` is free). Each step is
 * reported as it ends; answers whether it is well and, if not, what is still wrong, for the service to
 * quarantine it. `helpersOnly` (a fast path down, storage fine) stops after the helpers' restart.
 */
export async function mendSteps(actions: MendActions, options: MendOptions): Promise<RpcResult<'mend'>> {
  const pauses = options.backoffMs ?? STEP_BACKOFF_MS;
  const steps: MendingReport[] = [];
  const done = (step: MendingReport['step'], result: MendingReport['result'], error?: string) => {
    const report: MendingReport = { step, attempt: 1, result, ...(error ? { error: error.slice(0, 500) } : {}), at: new Date().toISOString() };
    steps.push(report);
    options.report(report);
  };
  const pause = (i: number) => new Promise((resolve) => setTimeout(resolve, pauses[Math.min(i, pauses.length - 1)]).unref());
  let helpers: string | null = null;
  const lowStorage = async (): Promise<string | null> => {
    const free = await storageOf(actions);
    return free !== undefined && free < options.storageMinMb ? `storage ${free} MB free below ${options.storageMinMb} MB` : null;
  };
  const trouble = (low: string | null) => [helpers, low].filter((t): t is string => t !== null).join('; ');

  const begin = (step: MendingReport['step']) => options.begin?.(step);
  await pause(0);
  begin('restart-helpers');
  try {
    await actions.restartHelpers();
    done('restart-helpers', 'ok');
  } catch (err) {
    helpers = `helpers did not come back: ${messageOf(err)}`;
    done('restart-helpers', 'failed', messageOf(err));
  }
  if (options.helpersOnly) return helpers === null ? { mended: true, steps } : { mended: false, steps, trouble: helpers.slice(0, 500) };
  let low = await lowStorage();
  if (!trouble(low)) return { mended: true, steps };

  await pause(1);
  begin('free-storage');
  try {
    await actions.freeStorage();
    low = await lowStorage();
    if (low) done('free-storage', 'failed', `${low} after removing the platform's leftovers`);
    else done('free-storage', 'ok');
  } catch (err) {
    done('free-storage', 'failed', messageOf(err));
  }
  const left = trouble(low);
  if (!left) return { mended: true, steps };

  await pause(2);
  if (!options.rebootAllowed) {
    done('reboot', 'skipped', "the company's health rules do not allow a reboot");
    return { mended: false, steps, trouble: left.slice(0, 500) };
  }
  begin('reboot');
  try {
    await actions.reboot();
  } catch (err) {
    done('reboot', 'failed', messageOf(err));
    return { mended: false, steps, trouble: left.slice(0, 500) };
  }
  const after = await afterReboot(actions, options.storageMinMb, helpers !== null);
  if (after) {
    done('reboot', 'failed', `came back but ${after}`);
    return { mended: false, steps, trouble: after.slice(0, 500) };
  }
  done('reboot', 'ok');
  return { mended: true, steps };
}

/**
 * What is still wrong with a device back from its reboot, or null when it is well: its helpers started
 * again where they had not come back before it, and a fresh reading of its storage (one that fails says so).
 */
async function afterReboot(actions: MendActions, storageMinMb: number, helpersFailed: boolean): Promise<string | null> {
  const trouble: string[] = [];
  if (helpersFailed) {
    await actions.restartHelpers().catch((err: unknown) => trouble.push(`helpers did not come back: ${messageOf(err)}`));
  }
  try {
    const free = await actions.storageFreeMb();
    if (free !== undefined && free < storageMinMb) trouble.push(`storage ${free} MB free below ${storageMinMb} MB`);
  } catch (err) {
    trouble.push(`its health could not be read: ${messageOf(err)}`);
  }
  return trouble.length > 0 ? trouble.join('; ') : null;
}

/** The free storage, or undefined where the device cannot say (a failed reading is no reason to mend). */
async function storageOf(actions: MendActions): Promise<number | undefined> {
  return actions.storageFreeMb().catch(() => undefined);
}

const messageOf = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

/** What the platform puts in `/data/local/tmp` for a session: its scratch folder, an uploaded APK, a UI dump. */
const LEFTOVER = /^(df-session-[A-Za-z0-9-]+|upload-[A-Za-z0-9-]+\.apk|window_dump\.xml)$/;

/**
 * Frees storage: removes what sessions and the platform left in `/data/local/tmp` (a session's scratch
 * folder, an upload's APK, a UI dump) — left there by a release that did not finish (an agent that died).
 * Only outside a session, so no session's own scratch is touched; throws when the removal failed.
 */
export async function removeLeftovers(sh: (command: string) => Promise<string>): Promise<void> {
  const names = (await sh(`ls ${SCRATCH_ROOT}`)).replace(/\r/g, '').split('\n').map((n) => n.trim());
  const leftovers = names.filter((n) => LEFTOVER.test(n)).map((n) => shellQuote(`${SCRATCH_ROOT}/${n}`));
  if (leftovers.length === 0) return;
  // adb's shell service carries no exit status back: the marker says the removal worked.
  const out = await sh(`rm -rf ${leftovers.join(' ')} && echo removed`);
  if (!/^removed$/m.test(out)) throw new Error(`the leftovers could not be removed: ${out.trim().slice(0, 300) || 'no answer'}`);
}
