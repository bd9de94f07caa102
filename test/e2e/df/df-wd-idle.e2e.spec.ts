import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { eventually, enrolHost } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/** A WebDriver session follows the platform's idle time-out: commands keep it alive, silence ends it. */
// Long enough that one slow round trip on a loaded machine is not mistaken for silence.
const IDLE_MS = 10_000;
let server: TestServer;
let agent: AgentHost;
let company: SignedUpCompany;

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false', DF_SESSION_IDLE_TIMEOUT: `${IDLE_MS}ms` });
  company = await signUpCompany(server.url, 'idlewd');
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, company.token, 'idle-wd'), heartbeatMs: 300, devices: [] } });
  agent = new AgentHost({ bus: server.process.platform.bus, config, logger: pino({ level: 'silent' }), providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: [{ name: 'Idle fake' }] })] });
  await agent.start();
  await eventually(async () => ((await http(server.url, 'GET', '/df/api/devices', { token: company.token })).body.totalElements === 1 ? true : undefined), { what: 'the device' });
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await server?.stop();
});

describe('idle WebDriver sessions', () => {
  it('stays open while commands come, ends after the idle time-out once they stop, then answers "invalid session id"', { timeout: 90_000 }, async () => {
    const created = await http(server.url, 'POST', '/df/wd/session', { token: company.token, body: { capabilities: { alwaysMatch: { platformName: 'android' } } } });
    expect(created.status).toBe(200);
    const id = created.body.value.sessionId as string;
    const session = async () => (await http(server.url, 'GET', `/df/api/sessions/${id}`, { token: company.token })).body;

    // Commands for one and a half idle time-outs: the session must stay open throughout.
    const until = Date.now() + 1.5 * IDLE_MS;
    while (Date.now() < until) {
      const r = await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token: company.token });
      expect(r.status).toBe(200);
      expect((await session()).status).toBe('active');
    }
    const ended = await eventually(async () => {
      const s = await session();
      return s.status === 'ended' ? s : undefined;
    }, { what: 'the idle session to end', timeoutMs: 4 * IDLE_MS });
    expect(ended.endReason).toBe('idle-timeout');
    const after = await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token: company.token });
    expect(after.status).toBe(404);
    expect(after.body.value.error).toBe('invalid session id');
  });
});
