import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { ProjectionRunner } from '#projections/runner.js';
import { ProjectionLeases } from '#projections/leases.js';
import { ConfigError, loadConfig, type Config } from '#shared/config.js';
import { buildApp, SERVICE_NAMES, type ServiceName } from './app.js';
import { createLogger } from '#shared/logger.js';
import { startMetricsServer } from '#shared/metrics/index.js';
import { startTracing, type Tracing } from '#shared/tracing/index.js';
import { isLoopbackHost } from '#shared/public-address.js';
import { observabilityOf, ProcessRegistry } from '#shared/processes/registry.js';
import { EMBEDDED_BACKSTOP_MS, openPlatform } from './open-platform.js';
import { AgentHost, loadAgentConfig, stableUuid } from '#agent/index.js';
import { enrolLocalHost } from './local-host.js';
import type { DfModule } from './df/index.js';
import { ALL_PROJECTIONS } from './all-projections.js';
import type { Platform } from './platform.js';

export { ALL_PROJECTIONS };

export function parseServices(value: string): Set<ServiceName> {
  if (value.trim() === 'all') return new Set(SERVICE_NAMES);
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(n)) {
      throw new ConfigError([{ variable: 'SERVICES', message: `unknown service "${n}"; known: all, ${SERVICE_NAMES.join(', ')}` }]);
    }
  }
  return new Set(names as ServiceName[]);
}

export interface RunningProcess {
  app: FastifyInstance;
  url: string;
  config: Config;
  logger: Logger;
  runner: ProjectionRunner | null;
  platform: Platform;
  /** The device agent running in this process (`AGENT_ENABLED` with the df service), if any. */
  agent: AgentHost | null;
  /** The device-testing module when this process runs it (its reservation ticker's step, for tests and operations). */
  df: DfModule | null;
  /** Where `/metrics` answers without a token (`METRICS_PORT`), if anywhere. */
  metricsUrl: string | null;
  /** Stops accepting, finishes in-flight requests, stops projections, closes every adapter. */
  stop(): Promise<void>;
  /** The named parts of the process whose stop has begun and not finished (what a stuck shutdown waits for). */
  stoppingParts(): string[];
  /** Adds a part stopped first by `stop` (before the listener closes), under `name`. */
  addPart(name: string, stop: () => Promise<void>): void;
  /**
   * Logs the "listening" line (its address, services and metrics address) that process managers and
   * tests wait for: `main` says it only once its signal handlers are in place, so a SIGTERM sent on it
   * always finds them (before, one sent at once could meet the default action and kill the process).
   */
  announce(): void;
}

/**
 * Starts the services of one process: opens the adapters, runs the projections (when this process
 * owns them) and listens. `services` overrides `SERVICES`; `logDestination` takes the log lines
 * instead of standard output (the bench's file of server logs).
 */
