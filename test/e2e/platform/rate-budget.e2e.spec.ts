import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * API keys and OAuth clients have a request budget of their own, apart from their user's interactive
 * one: a CI fleet sharing one key is sized by `RATE_LIMIT_PER_CREDENTIAL` (or a budget an administrator
 * gives that key), and what the fleet spends never takes from its user's budget.
 *
 * The window is a day, so no window boundary passes while a test counts.
 */
const USER_BUDGET = 100;
const CREDENTIAL_BUDGET = 300;

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let A: Client;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    RATE_LIMIT_WINDOW: '1d',
    RATE_LIMIT_PER_USER: String(USER_BUDGET),
    RATE_LIMIT_PER_CREDENTIAL: String(CREDENTIAL_BUDGET),
  });
  a = await signUpCompany(server.url, 'budget');
  A = client(server.url, a.token);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const asKey = (bearer: string): Promise<JsonResponse> => http(server.url, 'GET', `/v1/users/${a.userId}`, { token: bearer });

async function createKey(body: Record<string, unknown>): Promise<{ id: string; key: string; rateLimit: number | null }> {
  const r = await A.post('/api-keys', { name: 'ci fleet', scopes: ['read'], ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** What the user's own (interactive) budget has left, read from an answer to the user's token. */
async function userRemaining(): Promise<number> {
  const me = await A.get('/users/me');
  expect(me.status).toBe(200);
  expect(me.headers.get('ratelimit-limit')).toBe(String(USER_BUDGET));
  return Number(me.headers.get('ratelimit-remaining'));
}

describe('rate budgets of API keys and OAuth clients', { timeout: 120_000 }, () => {
  it("20 parallel clients on one key stay within the key's default budget and never touch the user's", async () => {
    const before = await userRemaining();
    const { key, rateLimit } = await createKey({});
    expect(rateLimit).toBeNull();
    // 20 jobs, 12 polls each: 240 requests, more than twice the user's budget, within the key's.
    const answers = (await Promise.all(Array.from({ length: 20 }, async () => {
      const mine: JsonResponse[] = [];
      for (let i = 0; i < 12; i++) mine.push(await asKey(key));
      return mine;
    }))).flat();
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(new Set(answers.map((r) => r.headers.get('ratelimit-limit')))).toEqual(new Set([String(CREDENTIAL_BUDGET)]));
    expect(Math.min(...answers.map((r) => Number(r.headers.get('ratelimit-remaining'))))).toBe(CREDENTIAL_BUDGET - 240);
    // The user's budget lost only the user's own requests (creating the key, reading the budget).
    expect(await userRemaining()).toBe(before - 2);
  });

  it('a key an administrator gave a small budget is refused with Retry-After once it is spent; the user goes on', async () => {
    const { id, key } = await createKey({});
    const set = await A.patch(`/api-keys/${id}`, { rateLimit: 5 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.rateLimit).toBe(5);
    expect(((await A.get('/api-keys')).body as { id: string; rateLimit: number | null }[]).find((k) => k.id === id)?.rateLimit).toBe(5);
    expect((await server.process.platform.store.readStream(`api-key-${id}`)).map((e) => e.type)).toEqual(['ApiKeyCreated', 'ApiKeyRateLimitSet']);

    for (let i = 0; i < 5; i++) expect((await asKey(key)).status).toBe(200);
    const refused = await asKey(key);
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('5');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-policy')).toBe('5;w=86400');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBe(Number(refused.headers.get('retry-after')));
    expect(await userRemaining()).toBeGreaterThan(0);

    // Back to the default: the same key, counted in the same window, passes again.
    expect((await A.patch(`/api-keys/${id}`, { rateLimit: null })).body.rateLimit).toBeNull();
    expect((await asKey(key)).status).toBe(200);
  });

  it('an OAuth client has its budget too, set on creation, applying to tokens already issued when changed', async () => {
    const made = await A.post('/oauth-clients', { name: 'ci client', scopes: ['read'], rateLimit: 3 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.rateLimit).toBe(3);
    const token = await http(server.url, 'POST', '/oauth/token', {
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: made.body.clientId, client_secret: made.body.clientSecret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(200);
    const bearer = token.body.access_token as string;
    for (let i = 0; i < 3; i++) expect((await asKey(bearer)).status).toBe(200);
    const refused = await asKey(bearer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    const raised = await A.patch(`/oauth-clients/${made.body.id}`, { rateLimit: 10 });
    expect(raised.status).toBe(200);
    expect(((await A.get('/oauth-clients')).body as { id: string; rateLimit: number | null }[]).find((c) => c.id === made.body.id)?.rateLimit).toBe(10);
    const again = await asKey(bearer);
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-limit')).toBe('10');
  });

  it("a device-testing key (X-Api-Key) counts apart from its user's budget too", async () => {
    const made = await http(server.url, 'POST', '/df/api/keys', { token: a.token, body: { name: 'farm ci' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const before = await userRemaining();
    for (let i = 0; i < USER_BUDGET + 5; i++) {
      const r = await http(server.url, 'GET', '/df/api/devices', { headers: { 'x-api-key': made.body.key } });
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe(String(CREDENTIAL_BUDGET));
    }
    expect(await userRemaining()).toBe(before - 1);
  });

  it('bad budgets are 400 and change nothing; only an API_KEY_MANAGE holder sets one', async () => {
    const { id } = await createKey({ rateLimit: 50 });
    for (const rateLimit of [0, -1, 1.5, 'lots', 2_000_000, true]) {
      const r = await A.patch(`/api-keys/${id}`, { rateLimit });
      expect(r.status, JSON.stringify(rateLimit)).toBe(400);
      expect(errorCode(r)).toBe('VALIDATION_FAILED');
      const c = await A.post('/oauth-clients', { name: 'bad', scopes: ['read'], rateLimit });
      expect(c.status).toBe(400);
      expect(errorCode(c)).toBe('VALIDATION_FAILED');
    }
    expect((await A.patch(`/api-keys/${id}`, {})).status).toBe(400);
    expect((await server.process.platform.store.readStream(`api-key-${id}`)).map((e) => e.type)).toEqual(['ApiKeyCreated']);
    expect((await A.get(`/api-keys/${id}`)).body.rateLimit).toBe(50);
    expect((await A.get('/oauth-clients')).body.filter((c: { name: string }) => c.name === 'bad')).toEqual([]);

    const memberRole = ((await A.get('/roles')).body as { id: number; name: string }[]).find((r) => r.name === 'Member')!;
    const member = await createActiveUser(server.url, A, smtp.mails, { email: `budget-member-${process.pid}@a.test`, roleIds: [memberRole.id] });
    expect((await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: member.id })).status).toBe(200);
    const M = client(server.url, member.token);
    const ws = { 'x-workspace-id': String(a.workspaceId) };
    expect(errorCode(await M.post('/api-keys', { name: 'mine', scopes: ['read'], rateLimit: 100_000 }, ws))).toBe('FORBIDDEN');
    const own = await M.post('/api-keys', { name: 'mine', scopes: ['read'] }, ws);
    expect(own.status).toBe(201);
    const raise = await http(server.url, 'PATCH', `/api/v1/api-keys/${own.body.id}`, { token: member.token, headers: ws, body: { rateLimit: 100_000 } });
    expect(errorCode(raise)).toBe('FORBIDDEN');
    expect((await A.get(`/api-keys/${own.body.id}`)).body.rateLimit).toBeNull();
    // Another company's administrator does not find the key at all.
    const b = await signUpCompany(server.url, 'budget-other');
    expect(errorCode(await client(server.url, b.token).patch(`/api-keys/${id}`, { rateLimit: 5 }))).toBe('NOT_FOUND');
  });
});
