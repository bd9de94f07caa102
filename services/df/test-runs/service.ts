import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { testRunEvents, testRunStream, type testFilterSchema, type TestRunState, type TestRunStrategy } from '#events/df/test-runs.js';
import { findApp, findFile, findVersion } from '#projections/df-files/index.js';
import { getTestRun, testRunAttempts } from '#projections/df-test-runs/index.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { TestApkListing } from '#shared/dex/index.js';
import { commandContext, fold, handleCommand } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';
import { PeriodicJob } from '../core/periodic.js';
import type { SessionPort } from '../core/session-port.js';
import { testRunDecider, type TestRunCommand } from './decide.js';
import { chooseDevices, type DeviceSelector } from './devices.js';
import { testHistory } from './history.js';
import { planShards, resolveStrategy, selectTests, testKey, type TestId } from './plan.js';
import { RUN_ACTOR, ShardRunner, type ShardContext } from './shard.js';
import { type TestRunRecord } from './state.js';

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
}

export interface CreateTestRunInput {
  name?: string | undefined;
  appVersionId: string;
  testVersionId: string;
  devices: DeviceSelector;
  tests?: z.output<typeof testFilterSchema> | undefined;
  strategy?: Partial<TestRunStrategy> | undefined;
  projectId?: number | undefined;
}

/** Refusals of a late or moved report: the run went on without it. */
const LATE = new Set(['INVALID_TRANSITION', 'NOT_FOUND']);

/**
 * Test runs in this process: creating one (validation, queue, plan), running its shards on their
 * devices, cancelling, and the sweeper's backstop. A run lives in the process that started it; a
 * restart loses the runs under way (docs/modules/device-testing.md, "Test runs").
 */
export class TestRunService {
  private readonly active = new Map<string, Promise<void>>();
  private readonly sweeper: PeriodicJob;

  constructor(private readonly deps: TestRunServiceDeps) {
    this.sweeper = new PeriodicJob(
      () => this.sweep(),
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

  /** One sweep: `Finish` for every run of this process (run time-outs, tests never reported). */
  async sweep(): Promise<void> {
    const now = this.deps.platform.now().toISOString();
    for (const runId of [...this.active.keys()]) await this.send(runId, null, { type: 'Finish', now });
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
    const strategy = resolveStrategy(input.strategy);
    const limit = await this.deps.concurrentSessionLimit(caller.companyId);
    const devices = await chooseDevices(db, this.deps.sessions.deviceScope(caller), input.devices, limit);
    const history = await testHistory(db, caller, testApp.identifier);
    const runId = randomUUID();
    const now = this.deps.platform.now().toISOString();
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
      send: async (command) => {
        await this.send(runId, caller, { ...command, now: this.deps.platform.now().toISOString() } as TestRunCommand, RUN_ACTOR);
        return this.load(runId);
      },
    };
    const job = Promise.allSettled(devices.map((d) => new ShardRunner(this.deps.sessions, ctx, d).run()))
      .then(() => undefined)
      .finally(() => this.active.delete(runId));
    this.active.set(runId, job);
  }

  /** Installs catalogued versions on a session's device, one after the other. */
  private async install(caller: Caller, session: SessionRecord, versionIds: string[]): Promise<void> {
    const { db, blobs } = this.deps.platform;
    for (const versionId of versionIds) {
      const version = found(await findVersion(db, caller, versionId), 'App version not found');
      const file = found(await findFile(db, caller, version.fileId), 'The version’s file is gone');
      const blob = found(await blobs.get(file.blobKey), 'The version’s file is gone');
      const staged = await this.deps.sessions.stageUpload(session, blob.stream, file.size);
      if (staged.sha256 !== version.sha256) throw new AppError('CHECKSUM_MISMATCH', 'The bytes read from storage are not the version’s');
      await this.deps.sessions.deviceContent(session, { op: 'installApp', stageId: staged.stageId }, INSTALL_TIMEOUT_MS);
    }
  }

  /** The run as its stream says now. */
  async load(runId: string): Promise<TestRunRecord> {
    return fold(testRunDecider, await this.deps.platform.store.readStream(testRunStream(runId)));
  }

  /**
   * One command to a run's stream; answers the position of its last event (null: nothing changed). A
   * shard's late report the run refuses (the test moved on, the run ended) changes nothing.
   */
  private async send(runId: string, caller: Caller | null, command: TestRunCommand, actorId: number | string | null = caller?.userId ?? RUN_ACTOR): Promise<bigint | null> {
    const context = commandContext(this.deps.platform, { actorId, companyId: caller?.companyId ?? null, workspaceId: caller?.workspaceId ?? null });
    try {
      const result = await handleCommand({
        store: this.deps.platform.store,
        streamId: testRunStream(runId),
        decider: { ...testRunDecider, decide: (c: TestRunCommand, s) => testRunEvents.checked(testRunDecider.decide(c, s)) },
        command,
        context,
      });
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
