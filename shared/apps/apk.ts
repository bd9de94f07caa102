import { attr, parseBinaryXml, type XmlElement, type XmlValue } from './axml.js';
import { ResourceTable } from './arsc.js';
import type { AppMetadata } from './types.js';
import type { ZipReader } from './zip.js';

const text = (v: XmlValue | undefined): string | null => (v === undefined || typeof v === 'object' ? null : String(v));

/**
 * An APK's metadata from its own bytes: the binary manifest (package, versions, SDK levels,
 * permissions), `resources.arsc` for a label or icon given as a resource, and the `lib/<abi>/`
 * folders for its native ABIs. What `aapt dump badging` reports, without aapt.
 */
export async function readApk(zip: ZipReader): Promise<AppMetadata> {
  const raw = await zip.read('AndroidManifest.xml', 16 * 1024 * 1024);
  if (!raw) throw new Error('The APK has no AndroidManifest.xml');
  const manifest = parseBinaryXml(raw);
  if (manifest.name !== 'manifest') throw new Error('AndroidManifest.xml has no <manifest> element');
  const identifier = text(attr(manifest, 'package'));
  if (!identifier) throw new Error('The manifest names no package');
  const child = (name: string) => manifest.children.find((c) => c.name === name);
  const usesSdk = child('uses-sdk');
  const application = child('application');

  let table: ResourceTable | null = null;
  const resources = async () => {
    if (table) return table;
    const arsc = await zip.read('resources.arsc', 64 * 1024 * 1024);
    table = arsc ? new ResourceTable(arsc) : null;
    return table;
  };
  const resolveText = async (v: XmlValue | undefined): Promise<string | null> => {
    if (v === undefined) return null;
    if (typeof v !== 'object') return String(v);
    const values = (await resources())?.resolve(v.ref) ?? [];
    const best = values.find((r) => r.isDefault) ?? values[0];
    return best && typeof best.value !== 'object' ? String(best.value) : null;
  };

  const minOs = text(attr(usesSdk, 'minSdkVersion')) ?? '1';
  const targetOs = text(attr(usesSdk, 'targetSdkVersion')) ?? minOs;
  const versionCode = text(attr(manifest, 'versionCode')) ?? '0';
  const versionName = (await resolveText(attr(manifest, 'versionName'))) ?? versionCode;
  const label = await resolveText(attr(application, 'label'));
  const permissions = [...new Set(manifest.children.filter((c: XmlElement) => c.name === 'uses-permission' || c.name === 'uses-permission-sdk-23').map((c) => text(attr(c, 'name'))).filter((n): n is string => !!n))];
  const abis = [...new Set(zip.names.map((n) => /^lib\/([^/]+)\/[^/]+\.so$/.exec(n)?.[1]).filter((n): n is string => !!n))].sort();

  return {
    platform: 'android',
    identifier,
    name: label && label.trim() !== '' ? label : identifier,
    versionName,
    versionCode,
    minOs,
    targetOs,
    abis,
    permissions,
    icon: await apkIcon(zip, attr(application, 'icon'), resources),
  };
}

/** The launcher icon as a bitmap: the densest PNG or WebP the icon resource has (adaptive XML icons are skipped). */
async function apkIcon(zip: ZipReader, icon: XmlValue | undefined, resources: () => Promise<ResourceTable | null>): Promise<AppMetadata['icon']> {
  let paths: { path: string; density: number }[] = [];
  if (typeof icon === 'string') paths = [{ path: icon, density: 0 }];
  else if (icon && typeof icon === 'object') {
    paths = ((await resources())?.resolve(icon.ref) ?? []).filter((r) => typeof r.value === 'string').map((r) => ({ path: r.value as string, density: r.density >= 0xfffe ? -1 : r.density }));
  }
  const bitmaps = paths.filter((p) => /\.(png|webp)$/i.test(p.path)).sort((a, b) => b.density - a.density);
  for (const candidate of bitmaps) {
    const bytes = await zip.read(candidate.path, 4 * 1024 * 1024).catch(() => null);
    if (bytes) return { bytes, contentType: candidate.path.toLowerCase().endsWith('.webp') ? 'image/webp' : 'image/png' };
  }
  return null;
}
