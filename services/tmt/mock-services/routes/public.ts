import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getWorkspace } from '#projections/org-directory/index.js';
import { findMockServiceByPublicId } from '#projections/tmt-mock-services/index.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../../platform.js';
import { bodyBytes, matchRoute, pathSegments } from '../definition.js';
import { hitsKey, lastHitKey, tags } from './shared.js';

const DISPATCH_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The public dispatch: any body of any type is accepted (and ignored); delays end early when the caller leaves. */
export async function publicDispatch(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
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
