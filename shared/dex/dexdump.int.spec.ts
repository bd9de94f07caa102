import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AAPT } from '#test/helpers/apps.js';
import { dexdumpClasses, testsOfDump } from '#test/helpers/dexdump.js';
import { assembleFixtureDex, fixtureTestApk, haveDexTools } from '#test/helpers/test-apk.js';
import { zipOf } from '#test/helpers/zip.js';
import { NotAZipError } from '../apps/index.js';
import { DexError, NotATestApkError, parseDex, readTestApkFile, type TestMethod } from './index.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const lines = (tests: readonly TestMethod[]) => tests.map((t) => `${t.className}#${t.methodName}${t.ignored ? ' ignored' : ''} [${[...t.annotations].sort().join(' ')}]`).sort();

/** The test APK shipped in npm with the UiAutomator2 server (built by its project, not here). */
function uiautomator2TestApk(): string {
  const driver = dirname(require.resolve('appium-uiautomator2-driver/package.json'));
  const server = dirname(createRequire(join(driver, 'package.json')).resolve('appium-uiautomator2-server/package.json'));
  return join(server, 'apks', 'appium-uiautomator2-server-debug-androidTest.apk');
}

describe.skipIf(!haveDexTools())('reading test APKs as dexdump and aapt do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-dexdump-'));
  let dex = new Map<string, Buffer>();
  beforeAll(async () => {
    dex = await assembleFixtureDex();
    for (const [name, bytes] of dex) writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'suite.apk'), await fixtureTestApk());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the tests of the smali suite that dexdump shows, across both DEX files', async () => {
    const dumped = [...(await dexdumpClasses(join(dir, 'classes.dex'))), ...(await dexdumpClasses(join(dir, 'classes2.dex')))];
    const expected = testsOfDump(dumped);
    const listing = await readTestApkFile(join(dir, 'suite.apk'));
    expect(lines(listing.tests)).toEqual(expected);
    // What the fixtures were written to hold (test/fixtures/dex/README.md), so an empty comparison cannot pass.
    expect(listing.tests).toHaveLength(33);
    expect(listing.tests.filter((t) => t.ignored).map((t) => `${t.className}#${t.methodName}`)).toEqual([
      'com.example.app.CalculatorTest#divideByZero',
      'com.example.app.IgnoredSuiteTest#firstIgnored',
      'com.example.app.IgnoredSuiteTest#secondIgnored',
      'com.example.app.IgnoredSuiteTest#thirdIgnored',
      'com.example.app.LoginScreenTest#scrollsToEnd',
      'com.example.app.SettingsScreenTest#scrollsToEnd',
      'com.example.app.legacy.MoreLegacyTest#testIgnoredByAnnotation',
    ]);
    expect(new Set(listing.tests.map((t) => t.className))).not.toContain('com.example.app.BaseScreenTest');
    expect(listing.tests.find((t) => t.methodName === 'syncsOverNetwork')!.annotations.sort()).toEqual(['androidx.test.filters.MediumTest', 'com.example.app.Flaky', 'org.junit.Test']);
    expect(listing.tests.filter((t) => t.className === 'com.example.app.Outer$Inner')).toHaveLength(2);
    expect(listing).toMatchObject({ runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: 'com.example.app' });
  });

  it('reads the instrumentation of the manifest it builds as aapt does', async () => {
    const { stdout } = await run(AAPT, ['dump', 'xmltree', join(dir, 'suite.apk'), 'AndroidManifest.xml']);
    expect(stdout).toMatch(/E: instrumentation[\s\S]*android:name\(0x01010003\)="androidx\.test\.runner\.AndroidJUnitRunner"[\s\S]*android:targetPackage\(0x01010021\)="com\.example\.app"/);
  });

  it("lists exactly the one @Test of the UiAutomator2 server's test APK, with aapt's runner and target", async () => {
    const apk = uiautomator2TestApk();
    const { stdout } = await run(AAPT, ['dump', 'xmltree', apk, 'AndroidManifest.xml']);
    const instrumentation = stdout.slice(stdout.indexOf('E: instrumentation'));
    const runner = /android:name\(0x01010003\)="([^"]+)"/.exec(instrumentation)![1];
    const target = /android:targetPackage\(0x01010021\)="([^"]+)"/.exec(instrumentation)![1];
    const unpacked = join(dir, 'uia2');
    await run('unzip', ['-q', '-o', apk, 'classes*.dex', '-d', unpacked]);
    const dumped = [];
    for (const n of ['', '2', '3', '4']) dumped.push(...(await dexdumpClasses(join(unpacked, `classes${n}.dex`))));
    const listing = await readTestApkFile(apk);
    expect(lines(listing.tests)).toEqual(testsOfDump(dumped));
    expect(listing.tests.map((t) => `${t.className}#${t.methodName}`)).toEqual(['io.appium.uiautomator2.server.test.AppiumUiAutomator2Server#startServer']);
    expect(listing).toMatchObject({ runner, targetPackage: target });
    expect([runner, target]).toEqual(['androidx.test.runner.AndroidJUnitRunner', 'io.appium.uiautomator2.server']);
  });

  it('answers a DexError, never another error, for every cut and for flipped bytes of a real DEX file', () => {
    const whole = dex.get('classes.dex')!;
    const outcome = (bytes: Buffer) => {
      try {
        parseDex(bytes);
        return 'read';
      } catch (err) {
        if (err instanceof DexError) return err.reason;
        throw err;
      }
    };
    for (let n = 0; n < whole.length; n++) expect(outcome(whole.subarray(0, n))).not.toBe('read');
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const reasons = new Set<string>();
    for (let k = 0; k < 2000; k++) {
      const garbled = Buffer.from(whole);
      for (let f = 0; f < 4; f++) garbled[Math.floor(random() * garbled.length)] = Math.floor(random() * 256);
      reasons.add(outcome(garbled));
    }
    expect(reasons.has('read')).toBe(true);
    expect([...reasons].some((r) => r !== 'read')).toBe(true);
  });

  it('refuses what is not a test APK, and what is not a zip', async () => {
    const write = (name: string, bytes: Buffer) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    };
    await expect(readTestApkFile(write('app.apk', await fixtureTestApk({ instrumentation: false })))).rejects.toBeInstanceOf(NotATestApkError);
    const noTests = zipOf([['AndroidManifest.xml', (await import('#test/helpers/test-apk.js')).testManifest('p.test', { runner: '.Runner', targetPackage: 'p' })]]);
    await expect(readTestApkFile(write('empty.apk', noTests))).rejects.toThrow(/no tests/);
    const garbled = zipOf([['AndroidManifest.xml', (await import('#test/helpers/test-apk.js')).testManifest('p.test', { runner: '.Runner', targetPackage: 'p' })], ['classes.dex', dex.get('classes.dex')!.subarray(0, 500)]]);
    await expect(readTestApkFile(write('garbled.apk', garbled))).rejects.toMatchObject({ name: 'DexError', reason: 'truncated', message: expect.stringMatching(/^classes\.dex: /) });
    await expect(readTestApkFile(write('text.apk', Buffer.from('not a zip')))).rejects.toBeInstanceOf(NotAZipError);
  });
});

if (!haveDexTools()) console.log('dexdump or smali is not installed: the DEX comparison with the real tools is skipped');
