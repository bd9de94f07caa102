import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countsSchema, deviceSelectorSchema, TEST_RUN_STATES, testFilterSchema } from '#events/df/test-runs.js';
import { getTestRun, listTestRuns, testRunAttempts } from '#projections/df-test-runs/index.js';
import { found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { toPage } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging } from '../http.js';
import { junitXml } from './junit.js';
import { reportHtml } from './report.js';
import type { TestRunService } from './service.js';
import { statusOf } from './state.js';

export interface TestRunRoutesOptions {
  platform: Platform;
  runs: TestRunService;
}

const tags = ['Device testing: test runs'];
const RunState = z.enum(TEST_RUN_STATES);
const Params = z.object({ runId: idParam });
const Accepted = z.object({ id: z.string(), state: RunState }).meta({ id: 'DfTestRunAccepted' });

const Strategy = z
  .object({
    sharding: z.enum(['duration', 'uniform']).optional().describe('`duration` (default): longest first on earlier runs’ durations; `uniform`: dealt round-robin'),
    batchSize: z.number().int().min(1).max(1_000).optional().describe('Tests per `am instrument` launch (default 20)'),
    retries: z.number().int().min(0).max(5).optional().describe('Attempts after a failed one, each on another device where there is one (default 1)'),
    flakyThreshold: z.number().min(0).max(1).nullable().optional().describe('Tests whose past pass rate is below this run twice from the start'),
    testTimeoutSeconds: z.number().int().min(1).max(3_600).optional().describe('A test running longer has hung (default 600)'),
    runTimeoutSeconds: z.number().int().min(1).max(86_400).optional().describe('The run ends in error past this (default 3600)'),
    failFast: z.boolean().optional(),
    clearPackageData: z.boolean().optional().describe('`pm clear` the app before each test'),
  })
  .strict();

const CreateBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    appVersionId: idParam.describe('The catalogued app version under test'),
    testVersionId: idParam.describe('The catalogued test APK version'),
    devices: deviceSelectorSchema.extend({ count: z.number().int().min(1).max(500).optional() }).strict(),
    tests: testFilterSchema.strict().optional(),
    strategy: Strategy.optional(),
    projectId: z.uuid().optional().describe('A test-management project of the workspace: the run files its results as a new test session there when it ends (needs TMT_WRITE)'),
  })
  .strict();

const Summary = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    state: RunState,
    projectId: z.string().nullable(),
    appVersionId: z.string(),
    testVersionId: z.string(),
    testPackage: z.string(),
    total: z.number().int(),
    counts: countsSchema.nullable(),
    reason: z.string().nullable(),
    queuedAt: z.string(),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
  })
  .meta({ id: 'DfTestRunSummary' });

const Shard = z.object({
  deviceId: z.string(),
  state: z.enum(['planned', 'running', 'completed', 'infrastructure-failed', 'cancelled']),
  tests: z.number().int(),
  currentTest: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  reason: z.string().nullable(),
  sessionId: z.string().nullable(),
});

const Detail = Summary.extend({
  userId: z.number().int(),
  basis: z.enum(['uniform', 'duration']).nullable(),
  devices: z.record(z.string(), z.unknown()),
  tests: z.record(z.string(), z.unknown()),
  strategy: z.record(z.string(), z.unknown()),
  rerunOf: z.string().nullable(),
  counts: countsSchema,
  shards: z.array(Shard),
  testSessionId: z.string().nullable(),
  resultsReason: z.string().nullable(),
}).meta({ id: 'DfTestRun' });

const Attempt = z
  .object({
    className: z.string(),
    methodName: z.string(),
    deviceId: z.string().nullable(),
    attempt: z.number().int(),
    outcome: z.enum(['passed', 'failed', 'errored', 'skipped', 'flaky']),
    durationMs: z.number().int(),
    message: z.string().nullable(),
    stack: z.string().nullable(),
    artifacts: z.array(z.object({ name: z.string(), fileId: z.string(), url: z.string().optional().describe('Where its bytes download (an artifact of the device session)') })),
    logcat: z.array(z.string()).describe('The device log between the test’s start and end'),
    finishedAt: z.string(),
  })
  .meta({ id: 'DfTestAttempt' });

