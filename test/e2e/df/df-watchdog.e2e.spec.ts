import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig, stableUuid } from '#agent/index.js';
import { FAKE_APP_XML, FakeWebDriverDevice, FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { connectViewer, enrolHost, eventually } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Never busy for nothing: the busy-device watchdog, with a short period (`DF_WATCHDOG_PERIOD`), ends a
 * session whose holder is gone — a WebDriver client that disappears without DELETE, a console viewer
 * socket closed mid-session — as `abandoned`, gives the device back, and the audit names the watchdog.
 * A session held by an open viewer stays open however long it is silent, and one no connection claimed
 * (a REST client's) is left to the idle time-out. A device slow to release holds back no other
 * abandoned session's end. Every wait is a poll until a state, with a deadline.
 */
const PERIOD_MS = 500;
let server: TestServer;
let agent: AgentHost;
let company: SignedUpCompany;
let deviceId: string;
let heldId: string;

/** A fake WebDriver device whose release waits until the test lets it go: a device slow to reset. */
class HeldReleaseDevice extends FakeWebDriverDevice {
  private gate: { released: Promise<void>; open: () => void } | null = null;

  hold(): void {
    let open = () => undefined as void;
    const released = new Promise<void>((resolve) => (open = resolve));
    this.gate = { released, open };
  }

  letGo(): void {
    this.gate?.open();
    this.gate = null;
  }

  override async release(): Promise<void> {
    await this.gate?.released;
    await super.release();
  }
}
let held: HeldReleaseDevice;

/** A fake WebDriver device whose screen never starts: a viewer's joining fails. */
class NoScreenDevice extends FakeWebDriverDevice {
  override async startScreencast(): Promise<void> {
    throw new Error('the screen stream would not start');
  }
}
let noScreenId: string;

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });
const sessionOf = async (id: string) => (await api('GET', `/sessions/${id}`)).body as { status: string; endReason: string | null; lastActivityAt: string };
/** Polls until the session's last command is `ms` old, checking at every poll that it is still active. */
const silentFor = (id: string, ms: number) =>
  eventually(async () => {
    const s = await sessionOf(id);
    expect(s.status).toBe('active');
    return Date.now() - Date.parse(s.lastActivityAt) > ms ? true : undefined;
  }, { what: `session ${id} silent for ${ms} ms` });
const endedAs = (id: string) =>
  eventually(async () => {
    const s = await sessionOf(id);
    return s.status === 'ended' ? s : undefined;
  }, { what: `session ${id} to end`, timeoutMs: 20_000 });
const deviceStatus = async (id: string) => (await api('GET', `/devices/${id}`)).body.status as string;
const deviceAvailable = (id = deviceId) =>
  eventually(async () => ((await deviceStatus(id)) === 'available' ? true : undefined), { what: 'the device to be available again', timeoutMs: 20_000 });
const openWebDriver = async (id: string) => {
  const created = await http(server.url, 'POST', '/df/wd/session', { token: company.token, body: { capabilities: { alwaysMatch: { 'df:deviceId': id } } } });
  expect(created.status).toBe(200);
  return created.body.value.sessionId as string;
};
const auditedEnd = async (sessionId: string) => {
  const audit = await http(server.url, 'GET', `/api/v1/audit/events?sessionId=${sessionId}&size=50`, { token: company.token });
  expect(audit.status).toBe(200);
  return (audit.body.content as { eventType: string; actorName: string | null }[]).find((e) => e.eventType === 'DeviceSessionEnded');
};

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false', DF_WATCHDOG_PERIOD: `${PERIOD_MS}ms` });
  company = await signUpCompany(server.url, 'watchdog');
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, company.token, 'watchdog'), heartbeatMs: 300, devices: [] } });
  const appPath = join(mkdtempSync(join(tmpdir(), 'df-fake-app-')), 'app.xml');
  writeFileSync(appPath, FAKE_APP_XML);
  heldId = stableUuid(config.hostId, 'fake-webdriver', 'Slow to release');
  held = new HeldReleaseDevice({ deviceId: heldId, name: 'Slow to release', platform: 'android', osVersion: '14', model: 'Fake phone', manufacturer: 'Appium', type: 'phone', isRealDevice: false, provider: 'fake-webdriver', screen: { width: 1080, height: 1920, scale: 1 } }, appPath);
  noScreenId = stableUuid(config.hostId, 'fake-webdriver', 'No screen');
  const noScreen = new NoScreenDevice({ ...held.info, deviceId: noScreenId, name: 'No screen' }, appPath);
  const heldProvider = {
    name: 'held-release',
    start: async (listener: { added: (d: FakeWebDriverDevice) => void }) => {
      listener.added(held);
      listener.added(noScreen);
    },
    stop: async () => undefined,
  };
  agent = new AgentHost({ bus: server.process.platform.bus, config, logger: pino({ level: 'silent' }), providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: [{ name: 'Watched fake' }] }), heldProvider] });
  await agent.start();
  deviceId = await eventually(async () => {
    const list = (await api('GET', '/devices')).body as { totalElements: number; content: { id: string; name: string; status: string }[] };
    return list.totalElements === 3 && list.content.every((d) => d.status === 'available') ? list.content.find((d) => d.name === 'Watched fake')?.id : undefined;
  }, { what: 'the devices' });
}, 120_000);

