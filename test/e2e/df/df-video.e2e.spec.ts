import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { launchBrowser } from '#test/helpers/console-browser.js';
import { startNatsServer, type NatsServer } from '#test/helpers/daemon.js';
import { connectViewer, enrolHost, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { clockError, probeVideo } from '#test/helpers/video.js';

/**
 * A session's video end to end: the server's in-process agent records a Chromium device showing a page
 * that paints the wall-clock time as its background colour (red: the second modulo 10, green: the
 * tenth; `clockFrames` in test/helpers/video.ts), ffmpeg on the host encodes it, the service stores it, and the API serves it whole, by
 * ranges and through a signed link that Chromium's <video> plays and seeks; a session recorded twice
 * has both videos listed and served, each with its own chapters. A second host, an agent
 * process of its own on this file's NATS, has an Android test device whose minicap paints the same
 * clock: its video is checked the same way, then the host is killed mid-recording and what it sent
 * is the session's video.
 */
const ADMIN = { email: 'farm-video@example.com', password: 'farm-password-v' };
// `VIDEO_RECORD_SECONDS` makes the same check a long run (bench/video-length.sh: 2 and 15 minutes).
const RECORD_MS = Number(process.env.VIDEO_RECORD_SECONDS ?? 15) * 1000;
// `VIDEO_KILL_SECONDS` kills the Android case's host that long into its recording (the figure is 60 s).
const KILL_AFTER_S = Number(process.env.VIDEO_KILL_SECONDS ?? 12);
let server: TestServer;
let site: Server;
let siteUrl: string;
let token: string;
let browser: Browser;
let nats: NatsServer;
let adb: AdbServer;
let phone: AdbdPeer;
let agent: ChildProcess | null = null;
/** The session whose host was killed: its video is the one the retention removes. */
let killedSessionId = '';
const HOST_TIMEOUT_MS = 3_000;
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
  nats = await startNatsServer();
  server = await startTestServer({
    NATS_URL: nats.url,
    DF_HOST_TIMEOUT: `${HOST_TIMEOUT_MS}ms`,
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
  if (agent && agent.exitCode === null && agent.signalCode === null) {
    const exited = new Promise((resolve) => agent!.once('exit', resolve));
    agent.kill('SIGTERM');
    await exited;
  }
  await browser?.close();
  await server?.stop();
  await adb?.stop();
  await phone?.close();
  await nats?.stop();
  site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

/** The session's video, fetched whole and written to `name` in the test's folder. */
async function download(sessionId: string, name: string): Promise<string> {
  const res = await fetch(`${server.url}/df/api/sessions/${sessionId}/video`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
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
    // The host encodes: no JPEG frame came over the bus to be kept (df-recording.e2e.spec.ts: a host that cannot).
    expect(stopped.body.frames).toBe(0);
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
    expect(await clockError(file, started.body.startedAt, 7)).toBeLessThan(1);

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

/** Where a cue titled `title` starts in a WebVTT text, in ms; undefined when there is none. */
function cueStartMs(vtt: string, title: string): number | undefined {
  const lines = vtt.split('\n');
  const i = lines.indexOf(title);
  const m = i > 0 ? /^(\d\d):(\d\d):(\d\d)\.(\d{3}) --> /.exec(lines[i - 1]!) : null;
  return m ? ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]) : undefined;
}

/** A session named `name` on the Chromium device, showing the clock page; ended when the test ends. */
async function clockSession(name: string): Promise<string> {
  const device = await eventually(async () => (await api('GET', '/devices?status=available')).body.content[0] as { id: string } | undefined, { what: 'the device', timeoutMs: 60_000 });
  const sessionId = (await api('POST', '/sessions', { deviceId: device.id, name })).body.id as string;
  onTestFinished(async () => void (await api('DELETE', `/sessions/${sessionId}`)));
  expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: siteUrl })).status).toBe(200);
  return sessionId;
}

