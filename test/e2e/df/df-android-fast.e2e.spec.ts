import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNICODE_IME, type AdbdPeer } from '#test/adbd/peer.js';
import { patternStamp } from '#test/adbd/daemons.js';
import type { PointerSource } from '#test/adbd/uiautomator2.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { connectViewer, eventually, writeAgentConfig, type ViewerClient } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Android's fast paths end to end: minicap's JPEGs reach a viewer as the device sent them, touch goes
 * through minitouch's socket (Android 9) or the UiAutomator2 server's W3C actions (Android 14), text of
 * any script through the Unicode input method; a device whose minicap and UiAutomator2 server die at
 * start falls back to screencap and `input` and says why. Three test devices on this file's own adb
 * server, the server's in-process agent, assertions on what each device recorded.
 */
const ADMIN = { email: 'android-fast@example.com', password: 'android-fast-password-1' };
let server: TestServer;
let adb: AdbServer;
let fast: AdbdPeer;
let broken: AdbdPeer;
let modern: AdbdPeer;
let token: string;

beforeAll(async () => {
  let fastPort: number;
  let brokenPort: number;
  let modernPort: number;
  ({ peer: fast, port: fastPort } = await startPeer({ model: 'Fast Phone', release: '9', sdk: '28', width: 360, height: 640 }));
  ({ peer: broken, port: brokenPort } = await startPeer({ model: 'Unsupported Phone', release: '14', sdk: '34', width: 360, height: 640, minicapCrashes: true, uiautomator2Crashes: true }));
  ({ peer: modern, port: modernPort } = await startPeer({ model: 'Modern Phone', release: '14', sdk: '34', width: 360, height: 640 }));
  adb = await startAdbServer();
  await adb.connect(fastPort);
  await adb.connect(brokenPort);
  await adb.connect(modernPort);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'android-fast-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?platform=android', { token });
    return r.body.totalElements === 3 ? true : undefined;
  }, { what: 'the three android devices', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await adb?.stop();
  await fast?.close();
  await broken?.close();
  await modern?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

async function sessionOn(model: string): Promise<string> {
  const list = await api('GET', '/devices?platform=android');
  const device = list.body.content.find((d: { model: string }) => d.model === model);
  const created = await api('POST', '/sessions', { deviceId: device.id, name: `fast paths on ${model}` });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

function viewerOf(sessionId: string): ViewerClient {
  return connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
}

/** The device's capabilities as the API lists them, once its host has reported `want` of them. */
async function capabilitiesOf(model: string, want: (c: Record<string, string>) => boolean): Promise<Record<string, string>> {
  return eventually(async () => {
    const list = await api('GET', '/devices?platform=android');
    const c = list.body.content.find((d: { model: string }) => d.model === model)?.capabilities;
    return c && want(c) ? c : undefined;
  }, { what: `the capabilities of ${model}` });
}

async function closeViewer(viewer: ViewerClient): Promise<void> {
  viewer.socket.close();
  await viewer.closed;
}

describe('the live screen through minicap', () => {
  let sessionId: string;
  let viewer: ViewerClient;

  beforeAll(async () => {
    sessionId = await sessionOn('Fast Phone');
    viewer = viewerOf(sessionId);
  }, 60_000);

  afterAll(async () => {
    if (viewer) await closeViewer(viewer);
    if (sessionId) await api('DELETE', `/sessions/${sessionId}`);
  });

  it('starts the binary and library of the device ABI and SDK with the screen projection', { timeout: 60_000 }, async () => {
    await viewer.framesAtLeast(1, 30_000);
    expect(fast.record.minicapStarts[0]).toEqual({ variant: 'bin', projection: { realWidth: 360, realHeight: 640, virtualWidth: 360, virtualHeight: 640, rotation: 0 } });
    expect(fast.files.get('/data/local/tmp/minicap')?.mode! & 0o111).not.toBe(0);
    expect(fast.files.get('/data/local/tmp/minicap.so')?.type).toBe('file');
  });

  it("hands the device's JPEGs to the viewer as they were sent, in order", { timeout: 60_000 }, async () => {
    const from = viewer.frames.length;
    await viewer.framesAtLeast(from + 30, 30_000);
    const frames = viewer.frames.slice(from);
    const seqs = frames.map((f) => patternStamp(f)?.seq);
    expect(seqs.every((s) => typeof s === 'number')).toBe(true);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
    for (const [i, frame] of frames.entries()) expect(frame.equals(fast.minicapFrames.get(seqs[i]!)!)).toBe(true);
  });

  it('restarts minicap at the new size when the screen turns', { timeout: 60_000 }, async () => {
    const rotated = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'rotate', orientation: 'landscape' });
    expect(rotated.status).toBe(200);
    await viewer.next((m) => m.type === 'frame' && m.width === 640 && m.height === 360, 30_000);
    expect(fast.record.minicapStarts.at(-1)).toEqual({ variant: 'bin', projection: { realWidth: 360, realHeight: 640, virtualWidth: 360, virtualHeight: 640, rotation: 90 } });
    const from = viewer.frames.length;
    await viewer.framesAtLeast(from + 5, 30_000);
    const latest = viewer.frames.at(-1)!;
    expect(latest.equals(fast.minicapFrames.get(patternStamp(latest)!.seq)!)).toBe(true);
  });
});

