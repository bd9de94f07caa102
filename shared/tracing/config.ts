import { z } from 'zod';
import { ConfigError } from '../config.js';

/** An empty variable counts as unset, as everywhere in the configuration. */
const emptyAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const httpUrl = z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }).optional());

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** `key=value,key2=value2`, values percent-encoded (the OpenTelemetry resource SDK's format). */
const resourceAttributes = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const attributes: Record<string, string> = {};
      if (text === undefined) return attributes;
      for (const pair of text.split(',')) {
        const eq = pair.indexOf('=');
        const key = eq > 0 ? pair.slice(0, eq).trim() : '';
        if (!key) {
          ctx.addIssue({ code: 'custom', message: `"${pair.slice(0, 80)}" is not key=value (pairs separated by commas)` });
          return z.NEVER;
        }
        try {
          attributes[key] = decodeURIComponent(pair.slice(eq + 1).trim());
        } catch {
          ctx.addIssue({ code: 'custom', message: `the value of ${key} is not valid percent-encoding` });
          return z.NEVER;
        }
      }
      return attributes;
    }),
);

const schema = z.object({
  OTEL_SDK_DISABLED: z.preprocess(emptyAsUnset, z.enum(['true', 'false']).default('false')),
  OTEL_TRACES_EXPORTER: z.preprocess(emptyAsUnset, z.enum(['otlp', 'none']).default('otlp')),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.preprocess(
    emptyAsUnset,
    z.enum(['http/protobuf', 'http/json'], { error: 'http/protobuf or http/json (grpc is not supported)' }).default('http/protobuf'),
  ),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.preprocess(emptyAsUnset, z.enum(['http/protobuf', 'http/json'], { error: 'http/protobuf or http/json (grpc is not supported)' }).optional()),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUnset, z.string().trim().max(200).optional()),
  OTEL_RESOURCE_ATTRIBUTES: resourceAttributes,
  OTEL_TRACES_SAMPLER: z.preprocess(emptyAsUnset, z.enum(SAMPLERS).default('parentbased_always_on')),
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(emptyAsUnset, z.coerce.number().min(0).max(1).optional()),
  OTEL_BSP_SCHEDULE_DELAY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(600_000).default(5_000)),
});

/** How this process exports its spans (docs/operations.md, "Tracing"). */
export interface TracingConfig {
  /** Where spans are sent: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else the process's own name. */
  serviceName: string | undefined;
  resourceAttributes: Record<string, string>;
  sampler: (typeof SAMPLERS)[number];
  /** The ratio of the `traceidratio` samplers (default 1). */
  ratio: number;
  /** How often batched spans leave, in milliseconds. */
  scheduleDelayMs: number;
}

/**
 * The tracing configuration of the standard `OTEL_*` variables, or `null` when tracing is off: no
 * endpoint set, `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. A variable that is set but
 * wrong is a `ConfigError` naming it, as for the rest of the configuration.
 */
export function loadTracingConfig(env: Record<string, string | undefined>): TracingConfig | null {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => ({ variable: String(i.path[0] ?? 'OTEL'), message: i.message })));
  }
  const c = parsed.data;
  const base = c.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  if (c.OTEL_SDK_DISABLED === 'true' || c.OTEL_TRACES_EXPORTER === 'none' || url === undefined) return null;
  return {
    url,
    protocol: c.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? c.OTEL_EXPORTER_OTLP_PROTOCOL,
    serviceName: c.OTEL_SERVICE_NAME ?? c.OTEL_RESOURCE_ATTRIBUTES['service.name'],
    resourceAttributes: c.OTEL_RESOURCE_ATTRIBUTES,
    sampler: c.OTEL_TRACES_SAMPLER,
    ratio: c.OTEL_TRACES_SAMPLER_ARG ?? 1,
    scheduleDelayMs: c.OTEL_BSP_SCHEDULE_DELAY,
  };
}
