import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { decodePng, pixelAt } from '#test/adbd/png.js';
import { startAdbServer, startPeer, testApk, type AdbServer } from '#test/helpers/adb.js';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Android devices end to end: the adbd test device reached by Debian's real adb server (this file's
 * own), the server's in-process agent with the Android provider on that adb server, driven through
 * the HTTP API. Assertions are on the device's own record of what it was told.
 */
const ADMIN = { email: 'android-admin@example.com', password: 'android-password-1' };
const SIMULATED = 'Simulated (no apps)';
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let deviceId: string;
let sessionId: string;

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Peer Phone 9', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 }));
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'android-node',
      heartbeatMs: 500,
      // Gestures through `input` (what this file asserts on); the UiAutomator2 path is df-android-fast's.
      android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false },
      devices: [{ provider: 'simulated', name: SIMULATED, platform: 'web', type: 'desktop' }],
    }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?platform=android', { token });
    return r.body.content?.[0]?.id as string | undefined;
  }, { what: 'the android device', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const s = (path: string) => `/sessions/${sessionId}${path}`;

/** A multipart request through the started server. */
async function upload(path: string, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(new URL(`/df/api${path}`, server.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

/** `POST .../files/pull` as bytes. */
async function pull(path: string) {
  const res = await fetch(new URL(`/df/api${s('/files/pull')}`, server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path }),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('an android device in the farm', () => {
  it('is listed with what its properties say', async () => {
    const list = await api('GET', '/devices?platform=android');
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({
      platform: 'android',
      model: 'Peer Phone 9',
      manufacturer: 'PeerWorks',
      osVersion: '14',
      isRealDevice: true,
      type: 'phone',
      status: 'available',
      nodeName: 'android-node',
      screen: { width: 360, height: 640, scale: 1 },
    });
  });

  it('opens a session that woke the device and sent it home', { timeout: 60_000 }, async () => {
    const created = await api('POST', '/sessions', { deviceId, name: 'android e2e' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', screen: { width: 360, height: 640 } });
    sessionId = created.body.id;
    expect(peer.record.keys).toEqual(expect.arrayContaining(['KEYCODE_WAKEUP', 'KEYCODE_HOME']));
  });

  it('answers a screenshot with the device framebuffer, and a tap lands where it was sent', { timeout: 60_000 }, async () => {
    const tapped = await api('POST', s('/device/control'), { action: 'tap', x: 120, y: 210 });
    expect(tapped.status).toBe(200);
    expect(peer.record.taps).toEqual([{ x: 120, y: 210 }]);
    const res = await fetch(new URL(`/df/api${s('/screenshot')}`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.equals(peer.screenshot())).toBe(true);
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([360, 640]);
    expect(pixelAt(image, 120, 210)).toEqual([255, 255, 255]);
    expect(pixelAt(image, 300, 500)).toEqual([0x20, 0x30, 0x40]);
  });

  it('answers JPEG when asked, and streams the live screen to a viewer as JPEG frames', { timeout: 60_000 }, async () => {
    const res = await fetch(new URL(`/df/api${s('/screenshot?format=jpeg')}`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
    try {
      await viewer.next((m) => m.type === 'hello');
      await viewer.framesAtLeast(2, 30_000);
      expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const frame = await viewer.next((m) => m.type === 'frame');
      expect(frame).toMatchObject({ width: 360, height: 640 });
      viewer.send({ type: 'input', id: 'v1', action: { action: 'tap', x: 30, y: 40 } });
      await viewer.next((m) => m.type === 'ack' && m.id === 'v1');
      expect(peer.record.taps.at(-1)).toEqual({ x: 30, y: 40 });
    } finally {
      viewer.socket.close();
      await viewer.closed;
    }
  });

  it('types text and presses keys', { timeout: 60_000 }, async () => {
    expect((await api('POST', s('/device/control'), { action: 'text', text: 'hello farm' })).status).toBe(200);
    expect(peer.record.texts).toEqual(['hello farm']);
    expect((await api('POST', s('/device/control'), { action: 'key', key: 'Backspace' })).status).toBe(200);
    expect((await api('POST', s('/device/control'), { action: 'key', key: 'Enter' })).status).toBe(200);
    expect(peer.record.keys.slice(-2)).toEqual(['KEYCODE_DEL', 'KEYCODE_ENTER']);
    expect(peer.typed).toBe('hello far');
    const swipe = await api('POST', s('/device/control'), { action: 'swipe', x1: 10, y1: 400, x2: 10, y2: 100, durationMs: 250 });
    expect(swipe.status).toBe(200);
    expect(peer.record.swipes).toEqual([{ x1: 10, y1: 400, x2: 10, y2: 100, durationMs: 250 }]);
    expect((await api('POST', s('/device/control'), { action: 'key', key: 'Hyper' })).status).toBe(400);
    const opened = await api('POST', s('/device/control'), { action: 'openUrl', url: 'https://example.com/x?y=1' });
    expect(opened.body).toMatchObject({ ok: true, url: 'https://example.com/x?y=1' });
    expect(peer.record.intents.at(-1)).toEqual({ action: 'android.intent.action.VIEW', data: 'https://example.com/x?y=1', component: null });
  });

  it('installs an uploaded APK, lists it, and records it on the timeline', { timeout: 60_000 }, async () => {
    const apk = testApk('com.example.farmapp', 200_000);
    const installed = await upload(s('/apps/install'), { name: 'farm.apk', bytes: apk });
    expect(installed.status).toBe(201);
    expect(installed.body).toEqual({ packageNames: ['com.example.farmapp'], size: apk.length, sha256: createHash('sha256').update(apk).digest('hex') });
    expect(peer.record.installs).toEqual([expect.objectContaining({ packageName: 'com.example.farmapp', replace: true })]);
    const apps = await api('GET', s('/apps?thirdPartyOnly=true'));
    expect(apps.body.apps).toEqual([{ packageName: 'com.example.farmapp', system: false }]);
    const all = await api('GET', s('/apps'));
    expect(all.body.apps).toEqual(expect.arrayContaining([{ packageName: 'com.android.settings', system: true }, { packageName: 'com.example.farmapp', system: false }]));
    const presence = await api('POST', s('/apps/presence'), { packageNames: ['com.example.farmapp', 'com.example.absent'] });
    expect(presence.body).toEqual({ presence: { 'com.example.farmapp': true, 'com.example.absent': false } });
    const launched = await api('POST', s('/app-helpers/open'), { helper: 'launch-app', packageName: 'com.example.farmapp' });
    expect(launched.status).toBe(200);
    expect(peer.foreground).toBe('com.example.farmapp');
    const activities = await api('GET', s('/activities?kind=control&size=100'));
    expect(activities.body.content.map((a: { detail: { action: string } }) => a.detail.action)).toContain('installApp');
  });

  it('refuses what is not an APK, and a second APK uninstalls through the API', { timeout: 60_000 }, async () => {
    const bad = await upload(s('/apps/install'), { name: 'notes.txt', bytes: Buffer.from('not a zip at all') });
    expect(bad.status).toBe(415);
    expect(bad.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await upload(s('/apps/install'), { name: 'two.apk', bytes: testApk('com.example.second') })).status).toBe(201);
    const removed = await api('POST', s('/apps/uninstall'), { packageName: 'com.example.second' });
    expect(removed.body).toEqual({ packageName: 'com.example.second', uninstalled: true });
    expect(peer.packages.has('com.example.second')).toBe(false);
    expect((await api('POST', s('/apps/uninstall'), { packageName: 'com.example.second' })).status).toBe(404);
    expect((await api('POST', s('/apps/uninstall'), { packageName: 'not a package' })).status).toBe(400);
  });

  it('pushes a file over 1 MiB and pulls it back byte for byte', { timeout: 90_000 }, async () => {
    const big = Buffer.alloc(1_700_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 131 + (i >> 8)) % 256;
    const pushed = await upload(s('/files/push'), { name: 'big.bin', bytes: big }, { path: '/sdcard/Download/big.bin' });
    expect(pushed.status).toBe(201);
    expect(pushed.body).toMatchObject({ path: '/sdcard/Download/big.bin', size: big.length });
    expect(peer.files.get('/sdcard/Download/big.bin')!.data.equals(big)).toBe(true);
    const back = await pull('/sdcard/Download/big.bin');
    expect(back.status).toBe(200);
    expect(back.headers.get('content-length')).toBe(String(big.length));
    expect(back.bytes.equals(big)).toBe(true);
    const missing = await pull('/sdcard/Download/none.bin');
    expect(missing.status).toBe(404);

  });

  it('browses, creates folders and deletes, refusing bad paths', { timeout: 60_000 }, async () => {
    expect((await api('POST', s('/folders'), { path: '/sdcard/farm/a/b' })).status).toBe(201);
    expect(peer.files.get('/sdcard/farm/a/b')?.type).toBe('dir');
    const listing = await api('GET', s('/files?path=/sdcard'));
    expect(listing.status).toBe(200);
    expect(listing.body.entries.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([
      ['Download', 'directory'],
      ['farm', 'directory'],
    ]);
    const download = await api('GET', s('/files?path=/sdcard/Download/'));
    expect(download.body.entries).toEqual([expect.objectContaining({ name: 'big.bin', type: 'file', size: 1_700_000 })]);
    expect((await api('DELETE', s('/files?path=/sdcard/farm/a'))).body).toEqual({ path: '/sdcard/farm/a', deleted: true });
    expect(peer.files.has('/sdcard/farm/a/b')).toBe(false);
    expect((await api('DELETE', s('/files?path=/sdcard/farm/a'))).status).toBe(404);
    expect((await api('GET', s('/files?path=/sdcard/nowhere'))).status).toBe(404);
    for (const bad of ['relative/path', '/sdcard/../system', '/sdcard/a\nb']) {
      const r = await api('GET', s(`/files?path=${encodeURIComponent(bad)}`));
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('DELETE', s('/files?path=/sdcard'))).status).toBe(400);
    expect((await api('POST', s('/folders'), { path: '/data/../etc' })).status).toBe(400);
  });

  it('reads the UI tree and the device log', { timeout: 60_000 }, async () => {
    const tree = await api('GET', s('/ui-tree'));
    expect(tree.status).toBe(200);
    expect(tree.body.url).toBe('android-app://com.example.farmapp');
    const nodes = tree.body.root.children[0].children;
    expect(nodes).toEqual([
      expect.objectContaining({ role: 'button', name: 'Tap me', id: 'com.peer:id/tap_me', bounds: { x: 0, y: 100, width: 360, height: 200 } }),
      expect.objectContaining({ role: 'textbox', text: 'hello far', bounds: { x: 20, y: 320, width: 320, height: 60 } }),
    ]);
    const logs = await eventually(async () => {
      const r = await api('GET', s('/logs'));
      return r.body.entries.some((e: { text: string }) => e.text.includes('installed com.example.farmapp')) ? r.body : undefined;
    }, { what: 'the install in the device log' });
    expect(logs.entries.some((e: { source: string; text: string }) => e.source === 'InputDispatcher' && e.text.includes('tap at 120,210'))).toBe(true);
  });

  it('answers DEVICE_UNSUPPORTED for apps and files on a device without them', { timeout: 60_000 }, async () => {
    const simulated = (await api('GET', `/devices?search=${encodeURIComponent(SIMULATED)}`)).body.content[0];
    const other = await api('POST', '/sessions', { deviceId: simulated.id });
    expect(other.status).toBe(201);
    const apps = await api('GET', `/sessions/${other.body.id}/apps`);
    expect(apps.status).toBe(409);
    expect(apps.body.code).toBe('DEVICE_UNSUPPORTED');
    const push = await upload(`/sessions/${other.body.id}/files/push`, { name: 'a.txt', bytes: Buffer.from('x') }, { path: '/sdcard/a.txt' });
    expect(push.status).toBe(409);
    expect(push.body.code).toBe('DEVICE_UNSUPPORTED');
    await api('DELETE', `/sessions/${other.body.id}`);
  });

  it('ending the session uninstalls what it installed and removes what it pushed', { timeout: 60_000 }, async () => {
    const ended = await api('DELETE', `/sessions/${sessionId}`);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('ended');
    expect(peer.packages.has('com.example.farmapp')).toBe(false);
    expect(peer.record.uninstalls).toEqual(['com.example.second', 'com.example.farmapp']);
    expect(peer.record.forceStopped).toContain('com.example.farmapp');
    expect(peer.files.has('/sdcard/Download/big.bin')).toBe(false);
    expect(peer.files.has('/sdcard/farm')).toBe(false);
    expect(peer.files.has('/sdcard/Download')).toBe(true);
    expect([...peer.files.keys()].filter((p) => p.startsWith('/data/local/tmp/'))).toEqual([]);
    expect((await api('GET', s('/apps'))).status).toBe(409);
  });
});
