import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketStream, WebSocket } from 'ws';
import { connectViewer, eventually } from '#test/helpers/df-farm.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl, spawnDfctl } from '#test/helpers/dfctl.js';
import { startIosFarm, WDA_BUNDLE_ID } from '#test/helpers/ios-farm.js';
import { http, type TestServer } from '#test/helpers/server.js';
import { testIpa, testScreen } from '#test/usbmuxd/fixtures.js';
import { freePort } from '#test/helpers/adb.js';
import { PeerDevice, type UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer, type WdaAction } from '#test/usbmuxd/wda.js';

/**
 * iOS devices end to end: the test usbmuxd (test/usbmuxd, the peer libimobiledevice's tools accept),
 * the server's in-process agent with the iOS provider pointed at it, driven through the HTTP API.
 * The iPhone runs the WebDriverAgent peer (touch, text, the UI tree, the MJPEG screen); the iPhone SE
 * has none, and the WDA runner go-ios starts fails on it as on a device without testmanagerd: its
 * session is view-only and says why. Assertions are on the device's own record of what it was told.
 */
const ADMIN = { email: 'ios-admin@example.com', password: 'ios-password-1' };
let server: TestServer;
let peer: UsbmuxdPeer;
let token: string;
let deviceId: string;
let sessionId: string;
const screen = testScreen(75, 150);
const phone = new PeerDevice({
  udid: '00008130-000E2E2E2E2E2E2E',
  name: 'Farm iPhone',
  productType: 'iPhone17,3',
  productVersion: '18.1',
  deviceClass: 'iPhone',
  screenshot: screen,
  apps: [{ bundleId: 'com.apple.mobilesafari', name: 'Safari', version: '18.1', type: 'System' }],
  safariPages: [{ id: 3, title: 'Farm page', url: 'https://example.com/farm' }],
});
const ECHO_PORT = 7200;
phone.tcpServices.set(ECHO_PORT, (socket: Duplex) => socket.pipe(socket));
// iPhone 16: 1179x2556 pixels at scale 3, so 393x852 points.
const wda = new WdaPeer({ size: { width: 393, height: 852, scale: 3 }, tree: sampleTree(393, 852), screenshot: screen, bundleId: WDA_BUNDLE_ID });
wda.install(phone);
const se = new PeerDevice({ udid: '00008030-000E5E5E5E5E5E5E', name: 'Farm iPhone SE', productType: 'iPhone14,6', productVersion: '16.7.10', deviceClass: 'iPhone', screenshot: testScreen(50, 90) });
const tablet = new PeerDevice({ udid: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0', name: 'Farm iPad', productType: 'iPad14,1', productVersion: '17.2', deviceClass: 'iPad', screenshot: screen });

beforeAll(async () => {
  ({ peer, server, token } = await startIosFarm({
    admin: ADMIN,
    devices: [phone],
    nodeName: 'ios-node',
    goIos: { tunnel: 'auto', tunnelInfoPort: await freePort() },
    agentDevices: [{ provider: 'simulated', name: 'Simulated web', platform: 'web', type: 'desktop' }],
  }));
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?platform=ios', { token });
    return r.body.content?.[0]?.id as string | undefined;
  }, { what: 'the iOS device', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await peer?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const s = (path: string) => `/sessions/${sessionId}${path}`;

async function upload(path: string, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(new URL(`/df/api${path}`, server.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

describe('an iOS device in the farm', () => {
  it('is listed with what lockdown says, and only under platform=ios', async () => {
    const list = await api('GET', '/devices?platform=ios');
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({
      name: 'Farm iPhone',
      platform: 'ios',
      model: 'iPhone 16',
      manufacturer: 'Apple',
      osVersion: '18.1',
      isRealDevice: true,
      type: 'phone',
      status: 'available',
      nodeName: 'ios-node',
    });
    const web = await api('GET', '/devices?platform=web');
    expect(web.body.content.map((d: { platform: string }) => d.platform)).toEqual(['web']);
  });

  it('opens a session that follows the device log', { timeout: 60_000 }, async () => {
    const created = await api('POST', '/sessions', { deviceId, name: 'ios e2e' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active' });
    sessionId = created.body.id;
    expect(phone.syslogClientCount).toBe(1);
  });

  it('answers a screenshot with the PNG WebDriverAgent sent', { timeout: 60_000 }, async () => {
    const res = await fetch(new URL(`/df/api${s('/screenshot')}`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(screen)).toBe(true);
    expect(wda.requests.filter((r) => r.endsWith('/screenshot'))).toHaveLength(1);
  });

  it("streams the live screen from WebDriverAgent's MJPEG stream, at the frame rate and quality the session set", { timeout: 60_000 }, async () => {
    const before = phone.record.screenshots;
    const pattern = await wda.testPattern();
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
    try {
      await viewer.next((m) => m.type === 'hello');
      await viewer.framesAtLeast(5, 30_000);
      // The frames are the peer's moving pattern, passed on as WDA sent them: several different pictures.
      for (const frame of viewer.frames) expect(pattern.some((p) => p.equals(frame))).toBe(true);
      expect(new Set(viewer.frames.map((f) => pattern.findIndex((p) => p.equals(f)))).size).toBeGreaterThan(1);
      expect(wda.settings).toMatchObject({ mjpegServerFramerate: 30, mjpegServerScreenshotQuality: expect.any(Number) });
      expect(wda.mjpegClients).toBe(1);
      expect(phone.record.screenshots).toBe(before);
    } finally {
      viewer.socket.close();
      await viewer.closed;
    }
  });

  it('taps, swipes, pinches and types (é and 中 included) through WebDriverAgent, in points', { timeout: 60_000 }, async () => {
    const done = (kind: WdaAction['kind']) => eventually(async () => wda.actions.find((a) => a.kind === kind), { what: `the ${kind} at the WDA peer` });
    const tap = await api('POST', s('/device/control'), { action: 'tap', x: 300, y: 600 });
    expect(tap.status).toBe(200);
    expect(await done('tap')).toEqual({ kind: 'tap', x: 100, y: 200 });
    const swipe = await api('POST', s('/device/control'), { action: 'swipe', x1: 600, y1: 1800, x2: 600, y2: 600, durationMs: 400 });
    expect(swipe.status).toBe(200);
    expect(await done('swipe')).toEqual({ kind: 'swipe', x1: 200, y1: 600, x2: 200, y2: 200, durationMs: 450 });
    // Two fingers apart on one line: a pinch outwards, as two W3C touch sources.
    const pinch = await api('POST', s('/device/control'), { action: 'pinch', x: 600, y: 900, fromDistance: 300, toDistance: 900, durationMs: 400 });
    expect(pinch.status).toBe(200);
    expect(await done('pinch')).toEqual({
      kind: 'pinch',
      fingers: [
        { x1: 150, y1: 300, x2: 50, y2: 300 },
        { x1: 250, y1: 300, x2: 350, y2: 300 },
      ],
      durationMs: 400,
    });
    const text = await api('POST', s('/device/control'), { action: 'text', text: 'café 中文' });
    expect(text.status).toBe(200);
    expect(await done('text')).toEqual({ kind: 'text', text: 'café 中文' });
    expect((await api('POST', s('/device/control'), { action: 'key', key: 'volumeup' })).status).toBe(200);
    expect((await api('POST', s('/device/control'), { action: 'home' })).status).toBe(200);
    expect((await api('POST', s('/device/control'), { action: 'rotate', orientation: 'landscape' })).body).toMatchObject({ orientation: 'landscape' });
    expect(wda.actions.filter((a) => a.kind === 'button' || a.kind === 'orientation')).toEqual([
      { kind: 'button', name: 'volumeUp' },
      { kind: 'button', name: 'home' },
      { kind: 'orientation', orientation: 'LANDSCAPE' },
    ]);
    const back = await api('POST', s('/device/control'), { action: 'back' });
    expect(back.status).toBe(409);
    expect(back.body.code).toBe('DEVICE_UNSUPPORTED');
  });

  it("answers the UI tree from WebDriverAgent's /source, in screenshot pixels", { timeout: 60_000 }, async () => {
    const tree = await api('GET', s('/ui-tree'));
    expect(tree.status).toBe(200);
    expect(tree.body).toMatchObject({ title: 'Farm App', root: { role: 'Application', name: 'Farm App', bounds: { x: 0, y: 0, width: 1179, height: 2556 } } });
    const window = tree.body.root.children[0];
    expect(window.children.map((c: { role: string; name: string }) => [c.role, c.name])).toEqual([
      ['TextField', 'Search'],
      ['Button', 'Go'],
      ['StaticText', 'Ready'],
    ]);
    expect(window.children[0]).toMatchObject({ id: 'query', text: 'hello', bounds: { x: 60, y: 300, width: 1059, height: 132 } });
    expect(wda.requests).toContain(`GET /session/${wda.sessions.at(-1)!.id}/source`);
  });

  it('shows the syslog lines the device sent', { timeout: 60_000 }, async () => {
    phone.emitSyslog('Nov 24 12:30:00 Farm-iPhone MobileSafari[311] <Warning>: farm line seen');
    const entry = await eventually(async () => {
      const r = await api('GET', s('/logs'));
      return (r.body.entries as { text: string }[]).find((e) => e.text.includes('farm line seen'));
    }, { what: 'the syslog line in the session log' });
    expect(entry).toMatchObject({ level: 'warn', source: 'MobileSafari', text: '[311] farm line seen' });
  });

  it('installs an uploaded IPA through AFC and installation_proxy', { timeout: 60_000 }, async () => {
    const ipa = testIpa('com.example.farmios', 'FarmIos');
    const installed = await upload(s('/apps/install'), { name: 'farm.ipa', bytes: ipa });
    expect(installed.status).toBe(201);
    expect(installed.body).toEqual({ packageNames: ['com.example.farmios'], size: ipa.length, sha256: createHash('sha256').update(ipa).digest('hex') });
    expect(phone.record.installs).toEqual([expect.objectContaining({ bundleId: 'com.example.farmios' })]);
    expect(phone.record.installs[0]!.bytes.equals(ipa)).toBe(true);
    const apps = await api('GET', s('/apps?thirdPartyOnly=true'));
    expect(apps.body.apps).toEqual([{ packageName: 'com.example.farmios', system: false }]);
    const notIpa = await upload(s('/apps/install'), { name: 'app.apk', bytes: testIpa('x.y').subarray(0, 30) });
    expect(notIpa.status).toBeGreaterThanOrEqual(400);
    expect(notIpa.status).toBeLessThan(500);
  });

  it('pushes a file into the app container and pulls it back', { timeout: 60_000 }, async () => {
    const bytes = randomBytes(1_200_000);
    const path = '/com.example.farmios/Documents/data.bin';
    const pushed = await upload(s('/files/push'), { name: 'data.bin', bytes }, { path });
    expect(pushed.status).toBe(201);
    expect(pushed.body).toMatchObject({ path, size: bytes.length });
    expect(phone.containers.get('com.example.farmios')!.get('/Documents/data.bin')!.equals(bytes)).toBe(true);
    const res = await fetch(new URL(`/df/api${s('/files/pull')}`, server.url), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ path }) });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const listing = await api('GET', s('/files?path=/com.example.farmios/Documents'));
    expect(listing.body.entries).toEqual([expect.objectContaining({ name: 'data.bin', type: 'file', size: bytes.length })]);
    expect((await api('GET', s('/files?path=/com.example.nowhere/Documents'))).status).toBe(404);
  });

  it('lists the Safari page the web inspector announces as a debug target', { timeout: 60_000 }, async () => {
    const caps = await api('GET', s('/debug-capabilities'));
    expect(caps.body.platform).toBe('ios');
    expect(caps.body.protocols.filter((p: { available: boolean }) => p.available).map((p: { name: string }) => p.name).sort()).toEqual(['tcp_forward', 'usbmux', 'webkit_inspector']);
    expect((await api('POST', s('/debug-capabilities'), { protocols: ['tcp_forward', 'webkit_inspector'] })).status).toBe(200);
    const targets = await api('GET', s('/debug-targets'));
    expect(targets.status).toBe(200);
    expect(targets.body.targets).toEqual([
      expect.objectContaining({ kind: 'device', protocol: 'usbmux', tunnelPath: `/df/debug-tunnel/${sessionId}/usbmux` }),
      expect.objectContaining({ id: 'PID:4242.3', kind: 'page', title: 'Farm page', package: 'com.apple.mobilesafari', protocol: 'webkit_inspector', tunnelPath: `/df/debug-tunnel/${sessionId}/webkit_inspector/PID%3A4242.3` }),
    ]);
  });

  it('forwards a device TCP port through the debug tunnel', { timeout: 60_000 }, async () => {
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/df/debug-tunnel/${sessionId}/tcp_forward/${ECHO_PORT}`, { headers: { authorization: `Bearer ${token}` } });
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      socket.once('error', reject);
    });
    const payload = randomBytes(150_000);
    const echoed = new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      let have = 0;
      ws.on('message', (data: Buffer) => {
        chunks.push(data);
        have += data.length;
        if (have >= payload.length) resolve(Buffer.concat(chunks));
      });
    });
    ws.send(payload);
    expect((await echoed).equals(payload)).toBe(true);
    ws.close();
  });

  it('serves libimobiledevice the session device, and only it, through the usbmux tunnel', { timeout: 60_000 }, async () => {
    expect((await api('POST', s('/debug-capabilities'), { protocols: ['tcp_forward', 'webkit_inspector', 'usbmux'] })).status).toBe(200);
    peer.attach(tablet);
    // A desk-side usbmuxd socket: each tool connection becomes one tunnel stream.
    const desk = createServer((socket) => {
      socket.on('error', () => undefined);
      const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/df/debug-tunnel/${sessionId}/usbmux`, { headers: { authorization: `Bearer ${token}` } });
      const stream = createWebSocketStream(ws);
      stream.on('error', () => socket.destroy());
      socket.pipe(stream).pipe(socket);
    });
    await new Promise<void>((resolve) => desk.listen(0, '127.0.0.1', resolve));
    const address = desk.address();
    const env = { ...process.env, USBMUXD_SOCKET_ADDRESS: `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
    const run = promisify(execFile);
    try {
      expect((await run('idevice_id', ['-l'], { env, timeout: 30_000 })).stdout.trim()).toBe(phone.udid);
      expect((await run('ideviceinfo', ['-k', 'ProductVersion'], { env, timeout: 30_000 })).stdout.trim()).toBe('18.1');
    } finally {
      desk.close();
      peer.detach(tablet.udid);
    }
  });

  it('gives libimobiledevice the session device through `dfctl usbmux` on the desk', { timeout: 90_000 }, async () => {
    ensureDfctlBuilt();
    const config = freshDfctlConfig();
    const login = await runDfctl(['login', '--server', server.url, '--email', ADMIN.email, '--password-stdin'], { input: ADMIN.password, env: { DFCTL_CONFIG: config } });
    expect(login.code, login.stderr).toBe(0);
    const dfctl = spawnDfctl(['usbmux', sessionId], { env: { DFCTL_CONFIG: config } });
    try {
      const line = await dfctl.waitForLine(/^export USBMUXD_SOCKET_ADDRESS=127\.0\.0\.1:\d+$/);
      const env = { ...process.env, USBMUXD_SOCKET_ADDRESS: line.split('=')[1]! };
      const run = promisify(execFile);
      expect((await run('idevice_id', ['-l'], { env, timeout: 30_000 })).stdout.trim()).toBe(phone.udid);
      expect((await run('ideviceinfo', ['-k', 'DeviceName'], { env, timeout: 30_000 })).stdout.trim()).toBe('Farm iPhone');
    } finally {
      await dfctl.stop();
    }
  });

  it('adds a device attached while running and withdraws it on detach', { timeout: 60_000 }, async () => {
    peer.attach(tablet);
    const ipad = await eventually(async () => {
      const r = await api('GET', '/devices?platform=ios&type=tablet');
      return r.body.content?.find((d: { name: string }) => d.name === 'Farm iPad') as { id: string; status: string } | undefined;
    }, { what: 'the iPad to be listed', timeoutMs: 30_000 });
    expect(ipad).toMatchObject({ type: 'tablet', model: 'iPad mini (6th generation)', osVersion: '17.2' });
    peer.detach(tablet.udid);
    await eventually(async () => {
      const r = await api('GET', `/devices/${ipad.id}`);
      return r.status === 404 || r.body.status !== 'available' ? r : undefined;
    }, { what: 'the iPad to be withdrawn', timeoutMs: 30_000 });
  });

  it('installs an IPA from the app catalog as an operation', { timeout: 120_000 }, async () => {
    const ipa = testIpa('com.example.catalogued', 'Catalogued');
    const started = await api('POST', '/files/presigned-upload', { name: 'Catalogued.ipa', size: ipa.length, contentType: 'application/octet-stream' });
    expect(started.status).toBe(201);
    expect((await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(ipa) })).status).toBe(200);
    const confirmed = await api('POST', `/files/${started.body.fileId}/confirm`);
    expect(confirmed.body).toMatchObject({ status: 'ready', kind: 'app' });
    const install = await api('POST', s('/apps/install'), { fileId: started.body.fileId });
    expect(install.status).toBe(202);
    const done = await eventually(async () => {
      const r = await api('GET', `/operations/${install.body.operationId}`);
      return ['succeeded', 'failed', 'cancelled'].includes(r.body.state) ? r.body : undefined;
    }, { what: 'the install operation', timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: 'succeeded', result: { packageNames: ['com.example.catalogued'] } });
    expect(phone.record.installs.at(-1)!.bytes.equals(ipa)).toBe(true);
  });

  it('opens a device without WebDriverAgent view-only, says why, and shows its screen through screenshotr', { timeout: 120_000 }, async () => {
    peer.attach(se);
    const seId = await eventually(async () => {
      const r = await api('GET', '/devices?platform=ios');
      return r.body.content?.find((d: { name: string; status: string }) => d.name === 'Farm iPhone SE' && d.status === 'available')?.id as string | undefined;
    }, { what: 'the iPhone SE to be listed', timeoutMs: 30_000 });
    const created = await api('POST', '/sessions', { deviceId: seId, name: 'view only' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    try {
      const tap = await api('POST', `/sessions/${id}/device/control`, { action: 'tap', x: 10, y: 10 });
      expect(tap.status).toBe(409);
      expect(tap.body.code).toBe('DEVICE_UNSUPPORTED');
      // The reason is go-ios's: the runner could not start without testmanagerd.
      expect(tap.body.message).toContain('view-only');
      expect(tap.body.message).toContain('testmanagerd');
      expect((await api('GET', `/sessions/${id}/ui-tree`)).body.code).toBe('DEVICE_UNSUPPORTED');
      const logs = await api('GET', `/sessions/${id}/logs`);
      expect(logs.body.entries).toContainEqual(expect.objectContaining({ level: 'warn', source: 'agent', text: expect.stringContaining('View-only') }));
      const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${id}?access_token=${token}`);
      try {
        await viewer.next((m) => m.type === 'hello');
        await viewer.framesAtLeast(2, 30_000);
        expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
        expect(se.record.screenshots).toBeGreaterThanOrEqual(2);
      } finally {
        viewer.socket.close();
        await viewer.closed;
      }
    } finally {
      await api('DELETE', `/sessions/${id}`);
      peer.detach(se.udid);
    }
  });

  it('ending the session uninstalls what it installed and ends the WebDriverAgent session', { timeout: 60_000 }, async () => {
    const ended = await api('DELETE', `/sessions/${sessionId}`);
    expect([200, 204]).toContain(ended.status);
    await eventually(async () => (phone.record.uninstalls.includes('com.example.farmios') && phone.record.uninstalls.includes('com.example.catalogued') ? true : undefined), { what: 'the uninstalls at release' });
    expect(phone.apps.has('com.example.farmios')).toBe(false);
    expect(phone.apps.has('com.example.catalogued')).toBe(false);
    await eventually(async () => (wda.sessions.at(-1)?.ended ? true : undefined), { what: 'the WDA session to end' });
  });
});
