import type { ReleaseOutcome } from '../capabilities.js';

export type { ReleaseOutcome };

/**
 * A clean device for every session: the settings a session may change, read when the device joins (one
 * `adb shell`), and put back after each session (one more), then read again to prove it. A setting the
 * device does not have (`null`) is deleted again if a session created it. The clipboard is emptied too.
 */
export const BASELINE_SETTINGS = [
  ['global', 'window_animation_scale'],
  ['global', 'transition_animation_scale'],
  ['global', 'animator_duration_scale'],
  ['system', 'font_scale'],
  ['system', 'system_locales'],
  ['global', 'time_zone'],
  ['system', 'screen_brightness'],
  ['system', 'screen_brightness_mode'],
  ['global', 'stay_on_while_plugged_in'],
  ['global', 'airplane_mode_on'],
  ['global', 'wifi_on'],
  ['secure', 'location_mode'],
] as const;

/** `namespace/key` → value (`null`: the device has no such setting). */
export type Baseline = Record<string, string | null>;

const keyOf = ([namespace, key]: readonly [string, string]) => `${namespace}/${key}`;
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The one shell command that reads every baseline setting, one line each, in order. */
export const READ_BASELINE = BASELINE_SETTINGS.map(([namespace, key]) => `settings get ${namespace} ${key}`).join('; ');

/** Parses what `READ_BASELINE` printed. */
export function parseBaseline(output: string): Baseline {
  const lines = output.replace(/\r/g, '').split('\n');
  const baseline: Baseline = {};
  BASELINE_SETTINGS.forEach((setting, i) => {
    const line = (lines[i] ?? '').trim();
    baseline[keyOf(setting)] = line === '' || line === 'null' ? null : line;
  });
  return baseline;
}

/** The settings of `now` that differ from `baseline`, as `namespace/key` names. */
export function differences(baseline: Baseline, now: Baseline): string[] {
  return Object.keys(baseline).filter((k) => (baseline[k] ?? null) !== (now[k] ?? null));
}

/** The one shell command that puts the changed settings back (and deletes those the device did not have). */
export function restoreCommand(baseline: Baseline, changed: readonly string[]): string {
  return changed
    .map((name) => {
      const [namespace, key] = name.split('/') as [string, string];
      const value = baseline[name] ?? null;
      return value === null ? `settings delete ${namespace} ${key}` : `settings put ${namespace} ${key} ${quote(value)}`;
    })
    .join('; ');
}

/**
 * Restores `baseline` through `sh` (one read, one write of what changed, one read to check); throws,
 * naming every setting that did not come back, when the device kept any.
 */
export async function restoreBaseline(sh: (command: string) => Promise<string>, baseline: Baseline): Promise<string[]> {
  const changed = differences(baseline, parseBaseline(await sh(READ_BASELINE)));
  if (changed.length === 0) return [];
  await sh(restoreCommand(baseline, changed));
  const left = differences(baseline, parseBaseline(await sh(READ_BASELINE)));
  if (left.length > 0) throw new Error(`settings not restored to the baseline: ${left.map((k) => `${k} (baseline ${baseline[k] ?? 'unset'})`).join(', ')}`);
  return changed;
}

/** Reads the clipboard's text (Android's clipboard service's shell command). */
export const READ_CLIPBOARD = 'cmd clipboard get text';
/** Leaves the clipboard empty. */
export const CLEAR_CLIPBOARD = "cmd clipboard set text ''";
/** What a device answers whose clipboard service has no shell command (older builds). */
const NO_CLIPBOARD_COMMAND = /^(cmd: )?(unknown command|no shell command implementation|can't find service)/i;

/**
 * Empties the clipboard a session may have filled (a copied password, a token), then reads it again to
 * prove it; throws when it still holds text. A device whose clipboard service answers no shell command
 * is left as it is (answers false): nothing over adb can empty it there.
 */
export async function clearClipboard(sh: (command: string) => Promise<string>): Promise<boolean> {
  const held = await sh(READ_CLIPBOARD);
  if (NO_CLIPBOARD_COMMAND.test(held)) return false;
  if (held.trim() === '') return true;
  await sh(CLEAR_CLIPBOARD);
  const left = (await sh(READ_CLIPBOARD)).trim();
  if (left !== '') throw new Error(`clipboard not cleared: it still holds ${left.length} characters`);
  return true;
}

/**
 * One device's baseline: taken before its first session (the device as it joined) or again on request,
 * and put back at each session's end; a reset that fails is the release's `resetFailed`.
 */
export class DeviceBaseline {
  private baseline: Baseline | null = null;

  constructor(
    private readonly sh: (command: string) => Promise<string>,
    private readonly failed: (failure: string) => void,
  ) {}

  /** The baseline kept now (null: none taken yet), for diagnostics. */
  get settings(): Readonly<Baseline> | null {
    return this.baseline;
  }

  /** Takes the baseline unless it has one. */
  async takeOnce(): Promise<void> {
    if (!this.baseline) await this.retake();
  }

  /**
   * Keeps `settings` as the baseline (an administrator's, given back by the service), never read from the
   * device; a setting it does not name (a baseline recorded before the setting was kept) is read now.
   */
  async adopt(settings: Baseline): Promise<Baseline> {
    const names = BASELINE_SETTINGS.map(keyOf);
    const now = names.every((k) => k in settings) ? {} : parseBaseline(await this.sh(READ_BASELINE));
    this.baseline = Object.fromEntries(names.map((k) => [k, k in settings ? (settings[k] ?? null) : (now[k] ?? null)]));
    return this.baseline;
  }

  /** Reads the settings again (one shell) and keeps them as what every session's end restores. */
  async retake(): Promise<Baseline> {
    this.baseline = parseBaseline(await this.sh(READ_BASELINE));
    return this.baseline;
  }

  async reset(): Promise<ReleaseOutcome> {
    if (!this.baseline) return {};
    // The settings and the clipboard side by side (each reads, writes and reads again); either failing fails the reset.
    const failures = (await Promise.allSettled([restoreBaseline(this.sh, this.baseline), clearClipboard(this.sh)]))
      .flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    if (failures.length === 0) return {};
    const failure = failures.join('; ').slice(0, 500);
    this.failed(failure);
    return { resetFailed: failure };
  }
}
