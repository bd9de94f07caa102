import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** `queued → running → passed | failed | error | cancelled` (`passed` includes flaky tests). */
const testRunState = z.enum(['queued', 'running', 'passed', 'failed', 'error', 'cancelled']);
export type TestRunState = z.output<typeof testRunState>;
export const TEST_RUN_STATES = testRunState.options;
/** The states a run ends in. */
export const FINISHED_TEST_RUN_STATES = ['passed', 'failed', 'error', 'cancelled'] as const satisfies readonly TestRunState[];

/** What one attempt of a test ended as; `flaky` is a pass after an earlier attempt of the test failed. */
const testOutcome = z.enum(['passed', 'failed', 'errored', 'skipped', 'flaky']);
export type TestOutcome = z.output<typeof testOutcome>;

/** How a shard ended: its tests ran out, its device or host failed, or the run stopped. */
const shardEnd = z.enum(['completed', 'infrastructure-failed', 'cancelled']);
export type ShardEnd = z.output<typeof shardEnd>;

/** `uniform`: tests dealt round-robin; `duration`: longest-first on each test's expected duration from earlier runs. */
const planningBasis = z.enum(['uniform', 'duration']);
export type PlanningBasis = z.output<typeof planningBasis>;

/** An instant as ISO 8601 with its zone. */
const instant = z.iso.datetime({ offset: true });
const run = { runId: z.string() };
/** One instrumentation test: its class (fully qualified) and method. */
export const testIdSchema = z.object({ className: z.string().min(1), methodName: z.string().min(1) });
const plannedTest = testIdSchema.extend({
  /** The expected duration the plan used (history's mean, or the default without history). */
  plannedMs: z.number().int().nonnegative(),
  /** A preventive second instance of a test whose pass rate is below the run's `flakyThreshold`. */
  duplicate: z.boolean(),
});
export type PlannedTestPayload = z.output<typeof plannedTest>;
const shardPlan = z.object({ deviceId: z.string(), tests: z.array(plannedTest) });

/** Which devices a run may use (the request's `devices`). */
export const deviceSelectorSchema = z.object({
  platform: z.enum(['android', 'ios']),
  minOsVersion: z.string().optional(),
  maxOsVersion: z.string().optional(),
  models: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  hostIds: z.array(z.string()).optional(),
  /** Absent: every device that matches. */
  count: z.number().int().positive().optional(),
});
/** Which tests of the APK run (the request's `tests`); each given list narrows, `notClasses` excludes. */
export const testFilterSchema = z.object({
  classes: z.array(z.string()).optional(),
  packages: z.array(z.string()).optional(),
  annotations: z.array(z.string()).optional(),
  notClasses: z.array(z.string()).optional(),
  /** A regular expression matched against `className#methodName`. */
  namePattern: z.string().optional(),
});
/** How a run is sharded, retried and timed, every field resolved (services/df/test-runs/plan.ts, `resolveStrategy`). */
export const strategySchema = z.object({
  sharding: planningBasis,
  /** Tests per `am instrument` launch. */
  batchSize: z.number().int().positive(),
  /** Attempts after a failed one, each on another device where there is one. */
  retries: z.number().int().nonnegative(),
  /** Tests whose past pass rate is below this run twice from the start; null: none. */
  flakyThreshold: z.number().min(0).max(1).nullable(),
  testTimeoutSeconds: z.number().int().positive(),
  runTimeoutSeconds: z.number().int().positive(),
  failFast: z.boolean(),
  clearPackageData: z.boolean(),
});
export type TestRunStrategy = z.output<typeof strategySchema>;

export const countsSchema = z.object({
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  flaky: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  notRun: z.number().int().nonnegative(),
});
export type TestRunCounts = z.output<typeof countsSchema>;

/**
 * A test run: an instrumentation suite sharded over devices, on one stream per run (`test-run-<runId>`).
 * The test list is fixed when the run is queued; shards are planned once devices are allocated, and
 * tests move between shards when a device fails or a process crashes.
 */
export const testRunEvents = defineEvents({
  TestRunQueued: z.object({
    ...run,
    ...tenantScope,
    userId: z.number().int(),
    /** The test-management project whose new test session receives the run's results, or null. */
    projectId: z.string().nullable(),
    name: z.string().nullable(),
    appVersionId: z.string(),
    testVersionId: z.string(),
    /** The test APK's package: whose earlier runs give the durations and pass rates. */
    testPackage: z.string(),
    devices: deviceSelectorSchema,
    filter: testFilterSchema,
    strategy: strategySchema,
    /** The tests to run, in the listing's order. */
    tests: z.array(testIdSchema),
    /** Tests the filter chose that the APK marks ignored: reported as skipped, never run. */
    skipped: z.array(testIdSchema),
    /** The run whose failed tests this one runs again (`rerun-failed`), or null. */
    rerunOf: z.string().nullable(),
    queuedAt: instant,
  }),
  TestRunPlanned: z.object({ ...run, basis: planningBasis, shards: z.array(shardPlan) }),
  /** A shard's device taken: the device session it runs in. */
  TestRunShardStarted: z.object({ ...run, deviceId: z.string(), sessionId: z.string().nullable(), startedAt: instant }),
  TestStarted: z.object({ ...run, deviceId: z.string(), ...testIdSchema.shape, attempt: z.number().int().positive(), startedAt: instant }),
  TestFinished: z.object({
    ...run,
    deviceId: z.string(),
    ...testIdSchema.shape,
    attempt: z.number().int().positive(),
    outcome: testOutcome,
    durationMs: z.number().int().nonnegative(),
    message: z.string().nullable(),
    stack: z.string().nullable(),
    /** Files the attempt left (a failure's screenshot): artifacts of the shard's device session, with their download path. */
    artifacts: z.array(z.object({ name: z.string(), fileId: z.string(), url: z.string().optional() })),
    /** The device log between the test's start and its end (at most the last 200 lines). */
    logcat: z.array(z.string()).default([]),
  }),
  /** A failed test goes again, on `deviceId` (another device than the one it failed on, where there is one). */
  TestRetryScheduled: z.object({ ...run, ...testIdSchema.shape, attempt: z.number().int().positive(), failedOn: z.string(), deviceId: z.string() }),
  TestRunShardEnded: z.object({ ...run, deviceId: z.string(), state: shardEnd, reason: z.string().nullable(), endedAt: instant }),
  /** The tests a shard had not finished, moved to the shards named (its own among them when its device lives on). */
  TestsReplanned: z.object({ ...run, fromDeviceId: z.string(), reason: z.string(), shards: z.array(shardPlan) }),
  TestRunFinished: z.object({ ...run, state: z.enum(FINISHED_TEST_RUN_STATES), reason: z.string().nullable(), counts: countsSchema, endedAt: instant }),
  TestRunCancelled: z.object({ ...run, reason: z.string().nullable() }),
  /** After the run's end: its results filed as a test session of its project, or why they could not be. */
  TestRunResultsFiled: z.object({ ...run, testSessionId: z.string().nullable(), reason: z.string().nullable() }),
});
export type TestRunEvent = EventOf<typeof testRunEvents>;
export const TEST_RUN_EVENT_TYPES = testRunEvents.types;

/** Stream of one test run. */
export const testRunStream = (runId: string) => `test-run-${runId}`;
