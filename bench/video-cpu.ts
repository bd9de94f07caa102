/*
 * `--only=video`: what recording a session's video costs the device host (docs/modules/device-testing.md,
 * "Session videos"). One and then four sessions side by side, each with a 1280×720 screen that changes
 * on every frame (ffmpeg's `testsrc2`, 30 distinct JPEG frames: the worst case, an animation
 * everywhere) arriving at 30 frames a second — what the screen stream of a watched session delivers.
 * Each number of sessions runs twice: not recorded (the frames arrive and nothing encodes them), then
 * recorded: each session's frames go to an encoder of its own (`agent/video/encoder.ts`, the code the
 * agent runs: ffmpeg, libx264, 30 fps, fragmented MP4 cut into segments) at 720p (1280×720: `maxSize`
 * 1280) and, apart, at the host's default size (720 px on the long side: 720×406).
 *
 * The host's CPU in each window: this process (the frames' delivery and, recorded, the feeding of the
 * encoders and the segment hand-over) from `process.cpuUsage`, and each ffmpeg from /proc, after a
 * warm-up. Per recorded session: (recorded − not recorded) ÷ sessions, as a share of one core; the goal
 * is under 15 %. One recorded session's video of each window is probed (ffprobe: its size and rate) and
 * its length is set against the window's (an encoder that fell behind skips frames).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { VideoEncoder } from '../agent/video/encoder.js';
import { VideoSettings } from '../agent/video/settings.js';
import { num, phase, table } from './console.js';
import { processCpuSeconds } from './cpu.js';

export interface VideoCpuOptions {
  sessions: readonly number[];
  screen: { width: number; height: number };
  fps: number;
  preset: 'ultrafast';
  /** The encodings measured: a label and the encoder's `maxSize` (the long side at most). */
  sizes: readonly { label: string; maxSize: number }[];
  warmupSeconds: number;
  durationSeconds: number;
}

/** One window: `sessions` side by side, recorded or not. */
export interface VideoCpuWindow {
  size: string;
  sessions: number;
  recorded: boolean;
  seconds: number;
  /** This process: the frames' delivery, and recorded, the encoders' feeding and segments. */
  processCpuSeconds: number;
  ffmpegCpuSeconds: number;
  /** The host (this process and every ffmpeg), per session, % of one core. */
  hostPercentPerSession: number;
  /** Recorded: the video's bytes per second per session, one video's probe and its length ÷ the time it was recorded. */
  bytesPerSecondPerSession: number | null;
  probe: { width: number; height: number; fps: string; codec: string } | null;
  videoOverWall: number | null;
}

export interface VideoCpuReport {
  goalPercentOfCore: number;
  loadAverage: { start: number[]; end: number[] };
  windows: VideoCpuWindow[];
  /** Per size and number of sessions: the host's CPU a recorded session costs beyond the same session not recorded. */
  perRecordedSession: { size: string; sessions: number; percentOfCore: number; goalMet: boolean }[];
}

const GOAL_PERCENT = 15;
const FFMPEG = '/usr/bin/ffmpeg';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));

