import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http } from '#test/helpers/server.js';
import { printedTime, printedVideo, ROOT, runCli, startClientFarm, testChapters, type ClientFarm } from './farm.js';

/**
 * `@qa-platform/wdio-service` with the real `wdio` CLI: a mocha suite of two spec files (one failing on
 * purpose, with a skipped test) runs against the started server's hub with a device API key; the
 * platform then holds a session per spec, named after its test, with its outcome and test events; the
 * failing spec's session recorded a video (the workspace's default for automation), whose link and the
 * failed test's start in it the run prints (and the service's reporter in its report), and whose
 * chapters cover that test.
 */
const CONFIG = 'test/clients/fixtures/wdio/wdio.conf.ts';
const WDIO = join(ROOT, 'node_modules/.bin/wdio');
let farm: ClientFarm;

beforeAll(async () => {
  farm = await startClientFarm('wdio');
}, 300_000);

afterAll(async () => {
  await farm?.stop();
});

interface Session { id: string; name: string; status: string; outcome: string | null; outcomeReason: string | null; buildName: string | null }
interface TestEvent { type: string; name: string; suite: string | null; error: { message: string } | null; durationMs: number | null }

const eventsOf = async (id: string) => ((await farm.api('GET', `/automation/sessions/${id}/test-events?size=100`)).body.content as TestEvent[]).map((e) => ({ type: e.type, name: e.name, suite: e.suite, error: e.error?.message ?? null }));

