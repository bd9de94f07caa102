import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ScriptedSuite } from '../adbd/instrument.js';
import type { AdbdPeer } from '../adbd/peer.js';
import { encodeBinaryXml, type XmlNode } from './axml.js';
import { catalogued } from './catalog.js';
import { http } from './server.js';
import { zipOf } from './zip.js';

const run = promisify(execFile);

/** Debian's smali assembler and dexdump: the independent makers and readers of DEX files. */
export const SMALI = '/usr/bin/smali';
export const DEXDUMP = '/usr/bin/dexdump';
export const haveDexTools = (): boolean => existsSync(SMALI) && existsSync(DEXDUMP);

/** The smali sources of the test suite: one folder per DEX file (test/fixtures/dex/README.md). */
export const DEX_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'dex');
export const FIXTURE_DEX_FILES = ['classes.dex', 'classes2.dex'] as const;

/** Assembles `test/fixtures/dex/<name minus .dex>/` with smali; answers each DEX file's bytes by name. */
export async function assembleFixtureDex(): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-dex-'));
  try {
    const out = new Map<string, Buffer>();
    for (const name of FIXTURE_DEX_FILES) {
      const path = join(dir, name);
      await run(SMALI, ['assemble', '--jobs', '1', '-o', path, join(DEX_FIXTURES, name.replace(/\.dex$/, ''))]);
      out.set(name, readFileSync(path));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A binary manifest: the package, and an `<instrumentation>` when `instrumentation` is given. */
export function testManifest(pkg: string, instrumentation?: { runner: string; targetPackage: string }): Buffer {
  const children: XmlNode[] = [{ name: 'uses-sdk', attributes: { 'android:minSdkVersion': 21, 'android:targetSdkVersion': 34 } }];
  if (instrumentation) children.push({ name: 'instrumentation', attributes: { 'android:name': instrumentation.runner, 'android:targetPackage': instrumentation.targetPackage, 'android:label': `Tests for ${instrumentation.targetPackage}` } });
  children.push({ name: 'application', attributes: { 'android:label': pkg } });
  return encodeBinaryXml({ name: 'manifest', attributes: { 'android:versionCode': 7, 'android:versionName': '1.7', package: pkg }, children });
}

/** The fixture suite as a test APK: a binary manifest with AndroidJUnitRunner and both DEX files. */
export async function fixtureTestApk(options: { pkg?: string; targetPackage?: string; instrumentation?: boolean } = {}): Promise<Buffer> {
  const dex = await assembleFixtureDex();
  const pkg = options.pkg ?? 'com.example.app.test';
  const manifest = testManifest(pkg, options.instrumentation === false ? undefined : { runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: options.targetPackage ?? 'com.example.app' });
  return zipOf([['AndroidManifest.xml', manifest], ...[...dex].map(([name, bytes]) => [name, bytes] as const)]);
}

/** A run's builds catalogued and its first runnable test scripted to hang on the device (the others pass). */
export interface HangingSuite {
  appVersionId: string;
  testVersionId: string;
  hung: { className: string; methodName: string };
}

/**
 * Catalogues the fixture app (package `pkg`) and its instrumentation test APK through `baseUrl`, and
 * scripts the adbd peer's instrumentation so that the first runnable test of the listing hangs and every
 * other passes: a run of `hung.className` stays on its device until something ends it.
 */
export async function catalogueHangingSuite(baseUrl: string, token: string, peer: AdbdPeer, pkg = 'com.example.app'): Promise<HangingSuite> {
  const dex = await assembleFixtureDex();
  const app = (await catalogued(baseUrl, token, 'app.apk', zipOf([['AndroidManifest.xml', testManifest(pkg)], ['classes.dex', dex.get('classes.dex')!]]))).versionId;
  const tests = (await catalogued(baseUrl, token, 'app-androidTest.apk', await fixtureTestApk())).versionId;
  const listing = (await http(baseUrl, 'GET', `/df/api/files/app-versions/${tests}/tests`, { token })).body as { runner: string; targetPackage: string; tests: { className: string; methodName: string; ignored: boolean }[] };
  const hung = listing.tests.find((t) => !t.ignored)!;
  const suite: ScriptedSuite = {
    testPackage: `${pkg}.test`,
    runner: listing.runner,
    targetPackage: listing.targetPackage,
    tests: listing.tests.map((t) => ({ className: t.className, methodName: t.methodName, outcome: t === hung ? { kind: 'hang' } : { kind: 'pass' }, durationMs: 50 })),
  };
  peer.scriptSuite(suite);
  return { appVersionId: app, testVersionId: tests, hung: { className: hung.className, methodName: hung.methodName } };
}
