import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from './index.js';

/** The listener a process without an HTTP server of its own (the agent) serves `/metrics` on. */
let server: MetricsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the metrics listener', () => {
  it('with a token (the agent with METRICS_TOKEN on PORT): 401 without it or with another, 200 with it, 404 elsewhere', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, token: 'agent-metrics-token-0123456789' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const none = await fetch(server.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(((await none.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    expect((await fetch(server.url, { headers: { authorization: 'Bearer agent-metrics-token-012345678' } })).status).toBe(401);
    const ok = await fetch(server.url, { headers: { authorization: 'Bearer agent-metrics-token-0123456789' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/^process_cpu_seconds_total /m);
    expect((await fetch(new URL('/', server.url), { headers: { authorization: 'Bearer agent-metrics-token-0123456789' } })).status).toBe(404);
  });

  it('without a token (METRICS_PORT): 200 to anyone, HEAD too; other paths and methods 404', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    expect((await fetch(server.url)).status).toBe(200);
    expect((await fetch(`${server.url}?x=1`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(new URL('/metrics/x', server.url))).status).toBe(404);
  });
});
