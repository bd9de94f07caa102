import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * The fast paths as a health signal end to end: the server's in-process agent reads an adbd test device
 * (Android 14, touch through the UiAutomator2 server off in the agent's config, so its touch fast path is
 * unavailable) every 500 ms. Its minicap crashes at start: a session's viewer is served through screencap,
 * and the readings after it say the screen's fast path is down, why; the device goes `degraded` naming
 * it (never held: a session opens), its helpers are restarted (the only mending step), and once minicap
 * starts again the device is healthy. A second device whose minicap does not come back is left degraded,
 * not quarantined, its helpers tried once. Every wait is a poll with a deadline.
 */
const ADMIN = { email: 'fast-paths-admin@example.com', password: 'fast-paths-password-1' };
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let deviceId: string;
let stubborn: AdbdPeer | undefined;

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const expectStatus = (res: JsonResponse, status: number, code?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};
type FastPath = { state: string; reason?: string };
type Sample = { checkedAt: string; fastPaths?: { screen?: FastPath; touch?: FastPath } };
type Health = { state: string; reasons: string[] };
const healthOf = async (): Promise<Health | null> => (await api('GET', `/devices/${deviceId}`)).body.health;
const view = async (id = deviceId) => (await api('GET', `/devices/${id}/health`)).body as { samples: Sample[]; mending: { step: string; result: string; error?: string }[] };
/** The device's health changes as the audit history lists them, oldest first. */
const changes = async () => {
  const r = await http(server.url, 'GET', '/api/v1/audit/events?resourceType=device-health&size=200', { token });
  return ((r.body.content ?? []) as { eventType: string; payload: { deviceId: string; health?: Health } }[])
    .filter((e) => e.eventType === 'DeviceHealthChanged' && e.payload.deviceId === deviceId)
    .map((e) => e.payload.health!)
    .reverse();
};
/** Opens a session on the device and watches its screen until `frames` arrived, then ends it. */
async function sessionWithViewer(id = deviceId, frames = 2): Promise<void> {
  const created = await api('POST', '/sessions', { deviceId: id, name: 'fast paths' });
  expectStatus(created, 201);
  const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${created.body.id}?access_token=${token}`);
  try {
    await viewer.framesAtLeast(frames, 30_000);
  } finally {
    viewer.socket.close();
    await viewer.closed;
    expectStatus(await api('DELETE', `/sessions/${created.body.id}`), 200);
  }
}
/** Waits until the test device has answered two more readings than now (its agent read it again). */
const readAgain = async (device: AdbdPeer) => {
  const start = device.health.readings;
  await eventually(async () => (device.health.readings >= start + 2 ? true : undefined), { what: 'two more health readings' });
};
const healthBecomes = (state: string) =>
  eventually(async () => {
    const h = await healthOf();
    return h?.state === state ? h : undefined;
  }, { what: `device health ${state}`, timeoutMs: 30_000 });

describe('fast paths as a health signal', () => {
  beforeAll(async () => {
    adb = await startAdbServer();
    const started = await startPeer({ model: 'Screen Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640, minicapCrashes: true });
    peer = started.peer;
    await adb.connect(started.port);
    server = await startTestServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      AGENT_HEALTH_INTERVAL: '500ms',
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'fast-paths-node', heartbeatMs: 500, startAhead: false, appium: { enabled: false }, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }),
    });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
    deviceId = await eventually(async () => ((await api('GET', '/devices?platform=android')).body.content as { id: string }[])[0]?.id, { what: 'the android device', timeoutMs: 60_000 });
    await healthBecomes('healthy');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await adb?.stop();
    await peer?.close();
    await stubborn?.close();
  });

  it('refuses a fastPathDownDegrades that is not a boolean (400 naming the field), changing nothing; true by default', async () => {
    const before = (await api('GET', '/fleet/health-rules')).body;
    expect(before.fastPathDownDegrades).toBe(true);
    for (const bad of ['yes', 1, null]) {
      const refused = await api('PUT', '/fleet/health-rules', { ...before, fastPathDownDegrades: bad });
      expectStatus(refused, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(refused.body.details)).toContain('fastPathDownDegrades');
    }
    expect((await api('GET', '/fleet/health-rules')).body).toEqual(before);
    // Nothing tried yet: the readings say nothing of the fast paths.
    expect((await view()).samples.at(-1)?.fastPaths).toBeUndefined();
  });

  it('reads the screen fast path down after minicap crashed, degrades the device naming it, restarts its helpers, and is healthy once minicap starts again', { timeout: 120_000 }, async () => {
    // minicap crashes at start: the viewer is served through screencap. It is fixed before the session ends,
    // so the helpers' restart that the next reading asks for brings it back.
    await sessionWithViewer();
    expect(peer.record.minicapStarts).toEqual([]);
    peer.options.minicapCrashes = false;
    const down = await eventually(async () => (await view()).samples.find((s) => s.fastPaths?.screen?.state === 'down'), { what: 'a reading with the screen fast path down', timeoutMs: 30_000 });
    expect(down.fastPaths!.screen!.reason).toContain('Segmentation fault');
    // Android 14 has no minitouch and the agent's config turns the UiAutomator2 server's touch off: never judged.
    expect(down.fastPaths!.touch).toMatchObject({ state: 'unavailable' });
    const degraded = await eventually(async () => (await changes()).find((h) => h.state === 'degraded'), { what: 'the device degraded', timeoutMs: 30_000 });
    expect(degraded.reasons).toEqual([expect.stringMatching(/^screen fast path down: minicap apk: .*Segmentation fault/)]);
    await eventually(async () => ((await view()).mending.some((m) => m.step === 'restart-helpers' && m.result === 'ok') ? true : undefined), { what: 'the helpers restarted' });
    expect((await view()).mending.map((m) => `${m.step}:${m.result}`)).toEqual(['restart-helpers:ok']);
    expect(peer.record.minicapStarts.length).toBeGreaterThanOrEqual(1);
    await healthBecomes('healthy');
    await eventually(async () => ((await view()).samples.at(-1)?.fastPaths?.screen?.state === 'up' ? true : undefined), { what: 'a reading with the screen fast path up' });
    expect((await changes()).map((h) => h.state).slice(-3)).toEqual(['healthy', 'degraded', 'healthy']);
  });

  it('keeps a device whose minicap does not come back degraded, usable and not quarantined, its helpers tried once; the card shows the fast paths, axe-clean', { timeout: 180_000 }, async () => {
    const started = await startPeer({ model: 'Stubborn Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640, minicapCrashes: true });
    stubborn = started.peer;
    await adb.connect(started.port);
    const stubbornId = await eventually(async () => ((await api('GET', '/devices?search=Stubborn')).body.content as { id: string; status: string }[]).find((d) => d.status === 'available')?.id, { what: 'the stubborn device', timeoutMs: 30_000 });
    await sessionWithViewer(stubbornId);
    await eventually(async () => ((await view(stubbornId)).mending.length > 0 ? true : undefined), { what: 'the helpers restarted', timeoutMs: 30_000 });
    const steps = (await view(stubbornId)).mending;
    expect(steps.map((m) => `${m.step}:${m.result}`)).toEqual(['restart-helpers:failed']);
    expect(steps[0]!.error).toMatch(/^minicap did not start: minicap apk: .*Segmentation fault/);
    // Its slow path works: degraded, not quarantined, and a session opens on it; the helpers are not restarted again before the pause.
    await readAgain(stubborn);
    const degraded = (await api('GET', `/devices/${stubbornId}`)).body.health as Health;
    expect(degraded.state).toBe('degraded');
    expect(degraded.reasons).toEqual([expect.stringMatching(/^screen fast path down: minicap/)]);
    // The mending's end is recorded after its step: the device is `available` again (no longer `mending`) once it is.
    await eventually(async () => ((await api('GET', `/devices/${stubbornId}`)).body.status === 'available' ? true : undefined), { what: 'the stubborn device available after its mending' });
    const session = await api('POST', '/sessions', { deviceId: stubbornId, name: 'while degraded' });
    expectStatus(session, 201);
    expectStatus(await api('DELETE', `/sessions/${session.body.id}`), 200);
    await readAgain(stubborn);
    expect(((await api('GET', `/devices/${stubbornId}`)).body.health as Health).state).toBe('degraded');
    expect((await view(stubbornId)).mending).toHaveLength(1);

    const browser = await launchBrowser();
    try {
      const { page } = await signedIn(browser, server.url, ADMIN.email, ADMIN.password);
      await page.goto(`${server.url}/devices/${stubbornId}`);
      await page.getByRole('heading', { name: 'Health', exact: true }).waitFor();
      const facts = page.locator('dl.facts');
      await facts.locator('dt:text-is("Screen fast path") + dd', { hasText: /^Down: minicap apk: .*Segmentation fault/ }).waitFor();
      await facts.locator('dt:text-is("Touch fast path") + dd', { hasText: /^Not available on this device/ }).waitFor();
      await page.getByText(/screen fast path down/).first().waitFor();
      await expectAccessible(page, 'a device page whose screen fast path is down');
      // The device mended before: its screen fast path up.
      await page.goto(`${server.url}/devices/${deviceId}`);
      await facts.locator('dt:text-is("Screen fast path") + dd', { hasText: /^Up$/ }).waitFor();
      await expectAccessible(page, 'a device page whose fast paths are up or not available');
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
