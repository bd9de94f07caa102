import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { testRunEvents, testRunStream, type testFilterSchema, type TestRunEvent, type TestRunState, type TestRunStrategy } from '#events/df/test-runs.js';
import { findApp, findFile, findVersion } from '#projections/df-files/index.js';
import { getTestRun, testRunAttempts, unfinishedTestRuns, type TestAttemptView } from '#projections/df-test-runs/index.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { TestApkListing } from '#shared/dex/index.js';
import { aggregate, cachedStates, commandContext, type Aggregate } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { SessionPort } from '../core/session-port.js';
import { testRunDecider, type TestRunCommand } from './decide.js';
import { chooseDevices, type DeviceSelector } from './devices.js';
import { testHistory } from './history.js';
import { planShards, resolveStrategy, selectTests, testKey, type TestId } from './plan.js';
import { judgeShardSession, RUN_ACTOR, ShardRunner, type ShardContext } from './shard.js';
import { RunMarks, ShardHolders } from './holders.js';
import { isFinished, isLive, type TestRunRecord } from './state.js';

const READ_MODELS = ['df-test-runs'];
/** Installing a big build takes longer than a tap. */
const INSTALL_TIMEOUT_MS = 300_000;
/** How often the sweeper ends runs past their time-outs and tests their devices never reported. */
const SWEEP_MS = 2_000;

export interface TestRunServiceDeps {
  platform: Platform;
  sessions: SessionPort;
  /** The tests of a catalogued version of the caller's workspace (404, 409 `NOT_A_TEST_APK`). */
  listTests(scope: Caller, versionId: string): Promise<TestApkListing>;
  /** The company's plan's concurrent sessions; null: no limit. */
  concurrentSessionLimit(companyId: number): Promise<number | null>;
  /** Test management, where a run naming a project files its results; null: not in this installation. */
  results: TestResultsPort | null;
  /** The sessions' holders the busy-device watchdog reads: shards vouch for their sessions there (absent: none vouch). */
  holders?: ConstructorParameters<typeof ShardHolders>[0];
}

/** One result of a run's test for test management: one per attempt (its device session named), as a JUnit case. */
export interface FiledCase {
  classname: string;
  name: string;
  outcome: 'passed' | 'failed' | 'error' | 'skipped';
  durationMs: number | null;
  details: string | null;
  deviceSessionId: string | null;
}

/** Test management as a run sees it: a project to check, and a new test session to file results in. */
export interface TestResultsPort {
  /** 404 for a project that is not one of the workspace's. */
  requireProject(scope: { companyId: number; workspaceId: number }, projectId: string): Promise<void>;
  /** A new, completed test session of the project holding the cases; answers its id. */
  file(scope: { companyId: number; workspaceId: number; userId: number }, projectId: string, name: string, cases: FiledCase[]): Promise<{ testSessionId: string }>;
}

export interface CreateTestRunInput {
  name?: string | undefined;
  appVersionId: string;
  testVersionId: string;
  devices: DeviceSelector;
  tests?: z.output<typeof testFilterSchema> | undefined;
  strategy?: Partial<TestRunStrategy> | undefined;
  projectId?: string | undefined;
}

/** Refusals of a late or moved report: the run went on without it. */
const LATE = new Set(['INVALID_TRANSITION', 'NOT_FOUND']);
/** Runs whose folded state this process keeps (the runs under way, and a few more). */
const CACHED_RUNS = 64;

/**
 * Test runs in this process: creating one (validation, queue, plan), running its shards on their
 * devices, cancelling, and the sweeper's backstop. A run lives in the process that started it; a
 * restart loses the runs under way (docs/modules/device-testing.md, "Test runs").
 */
export class TestRunService {
  private readonly active = new Map<string, Promise<void>>();
  /** The devices of each run under way whose shard runner is still going. */
  private readonly runners = new Map<string, Set<string>>();
  private readonly sweeper: PeriodicJob;
  /**
   * A run's stream is written by its shards (one per device), the sweeper and its callers at once: the
   * commands that arrive while an append is in flight are decided in their order on the state the last
   * append left (kept folded, so a write reads only what another process appended since) and appended
   * together, so ten devices reporting at once make one append, not ten racing for the revision.
   */
  private readonly runs: Aggregate<TestRunCommand, TestRunEvent, TestRunRecord>;
  private readonly states: ReturnType<typeof cachedStates<TestRunEvent, TestRunRecord>>;
  private readonly marks: RunMarks;
  private readonly shardHolders: ShardHolders;

