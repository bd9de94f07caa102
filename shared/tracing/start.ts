import { loadTracingConfig } from './config.js';
import type { Tracing } from './sdk.js';

let started: Promise<Tracing> | null = null;

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
    return {
      ...tracing,
      shutdown: async () => {
        started = null;
        await tracing.shutdown();
      },
    };
  });
  return started;
}
