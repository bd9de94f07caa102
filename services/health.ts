import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Platform } from './platform.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/** `GET /health`: the process is alive. `GET /ready`: its dependencies answer and read models are caught up. */
export async function healthRoutes(app: FastifyInstance, opts: { platform: Platform; checks: ReadinessCheck[] }): Promise<void> {
  const { platform } = opts;
  const base: ReadinessCheck[] = [
    { name: 'database', check: async () => (await platform.db.query('SELECT 1')).rows.length === 1 },
    { name: 'eventStore', check: async () => (await platform.store.headPosition()) >= 0n },
    { name: 'keyValue', check: async () => {
        await platform.kv.get('health:probe');
        return true;
      },
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
  app.get('/health', { schema: { hide: true } }, async (request) => {
    const detail = (request.query as { detail?: string }).detail === 'true' && /^(127\.|::1$|::ffff:127\.)/.test(request.ip);
    if (!detail) return { status: 'ok' };
    const memory = process.memoryUsage();
    const figures = {
      status: 'ok',
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, externalBytes: memory.external, arrayBuffersBytes: memory.arrayBuffers },
      eventLoop: { p50Ms: loop.percentile(50) / 1e6, p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 },
    };
    loop.reset();
    return figures;
  });
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const results: Record<string, 'ok' | 'failing'> = {};
    await Promise.all(
      [...base, ...opts.checks].map(async (c) => {
        const ok = await withTimeout(c.check(), 2000).catch(() => false);
        results[c.name] = ok ? 'ok' : 'failing';
      }),
    );
    const ready = Object.values(results).every((v) => v === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });
}
