import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Platform } from './platform.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
  /**
   * The process serves on without it (in part): failing, it is reported `degraded` and the process
   * stays ready, so a load balancer keeps sending it the requests it can still answer.
   */
  degradable?: boolean;
  /** What the dependency is called in the `degraded` list (`redis`), when not its check's name. */
  dependency?: string;
}

/** How long one dependency may take to answer a readiness probe. */
const PROBE_TIMEOUT_MS = 2000;

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/**
 * `GET /health`: the process is alive. `GET /ready`: its dependencies answer and read models are caught
 * up: 200 `ready`; 200 `degraded` when only a dependency it can serve without fails (Redis: rate limits
 * count locally, tokens are checked against the event record); 503 `not ready` when any other fails.
 */
export async function healthRoutes(
  app: FastifyInstance,
  opts: { platform: Platform; checks: ReadinessCheck[]; detail?: () => Promise<Record<string, unknown>>; summary?: () => Record<string, unknown> },
): Promise<void> {
  const { platform } = opts;
  const base: ReadinessCheck[] = [
    { name: 'database', check: async () => (await platform.db.query('SELECT 1')).rows.length === 1 },
    { name: 'eventStore', check: async () => (await platform.store.headPosition()) >= 0n },
    {
      name: 'keyValue',
      check: async () => {
        await platform.kv.get('health:probe');
        return true;
      },
      // Redis is a shared cache and counter store: without it the platform serves on, degraded.
      degradable: platform.kv.kind === 'redis',
      dependency: platform.kv.kind,
    },
    {
      name: 'bus',
      check: async () => {
        await platform.bus.publish('health.probe', new Uint8Array());
        return true;
      },
    },
  ];
  // Process figures for the operator's own tools (the soak script): asked for with `?detail=true`, and
  // given only to a client on this machine. The event-loop delay is over the time since the last ask.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  app.addHook('onClose', async () => loop.disable());
  const checks = [...base, ...opts.checks];
  const probe = async () => {
    const results: Record<string, 'ok' | 'degraded' | 'failing'> = {};
    await Promise.all(
      checks.map(async (c) => {
        const ok = await withTimeout(c.check(), PROBE_TIMEOUT_MS).catch(() => false);
        results[c.name] = ok ? 'ok' : c.degradable ? 'degraded' : 'failing';
      }),
    );
    const values = Object.values(results);
    const status = values.includes('failing') ? 'not ready' : values.includes('degraded') ? 'degraded' : 'ready';
    return { status, checks: results, degraded: checks.filter((c) => results[c.name] !== 'ok').map((c) => c.dependency ?? c.name) } as const;
  };
  app.get('/health', { schema: { hide: true } }, async (request) => {
    const detail = (request.query as { detail?: string }).detail === 'true' && /^(127\.|::1$|::ffff:127\.)/.test(request.ip);
    if (!detail) return { status: 'ok' };
    const memory = process.memoryUsage();
    const dependencies = await probe();
    const figures = {
      status: 'ok',
      // The process is alive whatever these say; which dependencies fail or serve degraded.
      dependencies: { status: dependencies.status, checks: dependencies.checks },
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, externalBytes: memory.external, arrayBuffersBytes: memory.arrayBuffers },
      eventLoop: { p50Ms: loop.percentile(50) / 1e6, p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 },
      ...(await opts.detail?.()),
    };
    loop.reset();
    return figures;
  });
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const { status, checks: results, degraded } = await probe();
    return reply.code(status === 'not ready' ? 503 : 200).send({ status, checks: results, ...(status === 'degraded' ? { degraded } : {}), ...opts.summary?.() });
  });
}
