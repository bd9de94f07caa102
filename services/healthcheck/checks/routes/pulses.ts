import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkHistory } from '#projections/hc-checks/index.js';
import { pageSchema } from '#shared/paging.js';
import { caller, paging } from '../../http.js';
import { Heartbeat, Params, Sample, tags, type CheckRoutesOptions } from './schemas.js';

/** `/healthcheck/api/v1/checks/:checkId/{metrics,heartbeats,history}`: what a check received and went through. */
export async function checkPulseRoutes(app: FastifyInstance, opts: CheckRoutesOptions): Promise<void> {
  const { platform, checks, pulses } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/healthcheck/api/v1/checks/:checkId/metrics', {
    schema: {
      tags,
      summary: 'Metric samples of a check, newest first',
      params: Params,
      querystring: z.object({
        name: z.string().max(128).optional(),
        since: z.iso.datetime({ offset: true }).optional(),
        limit: z.coerce.number().int().min(1).max(1000).default(100),
      }),
      response: { 200: z.object({ checkId: z.string(), samples: z.array(Sample) }) },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_READ');
      const view = await checks.view(c, request.params.checkId);
      const q = request.query;
      const samples = await pulses.samples(c, view.id, { name: q.name, since: q.since ? new Date(q.since) : undefined, limit: q.limit });
      return { checkId: view.id, samples };
    },
  });

  r.get('/healthcheck/api/v1/checks/:checkId/heartbeats', {
    schema: {
      tags,
      summary: 'Recent heartbeats of a check, newest first',
      params: Params,
      querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
      response: { 200: z.object({ checkId: z.string(), heartbeats: z.array(Heartbeat) }) },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_READ');
      const view = await checks.view(c, request.params.checkId);
      return { checkId: view.id, heartbeats: await pulses.recentHeartbeats(c, view.id, request.query.limit) };
    },
  });

  r.get('/healthcheck/api/v1/checks/:checkId/history', {
    schema: {
      tags,
      summary: 'The events of a check, oldest first: created, changed, paused, went down, recovered, ...',
      params: Params,
      querystring: z.object(paging),
      response: {
        200: pageSchema(z.object({ eventId: z.string(), type: z.string(), actorId: z.number().nullable(), occurredAt: z.string(), detail: z.record(z.string(), z.unknown()) })),
      },
    },
    handler: async (request) => {
      const c = await caller(request, 'HEALTHCHECK_READ');
      const view = await checks.view(c, request.params.checkId);
      return checkHistory(platform.db, c, view.id, request.query);
    },
  });
}
