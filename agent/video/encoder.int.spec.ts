import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { colourAt, probeVideo, solidJpeg } from '../../test/helpers/video.js';
import { VideoEncoder, type VideoSegment } from './encoder.js';
import { VideoSettings } from './settings.js';

const dir = mkdtempSync(join(tmpdir(), 'df-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Feeds `jpeg` every 50 ms (the screen's own rate: 20 a second) until the returned stop is called. */
function feed(encoder: VideoEncoder, frames: () => Buffer): () => void {
  const timer = setInterval(() => encoder.frame(frames()), 50);
  return () => clearInterval(timer);
}

describe('the session video encoder (ffmpeg)', () => {
  it('turns JPEG frames into one H.264 fragmented MP4 at a constant 30 frames a second, 720 px on the long side, showing each moment', async () => {
    const [red, blue] = await Promise.all([solidJpeg('red'), solidJpeg('blue')]);
    const segments: VideoSegment[] = [];
    const encoder = new VideoEncoder(VideoSettings.parse({ segmentMs: 500 }), async (s) => void segments.push(s), (err) => { throw err; });
    let colour = red;
    const stop = feed(encoder, () => colour);
    // Red until the encoder has sent two segments (a second of video at least), then blue for as long.
    await expect.poll(() => segments.length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    colour = blue;
    const switchedAt = segments.length;
    await expect.poll(() => segments.length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(switchedAt + 3);
    stop();
    const done = await encoder.finish();
    expect(done.exitCode).toBe(0);
    expect(segments.map((s) => s.seq)).toEqual(segments.map((_, i) => i + 1));
    expect(segments.at(-1)!.final).toBe(true);
    const file = join(dir, 'whole.mp4');
    writeFileSync(file, Buffer.concat(segments.map((s) => s.data)));
    const probe = await probeVideo(file);
    // The JPEGs' full range is kept and declared, not converted to the limited range frame by frame.
    expect(probe).toMatchObject({ codec: 'h264', width: 720, height: 450, colorRange: 'pc' });
    expect(probe.avgFps).toBeGreaterThanOrEqual(29);
    expect(Math.abs(probe.durationS * 1000 - done.durationMs)).toBeLessThan(1_000);
    const first = await colourAt(file, 0.2);
    const last = await colourAt(file, probe.durationS - 0.2);
    expect(first.r).toBeGreaterThan(200);
    expect(first.b).toBeLessThan(60);
    expect(last.b).toBeGreaterThan(200);
    expect(last.r).toBeLessThan(60);
  });

  it('leaves, when ffmpeg dies mid-way (a host killed), a playable video of what was sent before', async () => {
    const green = await solidJpeg('green');
    const segments: VideoSegment[] = [];
    const encoder = new VideoEncoder(VideoSettings.parse({ segmentMs: 500 }), async (s) => void segments.push(s), () => undefined);
    const stop = feed(encoder, () => green);
    await expect.poll(() => segments.reduce((ms, s) => Math.max(ms, s.durationMs), 0), { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(3_000);
    const coveredMs = segments.at(-1)!.durationMs;
    await encoder.abort();
    stop();
    expect(segments.some((s) => s.final)).toBe(false);
    const file = join(dir, 'cut.mp4');
    writeFileSync(file, Buffer.concat(segments.map((s) => s.data)));
    const probe = await probeVideo(file);
    expect(probe.codec).toBe('h264');
    // What was sent plays to within the last fragment (a second) before the last segment was cut.
    expect(probe.durationS * 1000).toBeGreaterThanOrEqual(coveredMs - 1_500);
    expect((await colourAt(file, probe.durationS / 2)).g).toBeGreaterThan(90);
  });
});
