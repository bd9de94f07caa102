import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * The gateway's limits as a CI fleet meets them, with budgets lowered so a test can spend them: a
 * device key's requests count against the key, not the address it shares with its administrator's
 * console; the Playwright fixture's way in (a session, then the CDP relay of that session) costs one
 * new session; and an open WebDriver session can always be driven and deleted, whatever is spent.
 * The window is an hour, so no window boundary passes while a test counts.
 */
const PER_ADDRESS = 30;
const PER_CREDENTIAL = 60;
const NEW_SESSIONS = 2;
let server: TestServer;
let token: string;
let deviceId: string;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_WINDOW: '1h',
    RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
    RATE_LIMIT_PER_USER: '100000',
    RATE_LIMIT_PER_CREDENTIAL: String(PER_CREDENTIAL),
    RATE_LIMIT_NEW_SESSIONS: String(NEW_SESSIONS),
    DF_WD_QUEUE_TIMEOUT: '60s',
    AGENT_CONFIG: writeAgentConfig({ heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Desktop (limits)', profile: 'desktop', width: 800, height: 600 }] }),
  });
  token = (await signUpCompany(server.url, 'ci-limits')).token;
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    return r.body.content?.[0]?.status === 'available' ? (r.body.content[0].id as string) : undefined;
  }, { what: 'the browser device', timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const newKey = async (name: string) => {
  const r = await http(server.url, 'POST', '/df/api/keys', { token, body: { name } });
  expect(r.status).toBe(201);
  return r.body.key as string;
};
const asKey = (key: string, method: string, path: string, body?: unknown): Promise<JsonResponse> =>
  http(server.url, method, path, { headers: { 'x-api-key': key }, ...(body !== undefined ? { body } : {}) });
const budgetOf = (r: JsonResponse) => [r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining'), r.headers.get('ratelimit-policy')];
/** A 429 with Retry-After and the RateLimit headers of the budget that refused, and its message said once. */
const expectRefused = (r: JsonResponse, limit: number, message: string) => {
  expect([r.status, r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining'), r.headers.get('ratelimit-policy')]).toEqual([429, String(limit), '0', `${limit};w=3600`]);
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  const said = (r.body.value?.message ?? r.body.message) as string;
  expect(said).toBe(`Rate limit reached: ${limit} ${message} per 3600 s; retry in ${retryAfter} s`);
};

describe('rate limits for a CI fleet', () => {
  it("counts a device key's requests against the key, not the address: the key outlasts the address budget, and the console and sign-in pages at that address go on", { timeout: 60_000 }, async () => {
    const key = await newKey('runners');
    for (let i = 1; i <= PER_CREDENTIAL; i++) {
      const r = await asKey(key, 'GET', '/df/api/devices');
      expect([i, r.status]).toEqual([i, 200]);
      expect([i, ...budgetOf(r)]).toEqual([i, String(PER_CREDENTIAL), String(PER_CREDENTIAL - i), `${PER_CREDENTIAL};w=3600`]);
    }
    expectRefused(await asKey(key, 'GET', '/df/api/devices'), PER_CREDENTIAL, 'requests of this credential');
    // Twice the address budget went by from this address; the administrator's console is not refused,
    // and requests without a credential still have what they had.
    expect((await http(server.url, 'GET', '/df/api/devices', { token })).status).toBe(200);
    const anonymous = await http(server.url, 'GET', '/api/v1/auth/jwks');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('ratelimit-limit')).toBe(String(PER_ADDRESS));
    expect(Number(anonymous.headers.get('ratelimit-remaining'))).toBeGreaterThan(PER_ADDRESS / 2);
  });

  it('charges the Playwright way in once (a session, then CDP connections to it), refuses the next new WebDriver session with Retry-After, and never refuses driving or deleting an open one', { timeout: 180_000 }, async () => {
    const key = await newKey('playwright');
    const created = await asKey(key, 'POST', '/df/api/sessions', { deviceId, type: 'automation', record: false });
    expect(created.status).toBe(201);
    expect(budgetOf(created)).toEqual([String(NEW_SESSIONS), String(NEW_SESSIONS - 1), `${NEW_SESSIONS};w=3600`]);
    for (let i = 0; i < 2; i++) {
      const browser = await chromium.connectOverCDP(`${server.url}/df/devtools/${created.body.id}`, { headers: { 'x-api-key': key }, timeout: 30_000 });
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      await browser.close();
    }
    expect((await asKey(key, 'DELETE', `/df/api/sessions/${created.body.id}`)).status).toBe(200);

    // The CDP connections cost nothing: the second new session is still within the budget of 2.
    const opened = await asKey(key, 'POST', '/df/wd/session', { capabilities: { alwaysMatch: { browserName: 'chrome', 'df:record': false } } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(budgetOf(opened)[1]).toBe('0');
    const wdSession = opened.body.value.sessionId as string;
    const third = await asKey(key, 'POST', '/df/wd/session', { capabilities: { alwaysMatch: { browserName: 'chrome' } } });
    expectRefused(third, NEW_SESSIONS, 'new sessions of this credential');
    expect(third.body.value).toMatchObject({ error: 'unknown error', data: { code: 'TOO_MANY_REQUESTS' } });

    // Spend the key's request budget and the address's; the open session is still driven and given back.
    let spent: JsonResponse;
    do spent = await asKey(key, 'GET', '/df/api/devices');
    while (spent.status === 200);
    expect(spent.status).toBe(429);
    let anonymous: JsonResponse;
    do anonymous = await http(server.url, 'GET', '/api/v1/auth/jwks');
    while (anonymous.status === 200);
    expect(errorCode(anonymous)).toBe('TOO_MANY_REQUESTS');
    for (let i = 0; i < 5; i++) {
      const command = await asKey(key, 'POST', `/df/wd/session/${wdSession}/url`, { url: `data:text/html,<h1>${i}</h1>` });
      expect([i, command.status, command.headers.get('ratelimit-limit')]).toEqual([i, 200, null]);
    }
    expect((await asKey(key, 'GET', `/df/wd/session/${wdSession}/title`)).status).toBe(200);
    const deleted = await asKey(key, 'DELETE', `/df/wd/session/${wdSession}`);
    expect([deleted.status, deleted.headers.get('ratelimit-limit')]).toEqual([200, null]);
    expect((await http(server.url, 'GET', `/df/api/devices/${deviceId}`, { token })).body.status).toBe('available');
  });
});