const ListQuery = z.object({
  ...paging,
  state: multi(RunState),
  from: z.iso.datetime({ offset: true }).optional().describe('Runs queued at or after'),
  to: z.iso.datetime({ offset: true }).optional().describe('Runs queued before'),
});

/** `/df/api/test-runs`: an instrumentation suite sharded over devices — start, follow, cancel, report. */
export async function testRunRoutes(app: FastifyInstance, opts: TestRunRoutesOptions): Promise<void> {
  const { platform, runs } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = async (c: Awaited<ReturnType<typeof caller>>, runId: string) => found(await getTestRun(platform.db, c, runId), 'Test run not found');

  r.post('/api/test-runs', {
    schema: {
      tags,
      summary: 'Start a test run: the test APK’s selected tests sharded over the matching devices',
      description:
        'Refused without writing anything: 404 for a version or a `projectId` not in the workspace, 403 `FORBIDDEN` for a `projectId` without TMT_WRITE, 409 `NOT_A_TEST_APK`, 422 `NO_TESTS_SELECTED`, 409 `NO_MATCHING_DEVICES` (no available Android device the caller may use matches), 409 `DEVICE_UNHEALTHY` (every one that matches is held by its health, the reason named), 403 `QUOTA_EXCEEDED` (`count` above the plan’s concurrent sessions).',
      body: CreateBody,
      response: { 202: Accepted },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:create');
      // Filing results in a project is a test-management write.
      if (request.body.projectId !== undefined) await requirePermission(request, 'TMT_WRITE');
      return reply.code(202).send(await runs.create(c, request.body));
    },
  });

  r.get('/api/test-runs', {
    schema: { tags, summary: 'The workspace’s test runs, newest first', querystring: ListQuery, response: { 200: pageOf(Summary) } },
    handler: async (request) => {
      const q = request.query;
      const filters = { state: q.state, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined };
      const page = await listTestRuns(platform.db, await caller(request, 'df:session:read'), filters, { page: q.page, size: q.size, sortDir: q.sortDir ?? 'desc' });
      return toPage(page.content, page.totalElements, q.page, q.size);
    },
  });

  r.get('/api/test-runs/:runId', {
    schema: { tags, summary: 'One test run with its counts and shards', params: Params, response: { 200: Detail } },
    handler: async (request) => read(await caller(request, 'df:session:read'), request.params.runId),
  });

  r.get('/api/test-runs/:runId/tests', {
    schema: { tags, summary: 'Every attempt of the run’s tests: one row per test and attempt', params: Params, response: { 200: z.array(Attempt) } },
    handler: async (request) => found(await testRunAttempts(platform.db, await caller(request, 'df:session:read'), request.params.runId), 'Test run not found'),
  });

  r.get('/api/test-runs/:runId/junit', {
    schema: { tags, summary: 'The run as one JUnit XML report (Surefire’s, flaky attempts as <flakyFailure>)', params: Params },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const run = await read(c, request.params.runId);
      const rows = (await testRunAttempts(platform.db, c, run.id)) ?? [];
      const notRun = Object.values((await runs.load(run.id)).tests).filter((t) => statusOf(t) === 'notRun');
      return reply.header('content-type', 'application/xml; charset=utf-8').send(junitXml({ id: run.id, name: run.name, timestamp: run.startedAt ?? run.queuedAt }, rows, notRun));
    },
  });

  r.get('/api/test-runs/:runId/report', {
    schema: { tags, summary: 'The run as a self-contained HTML page: a timeline per device, retries and flaky tests marked', params: Params },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const run = await read(c, request.params.runId);
      const rows = (await testRunAttempts(platform.db, c, run.id)) ?? [];
      return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(reportHtml(run, rows));
    },
  });

  r.post('/api/test-runs/:runId/cancel', {
    schema: { tags, summary: 'Cancel a run: its devices stop their tests and are given back', params: Params, response: { 200: Accepted } },
    handler: async (request) => runs.cancel(await caller(request, 'df:session:create'), request.params.runId),
  });

  r.post('/api/test-runs/:runId/rerun-failed', {
    schema: { tags, summary: 'A new run of the tests that failed in the end, with the run’s devices and strategy', params: Params, response: { 202: Accepted } },
    handler: async (request, reply) => reply.code(202).send(await runs.rerunFailed(await caller(request, 'df:session:create'), request.params.runId)),
  });
}
