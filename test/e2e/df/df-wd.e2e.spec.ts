import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from 'webdriverio';
import { eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

/**
 * `/df/wd` end to end with the real WebdriverIO 9 client, unmodified: the server with its in-process
 * agent offering one browser device, Appium started by the agent, the data plane between them.
 */
const ADMIN = { email: 'wd-admin@example.com', password: 'wd-password-1' };
const DESKTOP = 'Desktop (wd)';
let server: TestServer;
let site: TestSite;
let token: string;
let deviceId: string;
let port: number;

beforeAll(async () => {
  site = await startTestSite();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    DF_WD_QUEUE_TIMEOUT: '90s',
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'wd-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: DESKTOP, profile: 'desktop', width: 800, height: 600 }] }),
  });
  port = Number(new URL(server.url).port);
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    return r.body.content?.[0]?.id as string | undefined;
  }, { what: 'the browser device' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
});

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
const deviceStatus = async () => (await api('GET', `/devices/${deviceId}`)).body.status as string;
const connect = (headers: Record<string, string>, capabilities: Record<string, unknown> = {}) =>
  remote({ hostname: '127.0.0.1', port, path: '/df/wd', protocol: 'http', headers, logLevel: 'silent', connectionRetryCount: 0, capabilities: { browserName: 'chrome', ...capabilities } });
const waiting = async () => (await http(server.url, 'GET', '/df/wd/status', { token })).body.value.waiting as number;