describe('the WebdriverIO service', () => {
  it('runs a suite on the platform: a session per spec named after its test, outcomes, test events, a replay link and the failed test\'s place in the video', { timeout: 600_000 }, async () => {
    const build = `wdio-${Date.now()}`;
    const run = await runCli(WDIO, ['run', CONFIG], { QA_PLATFORM_URL: farm.server.url, QA_PLATFORM_API_KEY: farm.apiKey, QA_PLATFORM_BUILD: build, QA_PLATFORM_DEVICE: 'Desktop (wdio)', SITE_URL: farm.site.url });
    // One spec failed, so the run did.
    expect(run.code, run.output).toBe(1);

    const sessions = (await farm.api('GET', `/sessions?buildName=${build}&sortDir=asc`)).body.content as Session[];
    expect(sessions.map((s) => s.name).sort(), run.output).toEqual(['Checkout › shows the farm test page', 'Search › finds a heading that is not there']);
    const passed = sessions.find((s) => s.name.startsWith('Checkout'))!;
    const failed = sessions.find((s) => s.name.startsWith('Search'))!;
    expect(passed).toMatchObject({ status: 'ended', outcome: 'passed', outcomeReason: null });
    expect(failed).toMatchObject({ status: 'ended', outcome: 'failed' });
    expect(failed.outcomeReason).toMatch(/^finds a heading that is not there: expected the title "no such page", got "farm test page"/);

    expect(await eventsOf(passed.id)).toEqual([
      { type: 'suite_started', name: 'Checkout', suite: null, error: null },
      { type: 'test_started', name: 'shows the farm test page', suite: 'Checkout', error: null },
      { type: 'test_passed', name: 'shows the farm test page', suite: 'Checkout', error: null },
      { type: 'suite_finished', name: 'Checkout', suite: null, error: null },
    ]);
    expect(await eventsOf(failed.id)).toEqual([
      { type: 'suite_started', name: 'Search', suite: null, error: null },
      { type: 'test_started', name: 'finds a heading that is not there', suite: 'Search', error: null },
      { type: 'test_failed', name: 'finds a heading that is not there', suite: 'Search', error: 'expected the title "no such page", got "farm test page"' },
      { type: 'test_skipped', name: 'is skipped on purpose', suite: 'Search', error: null },
      { type: 'suite_finished', name: 'Search', suite: null, error: null },
    ]);
    const progress = (await farm.api('GET', `/automation/sessions/${failed.id}/test-events/progress`)).body;
    expect(progress).toMatchObject({ passed: 0, failed: 1, skipped: 1 });

    // The failing spec printed its replay's link; the passing one none.
    expect(run.output).toContain(`[qa-platform] Search › finds a heading that is not there failed; replay: ${farm.server.url}/sessions/${failed.id}?pane=replay`);
    expect(run.output).not.toContain(`/sessions/${passed.id}?pane=replay`);
    // The WebDriver commands went through the hub: the navigation is on the session's timeline.
    const timeline = (await farm.api('GET', `/sessions/${passed.id}/activities?size=200`)).body.content as { kind: string; detail: Record<string, unknown> }[];
    expect(timeline.some((a) => a.kind === 'navigation' && a.detail.via === 'webdriver' && a.detail.url === farm.site.url)).toBe(true);

    // Once the failing spec's session ended: the failed test's video link and its start in the video; the link plays without a credential.
    const { link, startsAt } = await printedVideo(farm, run.output, 'Search › finds a heading that is not there');
    // The reporter's report at the end of the run says the same for the failing spec, and nothing for the passing one.
    const report = run.output.slice(run.output.indexOf('"QaPlatformTestEvents" Reporter:'));
    expect(report, run.output).toMatch(/^"QaPlatformTestEvents" Reporter:\n\[0-\d\] » test\/clients\/fixtures\/wdio\/specs\/search\.wdio\.ts\n/);
    expect(report).toContain(`  Search › finds a heading that is not there failed; replay: ${farm.server.url}/sessions/${failed.id}?pane=replay\n`);
    expect(report).toContain(`  Search › finds a heading that is not there failed; video: ${link} (the test starts at ${startsAt}; the link is valid until `);
    expect(report).not.toContain('checkout.wdio.ts');
    expect(run.output.match(/failed; video: /g)).toHaveLength(2);
    // Its chapters: a cue at the test's start and one at its failure, as far apart as the platform recorded
    // the two events (a navigation's cue between them), inside the video; the printed start is the first.
    const chapters = await testChapters(farm, failed.id, 'finds a heading that is not there');
    expect(chapters.cues, chapters.vtt).toHaveLength(2);
    const [startCue, endCue] = [chapters.cues[0]!, chapters.cues[1]!];
    expect(chapters.events.map((e) => e.type)).toEqual(['test_started', 'test_failed']);
    expect(Math.abs(endCue.startMs - startCue.startMs - (chapters.events[1]!.reportedAt - chapters.events[0]!.reportedAt))).toBeLessThanOrEqual(2);
    expect(startCue.endMs).toBeLessThanOrEqual(endCue.startMs);
    expect(endCue.endMs).toBeLessThanOrEqual(chapters.durationMs);
    expect(startsAt).toBe(printedTime(startCue.startMs));
  });

  it('stops the run before any session when the platform refuses the API key', { timeout: 120_000 }, async () => {
    const before = (await farm.api('GET', '/sessions')).body.totalElements as number;
    const run = await runCli(WDIO, ['run', CONFIG], { QA_PLATFORM_URL: farm.server.url, QA_PLATFORM_API_KEY: 'dfk_not-a-key', SITE_URL: farm.site.url });
    expect(run.code).not.toBe(0);
    expect(run.output, run.output).toContain(`QA Platform: cannot use the WebDriver hub at ${farm.server.url} (the platform answered 401 UNAUTHORIZED: Invalid API key: X-Api-Key takes an active device API key (dfk_...); a pipeline key (qak_...) goes in Authorization: Bearer)`);
    expect((await farm.api('GET', '/sessions')).body.totalElements).toBe(before);
  });

  it('sets an outcome through the API after the session ended; refuses a bad body (400, nothing recorded) and another tenant (404)', { timeout: 120_000 }, async () => {
    const opened = await farm.api('POST', '/sessions', { deviceId: farm.deviceId, type: 'automation', name: 'outcome by hand' });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    expect((await farm.api('DELETE', `/sessions/${id}`)).body.status).toBe('ended');
    for (const body of [{ outcome: 'maybe' }, { outcome: 'failed', reason: 'x'.repeat(2_001) }, {}]) {
      const bad = await farm.api('PUT', `/sessions/${id}/outcome`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await farm.api('GET', `/sessions/${id}`)).body.outcome).toBeNull();
    const rival = await signUpCompany(farm.server.url, 'wdio-rival');
    const foreign = await http(farm.server.url, 'PUT', `/df/api/sessions/${id}/outcome`, { token: rival.token, body: { outcome: 'passed' } });
    expect(foreign.status).toBe(404);
    expect((await farm.api('PUT', '/sessions/00000000-0000-4000-8000-000000000000/outcome', { outcome: 'passed' })).status).toBe(404);
    const set = await farm.api('PUT', `/sessions/${id}/outcome`, { outcome: 'failed', reason: 'checked by hand' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id, status: 'ended', outcome: 'failed', outcomeReason: 'checked by hand' });
    expect((await farm.api('GET', '/sessions?outcome=failed')).body.content.map((s: Session) => s.id)).toContain(id);
  });
});
