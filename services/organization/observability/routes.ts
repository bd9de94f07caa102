import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '#shared/http/principal.js';
import { liveProcesses, observabilityOf } from '#shared/processes/registry.js';
import { logTraceFields } from '#shared/tracing/index.js';
import type { ObservabilityFeatureOptions } from './options.js';

const tags = ['Observability'];

const ProcessMetrics = z
  .object({
    served: z.boolean().describe('Whether this process serves Prometheus metrics at all (METRICS_PORT or METRICS_TOKEN set)'),
    port: z.number().int().nullable().describe('METRICS_PORT: the port of their own where `/metrics` answers without a token (0: a free one picked at start); null when unset'),
    tokenProtected: z.boolean().describe('METRICS_TOKEN is set: `/metrics` on the process’s own port answers to that bearer token only (the token is never shown)'),
  })
  .describe('docs/operations.md, "Metrics"');

const ProcessTracing = z
  .object({
    enabled: z.boolean().describe('Whether this process exports OpenTelemetry traces (an OTLP endpoint set, not disabled)'),
    sampler: z.string().nullable().describe('OTEL_TRACES_SAMPLER; null when off'),
    ratio: z.number().nullable().describe('The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1); null when off'),
    protocol: z.enum(['http/protobuf', 'http/json']).nullable().describe('The OTLP exporter’s protocol; null when off. The endpoint and its headers are never shown'),
    serviceName: z.string().nullable().describe('`service.name` of this process’s spans; null when off'),
  })
  .describe('docs/operations.md, "Tracing"');

const Observability = z
  .object({
    metrics: ProcessMetrics,
    tracing: ProcessTracing,
    processes: z
      .array(
        z.object({
          instanceId: z.string().describe('A random id the process took at start (never its host name or address)'),
          services: z.array(z.string()).describe('The services it runs (`SERVICES`): every one of them for a process that runs all'),
          thisProcess: z.boolean().describe('Whether it is the process answering this request'),
          startedAt: z.string(),
          seenAt: z.string().describe('When it last said it is there (every 15 s; a process not heard of for 45 s is left out)'),
          metrics: ProcessMetrics,
          tracing: ProcessTracing,
        }),
      )
      .describe('Every process of the installation heard of within the last 45 s, the longest running first (docs/operations.md, "Every process")'),
    request: z
      .object({
        requestId: z.string().describe('This request’s id, as its `x-request-id` answer header and log lines carry it'),
        traceId: z.string().nullable().describe('The W3C trace id of this request, to look it up in the tracing backend; null when tracing is off or the request was not sampled'),
      })
      .describe('This very request, to find in the logs and the tracing backend'),
  })
  .meta({ id: 'Observability' });

/**
 * `GET /api/v1/observability` (USER_ADMIN_MANAGE): whether the answering process serves metrics and how,
 * whether it exports traces with which sampler and protocol, and this request's id and trace id.
 * Nothing secret: never the metrics token, never the OTLP endpoint or its headers.
 */
export async function observabilityRoutes(app: FastifyInstance, opts: ObservabilityFeatureOptions): Promise<void> {
  const { config } = opts.platform;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/observability', {
    schema: {
      tags,
      summary: 'How the answering process serves metrics and exports traces, and this request’s id and trace id (USER_ADMIN_MANAGE); never a token, endpoint or header',
      response: { 200: Observability },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      reply.header('cache-control', 'no-store');
      const processes = opts.platform.processId === undefined ? [] : await liveProcesses(opts.platform.db);
      return {
        ...observabilityOf(config),
        processes: processes.map((p) => ({ ...p, thisProcess: p.instanceId === opts.platform.processId })),
        request: { requestId: String(request.id), traceId: logTraceFields().trace_id ?? null },
      };
    },
  });
}
