import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#test/helpers/console-browser.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { colourAt, probeVideo } from '#test/helpers/video.js';

/**
 * A session's video end to end: the server's in-process agent records a Chromium device showing a page
 * that paints the wall-clock time as its background colour (red: the second modulo 10, green: the
 * tenth), ffmpeg on the host encodes it, the service stores it, and the API serves it whole, by
 * ranges and through a signed link that Chromium's <video> plays and seeks.
 */
const ADMIN = { email: 'farm-video@example.com', password: 'farm-password-v' };
// `VIDEO_RECORD_SECONDS` makes the same check a long run (bench/video-length.sh: 2 and 15 minutes).
const RECORD_MS = Number(process.env.VIDEO_RECORD_SECONDS ?? 15) * 1000;
let server: TestServer;
let site: Server;
let siteUrl: string;
let token: string;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'df-video-e2e-'));

const CLOCK_PAGE = `<!doctype html><html><head><title>clock</title><style>html,body{margin:0;height:100%}</style></head><body><script>
function paint() {
  var now = Date.now();
  var second = Math.floor(now / 1000) % 10, tenth = Math.floor(now / 100) % 10;
  document.body.style.background = 'rgb(' + (second * 25 + 12) + ',' + (tenth * 25 + 12) + ',128)';
  requestAnimationFrame(paint);
}
paint();
</script></body></html>`;

beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(CLOCK_PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({
    // A long run records for longer than the default idle time-out without touching the device.
    DF_SESSION_IDLE_TIMEOUT: '2h',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'video-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Video desktop', profile: 'desktop', width: 800, height: 600 }] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

/** The wall-clock time (seconds modulo 10) the clock page painted in the frame shown at `second`. */
async function paintedTime(file: string, second: number): Promise<number> {
  const { r, g } = await colourAt(file, second);
  return Math.round((r - 12) / 25) + Math.round((g - 12) / 25) / 10;
}

describe('a session video on a Chromium device', () => {
  it('records the screen into one H.264 MP4 that shows each moment, is served by ranges and plays and seeks in <video>', async () => {
    const device = await eventually(async () => (await api('GET', '/devices?status=available')).body.content[0] as { id: string } | undefined, { what: 'the device', timeoutMs: 60_000 });
    const session = await api('POST', '/sessions', { deviceId: device.id });
    expect(session.status).toBe(201);
    const sessionId = session.body.id as string;
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: siteUrl })).status).toBe(200);
    expect((await api('GET', `/sessions/${sessionId}/video`)).body.code).toBe('VIDEO_NOT_FOUND');

    const started = await api('POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body.recording).toBe(true);
    // The session's length is what is recorded: the page keeps painting meanwhile.
    await new Promise((resolve) => setTimeout(resolve, RECORD_MS));
    const stopAsked = Date.now();
    const stopped = await api('POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.video).toMatchObject({ format: 'mp4', bytes: expect.any(Number), durationMs: expect.any(Number) });
    const recordedMs = stopAsked - Date.parse(started.body.startedAt);

    const whole = await fetch(`${server.url}/df/api/sessions/${sessionId}/video`, { headers: { authorization: `Bearer ${token}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(stopped.body.video.bytes);
    const file = join(dir, 'session.mp4');
    writeFileSync(file, bytes);
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ codec: 'h264', width: 720, height: 540 });
    expect(Math.abs(probe.durationS * 1000 - recordedMs)).toBeLessThan(1_000);
    expect(probe.avgFps).toBeGreaterThanOrEqual(24);
    // The frame at a chosen second shows the page as it was then (the recording's start plus that second).
    const at = 7;
    const expected = ((Date.parse(started.body.startedAt) + at * 1000) / 1000) % 10;
    const painted = await paintedTime(file, at);
    const apart = Math.abs(painted - expected);
    expect(Math.min(apart, 10 - apart)).toBeLessThan(1);

    const part = await fetch(`${server.url}/df/api/sessions/${sessionId}/video`, { headers: { authorization: `Bearer ${token}`, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    expect((await fetch(`${server.url}/df/api/sessions/${sessionId}/video`, { headers: { authorization: `Bearer ${token}`, range: `bytes=${bytes.length}-` } })).status).toBe(416);

    const chapters = await fetch(`${server.url}/df/api/sessions/${sessionId}/video/chapters`, { headers: { authorization: `Bearer ${token}` } });
    expect(chapters.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(await chapters.text()).toMatch(/^WEBVTT\n/);

    // Chromium's <video> plays the signed link and seeks to the middle by asking for ranges.
    const link = (await api('GET', `/sessions/${sessionId}/video/link`)).body as { url: string };
    const page = await browser.newPage();
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/df/api/files/blobs/')) statuses.push(r.status());
    });
    await page.goto(`${server.url}/sign-in`);
    // Run in the page (a string: this file is compiled without the DOM's types).
    const played = (await page.evaluate(`(async (src) => {
      const video = document.createElement('video');
      video.muted = true;
      document.body.append(video);
      const seen = (event) => new Promise((resolve, reject) => {
        video.addEventListener(event, () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error('video error ' + (video.error && video.error.code))), { once: true });
      });
      video.src = src;
      await seen('loadedmetadata');
      await video.play();
      const middle = video.duration / 2;
      const seeked = seen('seeked');
      video.currentTime = middle;
      await seeked;
      return { duration: video.duration, middle, at: video.currentTime };
    })(${JSON.stringify(link.url)})`)) as { duration: number; middle: number; at: number };
    await page.close();
    expect(played.duration).toBeGreaterThan(RECORD_MS / 1000 - 1);
    expect(Math.abs(played.at - played.middle)).toBeLessThan(0.5);
    expect(statuses).toContain(206);

    expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
  }, 240_000 + RECORD_MS * 2);
});
