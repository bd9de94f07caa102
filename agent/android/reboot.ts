/**
 * A reboot that mending waits out: the device is rebooted, then followed until it is back on the adb
 * server in the `device` state, booted into a new boot (its kernel's boot id changed) and done booting
 * (`sys.boot_completed` 1) — or the wait's deadline passes. The adb server's word alone is not enough:
 * right after `adb reboot` the device is still listed for a moment, and an adb server reconnecting a
 * network device does not always say it was away; the boot id says whether it really restarted.
 */

/** The agent's wait for a rebooted device, by default (the agent config's `android.rebootWaitMs`). */
export const REBOOT_WAIT_DEFAULT_MS = 180_000;
/** The bounds of that wait: the service waits for a mending at most 5 minutes (the protocol's longest request), the other steps included. */
export const REBOOT_WAIT_MIN_MS = 1_000;
export const REBOOT_WAIT_MAX_MS = 240_000;

/** How often the device is looked at while it is away, at most (a change at the adb server looks at once). */
const LOOK_EVERY_MS = 500;
/** One shell: the kernel's boot id (a new one each boot) and whether Android is done booting. */
const BOOT_PROBE = 'cat /proc/sys/kernel/random/boot_id; getprop sys.boot_completed';

/** The adb server's view of one device, held while it reboots (the provider leaves it attached meanwhile). */
export interface RebootWatch {
  /** Its state at the adb server now (`device`, `offline`, …); undefined: not listed. */
  state(): Promise<string | undefined>;
  /** Resolves at the adb server's next change of the device, or after `ms`, whichever comes first. */
  changed(ms: number): Promise<void>;
  /** The reboot is over: the provider takes the device's changes as before (withdrawn if it is not back). */
  end(): Promise<void>;
}

/** What a driver needs to wait a reboot out: how long, and a watch of the device at the adb server. */
export interface RebootHooks {
  waitMs: number;
  watch(): RebootWatch;
}

/** The reboot step of a driver: waited out with the provider's hooks; refused without them. */
export function rebootStep(reboot: () => Promise<unknown>, sh: (command: string) => Promise<string>, hooks: RebootHooks | undefined): () => Promise<void> {
  return async () => {
    if (!hooks) throw new Error('the agent cannot follow this device through a reboot');
    await rebootAndWait(async () => void (await reboot()), sh, hooks);
  };
}

/** Why a rebooted device is not back: said in the mending step (`did not come back within 3 s (adb lists it offline)`). */
export class NotBack extends Error {}

/** `3 s`, `3 min`, `2.5 min`: a wait as the step says it. */
export function spoken(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 6_000) / 10} min`;
}

/** The boot id and `sys.boot_completed` from one answer of `BOOT_PROBE`. */
export function parseBootProbe(out: string): { bootId: string | null; completed: boolean } {
  const lines = out.replace(/\r/g, '').split('\n').map((l) => l.trim());
  const bootId = lines.find((l) => /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(l)) ?? null;
  return { bootId, completed: lines.includes('1') };
}

/**
 * Reboots the device (`reboot`, adb's `reboot:` service) and waits until it is back and done booting,
 * looking again at each change at the adb server and at least every half second; throws `NotBack` when
 * `hooks.waitMs` passed first, saying how far it got. Where the boot id cannot be read before, a device
 * seen away at the adb server (or not answering a shell) and back counts as rebooted.
 */
export async function rebootAndWait(reboot: () => Promise<void>, sh: (command: string) => Promise<string>, hooks: RebootHooks): Promise<void> {
  const before = await sh(BOOT_PROBE).then((out) => parseBootProbe(out).bootId, () => null);
  const watch = hooks.watch();
  try {
    await reboot();
    const deadline = Date.now() + hooks.waitMs;
    let away = false;
    let where = 'adb still lists it, in the same boot';
    for (;;) {
      const state = await watch.state().catch(() => undefined);
      if (state !== 'device') {
        away = true;
        where = state ? `adb lists it ${state}` : 'adb does not list it';
      } else {
        const probe = await sh(BOOT_PROBE).then(parseBootProbe, () => null);
        if (!probe) away = true;
        else if (before !== null ? probe.bootId !== null && probe.bootId !== before : away) {
          if (probe.completed) return;
          where = 'back, but sys.boot_completed is not 1 yet';
        } else if (!away) where = 'adb still lists it, in the same boot';
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new NotBack(where.startsWith('back') ? `came back but did not finish booting within ${spoken(hooks.waitMs)} (sys.boot_completed is not 1)` : `did not come back within ${spoken(hooks.waitMs)} (${where})`);
      await watch.changed(Math.min(LOOK_EVERY_MS, left));
    }
  } finally {
    await watch.end();
  }
}