describe('a session recorded twice', () => {
  it("lists both recordings' videos and serves each by ranges with its own chapters; the latest stays the session's video; another company and an unknown recording get 404", async () => {
    const sessionId = await clockSession('recorded twice');
    expect((await api('GET', `/sessions/${sessionId}/videos`)).body).toEqual({ sessionId, videos: [] });
    // Two recordings of the clock page, each with a step of its own on the timeline half-way.
    for (const step of ['in the first', 'in the second']) {
      expect((await api('POST', `/sessions/${sessionId}/recording/start`)).body.recording).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await api('POST', `/sessions/${sessionId}/activity`, { message: step, detail: { name: step } })).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await api('POST', `/sessions/${sessionId}/recording/stop`)).body.video).toMatchObject({ format: 'mp4' });
    }
    const listed = await api('GET', `/sessions/${sessionId}/videos`);
    expect(listed.status).toBe(200);
    const videos = listed.body.videos as { recordingId: string; startedAt: string; durationMs: number; bytes: number; expired: boolean; expiredAt: string | null }[];
    expect(videos).toHaveLength(2);
    expect(videos.map((v) => [v.expired, v.expiredAt])).toEqual([[false, null], [false, null]]);
    expect(Date.parse(videos[0]!.startedAt)).toBeLessThan(Date.parse(videos[1]!.startedAt));
    const status = (await api('GET', `/sessions/${sessionId}/recording/status`)).body.video;
    expect(status).toMatchObject({ bytes: videos[1]!.bytes, durationMs: videos[1]!.durationMs });
    const steps = ((await api('GET', `/sessions/${sessionId}/activities?kind=custom`)).body.content as { at: string; detail: { name: string } }[]).map((a) => [a.detail.name, Date.parse(a.at)] as const);
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}/df/api/sessions/${sessionId}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

    const served: Buffer[] = [];
    for (const [i, video] of videos.entries()) {
      const path = `/videos/${video.recordingId}`;
      const whole = await get(`${path}?download=true`);
      expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([200, 'video/mp4', 'bytes']);
      expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="session-${sessionId}-${i + 1}.mp4"`);
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(bytes.length).toBe(video.bytes);
      served.push(bytes);
      const file = join(dir, `twice-${i + 1}.mp4`);
      writeFileSync(file, bytes);
      expect(Math.abs((await probeVideo(file)).durationS * 1000 - video.durationMs)).toBeLessThan(1_000);
      const part = await get(path, { range: 'bytes=100-199' });
      expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 100-199/${bytes.length}`]);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
      expect((await get(path, { range: `bytes=${bytes.length}-` })).status).toBe(416);
      // Its signed link answers ranges of the same bytes.
      const link = (await api('GET', `/sessions/${sessionId}${path}/link`)).body as { url: string };
      const linked = await fetch(new URL(link.url, server.url), { headers: { range: 'bytes=0-99' } });
      expect(linked.status).toBe(206);
      expect(Buffer.from(await linked.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
      // Its chapters hold its own step, placed from its own recording's start, and not the other's.
      const chapters = await get(`${path}/chapters`);
      expect(chapters.headers.get('content-type')).toMatch(/^text\/vtt/);
      const vtt = await chapters.text();
      const [own, other] = i === 0 ? [steps[0]!, steps[1]!] : [steps[1]!, steps[0]!];
      expect(cueStartMs(vtt, `custom: ${own[0]}`)).toBe(own[1] - Date.parse(video.startedAt));
      expect(cueStartMs(vtt, `custom: ${other[0]}`)).toBeUndefined();
    }
    expect(served[0]!.equals(served[1]!)).toBe(false);
    // `.../video` is still the latest recording's.
    expect(Buffer.from(await (await get('/video')).arrayBuffer()).equals(served[1]!)).toBe(true);
    expect(await (await get('/video/chapters')).text()).toBe(await (await get(`/videos/${videos[1]!.recordingId}/chapters`)).text());

    for (const path of ['/videos/no-such-recording', '/videos/no-such-recording/link', '/videos/no-such-recording/chapters']) {
      const unknown = await api('GET', `/sessions/${sessionId}${path}`);
      expect([unknown.status, unknown.body.code]).toEqual([404, 'VIDEO_NOT_FOUND']);
    }
    const other = await signUpCompany(server.url, 'video-other');
    for (const path of ['/videos', `/videos/${videos[0]!.recordingId}`, `/videos/${videos[0]!.recordingId}/link`, `/videos/${videos[0]!.recordingId}/chapters`]) {
      expect((await http(server.url, 'GET', `/df/api/sessions/${sessionId}${path}`, { token: other.token })).status).toBe(404);
    }
  }, 120_000);
});

