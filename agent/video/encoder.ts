import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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

// A still screen sends no frames: the last one is fed again this often, so the encoder keeps producing
// (and uploading) video while nothing moves, and the constant-rate filter repeats it in between.
const REPEAT_LAST_MS = 500;

/** The ffmpeg arguments: JPEG frames on stdin (wall-clock timestamps), fragmented MP4 (H.264) on stdout. */
export function ffmpegArguments(settings: Pick<VideoSettings, 'preset' | 'maxSize' | 'fps'>): string[] {
  const long = settings.maxSize;
  // At most `maxSize` on the long side, aspect kept, both sides even (yuv420p needs it).
  const scale = `scale='if(gte(iw,ih),trunc(min(${long},iw)/2)*2,-2)':'if(gte(iw,ih),-2,trunc(min(${long},ih)/2)*2)'`;
  return [
    '-hide_banner', '-loglevel', 'error',
    '-probesize', '32', '-analyzeduration', '0', '-fflags', 'nobuffer',
    '-f', 'image2pipe', '-c:v', 'mjpeg', '-use_wallclock_as_timestamps', '1', '-i', 'pipe:0',
    '-vf', `${scale},fps=${settings.fps}`,
    '-c:v', 'libx264', '-preset', settings.preset, '-tune', 'zerolatency', '-pix_fmt', 'yuv420p',
    '-g', String(settings.fps), '-keyint_min', String(settings.fps),
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-flush_packets', '1',
    '-f', 'mp4', 'pipe:1',
  ];
}

/**
 * A session's screen encoded where its frames are: JPEG frames go to ffmpeg (tied to the agent's life)
 * as they come, the fragmented MP4 it writes is cut into segments every `segmentMs` and handed to
 * `onSegment` one at a time, in order. A frame that comes while ffmpeg still digests the previous one
 * replaces the waiting one (the newest picture wins; nothing queues).
 */
export class VideoEncoder {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private buffered: Buffer[] = [];
  private seq = 0;
  private bytes = 0;
  private firstFrameAt: number | null = null;
  private lastFrame: Buffer | null = null;
  private waiting: Buffer | null = null;
  private writable = true;
  private ending = false;
  private uploads: Promise<void> = Promise.resolve();
  private readonly cutTimer: NodeJS.Timeout;
  private readonly repeatTimer: NodeJS.Timeout;
  private lastWriteAt = 0;
  private stderr = '';

  constructor(
    private readonly settings: VideoSettings,
    private readonly onSegment: (segment: VideoSegment) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {
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
    this.child.stdin.on('drain', () => {
      this.writable = true;
      const next = this.waiting;
      this.waiting = null;
      if (next) this.write(next);
    });
    this.cutTimer = setInterval(() => this.cut(false), settings.segmentMs);
    this.repeatTimer = setInterval(() => {
      if (this.lastFrame && Date.now() - this.lastWriteAt >= REPEAT_LAST_MS) this.frame(this.lastFrame);
    }, REPEAT_LAST_MS);
  }

  /** The pid of ffmpeg (its process is tied to the agent's). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** What ffmpeg said last on stderr (for a failure's log). */
  get diagnostics(): string {
    return this.stderr.trim();
  }

  /** A frame of the screen (JPEG), now. */
  frame(jpeg: Buffer): void {
    if (this.ending) return;
    this.firstFrameAt ??= Date.now();
    this.lastFrame = jpeg;
    if (!this.writable) {
      this.waiting = jpeg;
      return;
    }
    this.write(jpeg);
  }

  /**
   * Ends the video: the last picture is fed once more (the video lasts until now, not until the last
   * change), ffmpeg closes the file, and the last segment is handed on. Resolves once every segment was.
   */
  async finish(): Promise<EncodedVideo> {
    if (!this.ending) {
      if (this.lastFrame) {
        this.waiting = null;
        this.write(this.lastFrame);
      }
      this.ending = true;
      clearInterval(this.repeatTimer);
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
    clearInterval(this.repeatTimer);
    clearInterval(this.cutTimer);
    this.child.kill('SIGKILL');
    await this.exited;
    await this.uploads;
  }

  private write(jpeg: Buffer): void {
    this.lastWriteAt = Date.now();
    this.writable = this.child.stdin.write(jpeg);
  }

  private elapsed(): number {
    return this.firstFrameAt === null ? 0 : Date.now() - this.firstFrameAt;
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
