import type { DeviceView } from '#projections/df-devices/index.js';
import { WebDriverError } from './w3c.js';

type Caps = Record<string, unknown>;
const isObject = (v: unknown): v is Caps => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one capability set (alwaysMatch merged with one firstMatch entry) asks of a device. */
export interface DeviceRequirement {
  /** `android`, `ios` or `web`. */
  platform: 'android' | 'ios' | 'web' | null;
  /** An unknown `platformName`: no device can match. */
  unknownPlatform: string | null;
  browserName: string | null;
  deviceName: string | null;
  platformVersion: string | null;
  udid: string | null;
  deviceId: string | null;
  /** `goog:chromeOptions.mobileEmulation` asked for: a phone or tablet browser profile may serve it. */
  mobileEmulation: boolean;
}

/** A parsed new-session request. */
export interface NewSessionRequest {
  requirements: DeviceRequirement[];
  /** The platform's own options (`df:*`), taken from `alwaysMatch` or the first candidate. */
  build: string | null;
  name: string | null;
  queueTimeoutMs: number | null;
  /** `df:recordVideo` (or `df:record`): whether the session records its screen (a video); null: the workspace's default (`recordAutomation`). */
  record: boolean | null;
  /** What goes to Appium: the client's capabilities without `df:*` and without `webSocketUrl`. */
  forwarded: { capabilities: { alwaysMatch: Caps; firstMatch: Caps[] } };
}

const WEB_PLATFORMS = new Set(['linux', 'windows', 'mac', 'macos', 'web', 'desktop']);
const CHROMIUM = new Set(['chrome', 'chromium', 'googlechrome']);

const optionalString = (caps: Caps, key: string, max = 200): string | null => {
  const v = caps[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw new WebDriverError('invalid argument', `Capability ${key} must be a non-empty string of at most ${max} characters`);
  return v;
};

/** The platform's keys, and keys Appium must not see. */
const withoutPlatformKeys = (caps: Caps): Caps => Object.fromEntries(Object.entries(caps).filter(([k]) => !k.startsWith('df:') && k !== 'webSocketUrl'));

function requirementOf(caps: Caps): DeviceRequirement {
  const platformName = optionalString(caps, 'platformName')?.toLowerCase() ?? null;
  const browserName = optionalString(caps, 'browserName')?.toLowerCase() ?? null;
  let platform: DeviceRequirement['platform'] = null;
  let unknownPlatform: string | null = null;
  if (platformName === 'android' || platformName === 'ios') platform = platformName;
  else if (platformName && WEB_PLATFORMS.has(platformName)) platform = 'web';
  else if (platformName) unknownPlatform = platformName;
  // A browser with no platform is a browser device; those are Chromium, so another browser matches nothing.
  else if (browserName) platform = 'web';
  return {
    platform,
    unknownPlatform,
    browserName,
    deviceName: optionalString(caps, 'appium:deviceName'),
    platformVersion: optionalString(caps, 'appium:platformVersion', 100),
    udid: optionalString(caps, 'appium:udid'),
    deviceId: optionalString(caps, 'df:deviceId', 128),
    mobileEmulation: isObject(caps['goog:chromeOptions']) && caps['goog:chromeOptions'].mobileEmulation !== undefined,
  };
}

/**
 * Reads a W3C new-session body (`{capabilities: {alwaysMatch, firstMatch}}`; a legacy
 * `desiredCapabilities` is taken as `alwaysMatch`). Each firstMatch entry merged with alwaysMatch is
 * one acceptable device; a key in both is `invalid argument`, as W3C requires.
 */
export function parseNewSession(body: unknown): NewSessionRequest {
  if (!isObject(body)) throw new WebDriverError('invalid argument', 'The new-session body must be a JSON object with "capabilities"');
  const capabilities = body.capabilities ?? (isObject(body.desiredCapabilities) ? { alwaysMatch: body.desiredCapabilities } : undefined);
  if (!isObject(capabilities)) throw new WebDriverError('invalid argument', 'The new-session body must have a "capabilities" object');
  const alwaysMatch = capabilities.alwaysMatch ?? {};
  if (!isObject(alwaysMatch)) throw new WebDriverError('invalid argument', 'capabilities.alwaysMatch must be an object');
  const firstMatchRaw = capabilities.firstMatch ?? [{}];
  if (!Array.isArray(firstMatchRaw) || firstMatchRaw.length === 0 || firstMatchRaw.length > 50 || !firstMatchRaw.every(isObject)) {
    throw new WebDriverError('invalid argument', 'capabilities.firstMatch must be a non-empty list of at most 50 objects');
  }
  const firstMatch = firstMatchRaw as Caps[];
  const merged = firstMatch.map((first) => {
    const both = Object.keys(first).filter((k) => k in alwaysMatch);
    if (both.length > 0) throw new WebDriverError('invalid argument', `Capability ${both[0]} is in both alwaysMatch and firstMatch`);
    return { ...alwaysMatch, ...first };
  });
  const requirements = merged.map(requirementOf);
  for (const r of requirements) {
    if (!r.platform && !r.unknownPlatform && !r.deviceId) {
      throw new WebDriverError('invalid argument', 'Say which device to use: platformName (android, ios), browserName "chrome", or df:deviceId');
    }
  }
  const platformCaps = merged[0]!;
  const timeout = platformCaps['df:queueTimeoutSeconds'];
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0 || timeout > 3_600)) {
    throw new WebDriverError('invalid argument', 'df:queueTimeoutSeconds must be a number of seconds between 0 and 3600');
  }
  // `df:recordVideo` and `df:record` say the same (a recording is the session's video where the host encodes one).
  const [recordCap, recordVideo] = [platformCaps['df:record'], platformCaps['df:recordVideo']];
  if (recordCap !== undefined && typeof recordCap !== 'boolean') throw new WebDriverError('invalid argument', 'df:record must be true or false');
  if (recordVideo !== undefined && typeof recordVideo !== 'boolean') throw new WebDriverError('invalid argument', 'df:recordVideo must be true or false');
  if (recordCap !== undefined && recordVideo !== undefined && recordCap !== recordVideo) throw new WebDriverError('invalid argument', 'df:record and df:recordVideo disagree');
  const record = recordVideo ?? recordCap;
  return {
    requirements,
    record: record ?? null,
    build: optionalString(platformCaps, 'df:build'),
    name: optionalString(platformCaps, 'df:name'),
    queueTimeoutMs: typeof timeout === 'number' ? Math.round(timeout * 1000) : null,
    forwarded: { capabilities: { alwaysMatch: withoutPlatformKeys(alwaysMatch), firstMatch: firstMatch.map(withoutPlatformKeys) } },
  };
}