describe('touch through minitouch and text through the Unicode input method', () => {
  let sessionId: string;
  const control = (action: Record<string, unknown>) => api('POST', `/sessions/${sessionId}/device/control`, action);
  /** The lines minitouch received from `from` on, once it has `count` of them. */
  const touchLines = (from: number, count: number) =>
    eventually(async () => (fast.record.touch.length >= from + count ? fast.record.touch.slice(from) : undefined), { what: `${count} minitouch lines` });

  beforeAll(async () => {
    sessionId = await sessionOn('Fast Phone');
  }, 60_000);

  afterAll(async () => {
    if (sessionId) await api('DELETE', `/sessions/${sessionId}`);
  });

  it('taps through the socket at the touch device scale (4 units a pixel here), not through input', { timeout: 30_000 }, async () => {
    const from = fast.record.touch.length;
    expect((await control({ action: 'tap', x: 120, y: 210 })).status).toBe(200);
    expect(await touchLines(from, 4)).toEqual(['d 0 480 840 50', 'c', 'u 0', 'c']);
    expect(fast.record.taps).toEqual([]);
  });

  it('swipes with moves spread over the duration, waiting on the device', { timeout: 30_000 }, async () => {
    const from = fast.record.touch.length;
    expect((await control({ action: 'swipe', x1: 40, y1: 100, x2: 40, y2: 500, durationMs: 320 })).status).toBe(200);
    // 20 steps of 16 ms: down, then (wait, move, commit) 20 times, then up.
    const lines = await touchLines(from, 2 + 20 * 3 + 2);
    expect(lines.slice(0, 2)).toEqual(['d 0 160 400 50', 'c']);
    expect(lines.slice(2, 5)).toEqual(['w 16', 'm 0 160 480 50', 'c']);
    expect(lines.filter((l) => l.startsWith('m 0'))).toHaveLength(20);
    expect(lines.slice(-4)).toEqual(['m 0 160 2000 50', 'c', 'u 0', 'c']);
    expect(fast.record.swipes).toEqual([]);
  });

  it('pinches with two contacts moving apart together', { timeout: 30_000 }, async () => {
    const from = fast.record.touch.length;
    expect((await control({ action: 'pinch', x: 180, y: 320, fromDistance: 100, toDistance: 300, durationMs: 400 })).status).toBe(200);
    const lines = await touchLines(from, 3 + 25 * 4 + 3);
    expect(lines.slice(0, 3)).toEqual(['d 0 520 1280 50', 'd 1 920 1280 50', 'c']);
    expect(lines.slice(-6)).toEqual(['m 0 120 1280 50', 'm 1 1320 1280 50', 'c', 'u 0', 'u 1', 'c']);
  });

  it('types text of any script through the Unicode input method, switched in for the session', { timeout: 60_000 }, async () => {
    const text = 'Grüße: é, ß, 中文 😀 & more';
    expect((await control({ action: 'text', text })).status).toBe(200);
    expect(fast.record.texts.at(-1)).toBe(text);
    expect(fast.typed).toBe(text);
    expect(fast.settings.get('secure/default_input_method')).toBe(UNICODE_IME);
    expect(fast.record.installs.map((i) => i.packageName)).toContain('io.appium.settings');
    expect(await capabilitiesOf('Fast Phone', (c) => c.text === 'ime')).toEqual({ screen: 'minicap', input: 'minitouch', text: 'ime' });
    // Plain ASCII typed afterwards goes through the same input method and arrives as it was.
    expect((await control({ action: 'text', text: 'a&b' })).status).toBe(200);
    expect(fast.record.texts.at(-1)).toBe('a&b');
  });

  it('gives the input method back and stops minitouch when the session ends', { timeout: 60_000 }, async () => {
    const ended = await api('DELETE', `/sessions/${sessionId}`);
    expect(ended.body.status).toBe('ended');
    sessionId = '';
    expect(fast.settings.get('secure/default_input_method')).toBe('com.android.inputmethod.latin/.LatinIME');
    expect(fast.settings.get('secure/enabled_input_methods')).not.toContain(UNICODE_IME);
    expect(fast.minitouch).toBeNull();
    expect([...fast.files.keys()].filter((p) => p.startsWith('/data/local/tmp/'))).toEqual([]);
  });
});

