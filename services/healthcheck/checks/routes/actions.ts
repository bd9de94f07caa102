import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http.js';
import { newPushToken } from '../service.js';
import { Check, Params, PushUrls, pushUrls, tags, type CheckRoutesOptions } from './schemas.js';
import { callerActor, commandContext } from '#shared/es/index.js';

/** `/healthcheck/api/v1/checks/:checkId/{pause,resume,token/rotate}`: what is done to a check besides changing it. */
export async function checkActionRoutes(app: FastifyInstance, opts: CheckRoutesOptions): Promise<void> {
  const { platform, checks } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const [action, type, summary] of [
    ['pause', 'PauseHealthCheck', 'Pause a health check: heartbeats are still recorded, but it never goes down'],
    ['resume', 'ResumeHealthCheck', 'Resume a paused health check: it is `new` again until its next heartbeat'],
  ] as const) {
    r.post(`/healthcheck/api/v1/checks/:checkId/${action}`, {
      schema: { tags, summary, params: Params, response: { 200: Check } },
      handler: async (request) => {
        const c = await caller(request, 'HEALTHCHECK_MANAGE');
        const { checkId } = request.params;
        await checks.view(c, checkId);
        await checks.execute(checkId, { type, checkId }, commandContext(platform, callerActor(c)));
        return checks.view(c, checkId);
      },
    });
  }

  r.post('/healthcheck/api/v1/checks/:checkId/token/rotate', {
    schema: {
      tags,
      summary: 'Replace the push token of a check; the old one stops working at once',
      params: Params,
      response: { 200: z.object({ id: z.string(), token: z.string(), tokenPrefix: z.string(), pushUrls: PushUrls }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const { checkId } = request.params;
      await checks.view(c, checkId);
      const { token, tokenHash, tokenPrefix } = newPushToken();
      await checks.execute(checkId, { type: 'RotateHealthCheckToken', checkId, tokenHash, tokenPrefix }, commandContext(platform, callerActor(c)));
      reply.header('cache-control', 'no-store');
      return { id: checkId, token, tokenPrefix, pushUrls: pushUrls(token) };
    },
  });
}
