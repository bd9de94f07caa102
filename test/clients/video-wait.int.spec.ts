import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseChapters, runnerConnection, testChapterTitle, testInVideo, videoLink, videoTime, waitForVideo } from '@qa-platform/client';
import { chaptersVtt } from '#services/df/sessions/video-chapters.js';

/**
 * What a runner's integration does with a session's video once the session ended, against a real HTTP
 * server on loopback that answers the recording's status as scripted: it waits for the video while the
 * platform is still storing it, and answers why there is none (never recorded, frames only, removed,
 * not stored in time, refused) instead of throwing; and it finds a test in the chapters the platform
 * writes (the service's own `chaptersVtt`).
 */
const VIDEO = { format: 'mp4', durationMs: 9_000, bytes: 1_234, expired: false, expiredAt: null };
const running = { recording: true, recordingId: 'r1', lastArtifactId: null, video: null };
let server: Server;
let url: string;
/** The answers to the status, in turn; the last one repeats. */
let statuses: { status: number; body: unknown }[] = [];
let asked = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/df/api/sessions/s1/video/link') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: '/df/blobs/v.mp4?signature=x', expiresAt: '2030-01-01T00:00:00.000Z' }));
    asked += 1;
    const answer = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  asked = 0;
});

const connection = () => runnerConnection({ url, apiKey: 'dfk_test' });
const ok = (body: unknown) => ({ status: 200, body });

describe('waiting for a session video', () => {
  it('waits while the recording is still being stopped, then answers the stored video', async () => {
    statuses = [ok(running), ok(running), ok({ ...running, recording: false, recordingId: null, video: VIDEO })];
    expect(await waitForVideo(connection(), 's1', { intervalMs: 1 })).toEqual({ video: VIDEO });
    expect(asked).toBe(3);
  });

  it('gives up after its time, saying so, while the platform is still storing it', async () => {
    statuses = [ok(running)];
    const waited = await waitForVideo(connection(), 's1', { timeoutMs: 50, intervalMs: 5 });
    expect(waited).toEqual({ video: null, why: 'the platform had not stored it 0.05 s after the session ended; it may still come: see the replay' });
    expect(asked).toBeGreaterThan(1);
  });

  it('answers why there is no video: never recorded, frames only, removed by the retention, refused', async () => {
    statuses = [ok({ recording: false, recordingId: null, lastArtifactId: null, video: null })];
    expect(await waitForVideo(connection(), 's1', { timeoutMs: 20, intervalMs: 5 })).toEqual({ video: null, why: expect.stringMatching(/^the session did not record its screen/) });
    statuses = [ok({ recording: false, recordingId: null, lastArtifactId: 'a1', video: null })];
    expect(await waitForVideo(connection(), 's1', { timeoutMs: 20, intervalMs: 5 })).toEqual({ video: null, why: expect.stringMatching(/^the session was recorded as frames, not as a video/) });
    statuses = [ok({ recording: false, recordingId: null, lastArtifactId: 'a1', video: { ...VIDEO, expired: true, expiredAt: '2030-01-02T00:00:00.000Z' } })];
    expect(await waitForVideo(connection(), 's1')).toEqual({ video: null, why: "the workspace's video retention removed it at 2030-01-02T00:00:00.000Z" });
    statuses = [{ status: 404, body: { code: 'SESSION_NOT_FOUND', message: 'Session not found' } }];
    expect(await waitForVideo(connection(), 's1')).toEqual({ video: null, why: 'the platform did not say (Session not found)' });
  });

  it("resolves the signed link against the platform's address", async () => {
    expect(await videoLink(connection(), 's1')).toEqual({ url: `${url}/df/blobs/v.mp4?signature=x`, expiresAt: '2030-01-01T00:00:00.000Z' });
  });
});

describe("a test's place in the chapters", () => {
  const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
  const event = (type: string, name: string, s: number) => ({ kind: 'custom', detail: { source: 'automation', type, name }, at: at(s) });
  // Two tests of the same name in two suites, a navigation between a start and its failure, one event before the video.
  const vtt = chaptersVtt(
    [
      event('suite_started', 'Search', 0),
      event('test_started', 'finds it', 2),
      { kind: 'navigation', detail: { url: 'http://127.0.0.1/' }, at: at(3) },
      event('test_passed', 'finds it', 4),
      event('test_started', 'finds it', 65),
      event('test_failed', 'finds it', 70),
    ],
    at(1),
    3_600_000,
  );

  it('reads the cues the platform writes and finds each run of a test by its start among same-named events', () => {
    const chapters = parseChapters(vtt);
    expect(chapters.map((c) => c.title)).toEqual(['custom: finds it', 'navigation: http://127.0.0.1/', 'custom: finds it', 'custom: finds it', 'custom: finds it']);
    expect(chapters[0]).toEqual({ startMs: 1_000, endMs: 2_000, title: testChapterTitle('finds it') });
    expect(testInVideo(chapters, 'finds it', 0)).toEqual({ startMs: 1_000, endMs: 64_000 });
    expect(testInVideo(chapters, 'finds it', 2)).toEqual({ startMs: 64_000, endMs: 3_600_000 });
    expect(testInVideo(chapters, 'finds it', 4)).toBeNull();
    expect(testInVideo(chapters, 'is not there')).toBeNull();
    expect([videoTime(64_000), videoTime(1_000), videoTime(3_723_456)]).toEqual(['1:04.000', '0:01.000', '1:02:03.456']);
  });

  it('titles a test as the platform does: one line, no cue arrow', () => {
    const name = 'a --> b\n  c';
    const chapters = parseChapters(chaptersVtt([event('test_started', name, 2)], at(1), 10_000));
    expect(testInVideo(chapters, name)).toEqual({ startMs: 1_000, endMs: 10_000 });
  });
});
