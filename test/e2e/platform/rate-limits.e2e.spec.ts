import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Rate limits at the gateway, counted in Redis so two replicas (two processes on one PostgreSQL and
 * one Redis) share them: per user, per address, and for new device sessions.
 */
const WINDOW = '1h'; // one window for the whole test: counts never reset under it
let database: { url: string; drop: () => Promise<void> };
let first: TestServer;
let second: TestServer;
let company: SignedUpCompany;

/** Replicas sign with one key, so each accepts the other's tokens, and seal with one, so each reads the other's personal data. */
const JWT_PRIVATE_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SECRETS_KEY = randomBytes(32).toString('base64');

const env = (prefix: string, limits: Record<string, string>) => ({
  JWT_PRIVATE_KEY,
  SECRETS_KEY,
  DATABASE_URL: database.url,
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_KEY_PREFIX: prefix,
  AGENT_ENABLED: 'false',
  RATE_LIMIT_WINDOW: WINDOW,
  ...limits,
});

beforeAll(async () => {
  database = await createTestDatabase('qa_rl');
  const prefix = `rl-test-${randomUUID().slice(0, 8)}:`;
  const limits = { RATE_LIMIT_PER_USER: '10', RATE_LIMIT_PER_ADDRESS: '60', RATE_LIMIT_NEW_SESSIONS: '2' };
  first = await startTestServer(env(prefix, limits));
  second = await startTestServer(env(prefix, limits));
  company = await signUpCompany(first.url, 'limited');
}, 120_000);

afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await database?.drop();
});

describe('rate limits', () => {
  it('counts a user across two replicas: the eleventh request is 429 with Retry-After and RateLimit headers', async () => {
    const me = (server: TestServer) => http(server.url, 'GET', '/api/v1/users/me', { token: company.token });
    // Alternating replicas, each answer's remaining count is one less than the one before: one counter.
    const remaining: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await me(i % 2 === 0 ? second : first);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe('10');
      expect(r.headers.get('ratelimit-policy')).toBe('10;w=3600');
      remaining.push(Number(r.headers.get('ratelimit-remaining')));
      if (remaining.at(-1) === 0) break;
    }
    expect(remaining.at(-1)).toBe(0);
    expect(remaining.length).toBeGreaterThan(4);
    expect(remaining.every((n, i) => i === 0 || n === remaining[i - 1]! - 1)).toBe(true);
    const refused = await me(second);
    expect([refused.status, errorCode(refused)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(Number(refused.headers.get('ratelimit-reset'))).toBe(retryAfter);
    expect((await me(first)).status).toBe(429);
    // Another user of the same address is not held back by this one's limit.
    const other = await signUpCompany(second.url, 'unlimited');
    expect((await http(first.url, 'GET', '/api/v1/users/me', { token: other.token })).status).toBe(200);
  });

  it('limits new device sessions separately from requests', async () => {
    const fresh = await signUpCompany(first.url, 'sessions');
    const open = () => http(second.url, 'POST', '/df/api/sessions', { token: fresh.token, body: { deviceId: randomUUID() } });
    // No devices here: each create is a 404, but it is a new session attempt all the same.
    expect((await open()).status).toBe(404);
    expect((await open()).status).toBe(404);
    const third = await open();
    expect([third.status, errorCode(third)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(third.body.message).toMatch(/new sessions/);
    // Other requests of the user still pass.
    expect((await http(first.url, 'GET', '/df/api/devices', { token: fresh.token })).status).toBe(200);
  });

  it('limits one address before any credential is looked at', async () => {
    let last = 0;
    for (let i = 0; i < 80 && last !== 429; i++) last = (await http(first.url, 'GET', '/api/v1/auth/jwks')).status;
    expect(last).toBe(429);
    const refused = await http(second.url, 'POST', '/api/v1/auth/login', { body: { username: 'nobody@example.test', password: 'wrong password' } });
    expect([refused.status, errorCode(refused)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(refused.headers.get('retry-after')).toBeTruthy();
  });
});
