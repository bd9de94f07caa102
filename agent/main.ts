import { connectNatsBus } from '#shared/bus/index.js';
import { natsHostInbox } from '#shared/wire/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import { ConfigError, loadConfig } from '#shared/config.js';
import { createLogger } from '#shared/logger.js';
import { startTracing, type Tracing } from '#shared/tracing/index.js';
import { startMetricsServer, type MetricsServer } from '#shared/metrics/index.js';
import { AgentHost } from './host.js';
import { loadAgentConfig } from './config.js';

/**
 * `npm run agent`: a device host on its own, joined to the platform over NATS (`NATS_URL`), with its
 * devices from `AGENT_CONFIG`. It keeps trying to reach NATS, and re-announces after any outage.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  let tracing: Tracing | null;
  try {
    tracing = await startTracing(process.env, 'qa-agent');
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config);
  if (tracing) logger.info({ endpoint: tracing.config.url, protocol: tracing.config.protocol }, 'tracing to OTLP');
  if (!config.NATS_URL) {
    process.stderr.write('NATS_URL is required: a separate agent reaches the platform over NATS\n');
    process.exit(2);
  }
  const agentConfig = loadAgentConfig({ ...(config.AGENT_CONFIG ? { path: config.AGENT_CONFIG } : {}), seed: 'standalone', hostToken: config.AGENT_HOST_TOKEN, healthIntervalMs: config.AGENT_HEALTH_INTERVAL, rebootWaitMs: config.AGENT_REBOOT_WAIT, video: { enabled: config.AGENT_VIDEO_ENABLED, preset: config.AGENT_VIDEO_PRESET, maxSize: config.AGENT_VIDEO_MAX_SIZE, fps: config.AGENT_VIDEO_FPS } });
  let bus: MessageBus | null = null;
  for (let attempt = 1; !bus; attempt++) {
    try {
      bus = await connectNatsBus(config.NATS_URL, { name: `df-agent-${agentConfig.hostId}`, inboxPrefix: natsHostInbox(agentConfig.hostId) });
    } catch (err) {
      logger.warn({ err: (err as Error).message, attempt }, 'NATS is not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * attempt)));
    }
  }
  const host = new AgentHost({ bus, config: agentConfig, logger });
  await host.start();
  // The agent has no HTTP server of its own: `/metrics` is on METRICS_PORT without a token, or else with
  // METRICS_TOKEN on PORT (docs/operations.md, "Metrics"); with neither, nothing listens.
  const metrics: MetricsServer | null =
    config.METRICS_PORT !== undefined
      ? await startMetricsServer({ host: config.HOST, port: config.METRICS_PORT })
      : config.METRICS_TOKEN !== undefined
        ? await startMetricsServer({ host: config.HOST, port: config.PORT, token: config.METRICS_TOKEN })
        : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal during shutdown; exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'agent shutting down');
    const force = setTimeout(() => {
      logger.error({ graceMs: config.SHUTDOWN_GRACE, activeResources: process.getActiveResourcesInfo() }, 'shutdown did not finish within SHUTDOWN_GRACE; exiting anyway');
      process.exit(1);
    }, config.SHUTDOWN_GRACE);
    force.unref();
    void host
      .stop()
      .then(() => metrics?.close())
      .then(() => bus!.close())
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  // Kept for the whole life of the process, so a second signal during the shutdown exits at once.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
