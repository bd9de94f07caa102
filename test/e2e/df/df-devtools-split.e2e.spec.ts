import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * `/df/devtools` in the split deployment: the gateway forwards HTTP to the device module and relays
 * the WebSocket upgrade; the device module relays it again over its agent's data plane (the agent
 * reached the module over NATS, and its hello answer carried the keys of the data-plane tokens).
 */
const ADMIN = { email: 'split-devtools@example.com', password: 'split-devtools-password' };
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let organization: TestServer;
let df: TestServer;
let gateway: TestServer;
let token: string;

beforeAll(async () => {
  deployment = await sharedDeployment();
  const shared = deployment.env;
  organization = await startTestServer({ ...shared, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password }, ['organization', 'projections']);
  df = await startTestServer(
    {
      ...shared,
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'split-devtools', heartbeatMs: 300, devices: [{ provider: 'browser', name: 'Split Chromium', profile: 'desktop', width: 640, height: 480 }] }),
    },
    ['df'],
  );
  gateway = await startTestServer({ ...shared, ORGANIZATION_URL: organization.url, DF_URL: df.url }, ['gateway']);
  token = (await http(gateway.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await df?.stop();
  await organization?.stop();
  await deployment?.drop();
});

describe('/df/devtools through the split gateway', () => {
  it('drives the session\'s browser with playwright through the gateway', async () => {
    const deviceId = await eventually(async () => {
      const r = await http(gateway.url, 'GET', '/df/api/devices', { token });
      return r.body.content?.[0]?.status === 'available' ? (r.body.content[0].id as string) : undefined;
    }, { what: 'the browser device', timeoutMs: 30_000 });
    const created = await http(gateway.url, 'POST', '/df/api/sessions', { token, body: { deviceId } });
    expect(created.status).toBe(201);
    const sessionId = created.body.id as string;

    const version = await http(gateway.url, 'GET', `/df/devtools/${sessionId}/json/version`, { token });
    expect(version.status).toBe(200);
    const browserPath = new URL(version.body.webSocketDebuggerUrl).pathname;
    expect(browserPath).toMatch(new RegExp(`^/df/devtools/${sessionId}/devtools/browser/[0-9a-f-]+$`));
    // The host in that URL is the one the device module saw: the gateway must tell it the client's
    // (X-Forwarded-Host) for it to name the gateway; the WebSocket itself is relayed by the gateway.
    const browser = await chromium.connectOverCDP(`${gateway.url.replace('http', 'ws')}${browserPath}`, { headers: { authorization: `Bearer ${token}` }, timeout: 30_000 });
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.goto('data:text/html,<button id="b" onclick="this.textContent=\'clicked\'">press</button>');
      await page.click('#b');
      expect(await page.textContent('#b')).toBe('clicked');
      const disconnected = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
      expect((await http(gateway.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token })).status).toBe(200);
      await disconnected;
    } finally {
      await browser.close().catch(() => undefined);
    }
  }, 90_000);
});
