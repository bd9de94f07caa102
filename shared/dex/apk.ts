import { parseBinaryXml, type XmlElement, type ZipReader } from '../apps/index.js';
import { DexError } from './bytes.js';
import { parseDex, type DexClass } from './dex.js';
import { findTests, type TestMethod } from './tests.js';

/** What a test APK runs: its instrumentation and its tests. */
export interface TestApkListing {
  /** The instrumentation's class (`<instrumentation android:name>`), `androidx.test.runner.AndroidJUnitRunner`. */
  runner: string;
  /** The package under test (`android:targetPackage`). */
  targetPackage: string;
  tests: TestMethod[];
}

/** Thrown for an APK that is not a test APK: no `<instrumentation>` in its manifest, or no tests in its code. */
export class NotATestApkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotATestApkError';
  }
}

const ATTR_NAME = 0x01010003;
const ATTR_TARGET_PACKAGE = 0x01010021;
const MAX_DEX_BYTES = 128 * 1024 * 1024;

/** An attribute by its framework resource id (names may be stripped), else by name. */
const attrOf = (element: XmlElement, resId: number, name: string): string | null => {
  const found = element.attributes.find((a) => a.resId === resId) ?? element.attributes.find((a) => a.name === name);
  return typeof found?.value === 'string' && found.value !== '' ? found.value : null;
};

/** `classes.dex`, `classes2.dex`, … in the order the runtime loads them. */
export function dexEntries(names: readonly string[]): string[] {
  const n = (name: string) => Number(/^classes(\d*)\.dex$/.exec(name)![1] || 1);
  return names.filter((name) => /^classes(\d*)\.dex$/.test(name)).sort((a, b) => n(a) - n(b));
}

/**
 * The instrumentation and tests of the APK open in `zip`. Throws `NotATestApkError` for an APK that is
 * not a test APK, `DexError` for DEX bytes that cannot be read, and the manifest parser's error for a
 * manifest that is not binary XML.
 */
export async function readTestApk(zip: ZipReader): Promise<TestApkListing> {
  const raw = await zip.read('AndroidManifest.xml', 16 * 1024 * 1024);
  if (!raw) throw new NotATestApkError('The archive has no AndroidManifest.xml');
  const manifest = parseBinaryXml(raw);
  const instrumentation = manifest.children.find((c) => c.name === 'instrumentation');
  if (!instrumentation) throw new NotATestApkError('The manifest declares no <instrumentation>: not a test APK');
  const pkg = manifest.attributes.find((a) => a.name === 'package')?.value;
  let runner = attrOf(instrumentation, ATTR_NAME, 'name');
  if (!runner) throw new NotATestApkError('The <instrumentation> element names no runner');
  // A name starting with a dot is relative to the manifest's package, as for any component.
  if (runner.startsWith('.') && typeof pkg === 'string') runner = pkg + runner;
  const targetPackage = attrOf(instrumentation, ATTR_TARGET_PACKAGE, 'targetPackage') ?? (typeof pkg === 'string' ? pkg : '');

  const classes: DexClass[] = [];
  for (const name of dexEntries(zip.names)) {
    let bytes: Buffer | null;
    try {
      bytes = await zip.read(name, MAX_DEX_BYTES);
    } catch (err) {
      throw new DexError('malformed', `${name} cannot be read: ${(err as Error).message}`);
    }
    if (!bytes) continue;
    try {
      classes.push(...parseDex(bytes));
    } catch (err) {
      if (err instanceof DexError) throw new DexError(err.reason, `${name}: ${err.message}`);
      throw err;
    }
  }
  const tests = findTests(classes);
  if (tests.length === 0) throw new NotATestApkError('The APK declares an instrumentation but its code has no tests');
  return { runner, targetPackage, tests };
}
