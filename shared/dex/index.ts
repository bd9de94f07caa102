import { openZip } from '../apps/index.js';
import { readTestApk, type TestApkListing } from './apk.js';

export { DexError, type DexErrorReason } from './bytes.js';
export { parseDex, type AnnotationVisibility, type DexAnnotation, type DexClass, type DexMethod } from './dex.js';
export { findTests, javaName, type TestMethod } from './tests.js';
export { dexEntries, NotATestApkError, readTestApk, type TestApkListing } from './apk.js';

/**
 * The tests of the APK at `path` (every `classes*.dex` of it) and its instrumentation. A file that is
 * not a zip throws `NotAZipError` (`shared/apps`), one that is not a test APK `NotATestApkError`, and
 * DEX bytes that cannot be read `DexError`.
 */
export async function readTestApkFile(path: string): Promise<TestApkListing> {
  const zip = await openZip(path);
  try {
    return await readTestApk(zip);
  } finally {
    zip.close();
  }
}
