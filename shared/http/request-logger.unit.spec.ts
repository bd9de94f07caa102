import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './server.js';

// Every line a request writes carries its request id (docs/api-conventions.md), though its logger is
// only made when a line passes the level (shared/http/request-logger.ts).
async function serverAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = await createHttpServer({ logger, bodyLimit: 1024 });
  app.get('/quiet', async (request) => {
    request.log.info({ step: 'detail' }, 'an info line');
    request.log.warn({ step: 'problem' }, 'a warning');
    return { ok: true };
  });
  app.get('/verbose', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a debug line of a route that asks for debug');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

describe('request logging', () => {
  it('at info: the request, its own lines and its completion, each with the request id', async () => {
    const { app, lines } = await serverAt('info');
    const res = await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-request-id': 'req-logged-1' } });
    expect(res.headers['x-request-id']).toBe('req-logged-1');
    const mine = lines.filter((l) => l.requestId === 'req-logged-1').map((l) => l.msg);
    expect(mine).toEqual(['incoming request', 'an info line', 'a warning', 'request completed']);
    expect(lines.find((l) => l.msg === 'a warning')).toMatchObject({ requestId: 'req-logged-1', step: 'problem', level: 40 });
    await app.close();
  });

  it('at warn: only the warning, still with its request id; nothing below the level is written', async () => {
    const { app, lines } = await serverAt('warn');
    await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-request-id': 'req-logged-2' } });
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([['a warning', 'req-logged-2']]);
    await app.close();
  });

  it("honours a route's own level below the server's", async () => {
    const { app, lines } = await serverAt('warn');
    await app.inject({ method: 'GET', url: '/verbose', headers: { 'x-request-id': 'req-logged-3' } });
    expect(lines.filter((l) => l.requestId === 'req-logged-3').map((l) => l.msg)).toContain('a debug line of a route that asks for debug');
    await app.close();
  });
});