  constructor(private readonly deps: TestRunServiceDeps) {
    this.states = cachedStates(testRunDecider, testRunStream, CACHED_RUNS);
    this.marks = new RunMarks(deps.platform.kv);
    this.shardHolders = new ShardHolders(deps.holders ?? null);
    this.runs = aggregate(deps.platform, {
      decider: { ...testRunDecider, decide: (c: TestRunCommand, s) => testRunEvents.checked(testRunDecider.decide(c, s)) },
      stream: testRunStream,
      readModels: READ_MODELS,
      coalesce: true,
      ...this.states,
      timed: false,
    });
    this.sweeper = new PeriodicJob(
      'test-runs',
      (tick) => this.sweep(tick),
      (err) => deps.platform.logger.warn({ err }, 'test run sweep failed'),
    );
  }

  start(everyMs = SWEEP_MS): void {
    this.sweeper.start(everyMs);
  }

  /** Cancels the runs under way (a stopped process cannot follow them) and waits for their devices to be given back. */
  async stop(): Promise<void> {
    await this.sweeper.stop();
    const now = () => this.deps.platform.now().toISOString();
    await Promise.allSettled([...this.active.keys()].map((runId) => this.send(runId, null, { type: 'Cancel', reason: 'The device service stopped', now: now() })));
    await Promise.allSettled([...this.active.values()]);
  }

  /**
   * One sweep, for every run of this process: a live shard whose runner has stopped (it could not
   * report its own end) ends `infrastructure-failed` and its tests move; then `Finish` (run time-outs,
   * tests never reported, a run with nothing left).
   */
  async sweep(tick: Tick = UNTRACED): Promise<void> {
    for (const runId of [...this.active.keys()]) await this.marks.mark(runId);
    await this.endOrphans(tick);
    const runs = [...this.active.keys()];
    tick.count('runs.checked', runs.length);
    for (const runId of runs) await tick.work(() => this.check(runId));
  }

  /** Ends the live shards of `runId` whose runner stopped, then `Finish`. */
  private async check(runId: string): Promise<void> {
    const state = await this.load(runId);
    const going = this.runners.get(runId) ?? new Set<string>();
    for (const shard of Object.values(state.shards)) {
      if (isFinished(state) || !isLive(shard) || going.has(shard.deviceId)) continue;
      const reason = `The shard's runner stopped without ending it on device ${shard.deviceId}`;
      await this.send(runId, null, { type: 'EndShard', deviceId: shard.deviceId, state: 'infrastructure-failed', reason, now: this.deps.platform.now().toISOString() });
      await this.judgeLate(runId, shard.deviceId);
    }
    await this.send(runId, null, { type: 'Finish', now: this.deps.platform.now().toISOString() });
  }

  /**
   * A shard ended after its runner stopped: its device session (ended by then) is judged now, and the
   * outcome still counts for its device's failed sessions in a row (a late outcome is counted too).
   */
  private async judgeLate(runId: string, deviceId: string): Promise<void> {
    const state = await this.load(runId);
    const sessionId = state.shards[deviceId]?.sessionId;
    if (!sessionId) return;
    const session = await this.deps.sessions.get(state, sessionId).catch(() => null);
    if (session) await judgeShardSession(this.deps.sessions, session, state.shards[deviceId]).catch((err: unknown) => this.deps.platform.logger.warn({ err, runId, sessionId }, "judging a shard's session failed"));
  }

  /**
   * Runs no process holds (the one that ran them stopped without ending them: a crash, a kill) end in
   * error, their devices' sessions are ended so the devices are available again, and their results
   * are filed as for any ended run.
   */
  private async endOrphans(tick: Tick): Promise<void> {
    for (const run of await unfinishedTestRuns(this.deps.platform.db)) {
      if (this.active.has(run.runId) || (await this.marks.held(run.runId))) continue;
      tick.count('runs.orphaned');
      await tick.work(() => this.endOrphan(run));
    }
  }

