import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { createMemoryKv } from '../kv/memory-kv.js';
import type { Principal } from './principal.js';
import { installRateLimits, isSessionTraffic, type RateLimits } from './rate-limit.js';
import { createHttpServer } from './server.js';

/**
 * The gateway's limits over `inject` (no sockets) with the in-memory counters. Access control is
 * played by one hook: `Authorization: Bearer user-<id>` is that user's access token, `X-Api-Key:
 * key-<id>` an API key of user 1; anything else is refused 401 as access control refuses it.
 */
const principal = (userId: number, credentialId?: string): Principal => ({
  kind: 'user',
  userId,
  companyId: 1,
  tokenWorkspaceId: 1,
  jti: `j${userId}`,
  exp: Number.MAX_SAFE_INTEGER,
  iat: 0,
  issuedAtMs: 0,
  ...(credentialId ? { credentialId } : {}),
});

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(limits: Partial<RateLimits>): Promise<FastifyInstance> {
  const server = await createHttpServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024 });
  const kv = createMemoryKv();
  const all: RateLimits = { windowMs: 3_600_000, perAddress: 0, perUser: 0, perCredential: 0, newSessions: 0, ...limits };
  const limitCallers = installRateLimits(server, kv, all, { credentialHeaders: ['authorization', 'x-api-key'] });
  server.decorateRequest('principal', null);
  server.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/public')) return;
    const bearer = /^Bearer user-(\d+)$/.exec(request.headers.authorization ?? '');
    const key = /^key-(\w+)$/.exec(String(request.headers['x-api-key'] ?? ''));
    if (bearer) request.principal = principal(Number(bearer[1]));
    else if (key) request.principal = principal(1, key[1]);
    else throw new AppError('UNAUTHORIZED', 'Invalid API key');
  });
  limitCallers();
  server.all('/*', async () => ({ ok: true }));
  // A handler that answers errors its own way and knows nothing of their headers (as /df/wd does).
  await server.register(async (own) => {
    own.setErrorHandler((err: AppError, _request, reply) => reply.code(err.statusCode).send({ value: { error: 'unknown error', message: err.message } }));
    own.post('/df/wd/session', async () => ({ value: {} }));
  });
  await server.ready();
  app = server;
  return server;
}

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}) => app!.inject({ method, url, headers });
const key = (id: string) => ({ 'x-api-key': `key-${id}` });
const user = (id: number) => ({ authorization: `Bearer user-${id}` });

