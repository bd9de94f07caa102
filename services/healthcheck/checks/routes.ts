import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkHistory, listChecks } from '#projections/hc-checks/index.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, paging, type Caller } from '../http.js';
import type { PulseStore } from './pulse-store.js';
import { newPushToken, toCheckView, type CheckService } from './service.js';

const tags = ['Health checks'];
const StatusEnum = z.enum(['new', 'up', 'down', 'paused']);
const MAX_DAYS = 30 * 86_400;

const Check = z
  .object({
    id: z.string(),
    workspaceId: z.number(),
    name: z.string(),
    description: z.string(),
    intervalSeconds: z.number(),
    graceSeconds: z.number(),
    tags: z.array(z.string()),
    status: StatusEnum,
    statusChangedAt: z.string(),
    tokenPrefix: z.string(),
    createdBy: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastHeartbeatAt: z.string().nullable(),
    heartbeatCount: z.number(),
    dueBy: z.string().nullable(),
  })
  .meta({ id: 'HealthCheck' });

const Heartbeat = z.object({ receivedAt: z.string(), status: z.enum(['up', 'fail']), message: z.string().nullable() });
const Sample = z
  .object({ name: z.string(), value: z.number(), unit: z.string().nullable(), tags: z.record(z.string(), z.string()), at: z.string(), receivedAt: z.string() })
  .meta({ id: 'HealthCheckMetricSample' });
const PushUrls = z.object({ heartbeat: z.string(), metrics: z.string() });

const Settings = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000),
  intervalSeconds: z.number().int().min(1).max(MAX_DAYS),
  graceSeconds: z.number().int().min(0).max(MAX_DAYS),
  tags: z.array(z.string().trim().min(1).max(50)).max(20),
};
const Params = z.object({ checkId: idParam });
const pushUrls = (token: string) => ({ heartbeat: `/healthcheck/api/v1/heartbeat/${token}`, metrics: `/healthcheck/api/v1/metrics/${token}` });
const ctx = (c: Caller, now: Date) => ({ actorId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId, now });

/** `/healthcheck/api/v1/checks`: create, list, read, change, pause, resume, delete checks and rotate their push tokens. */
export async function healthCheckRoutes(app: FastifyInstance, opts: { platform: Platform; checks: CheckService; pulses: PulseStore }): Promise<void> {
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
        ctx(c, platform.now()),
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
      await checks.execute(checkId, { type: 'UpdateHealthCheck', checkId, changes }, ctx(c, platform.now()));
      return checks.view(c, checkId);
    },
  });

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
        await checks.execute(checkId, { type, checkId }, ctx(c, platform.now()));
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
      await checks.execute(checkId, { type: 'RotateHealthCheckToken', checkId, tokenHash, tokenPrefix }, ctx(c, platform.now()));
      reply.header('cache-control', 'no-store');
      return { id: checkId, token, tokenPrefix, pushUrls: pushUrls(token) };
    },
  });

  r.delete('/healthcheck/api/v1/checks/:checkId', {
    schema: { tags, summary: 'Delete a health check; its push token stops working', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const { checkId } = request.params;
      await checks.view(c, checkId);
      await checks.execute(checkId, { type: 'DeleteHealthCheck', checkId }, ctx(c, platform.now()));
      reply.code(204);
      return null;
    },
  });

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
