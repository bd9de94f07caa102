import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayLink, SessionReport, type TestEvent } from '@qa-platform/client';
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
 * failed. Given as a class (`services: [[QaPlatformService, {}]]`) it is the launcher service too
 * (`onPrepare`).
 */
export default class QaPlatformService implements TestEventSink {
  private readonly settings: Settings;
  private report: SessionReport | null = null;
  private spec = 'wdio';
  private readonly tests: string[][] = [];
  private readonly failures: string[] = [];

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
    if (event.type === 'test_failed') this.failures.push(`${event.name}: ${event.error?.message ?? 'failed'}`);
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
    if (!passed && this.settings.replayLink) console.log(`[qa-platform] ${name} failed; replay: ${replayLink(this.settings, report.sessionId)}`);
  }

  /** One test: its full title; several: the suites they are in; none: the spec file. */
  private sessionName(): string {
    if (this.tests.length === 1) return this.tests[0]!.join(' › ');
    const suites = [...new Set(this.tests.map((t) => (t.length > 1 ? t[0]! : this.spec)))];
    return suites.length > 0 ? suites.join(', ') : this.spec;
  }
}
