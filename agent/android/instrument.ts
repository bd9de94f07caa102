import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { Pauses } from '#shared/concurrency.js';
import { INSTRUMENTATION_LINK_LOST, type AgentCommand, type InstrumentationEvent, type RpcResult, type TestOutcome, type TestRef } from '#shared/wire/index.js';
import { DriverError, type LogRing } from '../provider.js';
import { shellQuote } from './adb.js';
import type { AndroidContext } from './context.js';
import { InstrumentationParser, resultCrashed, type InstrumentationEvent as ParsedEvent } from './instrumentation.js';

type StartCommand = Extract<AgentCommand, { op: 'instrumentStart' }>;

/** How long a failed test waits for the runner's end mark in the device log (its log is the failure's evidence). */
const LOG_WAIT_MS = 2_000;
/** How long a test that ended otherwise waits for it: the mark is normally there within milliseconds. */
const LOG_WAIT_PASSED_MS = 500;

/** How many finished runs a device keeps for late readers. */
const KEPT_RUNS = 4;

/** An event before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

const key = (t: TestRef) => `${t.className}#${t.methodName}`;

/**
 * The `am instrument` command line of one launch: the tests by `-e class Class#method,…`, listed only
 * with `-e log true`. Every word is quoted for the device's shell.
 */
