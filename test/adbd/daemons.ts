import sharp from 'sharp';
import { clockFrame, clockFrames } from '#test/helpers/video.js';

/** What a daemon needs of an adb stream (the peer's streams are this). */
export interface DaemonStream {
  readonly backlog: number;
  write(data: Buffer): void;
  close(): void;
  onData(listener: (data: Buffer) => void): void;
  onClose(listener: () => void): void;
}

/*
 * The device side of the fast screen and touch paths, as the test device runs them: minicap (the
 * binary with its shared library, or the APK through `app_process`) serving `localabstract:minicap`,
 * and minitouch serving `localabstract:minitouch`. Each speaks its documented protocol:
 *
 * minicap: a 24-byte global header (version 1, header size 24, pid, real width/height, virtual
 * width/height, orientation / 90, quirks; little-endian), then per frame a 4-byte little-endian length
 * and a JPEG. Frames come from a moving test pattern at 60 frames/s; each carries a JPEG comment
 * `df-seq=<n>;t=<ms>` (its sequence number and when it was made) so a test finds the exact bytes again.
 *
 * minitouch: the header lines `v 1`, `^ <max-contacts> <max-x> <max-y> <max-pressure>`, `$ <pid>`, then
 * it reads `d`/`m`/`u`/`c`/`w`/`r` lines, which the device records.
 */

/** Frames a second of the test pattern. */
export const PATTERN_FPS = 60;
const PATTERN_STEPS = 30;
/** Frames kept by sequence number, so a test can compare what a viewer got byte for byte. */
const KEEP_FRAMES = 2_000;

/** minicap's `-P {realW}x{realH}@{virtualW}x{virtualH}/{rotation}`. */
export interface Projection {
  realWidth: number;
  realHeight: number;
  virtualWidth: number;
  virtualHeight: number;
  rotation: number;
}

export function parseProjection(value: string | undefined): Projection | null {
  const m = /^(\d+)x(\d+)@(\d+)x(\d+)\/(0|90|180|270)$/.exec(value ?? '');
  if (!m) return null;
  return { realWidth: Number(m[1]), realHeight: Number(m[2]), virtualWidth: Number(m[3]), virtualHeight: Number(m[4]), rotation: Number(m[5]) };
}

/** The frame size a projection gives: the virtual size, turned for 90 and 270 degrees. */
export function frameSize(p: Projection): { width: number; height: number } {
  return p.rotation % 180 === 0 ? { width: p.virtualWidth, height: p.virtualHeight } : { width: p.virtualHeight, height: p.virtualWidth };
}

const patterns = new Map<string, Promise<Buffer[]>>();

/** JPEGs of a bar moving across the screen, encoded once per size. */
function patternFrames(width: number, height: number): Promise<Buffer[]> {
  const key = `${width}x${height}`;
  let frames = patterns.get(key);
  if (!frames) {
    frames = Promise.all(
      Array.from({ length: PATTERN_STEPS }, (_, step) => {
        const pixels = Buffer.alloc(width * height * 3, 0x30);
        const barWidth = Math.max(1, Math.round(width / 10));
        const left = Math.round(((width - barWidth) * step) / (PATTERN_STEPS - 1));
        for (let y = 0; y < height; y++) for (let x = left; x < left + barWidth; x++) pixels.set([0xf0, 0x80, 0x20], (y * width + x) * 3);
        return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 70 }).toBuffer();
      }),
    );
    patterns.set(key, frames);
  }
  return frames;
}

/** A JPEG with a comment segment (FF FE) inserted after its start-of-image marker. */
export function withComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** The `df-seq`/`t` comment of a test-pattern frame, or null. */
export function patternStamp(jpeg: Buffer): { seq: number; madeAt: number } | null {
  if (jpeg.length < 6 || jpeg.readUInt16BE(0) !== 0xffd8 || jpeg.readUInt16BE(2) !== 0xfffe) return null;
  const length = jpeg.readUInt16BE(4);
  const m = /^df-seq=(\d+);t=(\d+(?:\.\d+)?)$/.exec(jpeg.toString('latin1', 6, 4 + length));
  return m ? { seq: Number(m[1]), madeAt: Number(m[2]) } : null;
}

