import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import bplistCreator from 'bplist-creator';
import { zipOf } from './zip.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/**
 * Real APKs that no one here built, shipped inside npm packages the project installs: Appium's
 * settings app (two releases: the one the UiAutomator2 driver depends on, and an older one installed
 * as the `io.appium.settings-v7` dev dependency) and the UiAutomator2 server.
 */
export function referenceApks(): { settings: string; settingsOld: string; uiautomator2: string } {
  const driver = dirname(require.resolve('appium-uiautomator2-driver/package.json'));
  const fromDriver = createRequire(join(driver, 'package.json'));
  const settingsDir = dirname(fromDriver.resolve('io.appium.settings/package.json'));
  const serverDir = dirname(fromDriver.resolve('appium-uiautomator2-server/package.json'));
  const serverVersion = (require(join(serverDir, 'package.json')) as { version: string }).version;
  return {
    settings: join(settingsDir, 'apks', 'settings_apk-debug.apk'),
    settingsOld: join(dirname(require.resolve('io.appium.settings-v7/package.json')), 'apks', 'settings_apk-debug.apk'),
    uiautomator2: join(serverDir, 'apks', `appium-uiautomator2-server-v${serverVersion}.apk`),
  };
}

/** Debian's `aapt`, the independent reference for what an APK declares. */
export const AAPT = process.env.AAPT_BINARY ?? '/usr/bin/aapt';

/** What `aapt dump badging` says of an APK. */
export async function aaptBadging(path: string): Promise<{ package: string; versionCode: string; versionName: string; sdkVersion: string; targetSdkVersion: string; label: string; permissions: string[]; abis: string[] }> {
  const { stdout } = await run(AAPT, ['dump', 'badging', path], { maxBuffer: 16 * 1024 * 1024 });
  const line = (prefix: string) => stdout.split('\n').find((l) => l.startsWith(prefix)) ?? '';
  const pkg = line('package:');
  const field = (text: string, name: string) => new RegExp(`${name}='([^']*)'`).exec(text)?.[1] ?? '';
  const sdk = /^sdkVersion:'([^']*)'/m.exec(stdout)?.[1] ?? '';
  return {
    package: field(pkg, 'name'),
    versionCode: field(pkg, 'versionCode'),
    versionName: field(pkg, 'versionName'),
    sdkVersion: sdk,
    targetSdkVersion: /^targetSdkVersion:'([^']*)'/m.exec(stdout)?.[1] ?? sdk,
    label: /^application-label:'([^']*)'/m.exec(stdout)?.[1] ?? '',
    permissions: [...stdout.matchAll(/^uses-permission(?:-sdk-23)?: name='([^']*)'/gm)].map((m) => m[1]!),
    abis: (/^native-code: (.*)$/m.exec(stdout)?.[1] ?? '').split(' ').map((s) => s.replace(/'/g, '')).filter(Boolean).sort(),
  };
}

/** An IPA made here: a zip with `Payload/<name>.app/Info.plist` as a binary property list (`bplist-creator`) and an executable. */
export function testIpa(info: { bundleId: string; name: string; version: string; build: string; minimumOs?: string }): Buffer {
  const plist = bplistCreator({
    CFBundleIdentifier: info.bundleId,
    CFBundleName: info.name,
    CFBundleDisplayName: info.name,
    CFBundleShortVersionString: info.version,
    CFBundleVersion: info.build,
    CFBundleExecutable: info.name,
    MinimumOSVersion: info.minimumOs ?? '15.0',
    DTPlatformVersion: '17.2',
    UIRequiredDeviceCapabilities: ['arm64'],
    NSCameraUsageDescription: 'Scans codes',
  });
  return zipOf([
    [`Payload/${info.name}.app/Info.plist`, plist],
    [`Payload/${info.name}.app/${info.name}`, Buffer.alloc(4096, 0xcf)],
  ]);
}