export function instrumentCommand(command: StartCommand, tests: TestRef[]): string {
  const classes = tests.map(key).join(',');
  const words = ['am', 'instrument', '-w', '-r', '-e', 'class', classes, ...(command.listOnly ? ['-e', 'log', 'true'] : []), `${command.testPackage}/${command.runner}`];
  return words.map((w) => (/^[\w./#,$-]+$/.test(w) ? w : shellQuote(w))).join(' ');
}

/**
 * One run of instrumentation tests on an Android device: the tests in one `am instrument -w -r` launch
 * (or one launch each, the app's data cleared before each, with `clearPackageData`), read as the output
 * streams. A test that does not end within the time-out is `timedOut` and the app force-stopped; a
 * process that dies mid-test makes that test `crashed`; either ends the run, and the tests it did not
 * reach are `notRun`, for the caller to plan again (on this device or another).
 */
class InstrumentationRun {
  readonly id = randomUUID();
  private readonly events: InstrumentationEvent[] = [];
  private seq = 0;
  done = false;
  private notRun: TestRef[] = [];
  private failure: string | undefined;
  private stream: Duplex | null = null;
  private stopped = false;
  private steps: Promise<void> = Promise.resolve();
  /** Long polls waiting for the next event or the run's end. */
  private readonly waiters = new Pauses();

  constructor(
    private readonly ctx: AndroidContext,
    private readonly logs: LogRing,
    private readonly command: StartCommand,
    private readonly capture: () => Promise<Buffer>,
  ) {}

  /** The events after `afterSeq`; with none yet and the run going on, waits up to `waitMs` for one or the end. */
  async poll(afterSeq: number, waitMs = 0): Promise<RpcResult<'instrumentPoll'>> {
    if (waitMs > 0 && !this.done && this.seq <= afterSeq) {
      await this.waiters.pause(waitMs);
    }
    return this.snapshot(afterSeq);
  }

  private snapshot(afterSeq: number): RpcResult<'instrumentPoll'> {
    return {
      events: this.events.filter((e) => e.seq > afterSeq),
      lastSeq: this.seq,
      done: this.done,
      notRun: this.done ? this.notRun : [],
      ...(this.failure ? { failure: this.failure } : {}),
    };
  }

  async stop(): Promise<boolean> {
    if (this.done) return false;
    this.stopped = true;
    this.failure ??= 'stopped';
    await this.ctx.sh(`am force-stop ${this.command.targetPackage}`).catch(() => undefined);
    this.stream?.destroy();
    return true;
  }

  /** Runs every launch; never throws (what went wrong is the run's `failure`). */
  async execute(): Promise<void> {
    const launches = this.command.clearPackageData ? this.command.tests.map((t) => [t]) : [this.command.tests];
    const finished = new Set<string>();
    try {
      for (const tests of launches) {
        if (this.stopped) break;
        if (this.command.clearPackageData) await this.ctx.sh(`pm clear ${this.command.targetPackage}`);
        const ended = await this.launch(tests, finished);
        if (!ended) break;
      }
    } catch (err) {
      this.failure ??= err instanceof Error ? err.message.slice(0, 500) : 'the instrumentation failed';
    } finally {
      await this.steps;
      this.notRun = this.command.tests.filter((t) => !finished.has(key(t)));
      this.done = true;
      this.waiters.wakeAll();
    }
  }

  private push(event: Unnumbered<InstrumentationEvent>): void {
    this.events.push({ ...event, seq: ++this.seq } as InstrumentationEvent);
    this.waiters.wakeAll();
  }

  /**
   * The device log of one test: AndroidJUnitRunner writes `TestRunner: started: m(C)` and `finished:
   * m(C)` around each test, and the log reaches the agent on its own stream, often after the test's
   * status. So the lines are taken between those two marks, waiting at most `waitMs` for the end mark
   * to arrive; a test with no end mark (a crash, a hang) gets what came after its start.
   */
  private async logcatOf(ref: TestRef, waitMs: number): Promise<string[]> {
    const name = `${ref.methodName}(${ref.className})`;
    const isEnd = (text: string) => text.includes(`finished: ${name}`) || text.includes(`ignored: ${name}`);
    if (waitMs > 0 && !this.logs.after(0).entries.some((e) => isEnd(e.text))) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), waitMs);
        const stop = this.logs.watch((entry) => {
          if (isEnd(entry.text)) done();
        });
        function done() {
          clearTimeout(timer);
          stop();
          resolve();
        }
      });
    }
    const entries = this.logs.after(0).entries;
    const start = entries.findLastIndex((e) => e.text.includes(`started: ${name}`));
    if (start < 0) return [];
    const end = entries.findIndex((e, i) => i > start && isEnd(e.text));
    return entries.slice(start, end < 0 ? undefined : end + 1).map((e) => `${e.at} ${e.level} ${e.source}: ${e.text}`);
  }

  /** Runs `step` after the steps before it: events are numbered in the order they happened. */
  private then(step: () => Promise<void> | void): void {
    this.steps = this.steps.then(step).catch(() => undefined);
  }

  /** One `am instrument` launch; answers whether it ran to its end (false: a crash, a hang, a stop, a refusal). */
  private async launch(tests: TestRef[], finished: Set<string>): Promise<boolean> {
    const stream = await this.ctx.device.shell(instrumentCommand(this.command, tests));
    this.stream = stream;
    let current: { ref: TestRef; began: number } | null = null;
    let timer: NodeJS.Timeout | null = null;
    let brokenOff = false;
    const finish = (outcome: TestOutcome, extra: { message?: string; stack?: string } = {}) => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!current) return;
      const { ref, began } = current;
      current = null;
      finished.add(key(ref));
      const at = new Date().toISOString();
      const durationMs = Date.now() - began;
      // The test's log ends with the runner's end mark, which reaches the agent on its own stream: a
      // failure (whose log is its evidence) waits up to 2 s for it, a test that ended otherwise 0.5 s,
      // a crash or a hang not at all (no mark comes).
      const failedTest = outcome === 'failed' || outcome === 'errored';
      const waitMs = failedTest ? LOG_WAIT_MS : ['passed', 'ignored', 'assumption'].includes(outcome) ? LOG_WAIT_PASSED_MS : 0;
      // A failure's screen, taken now: the runner goes on to the next test at once.
      const shot = failedTest || outcome === 'crashed' ? this.capture().then((png) => png.toString('base64'), () => undefined) : Promise.resolve(undefined);
      this.then(async () => {
        const logcat = await this.logcatOf(ref, waitMs);
        const screenshot = await shot;
        this.push({ kind: 'finished', className: ref.className, methodName: ref.methodName, at, outcome, durationMs, ...extra, logcat, ...(screenshot ? { screenshot } : {}) });
      });
    };
    const onEvent = (event: ParsedEvent) => {
      if (event.kind === 'started') {
        const ref = { className: event.className, methodName: event.methodName };
        current = { ref, began: Date.now() };
        const at = new Date().toISOString();
        this.then(() => this.push({ kind: 'started', ...ref, at }));
        timer = setTimeout(() => {
          brokenOff = true;
          finish('timedOut', { message: `No end within ${Math.round(this.command.testTimeoutMs / 1000)} s: the test hung; the app was stopped` });
          this.failure ??= 'a test hung';
          void this.ctx.sh(`am force-stop ${this.command.targetPackage}`).catch(() => undefined).finally(() => stream.destroy());
        }, this.command.testTimeoutMs);
      } else if (event.kind === 'finished') {
        if (current?.ref.className !== event.className || current.ref.methodName !== event.methodName) current = { ref: { className: event.className, methodName: event.methodName }, began: Date.now() };
        finish(event.outcome, { ...(event.message ? { message: event.message } : {}), ...(event.stack ? { stack: event.stack } : {}) });
      } else if (event.kind === 'failedToStart') {
        brokenOff = true;
        this.failure = `The instrumentation could not start: ${event.message}`;
      } else if (event.kind === 'result' && current && resultCrashed(event)) {
        brokenOff = true;
        finish('crashed', { message: `The app's process died during the test (${event.shortMsg})` });
        this.failure ??= 'the app crashed';
      }
    };
    const parser = new InstrumentationParser(onEvent);
    await new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => parser.push(chunk.toString('utf8')));
      stream.on('error', () => resolve());
      stream.on('close', () => resolve());
      stream.on('end', () => resolve());
    });
    parser.end();
    if (timer) clearTimeout(timer);
    this.stream = null;
    // Set by the output's events (closures), which the compiler does not follow.
    const going = current as { ref: TestRef } | null;
    if (going && !brokenOff) {
      brokenOff = true;
      if (this.stopped) finish('errored', { message: 'The run was stopped' });
      // The output ended with a test running and no crash reported (a crash is reported, as "Process
      // crashed"): the link to the device went away, not the test. The test is left unfinished (not
      // run) and the run says why, for the caller to run it elsewhere rather than count it failed.
      else this.failure ??= `${INSTRUMENTATION_LINK_LOST} during ${going.ref.methodName}(${going.ref.className})`;
    }
    await this.steps;
    return !brokenOff && !this.stopped;
  }
}

