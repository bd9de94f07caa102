import { loadTracingConfig, type TracingConfig } from './config.js';
import type { Tracing } from './sdk.js';

let started: Promise<Tracing> | null = null;
/** What `startTracing` started with, for an operator's view (never the endpoint: it may carry credentials). */
let running: { config: TracingConfig; serviceName: string } | null = null;

/**
 * How this process traces, once `startTracing` has started it: the sampler, its ratio, the exporter's
 * protocol and the service name its spans carry; `null` when tracing is off. Never the endpoint.
 */
export function tracingState(): { sampler: TracingConfig['sampler']; ratio: number; protocol: TracingConfig['protocol']; serviceName: string } | null {
  if (!running) return null;
  const { config, serviceName } = running;
  return { sampler: config.sampler, ratio: config.ratio, protocol: config.protocol, serviceName: config.serviceName ?? serviceName };
}

/**
 * Starts OpenTelemetry tracing for this process from the `OTEL_*` variables of `env` (docs/operations.md,
 * "Tracing"), once per process. When they leave tracing off it returns `null` and loads nothing: the
 * SDK and the exporters are never imported, and the API stays the no-op one. `serviceName` names the
 * process when `OTEL_SERVICE_NAME` does not. Throws `ConfigError` on a variable set wrong.
 */
export async function startTracing(env: Record<string, string | undefined>, serviceName: string): Promise<Tracing | null> {
  const config = loadTracingConfig(env);
  if (!config) return null;
  started ??= import('./sdk.js').then(({ startSdk }) => {
    const tracing = startSdk(config, serviceName);
    running = { config, serviceName };
    return {
      ...tracing,
      shutdown: async () => {
        started = null;
        running = null;
        await tracing.shutdown();
      },
    };
  });
  return started;
}