afterAll(async () => {
  held?.letGo();
  await agent?.stop();
  await server?.stop();
});

describe('the busy-device watchdog', () => {
  it('ends a WebDriver session whose client disappeared without DELETE as abandoned, gives the device back, and the audit names the watchdog', { timeout: 60_000 }, async () => {
    const id = await openWebDriver(deviceId);
    expect((await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token: company.token })).status).toBe(200);
    // The client goes away: no DELETE, no more commands.
    expect((await endedAs(id)).endReason).toBe('abandoned');
    await deviceAvailable();
    await eventually(async () => ((await auditedEnd(id))?.actorName === 'watchdog' ? true : undefined), { what: 'the audited end' });
    const after = await http(server.url, 'GET', `/df/wd/session/${id}/url`, { token: company.token });
    expect(after.body.value.error).toBe('invalid session id');
  });

  it('keeps a session open while its viewer socket is open, and ends it as abandoned once the viewer closes', { timeout: 60_000 }, async () => {
    const created = await api('POST', '/sessions', { deviceId, name: 'console tab' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${id}?access_token=${company.token}`);
    await viewer.next((m) => m.type === 'hello');
    // Silent but watched: it stays active until it has been silent for well past the watchdog's grace.
    await silentFor(id, 4 * PERIOD_MS);
    expect(await server.process.df!.watchdog.check()).toEqual([]);
    expect((await sessionOf(id)).status).toBe('active');

    viewer.socket.close();
    expect((await endedAs(id)).endReason).toBe('abandoned');
    await deviceAvailable();
    expect((await auditedEnd(id))?.actorName).toBe('watchdog');
  });

  it('leaves a session no connection claimed (a REST client\'s) to the idle time-out', { timeout: 30_000 }, async () => {
    const created = await api('POST', '/sessions', { deviceId, name: 'rest client' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await silentFor(id, 4 * PERIOD_MS);
    expect(await server.process.df!.watchdog.check()).toEqual([]);
    expect((await sessionOf(id)).status).toBe('active');
    expect((await api('DELETE', `/sessions/${id}`)).status).toBe(200);
  });

  it('ends the next abandoned session while another one\'s device is still being released', { timeout: 90_000 }, async () => {
    held.hold();
    const slow = await openWebDriver(heldId);
    const next = await openWebDriver(deviceId);
    // The slow device's client goes away; the other's keeps sending commands until that end is under way.
    let alive = true;
    const commands = (async () => {
      while (alive) {
        expect((await http(server.url, 'GET', `/df/wd/session/${next}/url`, { token: company.token })).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, PERIOD_MS / 2));
      }
    })();
    expect((await endedAs(slow)).endReason).toBe('abandoned');
    expect((await sessionOf(next)).status).toBe('active');
    alive = false;
    await commands;
    // Its release is held, so its device stays in use while the watchdog goes on to the next death.
    expect((await endedAs(next)).endReason).toBe('abandoned');
    await deviceAvailable(deviceId);
    expect(await deviceStatus(heldId)).toBe('in_use');
    held.letGo();
    await deviceAvailable(heldId);
  });

  it('ends as abandoned a session whose only viewer failed to join (its screen would not start)', { timeout: 60_000 }, async () => {
    const created = await api('POST', '/sessions', { deviceId: noScreenId, name: 'tab without a screen' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${id}?access_token=${company.token}`);
    await viewer.next((m) => m.type === 'hello');
    // Joining the screen fails, and the socket is told so.
    expect((await viewer.next((m) => m.type === 'error')).code).toEqual(expect.any(String));
    // Nothing holds the session now: the failed viewer must not stay in the screen hub vouching for it.
    expect((await endedAs(id)).endReason).toBe('abandoned');
    await deviceAvailable(noScreenId);
  });
});