/** A device's instrumentation runs: one at a time, a few finished ones kept for late readers. */
export class AndroidInstrumentation {
  private readonly runs = new Map<string, InstrumentationRun>();
  private running: InstrumentationRun | null = null;

  constructor(
    private readonly ctx: AndroidContext,
    private readonly logs: LogRing,
    /** The screen as a PNG, for a failed test's screenshot. */
    private readonly capture: () => Promise<Buffer>,
  ) {}

  start(command: StartCommand): RpcResult<'instrumentStart'> {
    this.ctx.requirePrepared();
    if (this.running && !this.running.done) throw new DriverError('DEVICE_BUSY', 'An instrumentation run is going on on this device');
    const run = new InstrumentationRun(this.ctx, this.logs, command, this.capture);
    this.running = run;
    this.runs.set(run.id, run);
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - KEPT_RUNS))) this.runs.delete(id);
    void run.execute();
    return { runId: run.id };
  }

  poll(runId: string, afterSeq: number, waitMs = 0): Promise<RpcResult<'instrumentPoll'>> {
    return this.run(runId).poll(afterSeq, waitMs);
  }

  async stop(runId: string): Promise<RpcResult<'instrumentStop'>> {
    return { runId, stopped: await this.run(runId).stop() };
  }

  /** At the session's end: the run going on is stopped, and none is kept. */
  async release(): Promise<void> {
    const run = this.running;
    this.running = null;
    this.runs.clear();
    if (run && !run.done) await run.stop();
  }

  private run(runId: string): InstrumentationRun {
    const run = this.runs.get(runId);
    if (!run) throw new DriverError('NOT_FOUND', `No instrumentation run ${runId} on this device`);
    return run;
  }
}
