import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChapters, replayLink, SessionReport, testChapterTitle, testInVideo, videoChaptersVtt, videoLink, videoTime, videoTrouble, waitForVideo, type TestEvent } from '@qa-platform/client';
import { pointAtHub, type RunnerConfig } from './hub.js';
import { prepareRun } from './launcher.js';
import { QaPlatformTestEvents, type TestEventSink } from './reporter.js';
import { resolveSettings, type QaPlatformOptions, type Settings } from './settings.js';

type Capabilities = Record<string, unknown> & { alwaysMatch?: Record<string, unknown> };

/** A spec file as the session's first name: its path from the working directory. */
const specName = (specs: string[]): string => {
  const first = specs[0] ?? 'wdio';
  const path = first.startsWith('file://') ? fileURLToPath(first) : first;
  return relative(process.cwd(), path) || path;
};

/**
 * The service: one platform session per spec file (WebdriverIO's own session). It asks for the device,
 * names the session after the spec and then its test, reports every suite and test as a test event,
 * sets the session's outcome from the framework's result, and prints the replay's link when the spec
 * failed and, once the session ended, each failed test's video link — in the run's output and again
 * in its reporter's report. Given as a class (`services: [[QaPlatformService, {}]]`) it is the
 * launcher service too (`onPrepare`).
 */
export default class QaPlatformService implements TestEventSink {
  private readonly settings: Settings;
  private report: SessionReport | null = null;
  private spec = 'wdio';
  private readonly tests: string[][] = [];
  private readonly failures: string[] = [];
  /** How many test events of the session had each chapter title (their name, as the platform writes it): a test's chapter is found by its name and this count. */
  private readonly names = new Map<string, number>();
  /** The test started last: its name and the count of same-named events before its start. */
  private started: { name: string; occurrence: number } | null = null;
  /** The failed tests, each with where its start is among the chapters of its name. */
  private readonly failedTests: { title: string; name: string; occurrence: number }[] = [];
  /** The lines the reporter writes as the spec's report (replay and video links of what failed). */
  private readonly reported: string[] = [];

  constructor(options: QaPlatformOptions = {}) {
    this.settings = resolveSettings(options);
  }

  onPrepare(config: RunnerConfig): Promise<void> {
    return prepareRun(config, this.settings);
  }

  // `object`, not Capabilities: WebdriverIO passes its own capability types (standalone, W3C or
  // multiremote), and a narrower parameter would keep the class out of a `WebdriverIO.Config`'s services.
  beforeSession(config: RunnerConfig, capabilities: object, specs: string[]): void {
    pointAtHub(config, this.settings);
    this.spec = specName(specs);
    const requested = capabilities as Capabilities;
    const caps = requested.alwaysMatch ?? requested;
    Object.assign(caps, this.settings.deviceCapabilities, { 'df:name': this.spec }, this.settings.build ? { 'df:build': this.settings.build } : {});
    if (this.settings.recordVideo !== undefined) caps['df:recordVideo'] = this.settings.recordVideo;
    // With no reporter of the user's, the runner would add its default (dot): keep it.
    const reporters = config.reporters?.length ? config.reporters : ['dot'];
    config.reporters = [...reporters, [QaPlatformTestEvents, { sink: this }]];
  }

  before(_capabilities: unknown, _specs: unknown, browser: { sessionId: string }): void {
    this.report = new SessionReport(this.settings, browser.sessionId);
  }

  testStarted(path: string[]): void {
    this.tests.push(path);
    if (this.tests.length === 1) this.report?.rename(path.join(' › '));
  }

  testEvent(event: TestEvent): void {
    const title = testChapterTitle(event.name);
    const before = this.names.get(title) ?? 0;
    this.names.set(title, before + 1);
    if (event.type === 'test_started') this.started = { name: event.name, occurrence: before };
    if (event.type === 'test_failed') {
      this.failures.push(`${event.name}: ${event.error?.message ?? 'failed'}`);
      // A test failed in a hook was never started: its own event is the place.
      const occurrence = this.started?.name === event.name ? this.started.occurrence : before;
      this.failedTests.push({ title: [event.suite, event.name].filter(Boolean).join(' › '), name: event.name, occurrence });
    }
    this.report?.event(event);
  }

  async after(result: unknown): Promise<void> {
    const report = this.report;
    if (!report) return;
    const name = this.sessionName();
    if (this.tests.length > 1) report.rename(name);
    const passed = result === 0;
    report.outcome(passed ? 'passed' : 'failed', passed ? undefined : (this.failures[0] ?? (result instanceof Error ? result.message : undefined)));
    // What could not reach the platform is said here, at the end of the spec; the run goes on.
    for (const unsent of await report.settled()) console.warn(`[qa-platform] ${unsent}`);
    if (!passed && this.settings.replayLink) this.say(`${name} failed; replay: ${replayLink(this.settings, report.sessionId)}`);
  }

  /** Printed now, and written again in the reporter's report at the spec's end. */
  private say(line: string): void {
    console.log(`[qa-platform] ${line}`);
    this.reported.push(line);
  }

  reportLines(): string[] {
    const lines = this.reported.splice(0);
    return lines.length > 0 ? [`» ${this.spec}`, ...lines.map((l) => `  ${l}`)] : [];
  }

  /**
   * Once the session ended (its video is whole): for each failed test, its video's signed link and the
   * time its test starts there, from the session's chapters. A platform that is slow to store the video
   * (more than `videoTimeoutMs`) or refuses is said; the run goes on.
   */
  async afterSession(): Promise<void> {
    const report = this.report;
    if (!report || this.failedTests.length === 0 || !this.settings.videoLink) return;
    const waited = await waitForVideo(this.settings, report.sessionId, { timeoutMs: this.settings.videoTimeoutMs });
    if (!waited.video) {
      for (const failed of this.failedTests) this.say(`${failed.title}: no video (${waited.why})`);
      return;
    }
    try {
      const link = await videoLink(this.settings, report.sessionId);
      const chapters = parseChapters(await videoChaptersVtt(this.settings, report.sessionId));
      for (const failed of this.failedTests) {
        const place = testInVideo(chapters, failed.name, failed.occurrence);
        const at = place ? `the test starts at ${videoTime(place.startMs)}` : 'the test is not in its chapters';
        this.say(`${failed.title} failed; video: ${link.url} (${at}; the link is valid until ${link.expiresAt})`);
      }
    } catch (err) {
      this.say(`the video of session ${report.sessionId} could not be fetched (${videoTrouble(err)}); see the replay`);
    }
  }

  /** One test: its full title; several: the suites they are in; none: the spec file. */
  private sessionName(): string {
    if (this.tests.length === 1) return this.tests[0]!.join(' › ');
    const suites = [...new Set(this.tests.map((t) => (t.length > 1 ? t[0]! : this.spec)))];
    return suites.length > 0 ? suites.join(', ') : this.spec;
  }
}
