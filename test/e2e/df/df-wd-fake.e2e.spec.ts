import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { eventually, enrolHost } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * The hub's logic against Appium's fake driver through a real Appium server: an agent on the server's
 * bus offers fake-driver devices (two Android, one iOS); the hub matches, queues, maps ids, applies its
 * policy and answers W3C errors.
 */
let server: TestServer;
let agent: AgentHost;
let company: SignedUpCompany;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false', DF_WD_QUEUE_TIMEOUT: '30s' });
  company = await signUpCompany(server.url, 'fakewd');
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, company.token, 'fake-wd'), heartbeatMs: 300, devices: [] } });
  const provider = new FakeWebDriverProvider({
    hostId: config.hostId,
    devices: [
      { name: 'Fake A', osVersion: '14.1', model: 'Pixel Fake' },
      { name: 'Fake B', osVersion: '13' },
      { name: 'Fake iPhone', platform: 'ios', osVersion: '17.2', model: 'iPhone Fake' },
    ],
  });
  agent = new AgentHost({ bus: server.process.platform.bus, config, logger: pino({ level: 'silent' }), providers: [provider] });
  await agent.start();
  const devices = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?sortBy=name', { token: company.token });
    return r.body.content?.length === 3 ? (r.body.content as { id: string; name: string }[]) : undefined;
  }, { what: 'three fake devices' });
  for (const d of devices) ids[d.name] = d.id;
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await server?.stop();
});

const wd = (method: string, path: string, body?: unknown, token = company.token): Promise<JsonResponse> =>
  http(server.url, method, `/df/wd${path}`, { token, ...(body !== undefined ? { body } : {}) });
const newSession = (alwaysMatch: Record<string, unknown>, firstMatch?: Record<string, unknown>[]) =>
  wd('POST', '/session', { capabilities: { alwaysMatch, ...(firstMatch ? { firstMatch } : {}) } });
const deviceOf = async (sessionId: string) => (await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: company.token })).body.deviceId as string;
const end = async (sessionId: string) => expect((await wd('DELETE', `/session/${sessionId}`)).status).toBe(200);
const waiting = async () => (await wd('GET', '/status')).body.value.waiting as number;
/** The Appium sessions the agent's server holds right now. */
const appiumSessions = async () => {
  const r = await fetch(`${agent.appium!.baseUrl}/appium/sessions`);
  return ((await r.json()) as { value: { id: string }[] }).value.map((s) => s.id);
};

