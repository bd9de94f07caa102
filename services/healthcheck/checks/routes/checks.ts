import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listChecks } from '#projections/hc-checks/index.js';
import { pageSchema } from '#shared/paging.js';
import { caller, paging } from '../../http.js';
import { newPushToken, toCheckView } from '../service.js';
import { Check, Params, PushUrls, pushUrls, Heartbeat, Sample, Settings, StatusEnum, tags, type CheckRoutesOptions } from './schemas.js';
import { callerActor, commandContext } from '#shared/es/index.js';

/** `/healthcheck/api/v1/checks`: create, list, read, change and delete checks. */
export async function checkRoutes(app: FastifyInstance, opts: CheckRoutesOptions): Promise<void> {
  const { platform, checks, pulses } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/healthcheck/api/v1/checks', {
    schema: {
      tags,
      summary: 'Health checks of the workspace with their status and last heartbeat',
      querystring: z.object({ ...paging, status: StatusEnum.optional(), tag: z.string().max(50).optional() }),
      response: { 200: pageSchema(Check) },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_READ');
      const page = await listChecks(platform.db, c, request.query);
      const liveness = await pulses.liveness(c, page.content.map((x) => x.id));
      return { ...page, content: page.content.map((x) => toCheckView(x, liveness.get(x.id))) };
    },
  });

  r.post('/healthcheck/api/v1/checks', {
    schema: {
      tags,
      summary: 'Create a health check; its push token is in this answer only',
      body: z.object({ ...Settings, description: Settings.description.optional(), graceSeconds: Settings.graceSeconds.default(0), tags: Settings.tags.optional() }),
      response: { 201: Check.extend({ token: z.string(), pushUrls: PushUrls }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const checkId = randomUUID();
      const { token, tokenHash, tokenPrefix } = newPushToken();
      const b = request.body;
      await checks.execute(
        checkId,
        {
          type: 'CreateHealthCheck',
          checkId,
          name: b.name,
          description: b.description ?? '',
          intervalSeconds: b.intervalSeconds,
          graceSeconds: b.graceSeconds,
          tags: b.tags ?? [],
          tokenHash,
          tokenPrefix,
          createdBy: c.userId,
          companyId: c.companyId,
          workspaceId: c.workspaceId,
        },
        commandContext(platform, callerActor(c)),
      );
      reply.code(201).header('cache-control', 'no-store');
      return { ...(await checks.view(c, checkId)), token, pushUrls: pushUrls(token) };
    },
  });

  r.get('/healthcheck/api/v1/checks/:checkId', {
    schema: {
      tags,
      summary: 'One health check with its recent heartbeats and metric samples',
      params: Params,
      response: { 200: Check.extend({ recentHeartbeats: z.array(Heartbeat), recentSamples: z.array(Sample) }) },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_READ');
      const view = await checks.view(c, request.params.checkId);
      const [recentHeartbeats, recentSamples] = await Promise.all([pulses.recentHeartbeats(c, view.id, 20), pulses.samples(c, view.id, { limit: 50 })]);
      return { ...view, recentHeartbeats, recentSamples };
    },
  });

  r.put('/healthcheck/api/v1/checks/:checkId', {
    schema: {
      tags,
      summary: 'Change a health check (only the fields sent)',
      params: Params,
      body: z.object({
        name: Settings.name.optional(),
        description: Settings.description.optional(),
        intervalSeconds: Settings.intervalSeconds.optional(),
        graceSeconds: Settings.graceSeconds.optional(),
        tags: Settings.tags.optional(),
      }),
      response: { 200: Check },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const { checkId } = request.params;
      await checks.view(c, checkId);
      const changes = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined));
      await checks.execute(checkId, { type: 'UpdateHealthCheck', checkId, changes }, commandContext(platform, callerActor(c)));
      return checks.view(c, checkId);
    },
  });

  r.delete('/healthcheck/api/v1/checks/:checkId', {
    schema: { tags, summary: 'Delete a health check; its push token stops working', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const { checkId } = request.params;
      await checks.view(c, checkId);
      await checks.execute(checkId, { type: 'DeleteHealthCheck', checkId }, commandContext(platform, callerActor(c)));
      reply.code(204);
      return null;
    },
  });
}