describe('a recording whose status is read while it stops', () => {
  it('is finished once: the reads wait for the stop, which answers with the one video; one recording artifact', async () => {
    const sessionId = await clockSession('status while stopping');
    const started = (await api('POST', `/sessions/${sessionId}/recording/start`)).body as { recording: boolean; recordingId: string };
    expect(started.recording).toBe(true);
    // A second and a half of video (its length, as in the test above; nothing waits on it).
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // The console reads the status every few seconds; here it is read without pause while the stop runs.
    let stopping = true;
    const stop = api('POST', `/sessions/${sessionId}/recording/stop`).finally(() => (stopping = false));
    const reads: { recording: boolean; video: { bytes: number } | null }[] = [];
    while (stopping) reads.push((await api('GET', `/sessions/${sessionId}/recording/status`)).body);
    const stopped = (await stop).body as { recording: boolean; video: { format: string; bytes: number } };
    expect(stopped).toMatchObject({ recording: false, video: { format: 'mp4' } });
    expect(reads.length).toBeGreaterThan(0);
    // A read that no longer saw the recording running saw its video: none finished it without one.
    for (const read of reads.filter((r) => !r.recording)) expect(read.video?.bytes).toBe(stopped.video.bytes);

    const videos = (await api('GET', `/sessions/${sessionId}/videos`)).body.videos as { recordingId: string; bytes: number }[];
    expect(videos.map((v) => [v.recordingId, v.bytes])).toEqual([[started.recordingId, stopped.video.bytes]]);
    expect((await api('GET', `/sessions/${sessionId}/artifacts?type=recording`)).body).toHaveLength(1);
  }, 120_000);
});