describe('touch through the UiAutomator2 server on Android 10 and later', () => {
  let sessionId: string;
  const control = (action: Record<string, unknown>) => api('POST', `/sessions/${sessionId}/device/control`, action);
  /** The W3C action sources of the next gesture the server receives after `from`. */
  const nextActions = (from: number) =>
    eventually(async () => modern.record.pointerActions[from]?.actions, { what: 'W3C actions at the UiAutomator2 server' });
  const kinds = (source: PointerSource) => source.actions.map((a) => a.type);

  beforeAll(async () => {
    sessionId = await sessionOn('Modern Phone');
  }, 60_000);

  afterAll(async () => {
    if (sessionId) await api('DELETE', `/sessions/${sessionId}`);
  });

  it('serves the first tap through input while it installs and starts the server, then taps through it', { timeout: 60_000 }, async () => {
    expect(modern.record.instrumentations).toEqual([]);
    expect((await control({ action: 'tap', x: 10, y: 20 })).status).toBe(200);
    expect(modern.record.taps).toEqual([{ x: 10, y: 20 }]);
    // Taps go through input until the server has its session; then through the server.
    await eventually(async () => {
      const from = modern.record.pointerActions.length;
      expect((await control({ action: 'tap', x: 120, y: 210 })).status).toBe(200);
      return modern.record.pointerActions.length > from ? true : undefined;
    }, { what: 'a tap through the UiAutomator2 server', timeoutMs: 30_000 });
    expect(modern.record.installs.map((i) => i.packageName)).toEqual(expect.arrayContaining(['io.appium.uiautomator2.server', 'io.appium.uiautomator2.server.test']));
    expect(modern.record.instrumentations).toEqual(['am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner']);
    const tapsThroughInput = modern.record.taps.length;
    const from = modern.record.pointerActions.length;
    expect((await control({ action: 'tap', x: 120, y: 210 })).status).toBe(200);
    const [finger] = await nextActions(from);
    expect(finger).toEqual({
      type: 'pointer',
      id: 'finger0',
      parameters: { pointerType: 'touch' },
      actions: [{ type: 'pointerMove', duration: 0, x: 120, y: 210 }, { type: 'pointerDown', button: 0 }, { type: 'pause', duration: 0 }, { type: 'pointerUp', button: 0 }],
    });
    expect(modern.record.taps).toHaveLength(tapsThroughInput);
    expect(await capabilitiesOf('Modern Phone', (c) => c.input === 'agent')).toEqual({ input: 'agent' });
  });

  it('swipes as one pointer moving over the duration', { timeout: 30_000 }, async () => {
    const from = modern.record.pointerActions.length;
    expect((await control({ action: 'swipe', x1: 40, y1: 100, x2: 40, y2: 500, durationMs: 320 })).status).toBe(200);
    const actions = await nextActions(from);
    expect(actions).toHaveLength(1);
    const moves = actions[0]!.actions.filter((a) => a.type === 'pointerMove');
    expect(moves[0]).toEqual({ type: 'pointerMove', duration: 0, x: 40, y: 100 });
    expect(moves.at(-1)).toEqual({ type: 'pointerMove', duration: 16, x: 40, y: 500 });
    expect(moves).toHaveLength(21);
    expect(moves.slice(1).reduce((sum, m) => sum + m.duration!, 0)).toBe(320);
    expect(modern.record.swipes).toEqual([]);
  });

  it('pinches with two pointers moving apart together', { timeout: 30_000 }, async () => {
    const from = modern.record.pointerActions.length;
    expect((await control({ action: 'pinch', x: 180, y: 320, fromDistance: 100, toDistance: 300, durationMs: 400 })).status).toBe(200);
    const [left, right] = await nextActions(from);
    expect([left!.id, right!.id]).toEqual(['finger0', 'finger1']);
    expect(kinds(left!)).toEqual(kinds(right!));
    expect(left!.actions[0]).toEqual({ type: 'pointerMove', duration: 0, x: 130, y: 320 });
    expect(right!.actions[0]).toEqual({ type: 'pointerMove', duration: 0, x: 230, y: 320 });
    expect(left!.actions.at(-2)).toEqual({ type: 'pointerMove', duration: 16, x: 30, y: 320 });
    expect(right!.actions.at(-2)).toEqual({ type: 'pointerMove', duration: 16, x: 330, y: 320 });
  });

  it('stops the server when the session ends, and the next session pinches through it again at once', { timeout: 60_000 }, async () => {
    await api('DELETE', `/sessions/${sessionId}`);
    sessionId = '';
    expect(modern.uiautomator2).toBeNull();
    expect(modern.record.forceStopped).toEqual(expect.arrayContaining(['io.appium.uiautomator2.server.test', 'io.appium.uiautomator2.server']));
    expect([...modern.files.keys()].filter((p) => p.startsWith('/data/local/tmp/'))).toEqual([]);
    // The server's packages are the agent's helpers: the session's clean-up leaves them installed.
    expect(modern.packages.has('io.appium.uiautomator2.server') && modern.packages.has('io.appium.uiautomator2.server.test')).toBe(true);
    sessionId = await sessionOn('Modern Phone');
    const from = modern.record.pointerActions.length;
    // A pinch cannot go through input: the first one waits for the server to start.
    expect((await control({ action: 'pinch', x: 180, y: 320, fromDistance: 300, toDistance: 100, durationMs: 200 })).status).toBe(200);
    expect(await nextActions(from)).toHaveLength(2);
    expect(modern.record.instrumentations).toHaveLength(2);
  });
});

