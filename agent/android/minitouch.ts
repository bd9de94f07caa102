import type { Duplex } from 'node:stream';
import type { AdbDevice } from './adb.js';
import { DEVICE_TMP, DeviceDaemon, packageFile, pushOnce, type DeviceBuild } from './daemon.js';

/** Android 10 (SDK 29) took the touch devices away from the shell user: minitouch needs root there. */
export const MINITOUCH_LAST_SDK = 28;

/** The minitouch binary for a device, or null (no build for its ABIs, or Android 10 and later). */
export function minitouchBinary(build: DeviceBuild): string | null {
  if (build.sdk > MINITOUCH_LAST_SDK) return null;
  for (const abi of build.abis) {
    const bin = packageFile('@devicefarmer/minitouch-prebuilt', 'prebuilt', abi, 'bin', build.sdk >= 16 ? 'minitouch' : 'minitouch-nopie');
    if (bin) return bin;
  }
  return null;
}

/** minitouch's header: `^ <max-contacts> <max-x> <max-y> <max-pressure>` and `$ <pid>`. */
export interface TouchLimits {
  contacts: number;
  maxX: number;
  maxY: number;
  pressure: number;
  pid: number;
}

/** A point in natural-orientation pixels of the display. */
export interface Point {
  x: number;
  y: number;
}

/** Reads the header lines (`v`, `^`, `$`) from the start of minitouch's socket. */
function readHeader(socket: Duplex): Promise<TouchLimits> {
  return new Promise((resolve, reject) => {
    let text = '';
    const limits: Partial<TouchLimits> = {};
    const done = (err?: Error) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(limits as TouchLimits);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (const line of text.split('\n').slice(0, -1)) {
        const [kind, ...values] = line.trim().split(' ');
        if (kind === '^') Object.assign(limits, { contacts: Number(values[0]), maxX: Number(values[1]), maxY: Number(values[2]), pressure: Number(values[3]) });
        if (kind === '$') {
          limits.pid = Number(values[0]);
          return limits.maxX ? done() : done(new Error('minitouch sent no limits'));
        }
      }
    };
    const onClose = () => done(new Error('minitouch closed its socket'));
    const timer = setTimeout(() => done(new Error('minitouch sent no header in 5 s')), 5_000);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

/**
 * A running minitouch: gestures become its command lines (`d`, `m`, `u`, `c`, `w`), written to
 * `localabstract:minitouch` in one piece each; `w` waits happen on the device, so a gesture's timing
 * does not depend on the connection. Coordinates are scaled to the touch device's range.
 */
export class Minitouch {
  private constructor(
    private readonly daemon: DeviceDaemon,
    private readonly socket: Duplex,
    readonly limits: TouchLimits,
    private readonly natural: { width: number; height: number },
  ) {}

  static async start(device: AdbDevice, pushed: Map<string, string>, binary: string, natural: { width: number; height: number }): Promise<Minitouch> {
    await pushOnce(device, pushed, binary, `${DEVICE_TMP}/minitouch`, 0o755);
    const daemon = await DeviceDaemon.start(device, `exec ${DEVICE_TMP}/minitouch`);
    try {
      const socket = await daemon.socket('minitouch');
      socket.on('error', () => undefined);
      // A gesture is a few bytes written at once: sent now, not held until the previous one is acknowledged.
      (socket as Duplex & { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
      const limits = await readHeader(socket);
      if (daemon.pid === null) daemon.pid = limits.pid;
      return new Minitouch(daemon, socket, limits, natural);
    } catch (err) {
      await daemon.stop();
      throw err;
    }
  }

  get alive(): boolean {
    return this.daemon.running && !this.socket.destroyed;
  }

  private point(p: Point): string {
    const x = Math.round((Math.min(Math.max(p.x, 0), this.natural.width - 1) / Math.max(1, this.natural.width - 1)) * this.limits.maxX);
    const y = Math.round((Math.min(Math.max(p.y, 0), this.natural.height - 1) / Math.max(1, this.natural.height - 1)) * this.limits.maxY);
    return `${x} ${y}`;
  }

  /**
   * Each contact follows its own path of points from down to up over `durationMs` (a single point:
   * held that long). Paths of one gesture have the same number of points.
   */
  async gesture(paths: Point[][], durationMs: number): Promise<void> {
    if (paths.length > this.limits.contacts) throw new Error(`the device takes at most ${this.limits.contacts} contacts`);
    const pressure = Math.min(50, this.limits.pressure || 50);
    const lines: string[] = [];
    paths.forEach((path, contact) => lines.push(`d ${contact} ${this.point(path[0]!)} ${pressure}`));
    lines.push('c');
    const steps = Math.max(...paths.map((p) => p.length)) - 1;
    if (steps === 0 && durationMs > 0) lines.push(`w ${Math.round(durationMs)}`);
    for (let i = 1; i <= steps; i++) {
      lines.push(`w ${Math.max(1, Math.round(durationMs / steps))}`);
      paths.forEach((path, contact) => lines.push(`m ${contact} ${this.point(path[Math.min(i, path.length - 1)]!)} ${pressure}`));
      lines.push('c');
    }
    paths.forEach((_, contact) => lines.push(`u ${contact}`));
    lines.push('c');
    await new Promise<void>((resolve, reject) => this.socket.write(`${lines.join('\n')}\n`, (err) => (err ? reject(err) : resolve())));
  }

  async stop(): Promise<void> {
    this.socket.destroy();
    await this.daemon.stop();
  }
}

/** Points from `a` to `b` (both included), one every ~16 ms of `durationMs`, at least two. */
export function line(a: Point, b: Point, durationMs: number): Point[] {
  const steps = Math.max(1, Math.min(60, Math.round(durationMs / 16)));
  return Array.from({ length: steps + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / steps, y: a.y + ((b.y - a.y) * i) / steps }));
}

/** A point of the screen as shown (rotated by `rotation` degrees) in the display's natural orientation. */
export function toNatural(p: Point, rotation: 0 | 90 | 180 | 270, natural: { width: number; height: number }): Point {
  switch (rotation) {
    case 90:
      return { x: natural.width - 1 - p.y, y: p.x };
    case 180:
      return { x: natural.width - 1 - p.x, y: natural.height - 1 - p.y };
    case 270:
      return { x: p.y, y: natural.height - 1 - p.x };
    default:
      return p;
  }
}
