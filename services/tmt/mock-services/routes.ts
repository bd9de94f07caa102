import { randomUUID } from 'node:crypto';
import { paging } from '#shared/http/params.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getWorkspace } from '#projections/org-directory/index.js';
import { findMockService, findMockServiceByPublicId, listMockServices, type MockServiceRow } from '#projections/tmt-mock-services/index.js';
import { randomToken } from '#shared/auth/index.js';
import { handleCommand, type CommandContext } from '#shared/es/decider.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import { pageSchema } from '#shared/paging.js';
import type { PermissionKey } from '#shared/permissions.js';
import type { Platform } from '../../platform.js';
import { TmtNames, type TmtNameScope } from '../user-groups/index.js';
import { mockServiceDecider, type MockServiceCommand } from './decide.js';
import { bodyBytes, matchRoute, MOCK_METHODS, MockDefinitionInput, mockModule, pathSegments } from './definition.js';
import { mockServiceStream } from '#events/tmt/mock-services.js';

const tags = ['Test management: mock services'];
const READ_MODEL = ['tmt-mock-services'] as const;
const DISPATCH_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The public path of a mock service; `/...` after it is matched against its routes. */
export const mockPublicPath = (module: string, publicId: string): string => `/tmt/api/v1/public/${module}/mock-services/${publicId}`;

/**
 * Calls are counted in the key-value store, not as events: the public path can be called by anyone at
 * any rate, and a count is telemetry, not a fact the domain decides on. `increment` is atomic on every
 * adapter, and the store is durable (the SQL table embedded, Redis in production).
 */
const hitsKey = (mockId: string) => `tmt:mock-hits:${mockId}`;
const lastHitKey = (mockId: string) => `tmt:mock-last-hit:${mockId}`;

const StoredRoute = z.object({
  method: z.enum(MOCK_METHODS),
  path: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown().optional(),
  delayMs: z.number().int(),
});
const MockService = z
  .object({
    id: z.string(),
    publicId: z.string(),
    name: z.string(),
    module: z.string(),
    enabled: z.boolean(),
    routes: z.array(StoredRoute),
    publicPath: z.string(),
    publicUrl: z.string(),
    calls: z.object({ count: z.number().int(), lastCalledAt: z.string().nullable() }),
    createdBy: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TmtMockService' });
const Params = z.object({ id: z.uuid() });

async function workspaceCaller(request: FastifyRequest, permission: PermissionKey) {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  const context = (now: Date): CommandContext => ({ actorId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id, correlationId: request.id, now });
  return { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id, context };
}

/** Turns a definition that fails validation into the catalog's 400 with one detail per problem. */
function parseDefinition(body: unknown) {
  const parsed = MockDefinitionInput.safeParse(body);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', 'Request validation failed', {
      details: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    });
  }
  return parsed.data;
}

/** `/tmt/api/v1/mock-services`: define mock services; `/tmt/api/v1/public/<module>/mock-services/<publicId>/...` answers them. */
export async function mockServiceRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const { db, kv } = platform;
  const names = new TmtNames(platform.store);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const scopeOf = (workspaceId: number): TmtNameScope => `mock-service-name:${workspaceId}`;

  const view = async (row: MockServiceRow) => {
    const [count, last] = await Promise.all([kv.get(hitsKey(row.id)), kv.get(lastHitKey(row.id))]);
    const publicPath = mockPublicPath(row.module, row.publicId);
    return {
      id: row.id,
      publicId: row.publicId,
      name: row.name,
      module: row.module,
      enabled: row.enabled,
      routes: row.routes as z.infer<typeof StoredRoute>[],
      publicPath,
      publicUrl: platform.publicAddress.link(publicPath),
      calls: { count: count === null ? 0 : Number(count), lastCalledAt: last },
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  };
  const mockOr404 = async (scope: { companyId: number; workspaceId: number }, id: string): Promise<MockServiceRow> => {
    return found(await findMockService(db, scope, id), 'Mock service not found');
  };
  const run = async (mockId: string, command: MockServiceCommand, context: CommandContext) => {
    const result = await handleCommand({ store: platform.store, streamId: mockServiceStream(mockId), decider: mockServiceDecider, command, context });
    if (result.position !== null) await platform.readModels.waitFor(result.position, { names: READ_MODEL });
  };

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
      const context = c.context(platform.now());
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
      const context = c.context(platform.now());
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
        await run(mock.id, { type, companyId: c.companyId, workspaceId: c.workspaceId }, c.context(platform.now()));
        return view(await mockOr404(c, mock.id));
      },
    });
  }

  r.delete('/tmt/api/v1/mock-services/:id', {
    schema: { tags, summary: 'Delete a mock service; its public URL answers 404 (TMT_DELETE)', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await workspaceCaller(request, 'TMT_DELETE');
      const mock = await mockOr404(c, request.params.id);
      const context = c.context(platform.now());
      await run(mock.id, { type: 'DeleteMockService', companyId: c.companyId, workspaceId: c.workspaceId }, context);
      await names.release(scopeOf(c.workspaceId), mock.name, mock.id, context);
      await Promise.all([kv.delete(hitsKey(mock.id)), kv.delete(lastHitKey(mock.id))]);
      return reply.code(204).send(null);
    },
  });

  await app.register(async (pub) => publicDispatch(pub, platform));
}

