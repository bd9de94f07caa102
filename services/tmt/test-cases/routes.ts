import { randomUUID } from 'node:crypto';
import { timed } from '#shared/request-context.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findTestCase, listTestCases, type TestCaseView } from '#projections/tmt-test-cases/index.js';
import { found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { definedOnly, projectOr404 } from '../projects/index.js';
import { ok, okList, tmtCaller, uuid, UuidParams, v1List, v1One, v1Paging, type TmtScope } from '../http.js';
import { testCaseWrites } from './service.js';
import { CASE_STATUSES, PRIORITIES } from '#events/tmt/test-cases.js';

const tags = ['Test management: test cases'];

const Step = z.object({ action: z.string().max(5_000), expected: z.string().max(5_000) });

export const TestCase = z
  .object({
    id: z.string(),
    projectId: z.string(),
    title: z.string(),
    description: z.string(),
    priority: z.enum(PRIORITIES),
    status: z.enum(CASE_STATUSES),
    steps: z.array(Step),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'V1TestCase' });

const title = z.string().trim().min(1).max(500);
const description = z.string().max(20_000);
const steps = z.array(Step).max(500);

async function caseOr404(platform: Platform, scope: TmtScope, id: string): Promise<TestCaseView> {
  return found(await findTestCase(platform.db, scope, id), 'Test case not found');
}

/** `/v1/test-cases`: list with filters, read, create, change, delete. */
export async function testCaseRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { run } = testCaseWrites(platform);

  r.get('/v1/test-cases', {
    schema: {
      tags,
      summary: 'Test cases of the workspace in creation order, filtered by project, priority, status and title (TMT_READ)',
      querystring: z.object({
        projectId: uuid.optional(),
        priority: z.enum(PRIORITIES).optional(),
        status: z.enum(CASE_STATUSES).optional(),
        search: z.string().trim().min(1).max(200).optional().describe('Part of the title, case-insensitive'),
        ...v1Paging,
      }),
      response: { 200: v1List(TestCase) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_READ');
      const { page, limit, ...filter } = request.query;
      const { items, total } = await listTestCases(platform.db, scope, definedOnly(filter), { offset: (page - 1) * limit, limit });
      return okList(items, { page, limit }, total);
    },
  });

  r.get('/v1/test-cases/:id', {
    schema: { tags, summary: 'One test case (TMT_READ)', params: UuidParams, response: { 200: v1One(TestCase) } },
    handler: async (request) => ok(await caseOr404(platform, await tmtCaller(request, 'TMT_READ'), request.params.id)),
  });

  r.post('/v1/test-cases', {
    schema: {
      tags,
      summary: 'Create a test case in a project of the workspace; an unknown project is 404 (TMT_WRITE)',
      body: z.object({
        title,
        projectId: uuid,
        priority: z.enum(PRIORITIES).default('medium'),
        status: z.enum(CASE_STATUSES).default('draft'),
        description: description.default(''),
        steps: steps.default([]),
      }),
      response: { 201: v1One(TestCase) },
    },
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const b = request.body;
      await timed('project', () => projectOr404(platform, scope, b.projectId));
      const testCaseId = randomUUID();
      await run(scope, testCaseId, { type: 'CreateTestCase', testCaseId, companyId: scope.companyId, workspaceId: scope.workspaceId, projectId: b.projectId, title: b.title, description: b.description, priority: b.priority, status: b.status, steps: b.steps }, true);
      return reply.code(201).send(ok(await timed('read', () => caseOr404(platform, scope, testCaseId))));
    },
  });

  r.put('/v1/test-cases/:id', {
    schema: {
      tags,
      summary: 'Change title, description, priority, status or steps; the project stays (TMT_WRITE)',
      params: UuidParams,
      body: z.object({ title: title.optional(), description: description.optional(), priority: z.enum(PRIORITIES).optional(), status: z.enum(CASE_STATUSES).optional(), steps: steps.optional() }),
      response: { 200: v1One(TestCase) },
    },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const testCase = await caseOr404(platform, scope, request.params.id);
      await run(scope, testCase.id, { type: 'UpdateTestCase', changes: definedOnly(request.body) });
      return ok(await caseOr404(platform, scope, testCase.id));
    },
  });

  r.delete('/v1/test-cases/:id', {
    schema: { tags, summary: 'Delete a test case (TMT_DELETE)', params: UuidParams, response: { 200: v1One(z.object({ id: z.string() })) } },
    handler: async (request) => {
      const scope = await tmtCaller(request, 'TMT_DELETE');
      const testCase = await caseOr404(platform, scope, request.params.id);
      await run(scope, testCase.id, { type: 'DeleteTestCase' });
      return ok({ id: testCase.id });
    },
  });
}
