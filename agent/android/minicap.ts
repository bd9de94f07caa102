import type { Duplex } from 'node:stream';
import type { AdbDevice } from './adb.js';
import { DEVICE_TMP, DeviceDaemon, packageFile, pushOnce, type DeviceBuild } from './daemon.js';

const PACKAGE = '@devicefarmer/minicap-prebuilt';
/** The highest SDK level the package has a shared library for; newer devices run the APK. */
const LAST_LIBRARY_SDK = 30;

/** How minicap runs on a device: the binary with its per-SDK shared library, or the APK through `app_process`. */
export type MinicapVariant = { kind: 'bin'; bin: string; lib: string } | { kind: 'apk'; apk: string };

/**
 * The minicap variants for a device, best first: the binary and the shared library of its ABI and SDK
 * level (up to 30), then `noarch/minicap.apk` (any ABI, the way for Android 11 and later).
 */
export function minicapVariants(build: DeviceBuild): MinicapVariant[] {
  const variants: MinicapVariant[] = [];
  if (build.sdk <= LAST_LIBRARY_SDK) {
    for (const abi of build.abis) {
      const bin = packageFile(PACKAGE, 'prebuilt', abi, 'bin', build.sdk >= 16 ? 'minicap' : 'minicap-nopie');
      const lib = packageFile(PACKAGE, 'prebuilt', abi, 'lib', `android-${build.sdk}`, 'minicap.so');
      if (bin && lib) {
        variants.push({ kind: 'bin', bin, lib });
        break;
      }
    }
  }
  const apk = packageFile(PACKAGE, 'prebuilt', 'noarch', 'minicap.apk');
  if (apk && build.sdk >= 21) variants.push({ kind: 'apk', apk });
  return variants;
}

/** minicap's `-P`: the real (natural) size, the projection's size and the rotation in degrees. */
export interface MinicapProjection {
  realWidth: number;
  realHeight: number;
  virtualWidth: number;
  virtualHeight: number;
  rotation: 0 | 90 | 180 | 270;
}

/**
 * The projection for a natural `real` size shown at `rotation`, scaled down (never up) so the frames,
 * as they are shown, fit `max`.
 */
export function projectionFor(real: { width: number; height: number }, rotation: MinicapProjection['rotation'], max: { width?: number; height?: number }): MinicapProjection {
  const turned = rotation % 180 !== 0;
  const shown = turned ? { width: real.height, height: real.width } : real;
  const scale = Math.min(1, max.width ? max.width / shown.width : 1, max.height ? max.height / shown.height : 1);
  const even = (n: number) => Math.max(2, Math.round(n * scale));
  return { realWidth: real.width, realHeight: real.height, virtualWidth: even(real.width), virtualHeight: even(real.height), rotation };
}

export interface MinicapBanner {
  version: number;
  pid: number;
  realWidth: number;
  realHeight: number;
  virtualWidth: number;
  virtualHeight: number;
  rotation: number;
  quirks: number;
}

/**
 * Reads minicap's stream: the global header (its size in its second byte), then frames of a 4-byte
 * little-endian length and a JPEG. Pieces may split anywhere.
 */
export class MinicapParser {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  banner: MinicapBanner | null = null;

  constructor(private readonly onFrame: (jpeg: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    for (;;) {
      if (!this.banner) {
        if (this.pendingLength < 2) return;
        const size = this.peek(2)[1]!;
        if (this.pendingLength < size) return;
        const b = this.take(size);
        this.banner = { version: b[0]!, pid: b.readUInt32LE(2), realWidth: b.readUInt32LE(6), realHeight: b.readUInt32LE(10), virtualWidth: b.readUInt32LE(14), virtualHeight: b.readUInt32LE(18), rotation: b[22]! * 90, quirks: b[23]! };
        continue;
      }
      if (this.pendingLength < 4) return;
      const length = this.peek(4).readUInt32LE(0);
      if (this.pendingLength < 4 + length) return;
      this.take(4);
      this.onFrame(this.take(length));
    }
  }

  private peek(n: number): Buffer {
    if (this.pending[0]!.length < n) this.pending = [Buffer.concat(this.pending)];
    return this.pending[0]!.subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingLength -= n;
    return out;
  }
}

/** The size in a JPEG's start-of-frame segment (baseline or progressive), or null. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  if (jpeg.length < 4 || jpeg.readUInt16BE(0) !== 0xffd8) return null;
  let p = 2;
  while (p + 9 < jpeg.length) {
    if (jpeg[p] !== 0xff) return null;
    const marker = jpeg[p + 1]!;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
      p += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = jpeg.readUInt16BE(p + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(p + 5), width: jpeg.readUInt16BE(p + 7) };
    }
    p += 2 + length;
  }
  return null;
}

/** A running minicap: the process and the connection its frames come through. */
export class Minicap {
  private constructor(
    readonly variant: MinicapVariant['kind'],
    private readonly daemon: DeviceDaemon,
    private readonly socket: Duplex,
  ) {}

  /**
   * Pushes what `variant` needs (once per driver), starts it with `projection` (`-S`: frames the
   * reader is not ready for are skipped on the device) and connects to `localabstract:minicap`.
   * Every JPEG goes to `onFrame` as minicap sent it; `onEnd` hears when the stream stops by itself.
   */
  static async start(
    device: AdbDevice,
    pushed: Map<string, string>,
    variant: MinicapVariant,
    projection: MinicapProjection,
    quality: number,
    onFrame: (jpeg: Buffer) => void,
    onEnd: (reason: string) => void,
  ): Promise<Minicap> {
    const p = projection;
    const args = `-S -Q ${Math.max(1, Math.min(100, Math.round(quality)))} -P ${p.realWidth}x${p.realHeight}@${p.virtualWidth}x${p.virtualHeight}/${p.rotation}`;
    let command: string;
    if (variant.kind === 'bin') {
      await pushOnce(device, pushed, variant.bin, `${DEVICE_TMP}/minicap`, 0o755);
      await pushOnce(device, pushed, variant.lib, `${DEVICE_TMP}/minicap.so`, 0o644);
      command = `LD_LIBRARY_PATH=${DEVICE_TMP} exec ${DEVICE_TMP}/minicap ${args}`;
    } else {
      await pushOnce(device, pushed, variant.apk, `${DEVICE_TMP}/minicap.apk`, 0o644);
      command = `CLASSPATH=${DEVICE_TMP}/minicap.apk exec app_process /system/bin io.devicefarmer.minicap.Main ${args}`;
    }
    const daemon = await DeviceDaemon.start(device, command);
    let socket: Duplex;
    try {
      socket = await daemon.socket('minicap');
    } catch (err) {
      await daemon.stop();
      throw err;
    }
    const parser = new MinicapParser(onFrame);
    const minicap = new Minicap(variant.kind, daemon, socket);
    let stopping = false;
    minicap.stopping = () => {
      stopping = true;
    };
    socket.on('data', (chunk: Buffer) => parser.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!stopping) onEnd(daemon.said || 'the minicap connection ended');
    });
    return minicap;
  }

  private stopping: () => void = () => undefined;

  async stop(): Promise<void> {
    this.stopping();
    this.socket.destroy();
    await this.daemon.stop();
  }
}
