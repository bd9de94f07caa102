import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * What a CI suite gets from `/df/wd` on a farm whose agent offers a desktop browser and an emulated
 * phone, both free: `browserName: "chrome"` is the desktop every time, the answer names its platform,
 * and an automation session records without asking, so the replay of a failed test shows it.
 */
const DESKTOP = 'Desktop (ci)';
// Its name sorts first, and the hub tries free devices in name order: a phone that matched would be taken.
const PHONE = 'A phone (ci)';
let server: TestServer;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({
    DF_WD_QUEUE_TIMEOUT: '60s',
    AGENT_CONFIG: writeAgentConfig({
      heartbeatMs: 500,
      devices: [
        { provider: 'browser', name: DESKTOP, profile: 'desktop', width: 800, height: 600 },
        { provider: 'browser', name: PHONE, profile: 'pixel-7' },
      ],
    }),
  });
  token = (await signUpCompany(server.url, 'wd-ci')).token;
  const devices = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    const all = (r.body.content ?? []) as { id: string; name: string; status: string }[];
    return all.length === 2 && all.every((d) => d.status === 'available') ? all : undefined;
  }, { what: 'two free browser devices', timeoutMs: 60_000 });
  for (const d of devices) ids[d.name] = d.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const wd = (method: string, path: string, body?: unknown): Promise<JsonResponse> => http(server.url, method, `/df/wd${path}`, { token, ...(body !== undefined ? { body } : {}) });
const api = (method: string, path: string): Promise<JsonResponse> => http(server.url, method, `/df/api${path}`, { token });
const open = async (alwaysMatch: Record<string, unknown>) => {
  const r = await wd('POST', '/session', { capabilities: { alwaysMatch } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.value.sessionId as string, capabilities: r.body.value.capabilities as Record<string, unknown> };
};
const end = async (id: string) => expect((await wd('DELETE', `/session/${id}`)).status).toBe(200);
const deviceOf = async (id: string) => (await api('GET', `/sessions/${id}`)).body.deviceId as string;

describe('browserName chrome on a farm with a desktop browser and an emulated phone', () => {
  it('lands on the desktop device 20 times out of 20 while the phone is free, and answers platformName linux', { timeout: 300_000 }, async () => {
    const landed: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Recording is left out here only to keep twenty sessions light; it has a test of its own below.
      const session = await open({ browserName: 'chrome', 'df:record': false });
      expect(session.capabilities.platformName).toBe('linux');
      landed.push(await deviceOf(session.id));
      await end(session.id);
    }
    expect(landed).toEqual(Array.from({ length: 20 }, () => ids[DESKTOP]));
    expect((await api('GET', `/devices/${ids[PHONE]}`)).body.status).toBe('available');
  });

  it('gives the phone profile to a request that names it, or asks for mobile emulation while the desktop is taken', { timeout: 120_000 }, async () => {
    const named = await open({ browserName: 'chrome', 'appium:deviceName': PHONE, 'df:record': false });
    expect(await deviceOf(named.id)).toBe(ids[PHONE]);
    expect(named.capabilities.platformName).toBe('linux');
    await end(named.id);

    const desktop = await open({ browserName: 'chrome', 'df:record': false });
    const emulated = await open({ browserName: 'chrome', 'goog:chromeOptions': { mobileEmulation: { deviceName: 'Pixel 7' } }, 'df:record': false });
    expect([await deviceOf(desktop.id), await deviceOf(emulated.id)]).toEqual([ids[DESKTOP], ids[PHONE]]);
    await end(desktop.id);
    await end(emulated.id);
  });
});

describe('evidence on failure', () => {
  it('records an automation session that did not ask: once it ended, it has its video', { timeout: 120_000 }, async () => {
    const session = await open({ browserName: 'chrome' });
    expect((await api('GET', `/sessions/${session.id}/recording/status`)).body.recording).toBe(true);
    expect((await wd('POST', `/session/${session.id}/url`, { url: 'data:text/html,<h1 style="font-size:90px">failed here</h1>' })).status).toBe(200);
    await end(session.id);
    const status = (await api('GET', `/sessions/${session.id}/recording/status`)).body;
    expect(status.video).toMatchObject({ format: 'mp4', bytes: expect.any(Number) });
    expect(status.video.durationMs).toBeGreaterThan(0);
    const replay = await api('GET', `/sessions/${session.id}/replay`);
    expect(replay.body.recordings).toHaveLength(1);
  });

  it('records nothing for a session that says df:record false, nothing once the workspace turns recordAutomation off, and a video for df:recordVideo true', { timeout: 120_000 }, async () => {
    const optedOut = await open({ browserName: 'chrome', 'df:record': false });
    expect((await api('GET', `/sessions/${optedOut.id}/recording/status`)).body.recording).toBe(false);
    await end(optedOut.id);
    expect((await api('GET', `/sessions/${optedOut.id}/replay`)).body.recordings).toEqual([]);

    const defaults = (await api('GET', '/settings/session-defaults')).body;
    expect(defaults).toMatchObject({ recordByDefault: false, recordAutomation: true });
    const off = await http(server.url, 'PUT', '/df/api/settings/session-defaults', { token, body: { ...defaults, recordAutomation: false } });
    expect([off.status, off.body.recordAutomation]).toEqual([200, false]);
    const quiet = await open({ browserName: 'chrome' });
    expect((await api('GET', `/sessions/${quiet.id}/recording/status`)).body.recording).toBe(false);
    await end(quiet.id);

    // df:recordVideo asks for the video whatever the workspace's default; it must be a boolean, and agree with df:record.
    const asked = await open({ browserName: 'chrome', 'df:recordVideo': true });
    expect((await api('GET', `/sessions/${asked.id}/recording/status`)).body.recording).toBe(true);
    await end(asked.id);
    expect((await api('GET', `/sessions/${asked.id}/recording/status`)).body.video).toMatchObject({ format: 'mp4' });
    for (const caps of [{ 'df:recordVideo': 'yes' }, { 'df:record': true, 'df:recordVideo': false }]) {
      const refused = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'chrome', ...caps } } });
      expect([refused.status, refused.body.value.error]).toEqual([400, 'invalid argument']);
    }
  });
});