/** One running minicap process on the test device. */
export class MinicapDaemon {
  /** Frames sent, by sequence number (the newest KEEP_FRAMES). */
  readonly sent = new Map<number, Buffer>();
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private connection: DaemonStream | null = null;
  private stopped = false;

  constructor(
    readonly pid: number,
    readonly projection: Projection,
    readonly variant: 'bin' | 'apk',
    private readonly onSent: (seq: number, frame: Buffer) => void,
    /** Paint the wall clock (`clockFrames`, test/helpers/video.ts) instead of the moving bar. */
    private readonly clock = false,
  ) {}

  /** A connection to `localabstract:minicap`: the banner, then frames until it or the process ends. */
  serve(stream: DaemonStream): void {
    if (this.stopped) {
      stream.close();
      return;
    }
    // minicap serves one connection at a time; a new one replaces the previous.
    this.connection?.close();
    this.connection = stream;
    const p = this.projection;
    const banner = Buffer.alloc(24);
    banner[0] = 1;
    banner[1] = 24;
    banner.writeUInt32LE(this.pid, 2);
    banner.writeUInt32LE(p.realWidth, 6);
    banner.writeUInt32LE(p.realHeight, 10);
    banner.writeUInt32LE(p.virtualWidth, 14);
    banner.writeUInt32LE(p.virtualHeight, 18);
    banner[22] = p.rotation / 90;
    banner[23] = 0;
    stream.write(banner);
    stream.onClose(() => {
      if (this.connection === stream) this.connection = null;
    });
    void this.run(stream);
  }

  private async run(stream: DaemonStream): Promise<void> {
    const { width, height } = frameSize(this.projection);
    const frames = this.clock ? await clockFrames(width, height) : await patternFrames(width, height);
    const interval = 1000 / PATTERN_FPS;
    let due = performance.now();
    const tick = () => {
      if (this.stopped || this.connection !== stream) return;
      // Like minicap's -S: a frame the consumer is not ready for is skipped, not queued.
      if (stream.backlog === 0) {
        this.seq += 1;
        const now = Date.now();
        const picture = this.clock ? clockFrame(frames, now) : frames[this.seq % frames.length]!;
        const frame = withComment(picture, `df-seq=${this.seq};t=${(performance.timeOrigin + performance.now()).toFixed(3)}`);
        this.sent.set(this.seq, frame);
        this.sent.delete(this.seq - KEEP_FRAMES);
        this.onSent(this.seq, frame);
        const length = Buffer.alloc(4);
        length.writeUInt32LE(frame.length, 0);
        stream.write(Buffer.concat([length, frame]));
      }
      due += interval;
      this.timer = setTimeout(tick, Math.max(0, due - performance.now()));
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.connection?.close();
    this.connection = null;
  }
}

/** One running minitouch process: the header, then the command lines it is sent. */
export class MinitouchDaemon {
  private connection: DaemonStream | null = null;

  constructor(
    readonly pid: number,
    readonly limits: { contacts: number; maxX: number; maxY: number; pressure: number },
    private readonly onLine: (line: string) => void,
  ) {}

  serve(stream: DaemonStream): void {
    this.connection?.close();
    this.connection = stream;
    const { contacts, maxX, maxY, pressure } = this.limits;
    stream.write(Buffer.from(`v 1\n^ ${contacts} ${maxX} ${maxY} ${pressure}\n$ ${this.pid}\n`));
    let rest = '';
    stream.onData((data) => {
      const lines = (rest + data.toString('latin1')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.onLine(line.trim());
    });
  }

  stop(): void {
    this.connection?.close();
    this.connection = null;
  }
}