describe('matching', () => {
  it('picks the device the capabilities describe and opens an automation session on it', { timeout: 60_000 }, async () => {
    const byVersion = await newSession({ platformName: 'Android', 'appium:platformVersion': '13', 'df:build': 'b-1', 'df:name': 'version match' });
    expect(byVersion.status).toBe(200);
    const hubId = byVersion.body.value.sessionId as string;
    expect(await deviceOf(hubId)).toBe(ids['Fake B']);
    expect(byVersion.body.value.capabilities).toMatchObject({ platformName: 'Fake', automationName: 'Fake' });
    const session = (await http(server.url, 'GET', `/df/api/sessions/${hubId}`, { token: company.token })).body;
    expect(session).toMatchObject({ type: 'automation', buildName: 'b-1', name: 'version match', status: 'active' });

    const byName = await newSession({ platformName: 'android', 'appium:deviceName': 'pixel fake' });
    expect(await deviceOf(byName.body.value.sessionId)).toBe(ids['Fake A']);
    const byFirstMatch = await newSession({}, [{ platformName: 'windows' }, { platformName: 'iOS', 'appium:platformVersion': '17' }]);
    expect(await deviceOf(byFirstMatch.body.value.sessionId)).toBe(ids['Fake iPhone']);
    for (const r of [byVersion, byName, byFirstMatch]) await end(r.body.value.sessionId);

    const byId = await newSession({ 'df:deviceId': ids['Fake B'] });
    expect(await deviceOf(byId.body.value.sessionId)).toBe(ids['Fake B']);
    await end(byId.body.value.sessionId);
    const byUdid = await newSession({ platformName: 'android', 'appium:udid': ids['Fake A'] });
    expect(await deviceOf(byUdid.body.value.sessionId)).toBe(ids['Fake A']);
    await end(byUdid.body.value.sessionId);
  });

  it('answers "session not created" at once when no device could ever match', async () => {
    for (const caps of [{ platformName: 'Fake' }, { platformName: 'android', 'appium:platformVersion': '9' }, { platformName: 'ios', 'appium:deviceName': 'iPad' }, { browserName: 'chrome' }]) {
      const started = Date.now();
      const r = await newSession(caps);
      expect(r.status, JSON.stringify(caps)).toBe(500);
      expect(r.body.value).toMatchObject({ error: 'session not created', stacktrace: '' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('refuses malformed requests as "invalid argument"', async () => {
    expect((await wd('POST', '/session', { capabilities: 'x' })).body.value.error).toBe('invalid argument');
    expect((await wd('POST', '/session', {})).body.value.error).toBe('invalid argument');
    expect((await newSession({ platformName: 'android' }, [{ platformName: 'ios' }])).status).toBe(400);
    expect((await newSession({ platformName: 'android', 'df:queueTimeoutSeconds': -1 })).body.value.error).toBe('invalid argument');
    const raw = await http(server.url, 'POST', '/df/wd/session', { token: company.token, rawBody: '{"capabilities":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(raw.body.value.error).toBe('invalid argument');
  });
});

describe('commands', () => {
  let hubId: string;

  beforeAll(async () => {
    hubId = (await newSession({ platformName: 'android', 'appium:deviceName': 'Fake A' })).body.value.sessionId;
  }, 60_000);

  it('relays commands with the ids swapped both ways; the Appium id never reaches the client', async () => {
    const [appiumId] = await appiumSessions();
    expect(appiumId).toBeDefined();
    expect(appiumId).not.toBe(hubId);
    const found = await wd('POST', `/session/${hubId}/element`, { using: 'xpath', value: '//MockButton' });
    expect(found.status).toBe(200);
    const elementId = Object.values(found.body.value as Record<string, string>)[0]!;
    const field = Object.values((await wd('POST', `/session/${hubId}/element`, { using: 'xpath', value: '//MockInputField' })).body.value as Record<string, string>)[0]!;
    expect((await wd('POST', `/session/${hubId}/element/${field}/value`, { text: 'typed through the hub' })).status).toBe(200);
    expect((await wd('GET', `/session/${hubId}/element/${field}/text`)).body.value).toBe('typed through the hub');
    expect((await wd('POST', `/session/${hubId}/element/${elementId}/click`, {})).status).toBe(200);
    // An empty body is a command without parameters, as some clients send it.
    expect((await http(server.url, 'POST', `/df/wd/session/${hubId}/element/${elementId}/click`, { token: company.token, rawBody: '', headers: { 'content-type': 'application/json' } })).status).toBe(200);
    const failed = await wd('GET', `/session/${hubId}/title`);
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).not.toContain(appiumId);
    expect(JSON.stringify(found.body)).not.toContain(appiumId);
    const missing = await wd('POST', `/session/${hubId}/element`, { using: 'xpath', value: '//Nothing' });
    expect(missing.status).toBe(404);
    expect(missing.body.value.error).toBe('no such element');
  });

  it('applies the policy: blocked, refused and rewritten commands', async () => {
    const blocked = await wd('POST', `/session/${hubId}/appium/execute_driver`, { script: 'return 1', type: 'webdriverio' });
    expect(blocked.status).toBe(404);
    expect(blocked.body.value).toMatchObject({ error: 'unknown command', message: expect.stringMatching(/not available through the hub/) });
    const shell = await wd('POST', `/session/${hubId}/execute/sync`, { script: 'mobile: shell', args: [{ command: 'ls' }] });
    expect(shell.status).toBe(403);
    expect(shell.body.value.error).toBe('unsupported operation');
    expect((await wd('POST', `/session/${hubId}/timeouts`, { implicit: 3_600_000 })).status).toBe(200);
    expect((await wd('GET', `/session/${hubId}/timeouts`)).body.value.implicit).toBe(300_000);
  });

  it('answers "invalid session id" for unknown, foreign and deleted sessions, and "unknown command" off the protocol', async () => {
    const unknown = await wd('GET', '/session/00000000-0000-4000-8000-000000000000/url');
    expect(unknown.status).toBe(404);
    expect(unknown.body.value.error).toBe('invalid session id');
    const rival = await signUpCompany(server.url, 'fakewd-rival');
    const foreign = await wd('GET', `/session/${hubId}/url`, undefined, rival.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.value.error).toBe('invalid session id');
    expect((await wd('GET', '/nothing/here')).body.value.error).toBe('unknown command');

    await end(hubId);
    expect(await appiumSessions()).toEqual([]);
    const after = await wd('GET', `/session/${hubId}/url`);
    expect(after.status).toBe(404);
    expect(after.body.value.error).toBe('invalid session id');
    expect((await wd('DELETE', `/session/${hubId}`)).status).toBe(404);
  });

  it('drops the Appium session when the platform session ends another way', async () => {
    const id = (await newSession({ platformName: 'ios' })).body.value.sessionId as string;
    expect(await appiumSessions()).toHaveLength(1);
    expect((await http(server.url, 'DELETE', `/df/api/sessions/${id}`, { token: company.token })).body.status).toBe('ended');
    expect((await wd('GET', `/session/${id}/url`)).body.value.error).toBe('invalid session id');
    await eventually(async () => ((await appiumSessions()).length === 0 ? true : undefined), { what: 'the Appium session deleted by the agent' });
  });
});

describe('queue', () => {
  it('serves waiting requests first come first served, not holding up a request for another kind of device', { timeout: 90_000 }, async () => {
    const a = (await newSession({ platformName: 'android', 'appium:deviceName': 'Fake A' })).body.value.sessionId as string;
    const b = (await newSession({ platformName: 'android', 'appium:deviceName': 'Fake B' })).body.value.sessionId as string;
    const order: string[] = [];
    const first = newSession({ platformName: 'android' }).then((r) => (order.push('first'), r));
    await eventually(async () => ((await waiting()) === 1 ? true : undefined), { what: 'first waiting' });
    const second = newSession({ platformName: 'android' }).then((r) => (order.push('second'), r));
    await eventually(async () => ((await waiting()) === 2 ? true : undefined), { what: 'second waiting' });
    // A request for the free iPhone passes the waiting Android requests.
    const ios = await newSession({ platformName: 'ios' });
    expect(ios.status).toBe(200);
    expect(await waiting()).toBe(2);

    await end(b);
    const got = await first;
    expect(got.status).toBe(200);
    expect(await deviceOf(got.body.value.sessionId)).toBe(ids['Fake B']);
    expect(order).toEqual(['first']);
    expect(await waiting()).toBe(1);
    await end(a);
    const then = await second;
    expect(await deviceOf(then.body.value.sessionId)).toBe(ids['Fake A']);
    expect(order).toEqual(['first', 'second']);
    for (const id of [got.body.value.sessionId, then.body.value.sessionId, ios.body.value.sessionId]) await end(id);
  });

  it('gives up after df:queueTimeoutSeconds with "session not created", and forgets a client that went away', { timeout: 60_000 }, async () => {
    const held = (await newSession({ platformName: 'ios' })).body.value.sessionId as string;
    const timedOut = await newSession({ platformName: 'ios', 'df:queueTimeoutSeconds': 1 });
    expect(timedOut.status).toBe(500);
    expect(timedOut.body.value).toMatchObject({ error: 'session not created', message: expect.stringMatching(/within 1 s/) });
    expect(await waiting()).toBe(0);

    const gone = new AbortController();
    const abandoned = fetch(new URL('/df/wd/session', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities: { alwaysMatch: { platformName: 'ios' } } }),
      signal: gone.signal,
    }).catch(() => 'aborted');
    await eventually(async () => ((await waiting()) === 1 ? true : undefined), { what: 'the request waiting' });
    gone.abort();
    expect(await abandoned).toBe('aborted');
    await eventually(async () => ((await waiting()) === 0 ? true : undefined), { what: 'the abandoned request leaving the queue' });
    await end(held);
    const devices = (await http(server.url, 'GET', '/df/api/devices', { token: company.token })).body.content as { status: string }[];
    expect(devices.map((d) => d.status)).toEqual(['available', 'available', 'available']);
  });
});
