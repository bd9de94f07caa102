import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What ffprobe reads of a video file: its first video stream and the container's duration. */
export async function probeVideo(path: string): Promise<{ codec: string; width: number; height: number; durationS: number; frames: number; avgFps: number }> {
  const { stdout } = await run('/usr/bin/ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_packets,avg_frame_rate:format=duration', '-of', 'json', path]);
  const parsed = JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number; nb_read_packets: string; avg_frame_rate: string }[]; format: { duration: string } };
  const stream = parsed.streams[0]!;
  const durationS = Number(parsed.format.duration);
  const frames = Number(stream.nb_read_packets);
  return { codec: stream.codec_name, width: stream.width, height: stream.height, durationS, frames, avgFps: durationS > 0 ? frames / durationS : 0 };
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
