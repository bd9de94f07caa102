import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '#test/helpers/server.js';
import { ROOT, runCli, startClientFarm, type ClientFarm } from './farm.js';

/**
 * The three client packages as a team outside this repository gets them: built and packed, listed by
 * the running server's manifest, downloaded from it and installed with npm into a project in the
 * system's temporary folder (their dependencies from npm's cache). There the READMEs' code, as written,
 * type-checks, and the READMEs' WebdriverIO and Playwright configs run suites of two spec files each
 * with two workers on the farm's two browser devices: the WebdriverIO one with a device key (`dfk_`),
 * the Playwright one with a pipeline key (`qak_`, `devices` scope).
 */
/**
 * Tests per suite, the last failing on purpose, and workers of each runner: small by default, so the run
 * stays short; `PACKAGES_SUITE_TESTS=60 PACKAGES_WORKERS=4` is the fleet-sized run (docs/modules/webdriver-hub.md).
 */
const TESTS = Math.max(2, Number(process.env.PACKAGES_SUITE_TESTS ?? 3));
const WORKERS = Math.max(1, Number(process.env.PACKAGES_WORKERS ?? 3));
const READMES = ['clients/api/README.md', 'clients/wdio-service/README.md', 'clients/playwright-fixture/README.md'];
const PACKAGES = ['@qa-platform/client', '@qa-platform/wdio-service', '@qa-platform/playwright-fixture'];
/** What the temporary project installs beside the packages: the repository's own versions, so npm's cache has them. */
const TOOLS = ['typescript', '@types/node', 'webdriverio', '@wdio/types', '@wdio/cli', '@wdio/local-runner', '@wdio/mocha-framework', '@wdio/spec-reporter', '@playwright/test'];
const versionOf = (name: string): string => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** The README's TypeScript blocks that start with a `// <file>` line: the file name and the block as written. */
function codeBlocks(markdown: string): { file: string; code: string }[] {
  return [...markdown.matchAll(/```ts\n(\/\/ ([\w./-]+)\n[\s\S]*?)```/g)].map((m) => ({ file: m[2]!, code: m[1]! }));
}

let farm: ClientFarm;
let project: string;
let pipelineKey: string;
let readmeFiles: Map<string, string>;

interface Session { id: string; name: string; status: string; outcome: string | null; outcomeReason: string | null }
interface Manifest { node: string; packages: { name: string; version: string; file: string; url: string; sha256: string; size: number; install: string }[]; install: string }