const same = (a: string | null | undefined, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * A browser asked for without naming a device or asking for mobile emulation is a desktop browser: a
 * desktop suite must not land on an emulated phone because it happened to be free.
 */
const wantsDesktop = (r: DeviceRequirement) => r.platform === 'web' && !r.mobileEmulation && !r.deviceName && !r.udid && !r.deviceId;

/**
 * Whether a device satisfies one requirement. Browser devices are Chromium: another browser name on
 * the web platform matches nothing; phone and tablet browser profiles only when named or asked for by
 * mobile emulation. `appium:deviceName` matches the device's name, alias or model;
 * `appium:platformVersion` its OS version or a prefix of it (`14` matches `14.1`); `appium:udid` its id
 * or name.
 */
export function deviceMatches(device: Pick<DeviceView, 'id' | 'name' | 'alias' | 'platform' | 'type' | 'osVersion' | 'model'>, r: DeviceRequirement): boolean {
  if (r.unknownPlatform) return false;
  if (r.deviceId && device.id !== r.deviceId) return false;
  if (r.platform && device.platform !== r.platform) return false;
  if (device.platform === 'web' && r.browserName && !CHROMIUM.has(r.browserName)) return false;
  if (device.platform === 'web' && device.type !== 'desktop' && wantsDesktop(r)) return false;
  if (r.deviceName && !same(device.name, r.deviceName) && !same(device.alias, r.deviceName) && !same(device.model, r.deviceName)) return false;
  if (r.platformVersion && !(device.osVersion === r.platformVersion || device.osVersion.startsWith(`${r.platformVersion}.`))) return false;
  if (r.udid && device.id !== r.udid && device.name !== r.udid) return false;
  return true;
}

/** Whether a device satisfies any of the request's requirements. */
export const matchesAny = (device: Parameters<typeof deviceMatches>[0], request: Pick<NewSessionRequest, 'requirements'>) =>
  request.requirements.some((r) => deviceMatches(device, r));