  /** Fails a run left by a process that stopped, ends its sessions and files its results. */
  private async endOrphan(run: Awaited<ReturnType<typeof unfinishedTestRuns>>[number]): Promise<void> {
    const { logger } = this.deps.platform, caller: Caller = { userId: run.userId, companyId: run.companyId, workspaceId: run.workspaceId };
    logger.warn({ runId: run.runId }, 'a test run was left by a process that stopped: it ends in error');
    await this.send(run.runId, caller, { type: 'Fail', reason: 'The device service running it stopped before it ended; its devices were given back', now: this.deps.platform.now().toISOString() }, RUN_ACTOR);
    for (const sessionId of run.sessionIds) {
      const session = await this.deps.sessions.get(caller, sessionId).catch(() => null);
      if (session) await this.deps.sessions.end(session, 'abandoned', RUN_ACTOR).catch((err: unknown) => logger.warn({ err, sessionId }, 'a session of an orphaned test run could not be ended'));
    }
    await this.fileResults(run.runId, caller, run.name ?? run.runId);
  }

  /**
   * Validates the request, queues and plans the run, and starts its shards in the background. Refused
   * requests write nothing: 404 for a version not in the workspace, 409 `NOT_A_TEST_APK`, 422
   * `NO_TESTS_SELECTED`, 409 `NO_MATCHING_DEVICES`, 403 `QUOTA_EXCEEDED`.
   */
  async create(caller: Caller, input: CreateTestRunInput, rerun?: { of: string; tests: TestId[] }): Promise<{ id: string; state: TestRunState }> {
    const { db } = this.deps.platform;
    found(await findVersion(db, caller, input.appVersionId), 'App version not found');
    const testVersion = found(await findVersion(db, caller, input.testVersionId), 'Test version not found');
    const testApp = found(await findApp(db, caller, testVersion.appId), 'Test version not found');
    const listing = await this.deps.listTests(caller, input.testVersionId);
    const filter = input.tests ?? {};
    const selected = rerun ? { run: rerun.tests, skipped: [] } : selectTests(listing.tests, filter);
    if (selected.run.length === 0) throw new AppError('NO_TESTS_SELECTED', 'No test of the APK matches the filter', { details: [{ path: 'tests', message: 'no test selected' }] });
    if (input.projectId !== undefined) {
      if (!this.deps.results) throw new AppError('VALIDATION_FAILED', 'Test management is not part of this installation', { details: [{ path: 'projectId', message: 'no test management' }] });
      await this.deps.results.requireProject(caller, input.projectId);
    }
    const strategy = resolveStrategy(input.strategy);
    const limit = await this.deps.concurrentSessionLimit(caller.companyId);
    const devices = await chooseDevices(db, this.deps.sessions.deviceScope(caller), input.devices, limit);
    const history = await testHistory(db, caller, testApp.identifier);
    const runId = randomUUID();
    const now = this.deps.platform.now().toISOString();
    await this.marks.mark(runId);
    await this.send(runId, caller, {
      type: 'Queue',
      runId,
      companyId: caller.companyId,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      projectId: input.projectId ?? null,
      name: input.name ?? null,
      appVersionId: input.appVersionId,
      testVersionId: input.testVersionId,
      testPackage: testApp.identifier,
      devices: input.devices,
      filter,
      strategy,
      tests: selected.run,
      skipped: selected.skipped,
      rerunOf: rerun?.of ?? null,
      now,
    });
    const { basis, shards } = planShards(selected.run, devices, history, strategy);
    const position = await this.send(runId, caller, { type: 'Plan', basis, shards });
    if (position !== null) await this.deps.platform.readModels.waitFor(position, { names: READ_MODELS });
    const instrumentation = { testPackage: testApp.identifier, runner: listing.runner, targetPackage: listing.targetPackage };
    this.execute(runId, caller, input.name ?? runId, instrumentation, [input.appVersionId, input.testVersionId], devices);
    return { id: runId, state: 'queued' as const };
  }

  /** Cancels a run of the caller's workspace: its devices stop their tests and are given back. */
  async cancel(caller: Caller, runId: string): Promise<{ id: string; state: TestRunState }> {
    found(await getTestRun(this.deps.platform.db, caller, runId), 'Test run not found');
    const position = await this.send(runId, caller, { type: 'Cancel', reason: `Cancelled by user ${caller.userId}`, now: this.deps.platform.now().toISOString() });
    if (position !== null) await this.deps.platform.readModels.waitFor(position, { names: READ_MODELS });
    const run = found(await getTestRun(this.deps.platform.db, caller, runId), 'Test run not found');
    return { id: run.id, state: run.state };
  }

