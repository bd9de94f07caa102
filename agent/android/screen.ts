import type { Logger } from 'pino';
import { PngScreencast } from '../png-screencast.js';
import { DriverError, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import { pngSize, pngToJpeg, readAll, type AdbDevice } from './adb.js';
import { deviceBuild, removePushed } from './daemon.js';
import { jpegSize, Minicap, minicapVariants, projectionFor, type MinicapProjection } from './minicap.js';
import type { FastPathNote } from './fast-paths.js';

/** Least time between two screencap frames: screencap is slow and busies the phone. */
const FRAME_INTERVAL_MS = 100;

export type ScreenPath = 'minicap' | 'screencap';

/**
 * The screen of an Android device: screenshots through `screencap`, the live screen through minicap
 * (its JPEGs handed on as they come, never decoded) or, where minicap cannot start, repeated
 * `screencap` PNGs turned into JPEG. `onPath` hears which path the live screen takes, why, and what that
 * says of minicap: `up`, `down` (it failed to start or died) or `unavailable` (none for the device's ABI and SDK).
 */
export class AndroidScreen {
  private rotation: MinicapProjection['rotation'] = 0;
  private minicap: Minicap | null = null;
  /** Why minicap is not used on this device (set once it failed), or null while it may be tried. */
  private minicapRefused: string | null = null;
  /** Whether the refusal is that the device cannot have minicap (no build for its ABI and SDK). */
  private minicapUnavailable = false;
  private streaming: { options: ScreencastOptions; onFrame: (frame: DriverFrame) => Promise<void> } | null = null;
  private readonly pushed = new Map<string, string>();
  private readonly screencast = new PngScreencast(() => this.capture(), FRAME_INTERVAL_MS, (err) => this.logger.debug({ err, serial: this.serial }, 'screencast frame failed'));
  /** Serialises start, stop and restart. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly device: AdbDevice,
    private readonly serial: string,
    private readonly logger: Logger,
    /** The natural (portrait) size of the display in pixels. */
    private readonly natural: { width: number; height: number },
    private readonly onPath: (path: ScreenPath, reason: string | null, fast: FastPathNote) => void,
  ) {}

  /** A `screencap` PNG. */
  async capture(): Promise<Buffer> {
    const png = await readAll(await this.device.screencap());
    if (!pngSize(png)) throw new DriverError('DEVICE_ERROR', 'screencap did not answer a PNG');
    return png;
  }

  async screenshot(format: 'png' | 'jpeg', quality: number | undefined, fallback: { width: number; height: number }): Promise<Screenshot> {
    const png = await this.capture();
    const size = pngSize(png) ?? fallback;
    if (format === 'jpeg') {
      const jpeg = await pngToJpeg(png, quality ?? 80);
      // Without an image codec the PNG is answered, and its content type says so.
      if (jpeg) return { contentType: 'image/jpeg', data: jpeg.data, width: jpeg.width, height: jpeg.height };
    }
    return { contentType: 'image/png', data: png, width: size.width, height: size.height };
  }

  start(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    return this.serially(async () => {
      await this.halt();
      this.streaming = { options, onFrame };
      await this.begin();
    });
  }

  stop(): Promise<void> {
    return this.serially(async () => {
      this.streaming = null;
      await this.halt();
    });
  }

  /** Stops the live screen and removes what it pushed to the device. */
  async release(): Promise<void> {
    await this.stop();
    await this.serially(() => removePushed(this.device, this.pushed));
  }

  /**
   * Mending (outside a session): stops the live screen's helpers, forgets why minicap was refused, and
   * starts minicap once to prove the fast path is back, then stops it and removes what it pushed. Throws
   * why it did not start (the live screen then goes on through screencap, as before); a device that
   * cannot have minicap (none for its ABI and SDK) has nothing to restart and does not fail for it.
   */
  restartFastPath(): Promise<void> {
    return this.serially(async () => {
      this.streaming = null;
      await this.halt();
      this.minicapRefused = null;
      const reason = await this.startMinicap({ quality: 60 }, async () => undefined);
      await this.halt();
      await removePushed(this.device, this.pushed);
      if (reason !== null) {
        this.minicapRefused = reason;
        this.onPath('screencap', reason, this.minicapUnavailable ? 'unavailable' : 'down');
        if (this.minicapUnavailable) return;
        throw new Error(`minicap did not start: ${reason}`);
      }
      this.onPath('minicap', null, 'up');
    });
  }

  /** The display turned (0 or 90 degrees): a running minicap restarts with the new projection. */
  setRotation(rotation: MinicapProjection['rotation']): Promise<void> {
    return this.serially(async () => {
      if (rotation === this.rotation) return;
      this.rotation = rotation;
      if (this.streaming && this.minicap) {
        await this.halt();
        await this.begin();
      }
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async begin(): Promise<void> {
    const streaming = this.streaming;
    if (!streaming) return;
    if (this.minicapRefused === null) {
      const reason = await this.startMinicap(streaming.options, streaming.onFrame);
      if (reason === null) {
        this.onPath('minicap', null, 'up');
        return;
      }
      this.minicapRefused = reason;
      this.logger.info({ serial: this.serial, reason }, 'minicap did not start; the live screen uses screencap');
    }
    this.onPath('screencap', this.minicapRefused, this.minicapUnavailable ? 'unavailable' : 'down');
    await this.screencast.start('Android', streaming.options, streaming.onFrame);
  }

  /** Starts the first minicap variant that works; answers null, or why none did. */
  private async startMinicap(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<string | null> {
    const build = await deviceBuild(this.device);
    const variants = minicapVariants(build);
    this.minicapUnavailable = variants.length === 0;
    if (variants.length === 0) return `no minicap for ABI ${build.abis.join('/') || 'unknown'} and SDK ${build.sdk}`;
    const projection = projectionFor(this.natural, this.rotation, { ...(options.maxWidth ? { width: options.maxWidth } : {}), ...(options.maxHeight ? { height: options.maxHeight } : {}) });
    const failures: string[] = [];
    for (const variant of variants) {
      const pump = new FramePump(onFrame, (err) => this.logger.debug({ err, serial: this.serial }, 'minicap frame not handed on'));
      try {
        this.minicap = await Minicap.start(this.device, this.pushed, variant, projection, options.quality, (jpeg) => pump.offer(jpeg), (reason) => void this.lost(reason));
        return null;
      } catch (err) {
        failures.push(`minicap ${variant.kind}: ${(err as Error).message}`);
      }
    }
    return failures.join('; ').slice(0, 400);
  }

  /** minicap stopped by itself while streaming: the live screen goes on through screencap. */
  private lost(reason: string): Promise<void> {
    return this.serially(async () => {
      if (!this.minicap || !this.streaming) return;
      this.minicap = null;
      this.minicapRefused = `minicap stopped: ${reason}`;
      this.logger.warn({ serial: this.serial, reason }, 'minicap stopped; the live screen uses screencap');
      await this.begin();
    });
  }

  private async halt(): Promise<void> {
    const minicap = this.minicap;
    this.minicap = null;
    await minicap?.stop();
    await this.screencast.stop();
  }
}

/**
 * Hands minicap's JPEGs on one at a time: while one is being handed on, only the newest that arrived
 * meanwhile is kept (older ones are dropped), so a slow consumer sees fresh frames, in order.
 */
class FramePump {
  private busy = false;
  private next: Buffer | null = null;

  constructor(
    private readonly onFrame: (frame: DriverFrame) => Promise<void>,
    private readonly onFailure: (err: unknown) => void,
  ) {}

  offer(jpeg: Buffer): void {
    if (this.busy) {
      this.next = jpeg;
      return;
    }
    void this.deliver(jpeg);
  }

  private async deliver(first: Buffer): Promise<void> {
    this.busy = true;
    let jpeg: Buffer | null = first;
    while (jpeg) {
      const capturedAt = Date.now();
      const size = jpegSize(jpeg);
      if (size) {
        try {
          await this.onFrame({ jpeg, width: size.width, height: size.height, capturedAt });
        } catch (err) {
          this.onFailure(err);
        }
      }
      jpeg = this.next;
      this.next = null;
    }
    this.busy = false;
  }
}