describe('WebdriverIO through /df/wd', () => {
  it('drives the browser device: navigate, find, click (the page records it), screenshot; delete frees the device', { timeout: 180_000 }, async () => {
    const browser = await connect({ authorization: `Bearer ${token}` }, { 'df:build': 'build-42', 'df:name': 'Checkout smoke' });
    const sessionId = browser.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(browser.capabilities).not.toHaveProperty('webSocketUrl');
    expect(browser.isBidi).toBe(false);

    const session = await api('GET', `/sessions/${sessionId}`);
    expect(session.body).toMatchObject({ id: sessionId, deviceId, type: 'automation', status: 'active', buildName: 'build-42', name: 'Checkout smoke' });
    expect(await deviceStatus()).toBe('in_use');
    const builds = await api('GET', '/sessions/builds');
    expect(JSON.stringify(builds.body)).toContain('build-42');

    await browser.url(site.url);
    expect(await browser.getTitle()).toBe('farm test page');
    const button = await browser.$('#target');
    await button.click();
    expect((await site.waitForEvent((e) => e.kind === 'tap')).kind).toBe('tap');
    expect(await browser.$('#status').getText()).toBe('taps: 1');
    const png = Buffer.from(await browser.takeScreenshot(), 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(800);

    await browser.deleteSession();
    const ended = await api('GET', `/sessions/${sessionId}`);
    expect(ended.body).toMatchObject({ status: 'ended', endReason: 'webdriver-session-deleted' });
    expect(await deviceStatus()).toBe('available');

    const timeline = await api('GET', `/sessions/${sessionId}/activities?size=200`);
    const entries = timeline.body.content as { kind: string; detail: Record<string, unknown> }[];
    expect(entries.some((a) => a.kind === 'lifecycle' && a.detail.event === 'webdriver-session-created')).toBe(true);
    expect(entries.some((a) => a.kind === 'navigation' && a.detail.via === 'webdriver' && a.detail.url === site.url)).toBe(true);
  });

  it('records every command on the timeline and in the command log: five commands, five entries, with element, duration and outcome', { timeout: 180_000 }, async () => {
    // Every HTTP request the client sends, counted (the new-session request included).
    let sent = 0;
    const browser = await remote({
      hostname: '127.0.0.1',
      port,
      path: '/df/wd',
      protocol: 'http',
      headers: { authorization: `Bearer ${token}` },
      logLevel: 'silent',
      connectionRetryCount: 0,
      capabilities: { browserName: 'chrome', ...({ 'df:name': 'Command log' } as Record<string, unknown>) },
      transformRequest: (options) => (sent++, options),
    });
    const sessionId = browser.sessionId;
    // Five commands, one WebDriver request each.
    await browser.url(site.url);
    const button = await browser.$('#target');
    await button.click();
    expect(await browser.getTitle()).toBe('farm test page');
    await browser.takeScreenshot();

    // The log is written in bursts; reading it waits for what this session has sent.
    const log = await api('GET', `/sessions/${sessionId}/webdriver-log`);
    expect(log.status).toBe(200);
    const all = log.body.commands as Record<string, any>[];
    // One entry per request the client sent after the new session: WebdriverIO also asks for the
    // window handle by itself when a session starts (its context manager), and that is logged too.
    expect(all).toHaveLength(sent - 1);
    expect(log.body).toMatchObject({ sessionId, deviceId, status: 'active', total: sent - 1, failed: 0 });
    expect(all.filter((c) => c.command !== 'getWindowHandle')).toHaveLength(5);
    const commands = all.filter((c) => c.command !== 'getWindowHandle');
    expect(commands.map((c) => c.command)).toEqual(['navigateTo', 'findElement', 'elementClick', 'getTitle', 'takeScreenshot']);
    const [nav, find, click, title, shot] = commands;
    expect(nav).toMatchObject({ method: 'POST', path: '/url', args: { url: site.url }, outcome: 'success', status: 200 });
    expect(find).toMatchObject({ path: '/element', args: { using: 'css selector', value: '#target' }, outcome: 'success' });
    const elementId = find!.result.element as string;
    expect(elementId).toBeTruthy();
    expect(click).toMatchObject({ path: '/element/{elementId}/click', element: elementId, outcome: 'success' });
    expect(title).toMatchObject({ method: 'GET', result: 'farm test page' });
    expect(shot!.result.bytes).toBeGreaterThan(1000);
    for (const c of all) {
      expect(c.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(c.startedAt)).not.toBeNaN();
    }

    // The same entries on the session's timeline, in order.
    const timeline = (await api('GET', `/sessions/${sessionId}/activities?size=200`)).body.content as { id: string; kind: string; detail: Record<string, unknown> }[];
    const onTimeline = timeline.filter((a) => a.detail.source === 'webdriver');
    expect(onTimeline.map((a) => a.id)).toEqual(all.map((c) => c.activityId));
    expect(onTimeline.filter((a) => a.detail.command !== 'getWindowHandle').map((a) => a.detail.command)).toEqual(['navigateTo', 'findElement', 'elementClick', 'getTitle', 'takeScreenshot']);
    expect(onTimeline.find((a) => a.detail.command === 'navigateTo')).toMatchObject({ kind: 'navigation', detail: { via: 'webdriver', url: site.url } });

    // A refused command is in the log too, as an error; typed text only as its length.
    const refused = await http(server.url, 'POST', `/df/wd/session/${sessionId}/appium/device/shell`, { token, body: { command: 'id' } });
    expect(refused.body.value.error).toBe('unknown command');
    const typed = await http(server.url, 'POST', `/df/wd/session/${sessionId}/element/${elementId}/value`, { token, body: { text: 'hunter2-secret', value: [...'hunter2-secret'] } });
    expect(typed.status).toBe(200);

    await browser.deleteSession();
    const text = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/webdriver-log?format=text&download=true`, { token });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(text.headers.get('content-disposition')).toBe(`attachment; filename="webdriver-log-${sessionId}.txt"`);
    const lines = (text.body as string).trimEnd().split('\n');
    expect(lines[0]).toContain(sessionId);
    const total = all.length + 2;
    expect(text.body).toContain(`${total} command(s), 1 failed`);
    expect(lines.filter((l) => /^\d{4}-\d\d-\d\d /.test(l))).toHaveLength(total);
    expect(text.body).toMatch(/findElement\s+POST \/element\s+using="css selector"\s+value="#target"\s+OK 200/);
    expect(text.body).toMatch(/POST \/appium\/device\/shell.*ERROR 404 unknown command/);
    expect(text.body).toContain('text="[14 characters]"');
    expect(text.body).not.toContain('hunter2');
    const ended = await api('GET', `/sessions/${sessionId}/webdriver-log`);
    expect(ended.body).toMatchObject({ status: 'ended', total, failed: 1 });
    expect(JSON.stringify(ended.body)).not.toContain('hunter2');
    // The session's evidence carries the same command log, and nowhere the typed text (its events neither).
    const evidence = await api('GET', `/sessions/${sessionId}/evidence`);
    expect(evidence.status).toBe(200);
    expect(evidence.body.manifest.webdriverLog).toEqual(ended.body.commands);
    expect(JSON.stringify(evidence.body)).not.toContain('hunter2');
    expect(JSON.stringify((await api('GET', `/sessions/${sessionId}/activities?size=200`)).body)).not.toContain('hunter2');
    expect(await deviceStatus()).toBe('available');
  });

  it('queues a second client while the only device is busy and hands it the device when the first ends; X-Api-Key works', { timeout: 180_000 }, async () => {
    const key = (await api('POST', '/keys', { name: 'wd key' })).body.key as string;
    const first = await connect({ authorization: `Bearer ${token}` });
    const second = connect({ 'x-api-key': key });
    await eventually(async () => ((await waiting()) === 1 ? true : undefined), { what: 'the second request waiting', timeoutMs: 30_000 });
    expect(await deviceStatus()).toBe('in_use');

    await first.deleteSession();
    const browser = await second;
    expect(browser.sessionId).not.toBe(first.sessionId);
    expect((await api('GET', `/sessions/${browser.sessionId}`)).body).toMatchObject({ deviceId, status: 'active', type: 'automation' });
    await browser.url(site.url);
    expect(await browser.getUrl()).toBe(site.url);
    await browser.deleteSession();
    expect(await deviceStatus()).toBe('available');
  });

  it('answers W3C "session not created" to a request that waited too long, and at once when no device could ever match', { timeout: 120_000 }, async () => {
    const busy = await connect({ authorization: `Bearer ${token}` });
    try {
      const started = Date.now();
      const timedOut = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { browserName: 'chrome', 'df:queueTimeoutSeconds': 1 } } } });
      expect(timedOut.status).toBe(500);
      expect(timedOut.body.value).toMatchObject({ error: 'session not created' });
      expect(timedOut.body.value.message).toMatch(/became free within 1 s/);
      expect(typeof timedOut.body.value.stacktrace).toBe('string');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      await expect(connect({ authorization: `Bearer ${token}` }, { 'df:queueTimeoutSeconds': 1 })).rejects.toThrow(/session not created|became free/i);
    } finally {
      await busy.deleteSession();
    }
    const never = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { browserName: 'firefox' } } } });
    expect(never.status).toBe(500);
    expect(never.body.value).toMatchObject({ error: 'session not created', message: expect.stringMatching(/No device/) });
    const ios = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { platformName: 'iOS' } } } });
    expect(ios.body.value.error).toBe('session not created');
    const bad = await http(server.url, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { browserName: 'chrome' }, firstMatch: [{ browserName: 'chrome' }] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.value.error).toBe('invalid argument');
    expect(await deviceStatus()).toBe('available');
  });

  it('refuses without a credential (401), and another company\'s or an ended session as "invalid session id"', { timeout: 120_000 }, async () => {
    const anonymous = await http(server.url, 'POST', '/df/wd/session', { body: { capabilities: { alwaysMatch: { browserName: 'chrome' } } } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.value).toMatchObject({ error: expect.any(String), message: expect.any(String), stacktrace: expect.any(String) });

    const browser = await connect({ authorization: `Bearer ${token}` });
    const id = browser.sessionId;
    const rival = await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email: 'wd-rival@example.com', password: 'rival-password', name: 'Rival', companyName: 'Rival WD' } });
    const foreign = await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token: rival.body.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.value.error).toBe('invalid session id');
    const foreignDelete = await http(server.url, 'DELETE', `/df/wd/session/${id}`, { token: rival.body.token });
    expect(foreignDelete.status).toBe(404);
    expect(errorCode(foreignDelete)).toBe('invalid session id');
    expect((await api('GET', `/sessions/${id}`)).body.status).toBe('active');

    // The platform session ends another way (the user ends it): later commands are invalid.
    expect((await api('DELETE', `/sessions/${id}`)).body.status).toBe('ended');
    const after = await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token });
    expect(after.status).toBe(404);
    expect(after.body.value.error).toBe('invalid session id');
    await expect(browser.getUrl()).rejects.toThrow(/invalid session id|has ended/i);
    expect(await deviceStatus()).toBe('available');
  });
});