  /** A new run of the tests that failed in the end in a run of the caller's workspace, with its request. */
  async rerunFailed(caller: Caller, runId: string): Promise<{ id: string; state: TestRunState }> {
    const { db } = this.deps.platform;
    const run = found(await getTestRun(db, caller, runId), 'Test run not found');
    const attempts = (await testRunAttempts(db, caller, runId)) ?? [];
    const passed = new Set(attempts.filter((a) => a.outcome === 'passed' || a.outcome === 'flaky').map(testKey));
    const failed = new Map(attempts.filter((a) => (a.outcome === 'failed' || a.outcome === 'errored') && !passed.has(testKey(a))).map((a) => [testKey(a), { className: a.className, methodName: a.methodName }]));
    if (failed.size === 0) throw new AppError('NO_TESTS_SELECTED', 'No test of the run failed', { details: [{ path: 'tests', message: 'no failed test' }] });
    const input: CreateTestRunInput = {
      name: `${run.name ?? run.id} (failed tests)`.slice(0, 200),
      appVersionId: run.appVersionId,
      testVersionId: run.testVersionId,
      devices: run.devices as DeviceSelector,
      strategy: run.strategy as Partial<TestRunStrategy>,
      ...(run.projectId !== null ? { projectId: run.projectId } : {}),
    };
    return this.create(caller, input, { of: runId, tests: [...failed.values()] });
  }

  /** Starts every shard of a planned run; the run is forgotten once all have ended. */
  private execute(runId: string, caller: Caller, name: string, instrumentation: ShardContext['instrumentation'], versions: string[], devices: string[]): void {
    const ctx: ShardContext = {
      runId,
      caller,
      name,
      instrumentation,
      install: (session) => this.install(caller, session, versions),
      load: () => this.load(runId),
      holder: this.shardHolders,
      send: async (command) => {
        await this.send(runId, caller, { ...command, now: this.deps.platform.now().toISOString() } as TestRunCommand, RUN_ACTOR);
        return this.load(runId);
      },
      sendAll: async (commands) => {
        const now = this.deps.platform.now().toISOString();
        await Promise.all(commands.map((command) => this.send(runId, caller, { ...command, now } as TestRunCommand, RUN_ACTOR)));
        return this.load(runId);
      },
    };
    const going = new Set(devices);
    this.runners.set(runId, going);
    const shard = (deviceId: string) =>
      new ShardRunner(this.deps.sessions, ctx, deviceId)
        .run()
        .catch((err: unknown) => this.deps.platform.logger.warn({ err, runId, deviceId }, 'a test run shard stopped on an error'))
        .finally(() => going.delete(deviceId));
    const job = Promise.allSettled(devices.map(shard))
      .then(() => this.sweep())
      .then(() => this.fileResults(runId, caller, name))
      .catch((err: unknown) => this.deps.platform.logger.warn({ err, runId }, 'a test run sweep failed'))
      .finally(() => {
        this.active.delete(runId);
        this.runners.delete(runId);
        void this.marks.forget(runId).catch(() => undefined);
      });
    this.active.set(runId, job);
  }

  /**
   * After the run's end, its results as a new test session of the project it names: one result per
   * test and attempt, on the device session that ran it, flaky passes and retries kept; tests that
   * never ran as skipped. A refusal (the project deleted meanwhile) is recorded as the reason.
   */
  private async fileResults(runId: string, caller: Caller, name: string): Promise<void> {
    const { db } = this.deps.platform;
    const state = await this.load(runId);
    if (state.projectId === null || state.filed || !isFinished(state) || !this.deps.results) return;
    const run = found(await getTestRun(db, caller, runId), 'Test run not found');
    const attempts = (await testRunAttempts(db, caller, runId)) ?? [];
    const sessionOf = new Map(run.shards.map((s) => [s.deviceId, s.sessionId]));
    const cases = filedCases(attempts, sessionOf, Object.values(state.tests));
    let filed: { testSessionId: string | null; reason: string | null };
    try {
      filed = { ...(await this.deps.results.file(caller, state.projectId, `Test run ${name}`.slice(0, 200), cases)), reason: null };
    } catch (err) {
      filed = { testSessionId: null, reason: (err instanceof AppError ? `${err.code}: ${err.message}` : 'The results could not be filed').slice(0, 1_000) };
      this.deps.platform.logger.warn({ err, runId }, 'a test run could not file its results');
    }
    const position = await this.send(runId, caller, { type: 'FileResults', ...filed, now: this.deps.platform.now().toISOString() }, RUN_ACTOR);
    if (position !== null) await this.deps.platform.readModels.waitFor(position, { names: READ_MODELS });
  }

