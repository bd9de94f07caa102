import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findRun, listRuns, runResults } from '#projections/ar-runs/index.js';
import { fold } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { engineCaller, engineOf, idParam, paging, userCaller, type EngineIdentity } from '../http.js';
import { runDecider } from './decide.js';
import { runWrites } from './service.js';
import { RUN_END_STATUSES, RUN_RESULT_STATUSES, runDescription, runStream } from '#events/autorunner/runs.js';

/**
 * What runs need of test management's /v1 test sessions: the same checks and errors as the /v1
 * routes (404 for an unknown or foreign session, 400 for a test case outside it, 409 for a closed one).
 */
export interface TestSessionSink {
  recordResults(
    scope: { companyId: number; workspaceId: number; actor: { engineId: string } },
    sessionId: string,
    results: Array<{ testCaseId: string; status: (typeof RUN_RESULT_STATUSES)[number]; notes?: string; durationMs?: number }>,
  ): Promise<{ recorded: number; position: bigint }>;
  get(scope: { companyId: number; workspaceId: number }, sessionId: string): Promise<unknown>;
}

const MAX_RESULTS = 1000;
const tags = ['Test engines: runs'];
const Params = z.object({ runId: idParam });

const Result = z.object({
  testCaseId: z.string().trim().min(1).max(128),
  status: z.enum(RUN_RESULT_STATUSES),
  notes: z.string().max(10_000).optional(),
  durationMs: z.number().int().min(0).max(7 * 86_400_000).optional(),
});
const ResultView = z.object({ testCaseId: z.string(), status: z.string(), notes: z.string().nullable(), durationMs: z.number().nullable(), reportedAt: z.string() });
const Run = z
  .object({
    id: z.string(),
    ...runDescription,
    status: z.enum(['running', ...RUN_END_STATUSES]),
    resultsReported: z.number(),
    startedAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'EngineRun' });

/** `/autorunner/api/v1/runs`: engines start runs against test sessions, report results, complete them; users and engines read them. */
export async function runRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: TestSessionSink }): Promise<void> {
  const { platform, sessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const { run: execute } = runWrites(platform);
  /** The run as its reader may see it: an engine only its own runs, a user any run of the workspace. */
  const visibleRun = async (request: FastifyRequest, runId: string) => {
    const engine = engineOf(request);
    const scope = engine ?? (await userCaller(request, 'AUTORUNNER_READ'));
    return found(await findRun(platform.db, scope, runId, engine?.engineId), 'Run not found');
  };
  const ownRun = async (engine: EngineIdentity, runId: string) => {
    return found(await findRun(platform.db, engine, runId, engine.engineId), 'Run not found');
  };

  r.post('/autorunner/api/v1/runs', {
    schema: {
      tags,
      summary: 'Start a run of the calling engine against a /v1 test session of its workspace',
      body: z.object({
        testSessionId: z.uuid(),
        name: z.string().trim().min(1).max(200).optional(),
        externalId: z.string().trim().min(1).max(200).optional(),
        metadata: z
          .record(z.string().max(100), z.unknown())
          .refine((m) => JSON.stringify(m).length <= 16_384, 'at most 16 KiB of metadata')
          .optional(),
      }),
      response: { 201: Run },
    },
    handler: async (request, reply) => {
      const engine = engineCaller(request);
      const b = request.body;
      if (!(await sessions.get(engine, b.testSessionId))) throw new AppError('NOT_FOUND', 'Test session not found');
      const runId = randomUUID();
      await execute(engine, runId, {
        type: 'StartRun',
        runId,
        engineId: engine.engineId,
        testSessionId: b.testSessionId,
        name: b.name ?? null,
        externalId: b.externalId ?? null,
        metadata: b.metadata ?? {},
        companyId: engine.companyId,
        workspaceId: engine.workspaceId,
      });
      reply.code(201);
      return ownRun(engine, runId);
    },
  });

  r.get('/autorunner/api/v1/runs', {
    schema: {
      tags,
      summary: 'Runs of the workspace, newest first (an engine sees its own)',
      querystring: z.object({
        ...paging,
        engineId: idParam.optional(),
        testSessionId: z.string().max(128).optional(),
        status: z.enum(['running', ...RUN_END_STATUSES]).optional(),
      }),
      response: { 200: pageSchema(Run) },
    },
    handler: async (request) => {
      const engine = engineOf(request);
      const scope = engine ?? (await userCaller(request, 'AUTORUNNER_READ'));
      const q = request.query;
      // An engine asking for another engine's runs gets an empty page, not a peek.
      const engineId = engine ? (q.engineId === undefined || q.engineId === engine.engineId ? engine.engineId : '-') : q.engineId;
      return listRuns(platform.db, scope, { ...q, engineId });
    },
  });

  r.get('/autorunner/api/v1/runs/:runId', {
    schema: { tags, summary: 'One run with the results it reported', params: Params, response: { 200: Run.extend({ results: z.array(ResultView) }) } },
    handler: async (request) => {
      const run = await visibleRun(request, request.params.runId);
      return { ...run, results: await runResults(platform.db, run.id) };
    },
  });

  r.post('/autorunner/api/v1/runs/:runId/results', {
    schema: {
      tags,
      summary: `Report one result or an array (at most ${MAX_RESULTS}); they are recorded in the run's test session`,
      params: Params,
      body: z.union([Result, z.array(Result).min(1).max(MAX_RESULTS)]),
      response: { 200: z.object({ runId: z.string(), testSessionId: z.string(), recorded: z.number() }) },
    },
    handler: async (request) => {
      const engine = engineCaller(request);
      const run = await ownRun(engine, request.params.runId);
      const state = fold(runDecider, await platform.store.readStream(runStream(run.id)));
      if (state.status !== 'running') throw new AppError('RUN_NOT_RUNNING', `Run is ${state.status}; it takes no more results`);
      const results = (Array.isArray(request.body) ? request.body : [request.body]).map((x) => ({
        testCaseId: x.testCaseId,
        status: x.status,
        ...(x.notes !== undefined ? { notes: x.notes } : {}),
        ...(x.durationMs !== undefined ? { durationMs: x.durationMs } : {}),
      }));
      // The session is written first: its checks (case in session, session open) refuse before the run records anything.
      const { recorded } = await sessions.recordResults({ companyId: engine.companyId, workspaceId: engine.workspaceId, actor: { engineId: engine.engineId } }, run.testSessionId, results);
      await execute(engine, run.id, {
        type: 'ReportRunResults',
        runId: run.id,
        results: results.map((x) => ({ testCaseId: x.testCaseId, status: x.status, notes: x.notes ?? null, durationMs: x.durationMs ?? null })),
        recorded,
      });
      return { runId: run.id, testSessionId: run.testSessionId, recorded };
    },
  });

  r.post('/autorunner/api/v1/runs/:runId/complete', {
    schema: {
      tags,
      summary: 'Complete a run with its outcome; completing again with the same outcome changes nothing',
      params: Params,
      body: z.object({ status: z.enum(RUN_END_STATUSES) }),
      response: { 200: Run },
    },
    handler: async (request) => {
      const engine = engineCaller(request);
      const run = await ownRun(engine, request.params.runId);
      await execute(engine, run.id, { type: 'CompleteRun', runId: run.id, status: request.body.status });
      return ownRun(engine, run.id);
    },
  });
}