describe('rate limits', () => {
  it('refuses an address past its budget with 429, Retry-After, the address budget in its headers, and a message said once', async () => {
    await serve({ perAddress: 2 });
    expect((await send('GET', '/public/a')).headers['ratelimit-remaining']).toBe('1');
    expect((await send('GET', '/public/a')).statusCode).toBe(200);
    const refused = await send('GET', '/public/a');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect([refused.headers['ratelimit-limit'], refused.headers['ratelimit-remaining'], refused.headers['ratelimit-policy']]).toEqual(['2', '0', '2;w=3600']);
    expect(refused.json()).toEqual({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      error: 'Too Many Requests',
      message: `Rate limit reached: 2 requests without a credential from one address per 3600 s; retry in ${retryAfter} s`,
    });
  });

  it("counts a key's requests against the key's budget, never the address's: the key goes on past the address budget, and anonymous requests keep theirs", async () => {
    await serve({ perAddress: 3, perCredential: 10 });
    for (let i = 0; i < 10; i++) {
      const r = await send('GET', '/api/v1/things', key('ci'));
      expect(r.statusCode).toBe(200);
      expect([r.headers['ratelimit-limit'], r.headers['ratelimit-remaining']]).toEqual(['10', String(9 - i)]);
    }
    const spent = await send('GET', '/api/v1/things', key('ci'));
    expect([spent.statusCode, spent.headers['ratelimit-limit'], spent.headers['ratelimit-policy']]).toEqual([429, '10', '10;w=3600']);
    expect(spent.json().message).toMatch(/^Rate limit reached: 10 requests of this credential per 3600 s; retry in \d+ s$/);
    // The same address, without a credential and with a person's token: neither was charged for the key.
    expect((await send('GET', '/public/a')).headers['ratelimit-remaining']).toBe('2');
    expect((await send('GET', '/api/v1/users/me', user(7))).statusCode).toBe(200);
  });

  it('counts refused credentials against their address, and refuses every credential from it once they spent its budget', async () => {
    await serve({ perAddress: 3, perCredential: 100 });
    for (let i = 0; i < 3; i++) expect((await send('GET', '/api/v1/things', { 'x-api-key': 'guess' })).statusCode).toBe(401);
    const guessing = await send('GET', '/api/v1/things', { 'x-api-key': 'guess' });
    expect([guessing.statusCode, guessing.headers['ratelimit-limit']]).toEqual([429, '3']);
    expect(guessing.headers['retry-after']).toBeTruthy();
    expect(guessing.json().message).toMatch(/^Rate limit reached: 3 requests from one address whose credential was not accepted per 3600 s; retry in \d+ s$/);
    expect((await send('GET', '/api/v1/things', key('ci'))).statusCode).toBe(429);
    // A credential sent to a public route answers for nothing either.
    expect((await send('GET', '/public/a', key('ci'))).statusCode).toBe(429);
  });

  it('lets requests with a valid credential through once requests without one spent the address budget', async () => {
    await serve({ perAddress: 2, perCredential: 100, perUser: 100 });
    for (let i = 0; i < 2; i++) expect((await send('GET', '/public/a')).statusCode).toBe(200);
    expect((await send('GET', '/public/a')).statusCode).toBe(429);
    expect((await send('GET', '/api/v1/things', key('ci'))).statusCode).toBe(200);
    expect((await send('GET', '/api/v1/things', user(3))).statusCode).toBe(200);
  });

  it("counts new sessions per credential: a key's spent budget leaves another key of the same user and the user's token theirs", async () => {
    await serve({ perCredential: 100, perUser: 100, newSessions: 2 });
    const open = (headers: Record<string, string>) => send('POST', '/df/api/sessions', headers);
    const first = await open(key('a'));
    // The answer describes the budget nearest its limit: 1 new session left, not 99 requests.
    expect([first.statusCode, first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']]).toEqual([200, '2', '1']);
    expect((await open(key('a'))).statusCode).toBe(200);
    const refused = await open(key('a'));
    expect([refused.statusCode, refused.headers['ratelimit-limit'], refused.headers['ratelimit-remaining']]).toEqual([429, '2', '0']);
    expect(refused.json().message).toMatch(/^Rate limit reached: 2 new sessions of this credential per 3600 s; retry in \d+ s$/);
    expect((await open(key('b'))).statusCode).toBe(200);
    expect((await open(user(1))).statusCode).toBe(200);
    // Other requests of the refused key pass, and say what is left of the key's request budget.
    const other = await send('GET', '/df/api/devices', key('a'));
    expect([other.statusCode, other.headers['ratelimit-limit']]).toEqual([200, '100']);
  });

  it('carries Retry-After and the budget on a 429 answered by a handler of its own (WebDriver)', async () => {
    await serve({ perCredential: 100, newSessions: 1 });
    expect((await send('POST', '/df/wd/session', key('w'))).statusCode).toBe(200);
    const refused = await send('POST', '/df/wd/session', key('w'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe('1');
    expect(refused.json().value.message).toMatch(/^Rate limit reached: 1 new sessions of this credential per 3600 s; retry in \d+ s$/);
  });

  it("never counts or refuses an open session's traffic, DELETE of a WebDriver session included, once every budget is spent", async () => {
    await serve({ perAddress: 1, perCredential: 1, newSessions: 1 });
    expect((await send('POST', '/df/api/sessions', key('k'))).statusCode).toBe(200);
    expect((await send('GET', '/api/v1/things', key('k'))).statusCode).toBe(429);
    expect((await send('GET', '/public/a')).statusCode).toBe(200);
    expect((await send('GET', '/public/a')).statusCode).toBe(429);
    for (const [method, url] of [
      ['DELETE', '/df/wd/session/s-1'],
      ['POST', '/df/wd/session/s-1/url'],
      ['GET', '/df/devtools/s-1/json/version'],
      ['GET', '/df/devtools/s-1'],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const r = await send(method, url, key('k'));
        expect([method, url, r.statusCode]).toEqual([method, url, 200]);
        expect(r.headers['ratelimit-limit']).toBeUndefined();
      }
    }
  });

  it('tells session traffic from the requests that open sessions', () => {
    for (const url of ['/df/wd/session/abc', '/df/wd/session/abc/', '/df/wd/session/abc/element?x=1', '/df/devtools/abc', '/df/devtools/abc/devtools/browser/1', '/df/ws/sessions/abc', '/df/ws/sessions/abc?access_token=t', '/df/debug-tunnel/abc/cdp']) {
      expect([url, isSessionTraffic(url)]).toEqual([url, true]);
    }
    for (const url of ['/df/wd/session', '/df/wd/session/', '/df/wd/sessions', '/df/wd/status', '/df/api/sessions', '/df/api/sessions/abc', '/df/ws/sessions/abc/other', '/df/devtools/']) {
      expect([url, isSessionTraffic(url)]).toEqual([url, false]);
    }
  });
});