export async function startProcess(env: Record<string, string | undefined> = process.env, services?: ServiceName[], logDestination?: DestinationStream): Promise<RunningProcess> {
  const config = loadConfig(env);
  const selected = services ? new Set(services) : parseServices(config.SERVICES);
  const logger = createLogger(config, logDestination);
  let runner: ProjectionRunner | null = null;
  let agent: AgentHost | null = null;
  let dfStarted: { stop(): Promise<void> } | null = null;
  let healthcheckStarted: { stop(): Promise<void> } | null = null;
  let organizationStarted: { stop(): Promise<void> } | null = null;
  const enrolling = new AbortController();
  const platform = await openPlatform(config, {
    logger,
    readModels: {
      waitFor: (position, options) => (runner ? runner.waitFor(position, options) : Promise.resolve()),
      positionOf: (name) => runner?.positionOf(name),
      version: (names?: readonly string[]) => runner?.version(names),
      checkpointsMoved: () => runner?.notify(),
    },
  });
  try {
    if (selected.has('projections')) {
      // On PostgreSQL, several projections runners may share the database: leased, so that one applies
      // each projection and another takes over when it dies. The embedded database has one process,
      // whose appends and moved checkpoints wake the loops: its poll is only a backstop.
      const leases = config.DATABASE_URL ? new ProjectionLeases(platform.db, `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, config.PROJECTIONS_LEASE_TTL) : undefined;
      runner = new ProjectionRunner({ store: platform.store, db: platform.db, projections: ALL_PROJECTIONS, logger, ...(leases ? { leases } : { idlePollMs: EMBEDDED_BACKSTOP_MS }) });
      await runner.start();
    } else {
      // Writes here wait for a runner elsewhere, through its takeover of a dead runner's leases (read-models.ts).
      platform.readModels = await import('./read-models.js').then((m) => m.checkpointWaiter(platform.db, { timeoutMs: m.settleTimeoutMs(config.PROJECTIONS_LEASE_TTL) }));
    }
    const activeRunner = runner;
    const { app, organization, df, healthcheck } = await buildApp(platform, {
      services: selected,
      readiness: activeRunner ? [{ name: 'projections', check: () => activeRunner.caughtUp() }] : [],
      ...(activeRunner
        ? {
            // Who holds which projection: this process's share in /ready, every lease in /health?detail=true.
            readySummary: () => {
              const status = activeRunner.status();
              return { projections: { applying: status.filter((s) => s.held !== false).length, following: status.filter((s) => s.held === false).length } };
            },
            healthDetail: async () => ({
              projections: (await activeRunner.leaseHolders()).map((l) => ({ ...l, epoch: Number(l.epoch), mine: activeRunner.status().find((s) => s.name === l.name)?.held === true })),
            }),
          }
        : {}),
    });
    if (selected.has('organization')) {
      organizationStarted = organization;
      await organization.start();
    }
    if (selected.has('healthcheck')) {
      await healthcheck.start();
      healthcheckStarted = healthcheck;
    }
    if (selected.has('df')) {
      await df.start();
      dfStarted = df;
    }
    await app.listen({ host: config.HOST, port: config.PORT });
    if (selected.has('df') && config.AGENT_ENABLED) {
      // The in-process agent talks to the service over this process's bus, exactly as a remote one would,
      // and is enrolled like one: with its config's token, or else by this process into the installation's company.
      const loaded = loadAgentConfig({ ...(config.AGENT_CONFIG ? { path: config.AGENT_CONFIG } : {}), seed: config.dataDir, hostToken: config.AGENT_HOST_TOKEN, healthIntervalMs: config.AGENT_HEALTH_INTERVAL, rebootWaitMs: config.AGENT_REBOOT_WAIT, video: { enabled: config.AGENT_VIDEO_ENABLED, preset: config.AGENT_VIDEO_PRESET, maxSize: config.AGENT_VIDEO_MAX_SIZE, fps: config.AGENT_VIDEO_FPS } });
      const selfEnrolled = loaded.hostToken === undefined;
      const agentConfig = selfEnrolled ? { ...loaded, hostId: stableUuid('in-process-host', loaded.hostId) } : loaded;
      const running = new AgentHost({ bus: platform.bus, config: agentConfig, logger: logger.child({ component: 'agent' }), awaitToken: selfEnrolled });
      agent = running;
      await running.start();
      if (selfEnrolled) {
        void enrolLocalHost({
          db: platform.db,
          config,
          enrolments: df.enrolments,
          hostId: agentConfig.hostId,
          name: `${agentConfig.nodeName} (in-process)`,
          logger,
          now: platform.now,
          signal: enrolling.signal,
        })
          .then((token) => token !== null && running.setHostToken(token))
          .catch((err: unknown) => logger.error({ err }, 'enrolling the in-process device host failed'));
      }
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    platform.publicAddress.listeningOn(config.HOST, port);
    // Last of what may fail (a failed start leaves no metrics listener behind), then the process is listed.
    const { metrics, registry } = await startReporting(platform, [...selected]);
    if (appUrlMissing(config)) {
      logger.warn(
        { publicUrl: platform.publicAddress.base },
        'APP_URL is not set: links in mails and answers point at the address this process listens on; set APP_URL to the address people open',
      );
    }
    let stopping: Promise<void> | null = null;
    const extraParts: { name: string; stop: () => Promise<void> }[] = [];
    const inProgress = new Set<string>();
    /** Stops one named part, remembering it while it runs; a part that fails is logged and the rest go on. */
    const part = async (name: string, stop: (() => Promise<void>) | undefined): Promise<void> => {
      if (!stop) return;
      inProgress.add(name);
      try {
        await stop();
      } catch (err) {
        logger.warn({ err, part: name }, 'stopping a part failed');
      } finally {
        inProgress.delete(name);
      }
    };
    return {
      app,
      url,
      config,
      logger,
      runner,
      platform,
      agent,
      df: selected.has('df') ? df : null,
      metricsUrl: metrics?.url ?? null,
      stop: () =>
        (stopping ??= (async () => {
          enrolling.abort();
          for (const extra of extraParts) await part(extra.name, extra.stop);
          await part('http listener and open connections', () => app.close());
          await part('metrics listener', metrics ? () => metrics.close() : undefined);
          await part('device farm (sessions, viewers, reservations, hosts)', dfStarted ? () => dfStarted!.stop() : undefined);
          await part('webhooks', organizationStarted ? () => organizationStarted!.stop() : undefined);
          await part('health checks', healthcheckStarted ? () => healthcheckStarted!.stop() : undefined);
          await part('device agent (browsers, Appium, workers)', agent ? () => agent!.stop() : undefined);
          await part('projections', activeRunner ? () => activeRunner.stop() : undefined);
          await part('adapters (database, event store, bus, key-value store, blobs)', () => registry.stop().catch(() => undefined).then(() => platform.close()));
        })()),
      stoppingParts: () => [...inProgress],
      addPart: (name, stop) => void extraParts.push({ name, stop }),
      announce: () => logger.info({ url, services: [...selected], ...(metrics ? { metrics: metrics.url } : {}) }, 'listening'),
    };
  } catch (err) {
    enrolling.abort();
    await dfStarted?.stop().catch(() => {});
    await healthcheckStarted?.stop().catch(() => {});
    await organizationStarted?.stop().catch(() => {});
    await agent?.stop().catch(() => {});
    await runner?.stop().catch(() => {});
    await platform.close();
    throw err;
  }
}

/**
 * Starts the metrics listener (when `METRICS_PORT` is set), then records this process in the
 * installation's list (the observability page shows every process of a split deployment): its services
 * and how it serves metrics, with the port its listener really took. A failure leaves no listener open.
 */
async function startReporting(platform: Platform, services: string[]) {
  const { config } = platform;
  const metrics = config.METRICS_PORT !== undefined ? await startMetricsServer({ host: config.HOST, port: config.METRICS_PORT }) : null;
  try {
    const observability = observabilityOf(config);
    if (metrics) observability.metrics.port = Number(new URL(metrics.url).port);
    const registry = new ProcessRegistry(platform.db, { services, observability }, (err) => platform.logger.warn({ err }, 'renewing this process in the list of processes failed'));
    await registry.start();
    platform.processId = registry.instanceId;
    return { metrics, registry };
  } catch (err) {
    await metrics?.close();
    throw err;
  }
}

/**
 * Whether to warn that `APP_URL` is unset: in production, and in development when others may reach
 * the server (a non-loopback HOST); never in tests.
 */
export function appUrlMissing(config: Pick<Config, 'APP_URL' | 'NODE_ENV' | 'HOST'>): boolean {
  if (config.APP_URL) return false;
  if (config.NODE_ENV === 'production') return true;
  return config.NODE_ENV === 'development' && !isLoopbackHost(config.HOST);
}

/** The process's `service.name` when `OTEL_SERVICE_NAME` gives none: `qa-gateway`, `qa-df`, `qa-organization+projections`, `qa-platform` for all. */
export function processServiceName(services: readonly ServiceName[]): string {
  return services.length === SERVICE_NAMES.length ? 'qa-platform' : `qa-${[...services].sort().join('+')}`;
}

/** How long past `SHUTDOWN_GRACE` the watchdog waits before it kills a process whose event loop is stuck. */
const WATCHDOG_MARGIN_MS = 5_000;

/**
 * A last resort independent of the event loop: a worker thread that kills the process (SIGKILL) after
 * `ms`, for a shutdown stuck in synchronous code where no timer of the main thread can fire.
 */
function startWatchdog(ms: number): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    try { require('node:fs').writeSync(2, JSON.stringify({ level: 60, time: Date.now(), pid: workerData.pid, msg: 'shutdown watchdog: the event loop is stuck; killing the process' }) + '\\n'); } catch {}
    process.kill(workerData.pid, 'SIGKILL');
  `;
  new Worker(code, { eval: true, workerData: { ms, pid: process.pid } }).unref();
}

/**
 * Entry point of a service process: start, and on SIGTERM/SIGINT shut down gracefully. The shutdown has
 * a deadline (`SHUTDOWN_GRACE`): past it the process logs what was still open (its own parts and
 * Node's active resources) and exits 1. A second SIGTERM/SIGINT during the shutdown exits at once.
 */
export async function main(services?: ServiceName[]): Promise<RunningProcess | undefined> {
  let running: RunningProcess;
  let tracing: Tracing | null = null;
  try {
    // Before anything listens, so that every server of the process traces its requests.
    tracing = await startTracing(process.env, processServiceName(services ?? [...parseServices(process.env.SERVICES?.trim() || 'all')]));
    running = await startProcess(process.env, services);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const { logger } = running;
  if (tracing) logger.info({ endpoint: tracing.config.url, protocol: tracing.config.protocol, sampler: tracing.config.sampler }, 'tracing to OTLP');
  const graceMs = running.config.SHUTDOWN_GRACE;
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.warn({ signal, waitingFor: running.stoppingParts() }, 'second signal during shutdown; exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal, graceMs }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error(
        { graceMs, waitingFor: running.stoppingParts(), activeResources: process.getActiveResourcesInfo() },
        'shutdown did not finish within SHUTDOWN_GRACE; exiting anyway',
      );
      process.exit(1);
    }, graceMs);
    deadline.unref();
    startWatchdog(graceMs + WATCHDOG_MARGIN_MS);
    running
      .stop()
      .then(() => tracing?.shutdown())
      .then(
        () => {
          logger.info('shut down');
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  // Kept for the whole life of the process (not `once`), so a second signal reaches `onSignal` too.
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  running.announce();
  return running;
}