describe('a session video on an Android device of a separate host', () => {
  let deviceId: string;

  beforeAll(async () => {
    let port: number;
    ({ peer: phone, port } = await startPeer({ model: 'Video Phone', release: '14', sdk: '34', width: 360, height: 640, minicapClock: true }));
    adb = await startAdbServer();
    await adb.connect(port);
    const hostToken = await enrolHost(server.url, token, 'video-android');
    agent = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        NATS_URL: nats.url,
        AGENT_CONFIG: writeAgentConfig({ hostToken, nodeName: 'video-android-node', heartbeatMs: 300, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    deviceId = await eventually(async () => (await api('GET', '/devices?platform=android&status=available')).body.content[0]?.id as string | undefined, { what: 'the Android device', timeoutMs: 60_000 });
  }, 120_000);

  it("records minicap's stream into an H.264 MP4 as long as the recording that shows each moment", async () => {
    const sessionId = (await api('POST', '/sessions', { deviceId, name: 'android video' })).body.id as string;
    // Ended whatever happens, so the device is free for the next test.
    onTestFinished(async () => void (await api('DELETE', `/sessions/${sessionId}`)));
    // Someone watches (minicap runs, and its first start — the binaries pushed — is behind us); the
    // frames they see are not kept for the recording.
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
    onTestFinished(() => viewer.socket.close());
    await viewer.framesAtLeast(1, 30_000);
    const started = await api('POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ recording: true });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const stopAsked = Date.now();
    const stopped = await api('POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.body).toMatchObject({ frames: 0, video: { format: 'mp4' } });
    const file = await download(sessionId, 'android.mp4');
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ codec: 'h264', width: 360, height: 640 });
    expect(Math.abs(probe.durationS * 1000 - (stopAsked - Date.parse(started.body.startedAt)))).toBeLessThan(1_000);
    expect(probe.avgFps).toBeGreaterThanOrEqual(24);
    // Its last second (the first ones can show minicap's first picture while minicap was being started).
    expect(await clockError(file, started.body.startedAt, 5)).toBeLessThan(1);
  }, 90_000);

  // The figure is a host killed after 60 s leaving at least 50 s: the same path, shorter unless
  // VIDEO_KILL_SECONDS says 60 (bench/video-length.sh).
  it('keeps what a host killed mid-recording sent: the session ends with a playable video of all but its last seconds', async () => {
    const sessionId = (await api('POST', '/sessions', { deviceId, name: 'host killed' })).body.id as string;
    const started = await api('POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body.recording).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_S * 1000));
    const exited = new Promise((resolve) => agent!.once('exit', resolve));
    agent!.kill('SIGKILL');
    await exited;
    const ended = await eventually(async () => {
      const s = (await api('GET', `/sessions/${sessionId}`)).body;
      return s.status === 'active' || s.status === 'starting' ? undefined : s;
    }, { what: 'the session to end with its host', timeoutMs: 30_000 });
    expect(ended.endReason).toBe('host-lost');
    const status = (await api('GET', `/sessions/${sessionId}/recording/status`)).body;
    expect(status.recording).toBe(false);
    expect(status.video.durationMs).toBeGreaterThanOrEqual((KILL_AFTER_S - 2) * 1000);
    const file = await download(sessionId, 'killed.mp4');
    const probe = await probeVideo(file);
    expect(probe.codec).toBe('h264');
    expect(probe.durationS).toBeGreaterThanOrEqual(KILL_AFTER_S - 2);
    expect(await clockError(file, started.body.startedAt, KILL_AFTER_S - 3)).toBeLessThan(1);
    killedSessionId = sessionId;
  }, 90_000 + KILL_AFTER_S * 1000);
});

describe("the workspace's video retention", () => {
  it('removes videos older than videoRetentionDays on the platform clock: the session says so, the video is gone, the quota stops counting it', async () => {
    expect(killedSessionId).toBeTruthy();
    const before = (await api('GET', `/sessions/${killedSessionId}/recording/status`)).body.video;
    expect(before).toMatchObject({ expired: false, expiredAt: null });
    const usage = async () => (await api('GET', '/quotas')).body.usage.storageBytes as number;
    const used = await usage();
    expect(used).toBeGreaterThanOrEqual(before.bytes);

    const defaults = (await api('GET', '/settings/session-defaults')).body;
    expect(defaults.videoRetentionDays).toBeNull();
    for (const bad of [0, 3_651, 1.5, 'x']) {
      const refused = await api('PUT', '/settings/session-defaults', { ...defaults, videoRetentionDays: bad });
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const set = await api('PUT', '/settings/session-defaults', { ...defaults, videoRetentionDays: 2 });
    expect([set.status, set.body.videoRetentionDays]).toEqual([200, 2]);

    const realNow = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() + 3 * 86_400_000);
    try {
      // One sweep now, as the sweeper runs it every minute.
      await server.process.df!.sessions.sweepVideos();
      const expired = await eventually(async () => {
        const video = (await api('GET', `/sessions/${killedSessionId}/recording/status`)).body.video;
        return video?.expired ? video : undefined;
      }, { what: 'the video to expire', timeoutMs: 30_000 });
      expect(expired).toMatchObject({ expired: true, expiredAt: expect.any(String), bytes: before.bytes, durationMs: before.durationMs });
    } finally {
      server.process.platform.now = realNow;
    }
    const gone = await api('GET', `/sessions/${killedSessionId}/video`);
    expect([gone.status, gone.body.code]).toEqual([410, 'VIDEO_EXPIRED']);
    // The list of its videos says so too, and the recording's own route answers the same.
    const listed = (await api('GET', `/sessions/${killedSessionId}/videos`)).body.videos as { recordingId: string; expired: boolean; expiredAt: string | null }[];
    expect(listed).toEqual([expect.objectContaining({ expired: true, expiredAt: expect.any(String), bytes: before.bytes })]);
    const goneToo = await api('GET', `/sessions/${killedSessionId}/videos/${listed[0]!.recordingId}/link`);
    expect([goneToo.status, goneToo.body.code]).toEqual([410, 'VIDEO_EXPIRED']);
    expect(await usage()).toBeLessThanOrEqual(used - before.bytes);
    const timeline = (await api('GET', `/sessions/${killedSessionId}/activities`)).body;
    expect(JSON.stringify(timeline)).toContain('video-expired');
  }, 60_000);
});