  /**
   * Installs catalogued versions on a session's device in their order (the app, then its test APK); their
   * bytes are staged on the device's host side by side first, so a second upload does not wait for the
   * first install.
   */
  private async install(caller: Caller, session: SessionRecord, versionIds: string[]): Promise<void> {
    const { db, blobs } = this.deps.platform;
    const staged = await Promise.all(
      versionIds.map(async (versionId) => {
        const version = found(await findVersion(db, caller, versionId), 'App version not found');
        const file = found(await findFile(db, caller, version.fileId), 'The version’s file is gone');
        const blob = found(await blobs.get(file.blobKey), 'The version’s file is gone');
        const stage = await this.deps.sessions.stageUpload(session, blob.stream, file.size);
        if (stage.sha256 !== version.sha256) throw new AppError('CHECKSUM_MISMATCH', 'The bytes read from storage are not the version’s');
        return stage;
      }),
    );
    for (const stage of staged) await this.deps.sessions.deviceContent(session, { op: 'installApp', stageId: stage.stageId }, INSTALL_TIMEOUT_MS);
  }

  /** The run as its stream says now. */
  async load(runId: string): Promise<TestRunRecord> {
    return (await this.states.load(runId, this.deps.platform.store)).state;
  }

  /**
   * One command to a run's stream; answers the position of its last event (null: nothing changed). A
   * shard's late report the run refuses (the test moved on, the run ended) changes nothing.
   */
  private async send(runId: string, caller: Caller | null, command: TestRunCommand, actorId: number | string | null = caller?.userId ?? RUN_ACTOR): Promise<bigint | null> {
    const context = commandContext(this.deps.platform, { actorId, companyId: caller?.companyId ?? null, workspaceId: caller?.workspaceId ?? null });
    try {
      const result = await this.runs.run(runId, command, context, { settle: false });
      return result.position;
    } catch (err) {
      if (command.type !== 'Queue' && command.type !== 'Plan' && err instanceof AppError && LATE.has(err.code)) {
        this.deps.platform.logger.debug({ runId, command: command.type, code: err.code, message: err.message }, 'test run refused a late report');
        return null;
      }
      throw err;
    }
  }

}

const FILED_OUTCOME = { passed: 'passed', flaky: 'passed', failed: 'failed', errored: 'error', skipped: 'skipped' } as const;

/** A run's attempts as test-management cases: one per attempt, then one skipped case per test that never ran. */
export function filedCases(attempts: readonly TestAttemptView[], sessionOf: ReadonlyMap<string, string | null>, tests: readonly TestId[]): FiledCase[] {
  const cases: FiledCase[] = attempts.map((a) => {
    const where = a.deviceId ? `attempt ${a.attempt} on device ${a.deviceId}` : 'not run on a device';
    const flaky = a.outcome === 'flaky' ? ' (flaky: passed after a failed attempt)' : '';
    const details = [`${where}: ${a.outcome}${flaky}`, a.message, a.stack].filter(Boolean).join('\n').slice(0, 10_000);
    return { classname: a.className, name: a.methodName, outcome: FILED_OUTCOME[a.outcome], durationMs: a.durationMs, details, deviceSessionId: a.deviceId ? (sessionOf.get(a.deviceId) ?? null) : null };
  });
  const attempted = new Set(attempts.map(testKey));
  for (const t of tests) {
    if (!attempted.has(testKey(t))) cases.push({ classname: t.className, name: t.methodName, outcome: 'skipped', durationMs: null, details: 'Not run: the run ended before it', deviceSessionId: null });
  }
  return cases;
}
