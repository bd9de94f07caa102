import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

/**
 * `/df/devtools/{sessionId}`: the Chrome DevTools protocol of a session's browser device, relayed by
 * the gateway over the agent's data plane. Driven with unmodified playwright-core.
 */
const ADMIN = { email: 'devtools-admin@example.com', password: 'devtools-password-1' };
let server: TestServer;
let site: TestSite;
let token: string;
let deviceId: string;

beforeAll(async () => {
  site = await startTestSite();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    TRUST_PROXY: 'true',
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'devtools-node',
      heartbeatMs: 500,
      devices: [{ provider: 'browser', name: 'Desktop (devtools)', profile: 'desktop', width: 800, height: 600 }],
    }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    return r.body.totalElements === 1 && r.body.content[0].status === 'available' ? (r.body.content[0].id as string) : undefined;
  }, { what: 'the browser device' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const auth = () => ({ authorization: `Bearer ${token}` });
const host = () => new URL(server.url).host;

/** The status a WebSocket handshake gets: 101 when it opened (closed again at once), else the HTTP refusal. */
const upgradeStatus = (path: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`, { headers });
    ws.once('unexpected-response', (_r, answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', reject);
  });

const openSession = async () => {
  const created = await api('POST', '/sessions', { deviceId, name: 'devtools' });
  expect(created.status).toBe(201);
  return created.body.id as string;
};

describe('a session\'s DevTools endpoint', () => {
  let sessionId: string;
  let browser: Browser | null = null;

  beforeAll(async () => {
    sessionId = await openSession();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
  });

  it('answers /json/version as Chrome does, the WebSocket URL pointing back through the gateway', async () => {
    const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token });
    expect(res.status).toBe(200);
    expect(res.body.Browser).toMatch(/Chrome/);
    expect(res.body['Protocol-Version']).toMatch(/^\d+\.\d+$/);
    expect(res.body.webSocketDebuggerUrl).toMatch(new RegExp(`^ws://${host()}/df/devtools/${sessionId}/devtools/browser/[0-9a-f-]+$`));
  });

  it('answers /json/list and /json with every page\'s URLs rewritten', async () => {
    for (const path of ['json/list', 'json', 'json/list/']) {
      const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/${path}`, { token });
      expect(res.status).toBe(200);
      const pages = (res.body as { type: string; webSocketDebuggerUrl: string; devtoolsFrontendUrl: string }[]).filter((t) => t.type === 'page');
      expect(pages.length).toBeGreaterThan(0);
      for (const p of pages) {
        expect(p.webSocketDebuggerUrl).toMatch(new RegExp(`^ws://${host()}/df/devtools/${sessionId}/devtools/page/[0-9A-F]+$`));
        expect(p.devtoolsFrontendUrl).toContain(`ws=${host()}/df/devtools/${sessionId}/devtools/page/`);
        expect(JSON.stringify(p)).not.toMatch(/127\.0\.0\.1:\d+\/devtools/);
      }
    }
  });

  it('honours X-Forwarded-Proto and X-Forwarded-Host behind a trusted proxy', async () => {
    const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'qa.example.test' } });
    expect(res.body.webSocketDebuggerUrl).toMatch(new RegExp(`^wss://qa\\.example\\.test/df/devtools/${sessionId}/devtools/browser/`));
  });

  it('answers /json/protocol (the protocol description)', async () => {
    const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/protocol`, { token });
    expect(res.status).toBe(200);
    expect(res.body.domains.some((d: { domain: string }) => d.domain === 'Runtime')).toBe(true);
  });

  it('refuses a caller without a token (401), also for a WebSocket', async () => {
    const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`);
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('UNAUTHORIZED');
    expect(await upgradeStatus(`/df/devtools/${sessionId}/devtools/browser/x`)).toBe(401);
  });

  it('answers 404 to another company\'s user, over HTTP and WebSocket', async () => {
    const other = await signUpCompany(server.url, 'devtools-other');
    const res = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await http(server.url, 'GET', `/df/devtools/00000000-0000-4000-8000-000000000000/json/version`, { token })).status).toBe(404);
    const browserPath = new URL((await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token })).body.webSocketDebuggerUrl).pathname;
    expect(await upgradeStatus(browserPath, { authorization: `Bearer ${other.token}` })).toBe(404);
    // The same path with the owner's token opens: the refusal was about the caller.
    expect(await upgradeStatus(browserPath, auth())).toBe(101);
  });

  it('lets unmodified playwright drive the session\'s browser: navigate, evaluate, click, read back', async () => {
    browser = await chromium.connectOverCDP(`${server.url}/df/devtools/${sessionId}`, { headers: auth(), timeout: 30_000 });
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(site.url);
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await page.click('#target');
    await expect.poll(() => page.textContent('#status')).toBe('taps: 1');
    expect((await site.waitForEvent((e) => e.kind === 'tap')).kind).toBe('tap');
    await page.fill('#field', 'typed over CDP');
    expect(await page.inputValue('#field')).toBe('typed over CDP');
    await page.goto('data:text/html,<h1 id="h">hello from data</h1>');
    expect(await page.textContent('#h')).toBe('hello from data');
    // The same browser the platform drives: its UI tree sees what playwright did.
    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    expect(JSON.stringify(tree.body)).toContain('hello from data');
  }, 90_000);

  it('closes the CDP socket when the session ends', async () => {
    expect(browser?.isConnected()).toBe(true);
    const disconnected = new Promise<void>((resolve) => browser!.once('disconnected', () => resolve()));
    expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    await disconnected;
    expect(browser!.isConnected()).toBe(false);
    const after = await http(server.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token });
    expect(after.status).toBe(409);
    expect(after.body.code).toBe('SESSION_NOT_ACTIVE');
  }, 60_000);
});
