import type { DeviceInfo, FastPathState, HealthSample } from '#shared/wire/index.js';
import type { LogRing } from '../provider.js';

/** What a path change says of its fast path: `up`, `down`, `unavailable`, or null (nothing known yet: the UiAutomator2 server wanted, not started). */
export type FastPathNote = FastPathState['state'] | null;
type Kind = 'screen' | 'input' | 'text';

/**
 * The paths an Android device's capabilities take and what its driver knows of its fast paths
 * (docs/modules/device-health.md, "Fast paths"). Each change is written in the device's info
 * (`capabilities`, which the host's heartbeat carries to the service) with why a faster path is not
 * used (its `reason`, and once in the device log); the screen's and touch's fast paths keep their state
 * as of their last start, failure or death, which each health reading carries (`fastPaths`) — nothing is
 * started to check them.
 */
export class DevicePaths {
  /** Why each capability runs on a fallback now (screen, input, text), for the info's `reason`. */
  private readonly fallbacks = new Map<string, string>();
  private readonly fast: { screen?: FastPathState; touch?: FastPathState } = {};

  constructor(
    private readonly info: DeviceInfo,
    private readonly log: LogRing,
  ) {}

  /** `kind` now takes `path` (`reason`: why not a faster one); `fast`: what that says of its fast path. */
  note(kind: Kind, path: string, reason: string | null, fast: FastPathNote = null): void {
    const capabilities = { ...this.info.capabilities, [kind]: path };
    if (reason) {
      const note = `${kind}: ${path} (${reason})`.slice(0, 500);
      if (this.fallbacks.get(kind) !== note) this.log.push('warn', 'agent', note);
      this.fallbacks.set(kind, note);
    } else this.fallbacks.delete(kind);
    const why = [...this.fallbacks.values()].join('; ').slice(0, 500);
    if (why) capabilities.reason = why;
    else delete capabilities.reason;
    this.info.capabilities = capabilities as DeviceInfo['capabilities'];
    if (fast && kind !== 'text') this.fast[kind === 'input' ? 'touch' : 'screen'] = { state: fast, ...(fast !== 'up' && reason ? { reason: reason.slice(0, 300) } : {}) };
  }

  /** The fast paths as last known, for a reading; undefined while none was tried. */
  reading(): HealthSample['fastPaths'] {
    const { screen, touch } = this.fast;
    return screen || touch ? { ...(screen ? { screen: { ...screen } } : {}), ...(touch ? { touch: { ...touch } } : {}) } : undefined;
  }
}
