import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, type ErrorDetail, found } from '#shared/errors.js';
import type { Platform } from '../../../platform.js';
import type { PulseStore } from '../pulse-store.js';
import type { CheckService } from '../service.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Health checks: push'];

/** Limits of the push endpoints: a heartbeat is tiny; a metrics batch is bounded by count and bytes. */
export const PUSH_LIMITS = {
  heartbeatBodyBytes: 4 * 1024,
  metricsBodyBytes: 128 * 1024,
  samplesPerRequest: 500,
  /** A sample may be stamped at most this far ahead of the server's clock. */
  futureSkewMs: 5 * 60_000,
} as const;

const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const TAG_KEY = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

const Accepted = z.object({ accepted: z.literal(true), checkId: z.string(), receivedAt: z.string() });
const TokenParams = z.object({ token: z.string().max(256) });

const HeartbeatBody = z
  .object({
    status: z.enum(['up', 'fail']).optional(),
    message: z.string().max(1000).optional(),
  })
  // No body at all (a bare `curl -X POST`) is a plain heartbeat; Fastify hands such a body over as null.
  .nullish();

const MetricsBody = z.object({
  samples: z
    .array(
      z.object({
        name: z.string().regex(METRIC_NAME, 'a metric name: a letter or _, then letters, digits, _ . : - (at most 128)'),
        value: z.number().refine(Number.isFinite, 'a finite number'),
        at: z.iso.datetime({ offset: true }).optional(),
        unit: z.string().trim().min(1).max(32).optional(),
        tags: z
          .record(z.string().regex(TAG_KEY, 'a tag name'), z.string().max(256))
          .refine((t) => Object.keys(t).length <= 20, 'at most 20 tags')
          .optional(),
      }),
    )
    .min(1)
    .max(PUSH_LIMITS.samplesPerRequest),
});

/**
 * `POST /healthcheck/api/v1/heartbeat/{token}` and `POST /healthcheck/api/v1/metrics/{token}`: public
 * paths whose token is the credential. Both answer 202 only once what they accepted is committed; an
 * unknown token is a 404 and records nothing.
 */
export async function pushRoutes(app: FastifyInstance, opts: { platform: Platform; checks: CheckService; pulses: PulseStore }): Promise<void> {
  const { platform, checks, pulses } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/healthcheck/api/v1/heartbeat/:token', {
    bodyLimit: PUSH_LIMITS.heartbeatBodyBytes,
    schema: {
      tags,
      summary: 'Report that a check is alive (or, with status "fail", that it failed); the token is the credential',
      params: TokenParams,
      body: HeartbeatBody,
      response: { 202: Accepted },
    },
    handler: async (request, reply) => {
      const target = found(await checks.byPushToken(request.params.token), 'Unknown push token');
      const status = request.body?.status ?? 'up';
      const message = request.body?.message ?? null;
      const at = platform.now();
      await pulses.recordHeartbeat(target, at, status, message);
      // The heartbeat is stored; the state change it may cause (new/down → up, up → down) is an event.
      // Should that append fail, the heartbeat still counts: the reaper re-applies it on its next pass.
      await checks
        .execute(
          target.checkId,
          { type: 'RecordHeartbeat', checkId: target.checkId, at: at.toISOString(), status, message },
          commandContext({ now: () => at }, { companyId: target.companyId, workspaceId: target.workspaceId }),
          { wait: false },
        )
        .catch((err: unknown) => request.log.warn({ err, checkId: target.checkId }, 'heartbeat stored; its state change is left to the reaper'));
      reply.code(202);
      return { accepted: true as const, checkId: target.checkId, receivedAt: at.toISOString() };
    },
  });

  r.post('/healthcheck/api/v1/metrics/:token', {
    bodyLimit: PUSH_LIMITS.metricsBodyBytes,
    schema: {
      tags,
      summary: `Push metric samples of a check (at most ${PUSH_LIMITS.samplesPerRequest} per request); the token is the credential`,
      params: TokenParams,
      body: MetricsBody,
      response: { 202: Accepted.extend({ samples: z.number() }) },
    },
    handler: async (request, reply) => {
      const now = platform.now();
      const details: ErrorDetail[] = [];
      const samples = request.body.samples.map((s, i) => {
        const at = s.at ? new Date(s.at) : now;
        if (at.getTime() > now.getTime() + PUSH_LIMITS.futureSkewMs) details.push({ path: `samples.${i}.at`, message: 'must not be in the future' });
        return { name: s.name, value: s.value, at, unit: s.unit ?? null, tags: s.tags ?? {} };
      });
      if (details.length > 0) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details });
      const target = found(await checks.byPushToken(request.params.token), 'Unknown push token');
      await pulses.recordSamples(target, now, samples);
      reply.code(202);
      return { accepted: true as const, checkId: target.checkId, receivedAt: now.toISOString(), samples: samples.length };
    },
  });
}
