import { readApk } from './apk.js';
import { isIpa, readIpa } from './ipa.js';
import type { AppMetadata } from './types.js';
import { openZip } from './zip.js';

export { parseBinaryXml, type XmlElement } from './axml.js';
export { parsePlist } from './ipa.js';
export type { AppMetadata } from './types.js';
export { NotAZipError, openZip, type ZipReader } from './zip.js';

/** The first bytes of every zip archive (APKs and IPAs are zips). */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether a file name says it is an app build. */
export const appKindOfName = (name: string): 'android' | 'ios' | null => (/\.apk$/i.test(name) ? 'android' : /\.ipa$/i.test(name) ? 'ios' : null);

/**
 * The app metadata of an APK or IPA at `path`, or null for a zip that is neither. A file that is not
 * a zip throws `NotAZipError`; an APK or IPA whose manifest cannot be read throws.
 */
export async function readAppArchive(path: string): Promise<AppMetadata | null> {
  const zip = await openZip(path);
  try {
    if (zip.names.includes('AndroidManifest.xml')) return await readApk(zip);
    if (isIpa(zip)) return await readIpa(zip);
    return null;
  } finally {
    zip.close();
  }
}
export * from './types.js';
