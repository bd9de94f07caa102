import { parse, parseBinary } from 'plist';
import type { AppMetadata } from './types.js';
import type { ZipReader } from './zip.js';

const INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;

/** Whether the archive looks like an IPA: an app bundle's Info.plist under `Payload/`. */
export const isIpa = (zip: ZipReader) => zip.names.some((n) => INFO_PLIST.test(n));

/** A property list, binary (`bplist00`) or XML. */
export function parsePlist(bytes: Buffer): Record<string, unknown> {
  const value: unknown = bytes.subarray(0, 8).toString('latin1') === 'bplist00' ? parseBinary(bytes) : parse(bytes.toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('Info.plist is not a dictionary');
  return value as Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/** An IPA's metadata from `Payload/<App>.app/Info.plist`: bundle id, names, versions, OS levels, device capabilities. */
export async function readIpa(zip: ZipReader): Promise<AppMetadata> {
  const path = zip.names.find((n) => INFO_PLIST.test(n));
  const bytes = path ? await zip.read(path, 8 * 1024 * 1024) : null;
  if (!bytes) throw new Error('The IPA has no Payload/<App>.app/Info.plist');
  const info = parsePlist(bytes);
  const identifier = str(info.CFBundleIdentifier);
  if (!identifier) throw new Error('Info.plist names no CFBundleIdentifier');
  const versionCode = str(info.CFBundleVersion) ?? '0';
  const capabilities = Array.isArray(info.UIRequiredDeviceCapabilities)
    ? info.UIRequiredDeviceCapabilities
    : info.UIRequiredDeviceCapabilities && typeof info.UIRequiredDeviceCapabilities === 'object'
      ? Object.entries(info.UIRequiredDeviceCapabilities as Record<string, unknown>).filter(([, v]) => v === true).map(([k]) => k)
      : [];
  return {
    platform: 'ios',
    identifier,
    name: str(info.CFBundleDisplayName) ?? str(info.CFBundleName) ?? identifier,
    versionName: str(info.CFBundleShortVersionString) ?? versionCode,
    versionCode,
    minOs: str(info.MinimumOSVersion) ?? '',
    targetOs: str(info.DTPlatformVersion) ?? '',
    abis: capabilities.filter((c): c is string => typeof c === 'string' && /^(arm64|armv7|armv7s|arm64e)$/.test(c)).sort(),
    permissions: Object.keys(info).filter((k) => /^NS\w+UsageDescription$/.test(k)).sort(),
    // IPA icons are stored in Apple's "CgBI" PNG variant, which browsers cannot show as is.
    icon: null,
  };
}