describe('a device whose minicap does not start', () => {
  it('streams through screencap and says why in its log', { timeout: 60_000 }, async () => {
    const sessionId = await sessionOn('Unsupported Phone');
    const viewer = viewerOf(sessionId);
    try {
      await viewer.framesAtLeast(2, 30_000);
      expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(patternStamp(viewer.frames[0]!)).toBeNull();
      expect(broken.record.minicapStarts).toEqual([]);
      const logs = await api('GET', `/sessions/${sessionId}/logs`);
      const notes = logs.body.entries.filter((e: { source: string; text: string }) => e.source === 'agent' && e.text.startsWith('screen: screencap'));
      expect(notes).toHaveLength(1);
      expect(notes[0].text).toContain('Segmentation fault');
      // Its UiAutomator2 server crashes too: a pinch is refused, taps go through input, and the log says why once.
      const pinch = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'pinch', x: 180, y: 320, fromDistance: 100, toDistance: 300, durationMs: 200 });
      expect(pinch.status).toBe(409);
      expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 5, y: 6 })).status).toBe(200);
      expect(broken.record.taps.at(-1)).toEqual({ x: 5, y: 6 });
      const after = await api('GET', `/sessions/${sessionId}/logs`);
      const touchNotes = after.body.entries.filter((e: { source: string; text: string }) => e.source === 'agent' && e.text.startsWith('input: input'));
      expect(touchNotes).toHaveLength(1);
      expect(touchNotes[0].text).toContain('the UiAutomator2 server did not start: the instrumentation ended: INSTRUMENTATION_RESULT: shortMsg=java.lang.SecurityException');
      // The device's info says which paths it runs on and why.
      const capabilities = await capabilitiesOf('Unsupported Phone', (c) => c.input === 'input' && c.screen === 'screencap');
      expect(capabilities.reason).toMatch(/^screen: screencap \(.*Segmentation fault.*\); input: input \(.*the UiAutomator2 server did not start/);
    } finally {
      await closeViewer(viewer);
      await api('DELETE', `/sessions/${sessionId}`);
    }
  });
});
