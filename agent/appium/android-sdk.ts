import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';

/**
 * The Android SDK folder Appium's UiAutomator2 driver needs (`ANDROID_HOME`: it runs
 * `<sdk>/platform-tools/adb`), for an agent whose environment names none: the folder the agent's own
 * `adb` lives in, when that is an SDK's `platform-tools` (Debian's `adb` package puts it in
 * `/usr/lib/android-sdk/platform-tools`, `/usr/bin/adb` a link to it). Null when the environment
 * already says, or the `adb` found is not in such a folder.
 */
export function androidSdkHome(adbBinary: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ANDROID_HOME || env.ANDROID_SDK_ROOT) return null;
  const found = isAbsolute(adbBinary) || adbBinary.includes('/') ? adbBinary : onPath(adbBinary, env.PATH ?? '');
  if (!found) return null;
  let real: string;
  try {
    real = realpathSync(found);
  } catch {
    return null;
  }
  return basename(dirname(real)) === 'platform-tools' ? dirname(dirname(real)) : null;
}

function onPath(command: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}
