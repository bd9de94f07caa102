import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** What ffprobe reads of a video file: its first video stream and the container's duration. */
export async function probeVideo(
  path: string,
): Promise<{ codec: string; width: number; height: number; durationS: number; frames: number; avgFps: number; colorRange: string | undefined }> {
  const { stdout } = await run('/usr/bin/ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_packets,avg_frame_rate,color_range:format=duration', '-of', 'json', path]);
  const parsed = JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number; nb_read_packets: string; avg_frame_rate: string; color_range?: string }[]; format: { duration: string } };
  const stream = parsed.streams[0]!;
  const durationS = Number(parsed.format.duration);
  const frames = Number(stream.nb_read_packets);
  return { codec: stream.codec_name, width: stream.width, height: stream.height, durationS, frames, avgFps: durationS > 0 ? frames / durationS : 0, colorRange: stream.color_range };
}

/** The average colour (0–255 each) of the frame shown at `second`, decoded by ffmpeg to raw RGB. */
export async function colourAt(path: string, second: number): Promise<{ r: number; g: number; b: number }> {
  const { stdout } = await run('/usr/bin/ffmpeg', ['-v', 'error', '-ss', String(second), '-i', path, '-frames:v', '1', '-vf', 'scale=16:16', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 20 });
  const px = stdout.length / 3;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0; i < stdout.length; i += 3) {
    r += stdout[i]!;
    g += stdout[i + 1]!;
    b += stdout[i + 2]!;
  }
  return { r: Math.round(r / px), g: Math.round(g / px), b: Math.round(b / px) };
}

/** A one-colour JPEG of `width`×`height` (ffmpeg draws it). */
export async function solidJpeg(colour: string, width = 1280, height = 800): Promise<Buffer> {
  const { stdout } = await run('/usr/bin/ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=${width}x${height}`, '-frames:v', '1', '-c:v', 'mjpeg', '-f', 'image2pipe', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 22 });
  return stdout;
}

/*
 * The wall clock as a colour, what the test devices' screens paint so that a frame of a recording can be
 * dated: at time `t` the whole screen is rgb(s * 25 + 12, d * 25 + 12, 128), where `s` is the second
 * modulo 10 and `d` the tenth of a second. The Chromium clock page (df-video.e2e.spec.ts) paints the
 * same colours in the page; minicap (`test/adbd`, `minicapClock`) and WebDriverAgent's MJPEG server
 * (`test/usbmuxd/wda.ts`, `clock`) send `clockFrame(…, Date.now())`.
 */

const clocks = new Map<string, Promise<Buffer[]>>();

/** The 100 JPEGs of the clock at `width`×`height` (picture `10 * s + d`), encoded once per size. */
export function clockFrames(width: number, height: number): Promise<Buffer[]> {
  const key = `${width}x${height}`;
  let frames = clocks.get(key);
  if (!frames) {
    frames = Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const pixels = Buffer.alloc(width * height * 3);
        const colour = [Math.floor(i / 10) * 25 + 12, (i % 10) * 25 + 12, 128];
        for (let p = 0; p < width * height; p++) pixels.set(colour, p * 3);
        return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
      }),
    );
    clocks.set(key, frames);
  }
  return frames;
}

/** Of the clock's pictures (`clockFrames`), the one showing the wall-clock time `at` (ms since the epoch). */
export const clockFrame = (frames: readonly Buffer[], at: number): Buffer => frames[Math.floor(at / 100) % 100]!;

/** The wall-clock time (seconds modulo 10, to the tenth) a clock painted in the frame shown at `second` of the video. */
export async function paintedTime(file: string, second: number): Promise<number> {
  const { r, g } = await colourAt(file, second);
  return Math.round((r - 12) / 25) + Math.round((g - 12) / 25) / 10;
}

/** How far (seconds, modulo 10) the clock shown `at` s into the video is from the recording's start (ISO time) plus `at`. */
export async function clockError(file: string, startedAt: string, at: number): Promise<number> {
  const expected = ((Date.parse(startedAt) + at * 1000) / 1000) % 10;
  const apart = Math.abs((await paintedTime(file, at)) - expected);
  return Math.min(apart, 10 - apart);
}