beforeAll(async () => {
  // Builds only when a source is newer than the tarballs (the run's global setup built them once already).
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-clients.mjs')], { stdio: 'inherit' });
  project = realpathSync(mkdtempSync(join(tmpdir(), 'qa-packages-')));
  farm = await startClientFarm('packages', { devices: 2 });
  const created = await http(farm.server.url, 'POST', '/api/v1/api-keys', { token: farm.token, body: { name: 'packages pipeline', scopes: ['devices'] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  pipelineKey = created.body.key as string;
  readmeFiles = new Map(READMES.flatMap((readme) => codeBlocks(readFileSync(join(ROOT, readme), 'utf8')).map((b) => [b.file, b.code] as const)));
}, 300_000);

afterAll(async () => {
  await farm?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Writes a file of the temporary project (folders made as needed). */
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
};

describe('the client packages outside the repository', () => {
  it('install from the server, type-check the READMEs as written, and run WebdriverIO and Playwright suites on the farm with more workers than devices', { timeout: 600_000 }, async () => {
    // The READMEs name the files their blocks are.
    expect([...readmeFiles.keys()].sort()).toEqual(['list-devices.ts', 'playwright.config.ts', 'test/specs/checkout.ts', 'tests/checkout.spec.ts', 'wdio.conf.ts']);

    const manifest = await farm.api<Manifest>('GET', '/client-config/packages-manifest');
    expect(manifest.status).toBe(200);
    expect(manifest.body.packages.map((p) => p.name)).toEqual(PACKAGES);
    for (const p of manifest.body.packages) {
      expect(p.url).toBe(`${farm.server.url}/df/downloads/packages/${p.file}`);
      // Public: no credential; the bytes are the ones the manifest describes.
      const res = await fetch(p.url);
      expect(res.status, p.file).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({ size: p.size, sha256: p.sha256 });
    }
    const unknown = await fetch(`${farm.server.url}/df/downloads/packages/qa-platform-client-0.0.0.tgz`);
    expect(unknown.status).toBe(404);

    // The manifest's own install line, as a user runs it, with the runners and TypeScript beside it.
    write('package.json', `${JSON.stringify({ name: 'outside-project', private: true, type: 'module' }, null, 2)}\n`);
    const install = manifest.body.install.split(' ');
    expect(install.slice(0, 2)).toEqual(['npm', 'install']);
    const npm = await runCli('npm', [...install.slice(1), ...TOOLS.map((t) => `${t}@${versionOf(t)}`), '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { npm_config_update_notifier: 'false' }, project);
    expect(npm.code, npm.output).toBe(0);
    for (const name of PACKAGES) {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
      expect(installed.version).toBe(manifest.body.packages.find((p) => p.name === name)!.version);
    }

    // The READMEs' blocks as written, under readme/; the configs that run are the same two blocks at the root.
    for (const [file, code] of readmeFiles) write(join('readme', file), code);
    write('wdio.conf.ts', readmeFiles.get('wdio.conf.ts')!);
    write('playwright.config.ts', readmeFiles.get('playwright.config.ts')!);
    // One spec file a test (WebdriverIO opens a session per spec file); the last one fails on purpose.
    const specs = Array.from({ length: TESTS }, (_, i) => ({ suite: `Site ${i + 1}`, test: i === TESTS - 1 ? 'finds a title that is not there' : 'shows the farm test page', fails: i === TESTS - 1 }));
    specs.forEach((s, i) => {
      const title = s.fails ? 'no such page' : 'farm test page';
      write(`test/specs/site-${i}.ts`, `import { browser, expect } from '@wdio/globals';\n\ndescribe('${s.suite}', () => {\n  it('${s.test}', async () => {\n    await browser.url(process.env.SITE_URL!);\n    expect(await browser.getTitle()).toBe('${title}');\n  });\n});\n`);
      write(`tests/site-${i}.spec.ts`, `import { expect, test } from '@qa-platform/playwright-fixture';\n\ntest.describe('${s.suite}', () => {\n  test('${s.test}', async ({ page }) => {\n    await page.goto(process.env.SITE_URL!);\n    expect(await page.title()).toBe('${title}');\n  });\n});\n`);
    });
    // The README's WebdriverIO config as written, with this run's number of workers.
    write('wdio.run.conf.ts', `import { config as readme } from './wdio.conf.js';\n\nexport const config: WebdriverIO.Config = { ...readme, maxInstances: ${WORKERS} };\n`);
    // The tsconfig.json `npm init wdio` writes, for the WebdriverIO globals; the rest is TypeScript's NodeNext defaults.
    write('tsconfig.json', `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node', '@wdio/globals/types', '@wdio/mocha-framework'] }, include: ['**/*.ts'], exclude: ['node_modules'] }, null, 2)}\n`);
    const tsc = await runCli(join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], {}, project);
    expect(tsc.code, tsc.output).toBe(0);

    const environment = { QA_PLATFORM_URL: farm.server.url, SITE_URL: farm.site.url };
    const wdioBuild = `packages-wdio-${Date.now()}`;
    const pwBuild = `packages-pw-${Date.now()}`;
    const [wdio, pw] = [
      await runCli(join(project, 'node_modules/.bin/wdio'), ['run', 'wdio.run.conf.ts'], { ...environment, QA_PLATFORM_API_KEY: farm.apiKey, CI_PIPELINE_ID: wdioBuild }, project),
      await runCli(join(project, 'node_modules/.bin/playwright'), ['test', '--reporter=list', `--workers=${WORKERS}`], { ...environment, QA_PLATFORM_API_KEY: pipelineKey, CI_PIPELINE_ID: pwBuild }, project),
    ];
    // Each run failed by its one failing test, and by nothing of the platform's: every report reached it.
    expect(wdio.code, wdio.output).toBe(1);
    expect(wdio.output).toMatch(new RegExp(`Spec Files:\\s+${TESTS - 1} passed, 1 failed, ${TESTS} total`));
    expect(pw.code, pw.output).toBe(1);
    expect(pw.output).toMatch(new RegExp(`Running ${TESTS} tests using ${Math.min(WORKERS, TESTS)} workers`));
    expect(pw.output).toMatch(new RegExp(`1 failed[\\s\\S]*${TESTS - 1} passed`));
    for (const run of [wdio, pw]) {
      expect(run.output).not.toMatch(/\[qa-platform\] (could not send|the platform refused)/);
      // A 429 as an answer: the client's own refusal (`POST /path: 429 …`) or a runner's (`status 429`, `HTTP/1.1 429`);
      // a bare 429 is not one (a failed test's link prints where its video starts, `0:00.429`).
      expect(run.output).not.toMatch(/(?:[A-Z]+ \S+: |status(?: code)? |HTTP\/[\d.]+ )429\b/i);
    }

    const expected = specs.map((s) => `${s.suite} › ${s.test}`).sort();
    for (const [build, run] of [[wdioBuild, wdio], [pwBuild, pw]] as const) {
      const sessions = (await farm.api('GET', `/sessions?buildName=${build}&size=${TESTS + 10}`)).body.content as Session[];
      expect(sessions.map((s) => s.name).sort(), build).toEqual(expected);
      for (const s of sessions) {
        const failed = s.name.endsWith('finds a title that is not there');
        expect(s, build).toMatchObject({ status: 'ended', outcome: failed ? 'failed' : 'passed' });
        expect((await farm.api('GET', `/automation/sessions/${s.id}/test-events/progress`)).body, s.name).toMatchObject({ passed: failed ? 0 : 1, failed: failed ? 1 : 0 });
        if (!failed) continue;
        // The failed test's printed link opens a replay that holds its recording.
        expect(run.output).toContain(`${farm.server.url}/sessions/${s.id}?pane=replay`);
        const replay = (await farm.api('GET', `/sessions/${s.id}/replay`)).body as { recordings: unknown[] };
        expect(replay.recordings.length, s.name).toBe(1);
        // The farm's host encodes: the recording is the session's video.
        expect((await farm.api('GET', `/sessions/${s.id}/recording/status`)).body.video, s.name).toMatchObject({ format: 'mp4', expired: false });
      }
    }
  });
});
