import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { startIosFarm, WDA_BUNDLE_ID } from '#test/helpers/ios-farm.js';
import { http, type TestServer } from '#test/helpers/server.js';
import { clockError, probeVideo } from '#test/helpers/video.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, type UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer } from '#test/usbmuxd/wda.js';

/**
 * A session's video on an iOS device end to end: the test usbmuxd (test/usbmuxd) with an iPhone whose
 * WebDriverAgent's MJPEG server paints the wall clock as colours (`clock`: the colours of the clock
 * page in df-video.e2e.spec.ts and of the Android test device's minicap), the server's in-process
 * agent with the iOS provider pointed at it. The agent encodes WDA's stream with ffmpeg, the service
 * stores and joins the segments, and the API serves one MP4 that ffprobe reads and whose frames show
 * the clock.
 */
const ADMIN = { email: 'ios-video@example.com', password: 'ios-video-pass-1' };
/** How long the recording runs (as the Android video test). */
const RECORD_MS = 6_000;
/** The MJPEG frames' size: small, so two cores encode them with room to spare. */
const FRAME = { width: 180, height: 390 };
let server: TestServer;
let peer: UsbmuxdPeer;
let token: string;
let deviceId: string;
const dir = mkdtempSync(join(tmpdir(), 'df-video-ios-e2e-'));
const screen = testScreen(60, 130);
const phone = new PeerDevice({ udid: '00008130-000E1D1D1D1D1D1D', name: 'Video iPhone', productType: 'iPhone17,3', productVersion: '18.1', deviceClass: 'iPhone', screenshot: screen });
const wda = new WdaPeer({
  size: { width: 393, height: 852, scale: 3 },
  tree: sampleTree(393, 852),
  screenshot: screen,
  bundleId: WDA_BUNDLE_ID,
  frameSize: FRAME,
  clock: true,
});
wda.install(phone);

beforeAll(async () => {
  // WebDriverAgent answers already (the peer), so no go-ios process is needed.
  ({ peer, server, token } = await startIosFarm({ admin: ADMIN, devices: [phone], nodeName: 'ios-video-node' }));
  deviceId = await eventually(async () => (await api('GET', '/devices?platform=ios&status=available')).body.content?.[0]?.id as string | undefined, { what: 'the iOS device', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await peer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

describe('a session video on an iOS device', () => {
  it("records WebDriverAgent's MJPEG stream into an H.264 MP4 as long as the recording that shows each moment", async () => {
    const created = await api('POST', '/sessions', { deviceId, name: 'ios video' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sessionId = created.body.id as string;
    // Ended whatever happens.
    onTestFinished(async () => void (await api('DELETE', `/sessions/${sessionId}`)));
    // WebDriverAgent answered at prepare, so the screen is its MJPEG stream.
    const device = await eventually(async () => {
      const d = (await api('GET', `/devices/${deviceId}`)).body as { capabilities: Record<string, string> | null };
      return d.capabilities?.screen ? d : undefined;
    }, { what: "the device's capabilities" });
    expect(device.capabilities).toMatchObject({ screen: 'wda-mjpeg' });

    const framesBefore = wda.framesSent;
    const started = await api('POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ recording: true });
    // The recording's length is what the session records: the MJPEG server keeps painting meanwhile.
    await new Promise((resolve) => setTimeout(resolve, RECORD_MS));
    const stopAsked = Date.now();
    const stopped = await api('POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    // The host encodes: no JPEG frame came over the bus to be kept.
    expect(stopped.body).toMatchObject({ frames: 0, video: { format: 'mp4', bytes: expect.any(Number), durationMs: expect.any(Number) } });
    // The agent read WDA's MJPEG stream for it (and no viewer was connected).
    expect(wda.framesSent).toBeGreaterThan(framesBefore);

    const res = await fetch(`${server.url}/df/api/sessions/${sessionId}/video`, { headers: { authorization: `Bearer ${token}` } });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'video/mp4']);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(stopped.body.video.bytes);
    const file = join(dir, 'ios.mp4');
    writeFileSync(file, bytes);
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ codec: 'h264', width: FRAME.width, height: FRAME.height });
    expect(Math.abs(probe.durationS * 1000 - (stopAsked - Date.parse(started.body.startedAt)))).toBeLessThan(1_000);
    expect(probe.avgFps).toBeGreaterThanOrEqual(24);
    // The frame at a chosen second shows the clock as it was then (the recording's start plus that second).
    expect(await clockError(file, started.body.startedAt, 5)).toBeLessThan(1);
  }, 90_000);
});
