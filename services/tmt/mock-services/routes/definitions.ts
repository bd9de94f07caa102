import { randomUUID } from 'node:crypto';
import { paging, workspaceCaller } from '#shared/http/params.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findMockService, listMockServices, type MockServiceRow } from '#projections/tmt-mock-services/index.js';
import { randomToken } from '#shared/auth/index.js';
import { found } from '#shared/errors.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../../platform.js';
import { TmtNames, type TmtNameScope } from '../../user-groups/index.js';
import { mockServiceWrites } from '../service.js';
import { mockModule } from '../definition.js';
import { hitsKey, lastHitKey, MockService, mockView, Params, parseDefinition, tags } from './shared.js';
import { callerActor, commandContext } from '#shared/es/index.js';

/** `/tmt/api/v1/mock-services`: define, change, enable, disable and delete mock services. */
export async function mockServiceRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const { db, kv } = platform;
  const names = new TmtNames(platform.store);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const scopeOf = (workspaceId: number): TmtNameScope => `mock-service-name:${workspaceId}`;

  const view = (row: MockServiceRow) => mockView(platform, row);
  const mockOr404 = async (scope: { companyId: number; workspaceId: number }, id: string): Promise<MockServiceRow> => {
    return found(await findMockService(db, scope, id), 'Mock service not found');
  };
  const { run } = mockServiceWrites(platform);

  r.get('/tmt/api/v1/mock-services', {
    schema: {
      tags,
      summary: 'Mock services of the workspace with their call counts (TMT_READ)',
      querystring: z.object({
        ...paging,
        module: mockModule.optional(),
      }),
      response: { 200: pageSchema(MockService, 'TmtMockServicePage') },
    },
    handler: async (request) => {
      const page = await listMockServices(db, await workspaceCaller(request, 'TMT_READ'), request.query);
      return { ...page, content: await Promise.all(page.content.map(view)) };
    },
  });

  r.post('/tmt/api/v1/mock-services', {
    schema: {
      tags,
      summary: 'Define a mock service; names are unique per workspace, case-insensitive. Answers its unguessable public URL (TMT_WRITE)',
      body: z.object({ enabled: z.boolean().default(true) }).loose(),
      response: { 201: MockService },
    },
    handler: async (request, reply) => {
      const c = await workspaceCaller(request, 'TMT_WRITE');
      const { enabled, ...rest } = request.body;
      const definition = parseDefinition(rest);
      const mockId = randomUUID();
      const context = commandContext(platform, callerActor(c));
      await names.claim(scopeOf(c.workspaceId), definition.name, mockId, 'Mock service', context);
      try {
        await run(
          mockId,
          { type: 'CreateMockService', mockId, companyId: c.companyId, workspaceId: c.workspaceId, publicId: randomToken(24), enabled, createdBy: c.userId, ...definition },
          context,
        );
      } catch (err) {
        await names.release(scopeOf(c.workspaceId), definition.name, mockId, context);
        throw err;
      }
      return reply.code(201).send(await view(await mockOr404(c, mockId)));
    },
  });

  r.get('/tmt/api/v1/mock-services/:id', {
    schema: { tags, summary: 'One mock service with its call count and last call (TMT_READ)', params: Params, response: { 200: MockService } },
    handler: async (request) => view(await mockOr404(await workspaceCaller(request, 'TMT_READ'), request.params.id)),
  });

  r.put('/tmt/api/v1/mock-services/:id', {
    schema: {
      tags,
      summary: 'Replace the name, module and routes of a mock service; its public id stays (TMT_WRITE)',
      params: Params,
      body: z.object({}).loose(),
      response: { 200: MockService },
    },
    handler: async (request) => {
      const c = await workspaceCaller(request, 'TMT_WRITE');
      const mock = await mockOr404(c, request.params.id);
      const definition = parseDefinition(request.body);
      const context = commandContext(platform, callerActor(c));
      await names.renamed(scopeOf(c.workspaceId), 'Mock service', mock.id, mock.name, definition.name, context, () =>
        run(mock.id, { type: 'RedefineMockService', companyId: c.companyId, workspaceId: c.workspaceId, ...definition }, context),
      );
      return view(await mockOr404(c, mock.id));
    },
  });

  for (const [action, type] of [
    ['enable', 'EnableMockService'],
    ['disable', 'DisableMockService'],
  ] as const) {
    r.post(`/tmt/api/v1/mock-services/:id/${action}`, {
      schema: {
        tags,
        summary: action === 'enable' ? 'Answer the public URL again (TMT_WRITE)' : 'Stop answering the public URL: it answers 404 until enabled (TMT_WRITE)',
        params: Params,
        response: { 200: MockService },
      },
      handler: async (request) => {
        const c = await workspaceCaller(request, 'TMT_WRITE');
        const mock = await mockOr404(c, request.params.id);
        await run(mock.id, { type, companyId: c.companyId, workspaceId: c.workspaceId }, commandContext(platform, callerActor(c)));
        return view(await mockOr404(c, mock.id));
      },
    });
  }

  r.delete('/tmt/api/v1/mock-services/:id', {
    schema: { tags, summary: 'Delete a mock service; its public URL answers 404 (TMT_DELETE)', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await workspaceCaller(request, 'TMT_DELETE');
      const mock = await mockOr404(c, request.params.id);
      const context = commandContext(platform, callerActor(c));
      await run(mock.id, { type: 'DeleteMockService', companyId: c.companyId, workspaceId: c.workspaceId }, context);
      await names.release(scopeOf(c.workspaceId), mock.name, mock.id, context);
      await Promise.all([kv.delete(hitsKey(mock.id)), kv.delete(lastHitKey(mock.id))]);
      return reply.code(204).send(null);
    },
  });
}
