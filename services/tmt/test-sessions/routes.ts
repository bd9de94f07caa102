import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentResults, listTestSessions, resultHistory } from '#projections/tmt-test-sessions/index.js';
import type { Platform } from '../../platform.js';
import { ok, okList, tmtCaller, uuid, UuidParams, v1List, v1One, v1Paging } from '../http.js';
import { RESULT_STATUSES, SESSION_STATUSES } from '#events/tmt/test-sessions.js';
import type { TmtDeps } from '../deps.js';
import { ResultAttachment, withAttachments } from './attachments.js';
import { MAX_RESULTS_PER_BATCH, ResultInput, type TestSessionDetail as SessionWithResults, type TestSessionService } from './service.js';

const tags = ['Test management: test sessions'];

const Actor = z.object({ userId: z.number().int().optional(), engineId: z.string().optional() });

export const Result = z
  .object({
    testCaseId: z.string(),
    status: z.enum(RESULT_STATUSES),
    notes: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    recordedAt: z.string(),
    recordedBy: Actor,
    title: z.string().nullable().describe("The test's name as an imported report gave it; null for a result recorded on its own"),
    deviceSessionId: z
      .string()
      .nullable()
      .describe('The device session that ran the test (its console page: /sessions/{id}), when its report, its test run or its poster named one of the company'),
    attachments: z.array(ResultAttachment).describe("The device session's video, when it has one the reader may see"),
  })
  .meta({ id: 'V1TestResult' });

const sessionFields = {
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  status: z.enum(SESSION_STATUSES),
  testCases: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
};
export const TestSession = z.object(sessionFields).meta({ id: 'V1TestSession' });
export const TestSessionDetail = z.object({ ...sessionFields, results: z.array(Result).describe('The current (newest) result of each case that has one') }).meta({ id: 'V1TestSessionDetail' });

const name = z.string().trim().min(1).max(200);
const testCases = z.array(uuid).max(10_000);

/**
 * The results body is documented as one result or a list, but checked by `parseResults`, so the first
 * invalid element of a list is named by its index; params still go through the zod validator.
 */
const bodyCheckedByHandler = (route: FastifyRouteSchemaDef<unknown>): FastifyValidationResult =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as FastifyRouteSchemaDef<z.ZodType>);

/** `/v1/test-sessions`: sessions, their status, and the results recorded in them. */
export async function testSessionRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: TestSessionService; deviceSessions: TmtDeps['deviceSessions'] }): Promise<void> {
  const { platform, sessions, deviceSessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The session as the request's reader sees its results (`withAttachments`). */
  const shown = async (request: FastifyRequest, session: SessionWithResults) => ({ ...session, results: await withAttachments(request, deviceSessions, session.results) });

  r.get('/v1/test-sessions', {
    schema: {
      tags,
      summary: 'Test sessions of the workspace in creation order, filtered by project and status (TMT_READ)',
      querystring: z.object({ projectId: uuid.optional(), status: z.enum(SESSION_STATUSES).optional(), ...v1Paging }),
      response: { 200: v1List(TestSession) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_READ');
      const { page, limit, projectId, status } = request.query;
      const { items, total } = await listTestSessions(platform.db, scope, { ...(projectId ? { projectId } : {}), ...(status ? { status } : {}) }, { offset: (page - 1) * limit, limit });
      return okList(items, { page, limit }, total);
    },
  });

  r.get('/v1/test-sessions/:id', {
    schema: { tags, summary: 'One test session with the current result of each case (TMT_READ)', params: UuidParams, response: { 200: v1One(TestSessionDetail) } },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_READ');
      await sessions.sessionOr404(scope, request.params.id);
      return ok(await shown(request, (await sessions.get(scope, request.params.id))!));
    },
  });

  r.post('/v1/test-sessions', {
    schema: {
      tags,
      summary: 'Start (plan) a test session of a project with some of its test cases (TMT_WRITE)',
      body: z.object({ name, projectId: uuid, testCases: testCases.default([]) }),
      response: { 201: v1One(TestSessionDetail) },
    },
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      return reply.code(201).send(ok(await shown(request, await sessions.create(scope, request.body))));
    },
  });

  r.put('/v1/test-sessions/:id', {
    schema: {
      tags,
      summary:
        'Rename, change the case list (not once completed), or move the status forward: planned → in_progress → completed; any other move is 409 (TMT_WRITE)',
      params: UuidParams,
      body: z.object({ name: name.optional(), testCases: testCases.optional(), status: z.enum(SESSION_STATUSES).optional() }),
      response: { 200: v1One(TestSessionDetail) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      return ok(await shown(request, await sessions.update(scope, request.params.id, request.body)));
    },
  });

  r.post('/v1/test-sessions/:id/results', {
    schema: {
      tags,
      summary: `Record one result, or a list of up to ${MAX_RESULTS_PER_BATCH}: all or nothing; the first result moves a planned session to in_progress (TMT_WRITE)`,
      params: UuidParams,
      body: z.union([ResultInput, z.array(ResultInput).min(1).max(MAX_RESULTS_PER_BATCH)]),
      response: { 201: v1One(z.object({ recorded: z.number().int(), sessionStatus: z.enum(SESSION_STATUSES) })) },
    },
    validatorCompiler: bodyCheckedByHandler,
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const { recorded, status } = await sessions.recordResults(scope, request.params.id, request.body);
      return reply.code(201).send(ok({ recorded, sessionStatus: status }));
    },
  });

  r.get('/v1/test-sessions/:id/results', {
    schema: {
      tags,
      summary: 'Results of a session: the current result of each case, or with history=true every result recorded, oldest first (TMT_READ)',
      params: UuidParams,
      querystring: z.object({ history: z.enum(['true', 'false']).default('false'), ...v1Paging }),
      response: { 200: v1List(Result) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_READ');
      const session = await sessions.sessionOr404(scope, request.params.id);
      const { page, limit } = request.query;
      const offset = (page - 1) * limit;
      if (request.query.history === 'true') {
        const { items, total } = await resultHistory(platform.db, session.id, { offset, limit });
        return okList(await withAttachments(request, deviceSessions, items), { page, limit }, total);
      }
      const all = await currentResults(platform.db, session);
      return okList(await withAttachments(request, deviceSessions, all.slice(offset, offset + limit)), { page, limit }, all.length);
    },
  });
}
