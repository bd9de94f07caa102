import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { tiedToAgent } from '../child-tie.js';
import type { VideoSettings } from './settings.js';

/** One piece of the encoded stream: the segments joined in order are the whole fragmented MP4. */
export interface VideoSegment {
  /** 1-based, without gaps. */
  seq: number;
  data: Buffer;
  /** The last segment of the video (the encoder finished). */
  final: boolean;
  /** Media time covered so far (from the first frame to now), in ms. */
  durationMs: number;
}

/** What a finished video amounts to. */
export interface EncodedVideo {
  segments: number;
  bytes: number;
  durationMs: number;
  /** ffmpeg's exit: 0 when it closed the file itself. */
  exitCode: number | null;
}

// The recording's start said by the service is taken as the video's time 0 only this far back (clocks apart, a slow start).
const MAX_START_LEAD_MS = 10_000;
// ffmpeg behind by more than this many bytes of frames (a starved host): frames are dropped, not queued.
const MAX_QUEUED_BYTES = 32 * 1024 * 1024;

/** The ffmpeg arguments: JPEG frames on stdin at the constant rate, fragmented MP4 (H.264) on stdout. */
export function ffmpegArguments(settings: Pick<VideoSettings, 'preset' | 'maxSize' | 'fps'>): string[] {
  const long = settings.maxSize;
  // At most `maxSize` on the long side, aspect kept, both sides even (4:2:0 needs it). The frames are
  // JPEGs, whose samples use the full range (0–255): the video keeps it and says so (`-color_range pc`)
  // rather than converting every pixel to the limited range (16–235) of television, which cost about a
  // quarter of the encoder's CPU (docs/performance.md, "Session videos"). Browsers and players honour
  // the flag.
  const scale = `scale='if(gte(iw,ih),trunc(min(${long},iw)/2)*2,-2)':'if(gte(iw,ih),-2,trunc(min(${long},ih)/2)*2)':out_range=full,format=yuv420p`;
  return [
    '-hide_banner', '-loglevel', 'error',
    '-probesize', '32', '-analyzeduration', '0', '-fflags', 'nobuffer',
    '-f', 'image2pipe', '-framerate', String(settings.fps), '-c:v', 'mjpeg', '-i', 'pipe:0',
    '-vf', scale,
    '-c:v', 'libx264', '-preset', settings.preset, '-tune', 'zerolatency', '-color_range', 'pc',
    '-g', String(settings.fps), '-keyint_min', String(settings.fps),
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-flush_packets', '1',
    '-f', 'mp4', 'pipe:1',
  ];
}

/**
 * A session's screen encoded where its frames are: the picture shown is written to ffmpeg (tied to the
 * agent's life) `fps` times a second of the clock, counted from the encoder's start, so the video's time
 * is the frame count and the recording's (a still screen repeats its last picture; a burst of changes
 * keeps the newest), whatever ffmpeg's own pace. A screen stream slow to start (minicap pushed and
 * started, WDA's MJPEG connected) has its first picture stand for the time before it came. The fragmented MP4 it writes is cut into segments every `segmentMs` and
 * handed to `onSegment` one at a time, in order.
 */
export class VideoEncoder {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private buffered: Buffer[] = [];
  private seq = 0;
  private bytes = 0;
  /** The video's time 0: when the recording started (as the service says, if within the last 10 s), else the encoder's start. */
  private readonly startedAt: number;
  private firstFrameAt: number | null = null;
  private lastFrame: Buffer | null = null;
  /** Frame slots of the clock dealt with so far, and pictures written in them (the video's length in frames). */
  private slots = 0;
  private written = 0;
  private ending = false;
  private uploads: Promise<void> = Promise.resolve();
  private readonly cutTimer: NodeJS.Timeout;
  private readonly tickTimer: NodeJS.Timeout;
  private stderr = '';

  constructor(
    private readonly settings: VideoSettings,
    private readonly onSegment: (segment: VideoSegment) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    startedAt?: number,
  ) {
    const now = Date.now();
    this.startedAt = startedAt !== undefined && startedAt <= now && startedAt >= now - MAX_START_LEAD_MS ? startedAt : now;
    const { command, args } = tiedToAgent(settings.ffmpegPath, ffmpegArguments(settings));
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => {
        this.onError(err);
        resolve(null);
      });
      this.child.once('close', (code) => resolve(code));
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.buffered.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2_000)));
    this.child.stdin.on('error', () => undefined);
    this.cutTimer = setIntervalOutsideTrace(() => this.cut(false), settings.segmentMs);
    this.tickTimer = setIntervalOutsideTrace(() => this.catchUp(Date.now()), Math.floor(1000 / settings.fps));
  }

  /** The pid of ffmpeg (its process is tied to the agent's). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** What ffmpeg said last on stderr (for a failure's log). */
  get diagnostics(): string {
    return this.stderr.trim();
  }

  /** A frame of the screen (JPEG), now: the picture shown from now on. */
  frame(jpeg: Buffer): void {
    if (this.ending) return;
    if (this.firstFrameAt === null) {
      this.firstFrameAt = this.startedAt;
      this.lastFrame = jpeg;
      this.catchUp(Date.now());
      return;
    }
    this.lastFrame = jpeg;
  }

  /**
   * Ends the video: the last picture is fed once more (the video lasts until now, not until the last
   * change), ffmpeg closes the file, and the last segment is handed on. Resolves once every segment was.
   */
  async finish(): Promise<EncodedVideo> {
    if (!this.ending) {
      this.catchUp(Date.now());
      this.ending = true;
      clearInterval(this.tickTimer);
      this.child.stdin.end();
    }
    const exitCode = await this.exited;
    clearInterval(this.cutTimer);
    this.cut(true);
    await this.uploads;
    return { segments: this.seq, bytes: this.bytes, durationMs: this.elapsed(), exitCode };
  }

  /** Stops at once (ffmpeg killed): what was handed on so far is the video. */
  async abort(): Promise<void> {
    this.ending = true;
    clearInterval(this.tickTimer);
    clearInterval(this.cutTimer);
    this.child.kill('SIGKILL');
    await this.exited;
    await this.uploads;
  }

  /** Writes the current picture as many times as the clock says are due since the start (once a frame came). */
  private catchUp(now: number): void {
    if (this.ending || this.firstFrameAt === null || !this.lastFrame) return;
    const due = Math.floor(((now - this.firstFrameAt) * this.settings.fps) / 1000) + 1;
    for (; this.slots < due; this.slots++) {
      // ffmpeg far behind: the frame is skipped (the video gets shorter) rather than queued without end.
      if (this.child.stdin.writableLength > MAX_QUEUED_BYTES) continue;
      this.child.stdin.write(this.lastFrame);
      this.written++;
    }
  }

  /** The video's length so far: the pictures written, at the constant rate. */
  private elapsed(): number {
    return Math.round((this.written * 1000) / this.settings.fps);
  }

  private cut(final: boolean): void {
    if (this.buffered.length === 0 && !final) return;
    const data = Buffer.concat(this.buffered);
    this.buffered = [];
    if (data.length === 0 && (!final || this.seq === 0)) return;
    const segment: VideoSegment = { seq: ++this.seq, data, final, durationMs: this.elapsed() };
    this.bytes += data.length;
    this.uploads = this.uploads.then(() => this.onSegment(segment)).catch((err: unknown) => this.onError(err));
  }
}
