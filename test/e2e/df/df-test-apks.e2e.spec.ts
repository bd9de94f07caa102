import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readTestApkFile, type TestMethod } from '#shared/dex/index.js';
import { referenceApks, testIpa } from '#test/helpers/apps.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { catalogued as catalogueBuild } from '#test/helpers/catalog.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { assembleFixtureDex, fixtureTestApk, haveDexTools, testManifest } from '#test/helpers/test-apk.js';
import { zipOf } from '#test/helpers/zip.js';
import { CHROMIUM, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * A test APK's tests through the started server (`GET /df/api/files/app-versions/{id}/tests`): the
 * smali suite of test/fixtures/dex packed as a test APK, uploaded by signed URL and catalogued, then
 * listed; a normal APK, an IPA, unreadable DEX bytes and stored bytes changed behind the platform
 * refused with their codes; another company's version 404. Then the files page in Chromium shows the
 * listing, checked with axe.
 */
let server: TestServer;
let admin: SignedUpCompany;
let other: SignedUpCompany;
const dir = mkdtempSync(join(tmpdir(), 'qa-test-apks-'));
const versions: { suite?: string; normal?: string; ipa?: string; garbled?: string } = {};

const api = (method: string, path: string, body?: unknown, as = admin.token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });

/** Uploads by signed URL, confirms, and answers the catalogued version's id (and the file's). */
const catalogued = (name: string, bytes: Buffer) => catalogueBuild(server.url, admin.token, name, bytes);
const catalogue = async (name: string, bytes: Buffer) => (await catalogued(name, bytes)).versionId;

const lines = (tests: readonly TestMethod[]) => tests.map((t) => `${t.className}#${t.methodName}${t.ignored ? ' ignored' : ''} [${[...t.annotations].sort().join(' ')}]`);

