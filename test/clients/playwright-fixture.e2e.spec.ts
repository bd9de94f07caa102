import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startClientFarm, type ClientFarm } from './farm.js';

/**
 * `@qa-platform/playwright-fixture` with the real `playwright test` CLI: three tests (one failing on
 * purpose, one skipped at run time) on the started server's browser device over `/df/devtools`, with
 * a device API key; the platform then holds a session per test, named after it, with its outcome and
 * test events.
 */
const CONFIG = 'test/clients/fixtures/playwright/playwright.config.ts';
const PLAYWRIGHT = join(ROOT, 'node_modules/.bin/playwright');
let farm: ClientFarm;
let outputDir: string;

beforeAll(async () => {
  outputDir = mkdtempSync(join(tmpdir(), 'qa-pw-'));
  farm = await startClientFarm('playwright');
}, 300_000);

afterAll(async () => {
  await farm?.stop();
  if (outputDir) rmSync(outputDir, { recursive: true, force: true });
});

interface Session { id: string; name: string; status: string; type: string; outcome: string | null; outcomeReason: string | null }
interface TestEvent { type: string; name: string; suite: string | null; error: { message: string } | null }

const eventsOf = async (id: string) => ((await farm.api('GET', `/automation/sessions/${id}/test-events?size=100`)).body.content as TestEvent[]).map((e) => ({ type: e.type, name: e.name, suite: e.suite, error: e.error?.message ?? null }));

describe('the Playwright fixture', () => {
  it('runs the tests on the platform: a session per test named after it, outcomes, test events, and a replay link for the failure', { timeout: 600_000 }, async () => {
    const build = `playwright-${Date.now()}`;
    const run = await runCli(PLAYWRIGHT, ['test', '-c', CONFIG], { QA_PLATFORM_URL: farm.server.url, QA_PLATFORM_API_KEY: farm.apiKey, QA_PLATFORM_BUILD: build, QA_PLATFORM_DEVICE: 'Desktop (playwright)', SITE_URL: farm.site.url, PW_OUTPUT_DIR: outputDir });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/1 failed/);
    expect(run.output).toMatch(/1 skipped/);
    expect(run.output).toMatch(/1 passed/);

    const sessions = (await farm.api('GET', `/sessions?buildName=${build}`)).body.content as Session[];
    expect(sessions.map((s) => s.name).sort()).toEqual(['Checkout › shows the farm test page', 'Search › finds a heading that is not there', 'Search › is skipped on purpose']);
    const byName = (prefix: string) => sessions.find((s) => s.name.startsWith(prefix))!;
    const passed = byName('Checkout');
    const failed = byName('Search › finds');
    const skipped = byName('Search › is skipped');
    for (const s of sessions) expect(s).toMatchObject({ type: 'automation', status: 'ended' });
    expect(passed).toMatchObject({ outcome: 'passed', outcomeReason: null });
    expect(skipped).toMatchObject({ outcome: null });
    expect(failed.outcome).toBe('failed');
    expect(failed.outcomeReason).toMatch(/^finds a heading that is not there: [\s\S]*Expected: "no such page"[\s\S]*Received: "farm test page"/);

    expect(await eventsOf(passed.id)).toEqual([
      { type: 'test_started', name: 'shows the farm test page', suite: 'Checkout', error: null },
      { type: 'test_passed', name: 'shows the farm test page', suite: 'Checkout', error: null },
    ]);
    const failedEvents = await eventsOf(failed.id);
    expect(failedEvents.map((e) => [e.type, e.name, e.suite])).toEqual([
      ['test_started', 'finds a heading that is not there', 'Search'],
      ['test_failed', 'finds a heading that is not there', 'Search'],
    ]);
    expect(failedEvents[1]!.error).toMatch(/Expected: "no such page"/);
    expect(failedEvents[1]!.error).not.toMatch(/\u001b\[/);
    expect((await eventsOf(skipped.id)).map((e) => e.type)).toEqual(['test_started', 'test_skipped']);

    expect(run.output).toContain(`[qa-platform] Search › finds a heading that is not there failed; replay: ${farm.server.url}/sessions/${failed.id}?pane=replay`);
    expect(run.output).not.toContain(`/sessions/${passed.id}?pane=replay`);
    expect((await farm.api('GET', `/devices/${farm.deviceId}`)).body.status).toBe('available');
  });
});