/** `count` distinct JPEG frames of ffmpeg's moving test picture at the screen's size. */
function testFrames(width: number, height: number, count: number): Buffer[] {
  const dir = mkdtempSync(join(os.tmpdir(), 'qa-bench-video-'));
  try {
    execFileSync(FFMPEG, ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=30`, '-frames:v', String(count), '-c:v', 'mjpeg', '-q:v', '5', join(dir, '%03d.jpg')]);
    return readdirSync(dir).sort().map((f) => readFileSync(join(dir, f)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** ffprobe of a video's first stream: its size, rate and codec. */
function probe(video: Buffer): VideoCpuWindow['probe'] {
  const dir = mkdtempSync(join(os.tmpdir(), 'qa-bench-video-'));
  try {
    const file = join(dir, 'video.mp4');
    writeFileSync(file, video);
    const out = execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,r_frame_rate,codec_name', '-of', 'json', file], { encoding: 'utf8' });
    const s = (JSON.parse(out) as { streams: { width: number; height: number; r_frame_rate: string; codec_name: string }[] }).streams[0];
    return s ? { width: s.width, height: s.height, fps: s.r_frame_rate, codec: s.codec_name } : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cpuOf = (pid: number | undefined): number => (pid === undefined ? 0 : (processCpuSeconds(pid) ?? 0));

async function measureWindow(frames: Buffer[], size: VideoCpuOptions['sizes'][number], sessions: number, recorded: boolean, options: VideoCpuOptions): Promise<VideoCpuWindow> {
  const settings = VideoSettings.parse({ ffmpegPath: FFMPEG, preset: options.preset, maxSize: size.maxSize, fps: options.fps });
  let bytes = 0;
  const firstVideo: Buffer[] = [];
  const failures: unknown[] = [];
  const encoders = recorded
    ? Array.from({ length: sessions }, (_, i) =>
        new VideoEncoder(settings, async (segment) => {
          bytes += segment.data.length;
          if (i === 0) firstVideo.push(segment.data);
        }, (err) => void failures.push(err)))
    : [];
  // Each session's screen: a new picture every 1/30 s, handed to its encoder when it is recorded (not
  // recorded, nothing takes it: the host does no more for the session than its screen stream did).
  let n = 0;
  const feed = setInterval(() => {
    n++;
    for (let s = 0; s < sessions; s++) encoders[s]?.frame(frames[(n + s * 7) % frames.length]!);
  }, 1000 / options.fps);
  const ticker = phase(`${size.label}, ${sessions} session(s), ${recorded ? 'recorded' : 'not recorded'}: warm-up ${options.warmupSeconds} s, then ${options.durationSeconds} s`);
  await sleep(options.warmupSeconds * 1000);
  const start = { at: performance.now(), self: process.cpuUsage(), ffmpeg: encoders.map((e) => cpuOf(e.pid)) };
  await sleep(options.durationSeconds * 1000);
  const ffmpegEnd = encoders.map((e) => cpuOf(e.pid));
  const used = process.cpuUsage(start.self);
  const seconds = (performance.now() - start.at) / 1000;
  clearInterval(feed);
  const recordedFor = (performance.now() - start.at) / 1000 + options.warmupSeconds;
  const videos = await Promise.all(encoders.map((e) => e.finish()));
  if (failures.length > 0) throw new Error(`an encoder failed: ${String(failures[0])}`);
  const broken = videos.find((v) => v.exitCode !== 0);
  if (broken) throw new Error(`ffmpeg ended with ${broken.exitCode}`);
  const processCpuSeconds = (used.user + used.system) / 1e6;
  const ffmpegCpuSeconds = ffmpegEnd.reduce((sum, end, i) => sum + end - start.ffmpeg[i]!, 0);
  const window: VideoCpuWindow = {
    size: size.label,
    sessions,
    recorded,
    seconds,
    processCpuSeconds,
    ffmpegCpuSeconds,
    hostPercentPerSession: ((processCpuSeconds + ffmpegCpuSeconds) / seconds / sessions) * 100,
    bytesPerSecondPerSession: recorded ? bytes / recordedFor / sessions : null,
    probe: recorded && firstVideo.length > 0 ? probe(Buffer.concat(firstVideo)) : null,
    videoOverWall: recorded ? videos[0]!.durationMs / 1000 / recordedFor : null,
  };
  ticker.done(`host ${num(window.hostPercentPerSession, 1)} % of a core per session${recorded ? `; ffmpeg ${num((ffmpegCpuSeconds / seconds / sessions) * 100, 1)} %` : ''}`);
  return window;
}

export async function measureVideoCpu(options: VideoCpuOptions): Promise<VideoCpuReport> {
  const start = loadAverage();
  const frames = testFrames(options.screen.width, options.screen.height, options.fps);
  const windows: VideoCpuWindow[] = [];
  for (const size of options.sizes) {
    for (const sessions of options.sessions) {
      for (const recorded of [false, true]) windows.push(await measureWindow(frames, size, sessions, recorded, options));
    }
  }
  const perRecordedSession = options.sizes.flatMap((size) =>
    options.sessions.map((sessions) => {
      const of = (recorded: boolean) => windows.find((w) => w.size === size.label && w.sessions === sessions && w.recorded === recorded)!;
      const percentOfCore = of(true).hostPercentPerSession - of(false).hostPercentPerSession;
      return { size: size.label, sessions, percentOfCore, goalMet: percentOfCore < GOAL_PERCENT };
    }),
  );
  return { goalPercentOfCore: GOAL_PERCENT, loadAverage: { start, end: loadAverage() }, windows, perRecordedSession };
}

export function formatVideoCpu(r: VideoCpuReport, options: VideoCpuOptions): string {
  return (
    `Session videos — ${options.screen.width}×${options.screen.height} screens changing on every frame at ${options.fps} frames/s, not recorded and recorded (libx264 ${options.preset}); ` +
    `host = this process + each ffmpeg; load average ${r.loadAverage.start.join(' / ')} at start, ${r.loadAverage.end.join(' / ')} at end\n` +
    table(
      ['encoding', 'sessions', 'recorded', 'seconds', 'this process % of a core', 'ffmpeg % of a core', 'host % per session', 'video KiB/s per session', 'video (probed)', 'video s ÷ recorded s'],
      r.windows.map((w) => [
        w.size,
        String(w.sessions),
        w.recorded ? 'yes' : 'no',
        num(w.seconds, 1),
        `${num((w.processCpuSeconds / w.seconds) * 100, 1)}%`,
        `${num((w.ffmpegCpuSeconds / w.seconds) * 100, 1)}%`,
        `${num(w.hostPercentPerSession, 1)}%`,
        w.bytesPerSecondPerSession === null ? '' : num(w.bytesPerSecondPerSession / 1024),
        w.probe ? `${w.probe.codec} ${w.probe.width}×${w.probe.height} ${w.probe.fps}` : '',
        w.videoOverWall === null ? '' : num(w.videoOverWall, 3),
      ]),
    ) +
    `\nA recorded session's cost beyond the same session not recorded (goal: under ${r.goalPercentOfCore} % of one core per session at 720p)\n` +
    table(
      ['encoding', 'sessions', 'per recorded session', 'goal'],
      r.perRecordedSession.map((p) => [p.size, String(p.sessions), `${num(p.percentOfCore, 1)}%`, p.goalMet ? 'met' : 'NOT MET']),
    )
  );
}
