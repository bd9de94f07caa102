import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceDriver } from '../provider.js';
import { FakeWebDriverProvider } from './fake-provider.js';
import { mergeCapabilities, WebDriverRelay } from './relay.js';
import { AppiumServer, defaultAppiumHome, isLocalAppiumHome } from './server.js';

/** The agent's Appium server (a real child process) and the relay in front of it, on fake-driver devices. */
const logger = pino({ level: 'silent' });
let appium: AppiumServer;
let relay: WebDriverRelay;
let front: Server;
let base: string;
const drivers = new Map<string, DeviceDriver>();
let a: string;
let b: string;

beforeAll(async () => {
  appium = new AppiumServer({ logger });
  relay = new WebDriverRelay({ appium, driverOf: (id) => drivers.get(id), logger });
  const provider = new FakeWebDriverProvider({ hostId: 'appium-int', devices: [{ name: 'A' }, { name: 'B' }] });
  await provider.start({ added: (d) => drivers.set(d.info.deviceId, d), removed: () => undefined });
  [a, b] = [...drivers.keys()] as [string, string];
  // The data plane's job in production: `/devices/{id}/wd/...` to the relay.
  front = createServer((req, res) => {
    const m = /^\/devices\/([^/]+)\/wd(\/.*)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    void relay.handle(m[1]!, req, res, m[2]!);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await appium?.stop();
});

const wd = async (device: string, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${base}/devices/${device}/wd${path}`, { method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  return { status: r.status, body: (await r.json()) as any };
};

describe('Appium server', () => {
  it('finds the drivers installed in the project (a local APPIUM_HOME), offline', () => {
    const home = defaultAppiumHome();
    expect(isLocalAppiumHome(home)).toBe(true);
  });

  it('starts lazily, once, on a loopback port', { timeout: 90_000 }, async () => {
    expect(appium.baseUrl).toBeNull();
    const [one, two] = await Promise.all([appium.ensure(), appium.ensure()]);
    expect(one).toBe(two);
    expect(one).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const status = await fetch(`${one}/status`);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { value: { ready: boolean } }).value.ready).toBe(true);
  });
});

describe('relay', () => {
  it('merges the device\'s capabilities over the client\'s, without df:* keys', () => {
    const merged = mergeCapabilities(
      { capabilities: { alwaysMatch: { platformName: 'android', 'df:build': 'x', 'appium:newCommandTimeout': 30 }, firstMatch: [{ 'appium:deviceName': 'mine', 'df:name': 'n' }, {}] } },
      { platformName: 'Fake', 'appium:deviceName': 'device' },
    );
    expect(merged.capabilities.alwaysMatch).toEqual({ platformName: 'Fake', 'appium:deviceName': 'device', 'appium:newCommandTimeout': 30 });
    expect(merged.capabilities.firstMatch).toEqual([{}, {}]);
    expect(mergeCapabilities({}, { x: 1 }).capabilities.alwaysMatch).toEqual({ 'appium:newCommandTimeout': 0, x: 1 });
  });

  it('creates a session with the device\'s capabilities and keeps it to that device', { timeout: 90_000 }, async () => {
    const created = await wd(a, 'POST', '/session', { capabilities: { alwaysMatch: { platformName: 'android', 'df:build': 'x' } } });
    expect(created.status).toBe(200);
    expect(created.body.value.capabilities).toMatchObject({ platformName: 'Fake', automationName: 'Fake', deviceName: 'A' });
    const id = created.body.value.sessionId as string;
    expect(relay.sessionsOf(a)).toEqual([id]);
    expect((await wd(a, 'GET', `/session/${id}/url`)).status).toBe(200);
    const elsewhere = await wd(b, 'GET', `/session/${id}/url`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.value.error).toBe('invalid session id');
    expect((await wd(a, 'GET', '/sessions')).body.value.error).toBe('unknown command');
    expect((await wd(a, 'DELETE', `/session/${id}`)).status).toBe(200);
    expect(relay.sessionsOf(a)).toEqual([]);
    expect((await wd(a, 'GET', `/session/${id}/url`)).status).toBe(404);
  });

  it('refuses a device it does not know, and deletes a device\'s sessions when the device is released', { timeout: 60_000 }, async () => {
    expect((await wd('nope', 'POST', '/session', { capabilities: {} })).body.value.error).toBe('session not created');
    const id = (await wd(b, 'POST', '/session', { capabilities: {} })).body.value.sessionId as string;
    await relay.releaseDevice(b);
    expect(relay.sessionsOf(b)).toEqual([]);
    const listed = (await (await fetch(`${appium.baseUrl}/appium/sessions`)).json()) as { value: { id: string }[] };
    expect(listed.value.map((s) => s.id)).not.toContain(id);
  });

  it('stops the server with the agent', { timeout: 30_000 }, async () => {
    const url = appium.baseUrl!;
    await appium.stop();
    expect(appium.baseUrl).toBeNull();
    await expect(fetch(`${url}/status`)).rejects.toThrow();
    await expect(appium.ensure()).rejects.toThrow(/stopped/);
  });
});
