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
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
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
