import type { HealthSample } from '#shared/wire/index.js';

/**
 * The signals of an Android health reading that are shown, not judged (docs/modules/device-health.md):
 * memory, Wi-Fi, the lock screen and uptime. Each parser answers undefined for a device that does not
 * give the signal, so the reading leaves it out.
 */

/** `MemTotal` and `MemAvailable` of `/proc/meminfo` in megabytes; `MemAvailable` only where the kernel has it (3.14 on). */
export function parseMemory(text: string): HealthSample['memory'] {
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s*(\\d+)\\s*kB`, 'm').exec(text);
    return m ? Math.floor(Number(m[1]) / 1024) : undefined;
  };
  const totalMb = kb('MemTotal');
  if (totalMb === undefined) return undefined;
  const availableMb = kb('MemAvailable');
  return availableMb === undefined ? { totalMb } : { totalMb, availableMb };
}

/** Whole seconds since boot, the first number of `/proc/uptime` (`350735.47 234388.90`). */
export function parseUptime(text: string): number | undefined {
  const m = /^\s*(\d+)(?:\.\d+)?\s/.exec(`${text} `);
  return m ? Number(m[1]) : undefined;
}

const IPV4 = String.raw`(\d{1,3}(?:\.\d{1,3}){3})`;
/** An IPv4 address on the interface: iproute2's `inet 192.168.1.23/24`, toybox ifconfig's `inet addr:…`, toolbox ifconfig's `ip … mask`. */
const ADDRESS = [new RegExp(String.raw`\binet ${IPV4}/`), new RegExp(String.raw`\binet addr:${IPV4}`), new RegExp(String.raw`^wlan0: ip ${IPV4} mask`, 'm')];

/**
 * Wi-Fi from `settings get global wifi_on` (0 off, 1 on, 2 on while airplane mode is on, 3 off by
 * airplane mode) and the Wi-Fi interface's link (`ip -4 addr show wlan0`, else `ifconfig wlan0`):
 * connected when it is on and the interface holds an IPv4 address. Undefined when the setting is not there.
 */
export function parseWifi(setting: string, link: string): HealthSample['wifi'] {
  const flag = setting.trim();
  if (!['0', '1', '2', '3'].includes(flag)) return undefined;
  const on = flag === '1' || flag === '2';
  const address = ADDRESS.map((re) => re.exec(link)?.[1]).find((a) => a !== undefined);
  return { on, connected: on && address !== undefined && address !== '0.0.0.0' };
}

/** `true`/`false` of the first line of `dumpsys window policy` naming `key=`, after `section` when given. */
function flag(text: string, key: string, section?: string): boolean | undefined {
  const from = section === undefined ? 0 : text.indexOf(section);
  if (from < 0) return undefined;
  const m = new RegExp(String.raw`(?:^|\s)${key}=(true|false)\b`, 'm').exec(text.slice(from));
  return m ? m[1] === 'true' : undefined;
}

/**
 * Whether the lock screen shows, from `dumpsys window policy`, whose words changed over the versions:
 * the keyguard delegate's `showing=` (Android 6 on, beside its `KeyguardStateMonitor`'s `mIsShowing=`),
 * `mShowingLockscreen=`/`mDreamingLockscreen=` (up to Android 7), `isStatusBarKeyguard=` (Android 5 to 8),
 * and the `mKeyguardShowing=`/`isKeyguardShowing=` of the window manager's keyguard controller where a
 * build prints it there. Undefined when none of them is in the answer.
 */
export function parseScreenLocked(text: string): boolean | undefined {
  const delegate = flag(text, 'showing', 'KeyguardServiceDelegate');
  if (delegate !== undefined) return delegate;
  const monitor = flag(text, 'mIsShowing', 'KeyguardStateMonitor');
  if (monitor !== undefined) return monitor;
  const lockscreen = flag(text, 'mShowingLockscreen');
  const dreaming = flag(text, 'mDreamingLockscreen');
  if (lockscreen !== undefined || dreaming !== undefined) return lockscreen === true || dreaming === true;
  for (const key of ['mKeyguardShowing', 'isKeyguardShowing', 'isStatusBarKeyguard']) {
    const value = flag(text, key);
    if (value !== undefined) return value;
  }
  return undefined;
}