/** The public dispatch: any body of any type is accepted (and ignored); delays end early when the caller leaves. */
async function publicDispatch(app: FastifyInstance, platform: Platform): Promise<void> {
  const { db, kv } = platform;
  const waiting = new Set<AbortController>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('preClose', async () => {
    for (const controller of waiting) controller.abort('closing');
  });

  const notFound = () => new AppError('NOT_FOUND', 'Mock service not found');
  const dispatch = async (request: FastifyRequest<{ Params: { module: string; publicId: string; '*'?: string } }>, reply: FastifyReply) => {
    const { module, publicId } = request.params;
    if (publicId.length > 100) throw notFound();
    const mock = await findMockServiceByPublicId(db, publicId);
    if (!mock || !mock.enabled || mock.module !== module) throw notFound();
    const workspace = await getWorkspace(db, mock.companyId, mock.workspaceId);
    if (!workspace || !workspace.modules.includes('TMT')) throw notFound();
    await Promise.all([kv.increment(hitsKey(mock.id)), kv.set(lastHitKey(mock.id), platform.now().toISOString())]);

    const rest = request.params['*'] ?? '';
    const segments = pathSegments(rest);
    const route = segments ? matchRoute(mock.routes, request.method, segments) : null;
    if (!route) {
      throw new AppError('MOCK_ROUTE_NOT_MATCHED', `No route of mock service "${mock.name}" answers ${request.method} /${rest.replace(/^\/+/, '')}`);
    }
    if (route.delayMs > 0) {
      const controller = new AbortController();
      const leave = () => {
        if (!reply.raw.writableEnded) controller.abort('client gone');
      };
      reply.raw.once('close', leave);
      waiting.add(controller);
      try {
        await delay(route.delayMs, undefined, { signal: controller.signal });
      } catch {
        if (controller.signal.reason === 'closing') throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
        return reply.hijack();
      } finally {
        waiting.delete(controller);
        reply.raw.off('close', leave);
      }
    }
    reply.code(route.status);
    for (const [name, value] of Object.entries(route.headers)) reply.header(name, value);
    const given = new Set(Object.keys(route.headers).map((h) => h.toLowerCase()));
    if (route.body !== undefined && !given.has('content-type')) {
      reply.header('content-type', typeof route.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
    }
    if (!given.has('cache-control')) reply.header('cache-control', 'no-store');
    // The platform's origin serves these bytes: never as a page that could run script there.
    reply.header('x-content-type-options', 'nosniff').header('content-security-policy', "sandbox; default-src 'none'");
    return route.body === undefined ? reply.send() : reply.send(bodyBytes(route.body));
  };

  const schema = {
    tags,
    summary: 'Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers',
    security: [],
  };
  const base = '/tmt/api/v1/public/:module/mock-services/:publicId';
  app.route({ method: DISPATCH_METHODS, url: base, exposeHeadRoute: false, schema, handler: dispatch });
  app.route({ method: DISPATCH_METHODS, url: `${base}/*`, exposeHeadRoute: false, schema, handler: dispatch });
}
