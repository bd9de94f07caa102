import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '#test/helpers/video.js';
import { printedTime, printedVideo, ROOT, runCli, startClientFarm, testChapters, type ClientFarm } from './farm.js';

/**
 * `@qa-platform/playwright-fixture` with the real `playwright test` CLI: three tests (one failing on
 * purpose, one skipped at run time) on the started server's browser device over `/df/devtools`, with
 * a device API key; the platform then holds a session per test, named after it, with its outcome and
 * test events. The failed test's session recorded a video (the workspace's default for automation):
 * its output names the video's link and where the test starts, the chapters cover the test, and the
 * JSON and HTML reports carry the MP4.
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
  it('runs the tests on the platform: a session per test named after it, outcomes, test events, a replay link and the video (printed, chaptered, in the reports) for the failure', { timeout: 600_000 }, async () => {
    const build = `playwright-${Date.now()}`;
    const [jsonReport, htmlReport] = [join(outputDir, 'report.json'), join(outputDir, 'html')];
    const run = await runCli(PLAYWRIGHT, ['test', '-c', CONFIG], { QA_PLATFORM_URL: farm.server.url, QA_PLATFORM_API_KEY: farm.apiKey, QA_PLATFORM_BUILD: build, QA_PLATFORM_DEVICE: 'Desktop (playwright)', SITE_URL: farm.site.url, PW_OUTPUT_DIR: join(outputDir, 'results'), PW_JSON_REPORT: jsonReport, PW_HTML_REPORT: htmlReport });
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

    // The failed test's video: its signed link and the test's start in it are printed, and the link plays without a credential.
    const { link, startsAt } = await printedVideo(farm, run.output, 'Search › finds a heading that is not there');
    expect(run.output).not.toContain(`no video`);

    // Its chapters (WebVTT through the API): a cue at the test's start and one at its failure, as far apart
    // as the platform recorded the two events, both inside the video; the printed start is the first.
    const chapters = await testChapters(farm, failed.id, 'finds a heading that is not there');
    expect(chapters.vtt.startsWith('WEBVTT')).toBe(true);
    expect(chapters.cues, chapters.vtt).toHaveLength(2);
    const [startCue, endCue] = [chapters.cues[0]!, chapters.cues[1]!];
    const [startEvent, endEvent] = chapters.events;
    expect(chapters.events.map((e) => e.type)).toEqual(['test_started', 'test_failed']);
    expect(Math.abs(endCue.startMs - startCue.startMs - (endEvent!.reportedAt - startEvent!.reportedAt))).toBeLessThanOrEqual(2);
    expect(startCue.endMs).toBeLessThanOrEqual(endCue.startMs);
    expect(endCue.endMs).toBeLessThanOrEqual(chapters.durationMs);
    expect(startsAt).toBe(printedTime(startCue.startMs));

    // The JSON report: the failed test carries the MP4 (H.264, as ffprobe reads it) and the link; the passed one no video.
    interface Attachment { name: string; contentType: string; path?: string; body?: string }
    interface Spec { title: string; tests: { results: { attachments: Attachment[] }[] }[] }
    interface Suite { specs: Spec[]; suites?: Suite[] }
    const specs = (suite: Suite): Spec[] => [...suite.specs, ...(suite.suites ?? []).flatMap(specs)];
    const report = JSON.parse(readFileSync(jsonReport, 'utf8')) as { suites: Suite[] };
    const attachmentsOf = (title: string) => report.suites.flatMap(specs).find((sp) => sp.title === title)!.tests[0]!.results[0]!.attachments;
    const attached = attachmentsOf('finds a heading that is not there');
    const video = attached.find((a) => a.name === 'video')!;
    expect(video, JSON.stringify(attached)).toMatchObject({ contentType: 'video/mp4' });
    const probed = await probeVideo(video.path!);
    expect(probed.codec).toBe('h264');
    expect(probed.durationS * 1000).toBeGreaterThanOrEqual(endCue.startMs);
    const linkAttachment = attached.find((a) => a.name === 'video link')!;
    expect(Buffer.from(linkAttachment.body!, 'base64').toString('utf8').split('\n')[0]).toBe(link);
    expect(attachmentsOf('shows the farm test page').map((a) => a.name)).not.toContain('video');
    // The HTML report keeps its own copy of each attachment, named by its SHA-1.
    const sha1 = createHash('sha1').update(readFileSync(video.path!)).digest('hex');
    expect(existsSync(join(htmlReport, 'data', `${sha1}.mp4`))).toBe(true);
  });
});