describe.skipIf(!haveDexTools())('the tests of a test APK, through the server', () => {
  let suite: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signUpCompany(server.url, 'test-apks');
    other = await signUpCompany(server.url, 'test-apks-other');
    suite = await fixtureTestApk();
    const dex = await assembleFixtureDex();
    const garbled = zipOf([
      ['AndroidManifest.xml', testManifest('com.example.garbled.test', { runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: 'com.example.garbled' })],
      ['classes.dex', dex.get('classes.dex')!.subarray(0, 600)],
    ]);
    versions.suite = await catalogue('suite-androidTest.apk', suite);
    versions.normal = await catalogue('settings.apk', readFileSync(referenceApks().settings));
    versions.ipa = await catalogue('FarmApp.ipa', testIpa({ bundleId: 'com.example.farm', name: 'FarmApp', version: '1.0', build: '1' }));
    versions.garbled = await catalogue('garbled-androidTest.apk', garbled);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the version's runner, target package and tests as the reader reads the same bytes", async () => {
    const r = await api('GET', `/files/app-versions/${versions.suite}/tests`);
    expect(r.status).toBe(200);
    writeFileSync(join(dir, 'suite.apk'), suite);
    const direct = await readTestApkFile(join(dir, 'suite.apk'));
    expect(r.body).toMatchObject({ runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: 'com.example.app' });
    expect(lines(r.body.tests)).toEqual(lines(direct.tests));
    expect(r.body.tests).toHaveLength(33);
    expect(r.body.tests).toContainEqual({ className: 'com.example.app.IgnoredSuiteTest', methodName: 'firstIgnored', annotations: expect.arrayContaining(['org.junit.Ignore', 'androidx.test.filters.LargeTest']), ignored: true });
    // Asked again (a cached listing): the same answer.
    expect((await api('GET', `/files/app-versions/${versions.suite}/tests`)).body).toEqual(r.body);
  });

  it('refuses a normal APK and an IPA with 409 NOT_A_TEST_APK, and unreadable DEX bytes with 422 DEX_UNREADABLE', async () => {
    for (const id of [versions.normal, versions.ipa]) {
      const r = await api('GET', `/files/app-versions/${id}/tests`);
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('NOT_A_TEST_APK');
    }
    const garbled = await api('GET', `/files/app-versions/${versions.garbled}/tests`);
    expect(garbled.status).toBe(422);
    expect(garbled.body).toMatchObject({ code: 'DEX_UNREADABLE', message: expect.stringContaining('classes.dex') });
  });

  it('refuses to read stored bytes changed behind the platform (409 FILE_INTEGRITY_FAILED), and reads them once they are back', async () => {
    const bytes = await fixtureTestApk({ pkg: 'com.example.tampered.test' });
    const { fileId, versionId } = await catalogued('tampered-androidTest.apk', bytes);
    const stored = join(server.dataDir, 'blobs', 'objects', `df/company-${admin.companyId}/files/${fileId}`);
    writeFileSync(stored, randomBytes(bytes.length));
    const refused = await api('GET', `/files/app-versions/${versionId}/tests`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('FILE_INTEGRITY_FAILED');
    writeFileSync(stored, bytes);
    const read = await api('GET', `/files/app-versions/${versionId}/tests`);
    expect(read.status).toBe(200);
    expect(read.body.tests).toHaveLength(33);
  });

  it("answers 404 for another company's version and for an unknown one", async () => {
    expect((await api('GET', `/files/app-versions/${versions.suite}/tests`, undefined, other.token)).status).toBe(404);
    expect((await api('GET', '/files/app-versions/no-such-version/tests')).status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    expect(doc.paths['/df/api/files/app-versions/{versionId}/tests'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DfTestApk' });
    expect(Object.keys(doc.components.schemas.DfTestMethod.properties).sort()).toEqual(['annotations', 'className', 'ignored', 'methodName']);
  });

  describe.skipIf(!existsSync(CHROMIUM))('on the files page', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 180_000);
    afterAll(async () => browser?.close());
    afterEach(() => {
      expect(pageErrors.splice(0)).toEqual([]);
    });

    it("shows a test APK version's runner, target, count and tests, and says when a build is not one", { timeout: 180_000 }, async () => {
      const { context, page } = await signedIn(browser, server.url, admin.email, admin.password);
      await page.goto(`${server.url}/files`);
      const suiteApp = page.getByRole('listitem').filter({ hasText: 'com.example.app.test' });
      await suiteApp.getByRole('button', { name: 'Versions' }).click();
      await suiteApp.getByRole('button', { name: 'Tests of version 1.7' }).click();
      const table = page.getByRole('table', { name: 'Tests of version 1.7' });
      await table.waitFor();
      expect(await suiteApp.locator('dl.facts').innerText()).toMatch(/Runner\s+androidx\.test\.runner\.AndroidJUnitRunner\s+Target package\s+com\.example\.app\s+Tests\s+33 \(7 ignored\)/);
      expect(await table.locator('tbody tr').count()).toBe(33);
      const ignoredRow = table.getByRole('row').filter({ hasText: 'com.example.app.CalculatorTest#divideByZero' });
      expect(await ignoredRow.innerText()).toMatch(/@SmallTest.*@Ignore[\s\S]*Ignored/);
      const plainRow = table.getByRole('row').filter({ hasText: 'com.example.app.Outer$Inner#innerAlsoWorks' });
      expect(await plainRow.innerText()).not.toMatch(/Ignored/);
      await expectAccessible(page, 'the files page with a test listing');

      const normal = page.getByRole('listitem').filter({ hasText: 'io.appium.settings' }).first();
      await normal.getByRole('button', { name: 'Versions' }).click();
      await normal.getByRole('button', { name: /^Tests of version/ }).first().click();
      await normal.getByText('This build is not a test APK').waitFor();
      await expectAccessible(page, 'the files page saying a build is not a test APK');
      await context.close();
    });
  });
});

if (!haveDexTools()) console.log('dexdump or smali is not installed: the test APK end-to-end spec is skipped');
