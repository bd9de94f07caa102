import type { Socket } from 'node:net';
import { pngSize, pngToJpeg } from '../android/adb.js';
import { jpegSize } from '../browser/ui-tree.js';
import { PngScreencast } from '../png-screencast.js';
import { DriverError, type DriverFrame, type ScreencastOptions, type Screenshot } from '../provider.js';
import type { IosContext } from './context.js';
import type { GoIos } from './go-ios.js';
import { readMjpeg } from './mjpeg.js';
import { Screenshotr } from './screenshotr.js';
import type { Wda, WdaConfig } from './wda.js';

/** Least time between two captured frames when the live screen is made of screenshots. */
const FRAME_INTERVAL_MS = 200;

/**
 * The screen of an iOS device, by the best way it has: WebDriverAgent's MJPEG stream (and its
 * `/screenshot`) while WDA runs; else screenshots through instruments (go-ios, iOS 17+ through the
 * tunnel) or screenshotr (iOS 16 and earlier, or 17+ when instruments is out of reach).
 */
export class IosScreen {
  private shooter: Screenshotr | null = null;
  /** Why instruments screenshots failed this session (then screenshotr is used). */
  private instrumentsRefused: string | null = null;
  private mjpeg: { socket: Socket; stopped: boolean } | null = null;
  private readonly screencast = new PngScreencast(() => this.capture(), FRAME_INTERVAL_MS, (err) => this.ctx.logger.debug({ err, udid: this.ctx.udid }, 'screencast frame failed'));
  /** How the live screen is made right now (`mjpeg`, `screenshots`, or null while off). */
  mode: 'mjpeg' | 'screenshots' | null = null;

  constructor(
    private readonly ctx: IosContext,
    private readonly wda: Wda,
    private readonly goIos: GoIos | null,
    private readonly config: Pick<WdaConfig, 'mjpegPort' | 'mjpegFramerate'>,
  ) {}

  prepare(): void {
    this.instrumentsRefused = null;
  }

  async screenshot(format: 'png' | 'jpeg', quality?: number): Promise<Screenshot> {
    const png = this.wda.running ? await this.wdaScreenshot() : await this.capture();
    const size = pngSize(png) ?? this.ctx.info.screen;
    if (format === 'jpeg') {
      const jpeg = await pngToJpeg(png, quality ?? 80);
      // Without an image codec the PNG is answered, and its content type says so.
      if (jpeg) return { contentType: 'image/jpeg', data: jpeg.data, width: jpeg.width, height: jpeg.height };
    }
    return { contentType: 'image/png', data: png, width: size.width, height: size.height };
  }

  async start(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    this.ctx.requirePrepared();
    await this.stop();
    if (this.wda.running) {
      try {
        await this.startMjpeg(options, onFrame);
        this.mode = 'mjpeg';
        return;
      } catch (err) {
        this.ctx.logger.warn({ err: (err as Error).message, udid: this.ctx.udid }, 'WebDriverAgent MJPEG stream refused; the live screen falls back to screenshots');
      }
    }
    await this.screencast.start('iOS', options, onFrame);
    this.mode = 'screenshots';
  }

  async stop(): Promise<void> {
    this.mode = null;
    const mjpeg = this.mjpeg;
    this.mjpeg = null;
    if (mjpeg) {
      mjpeg.stopped = true;
      mjpeg.socket.destroy();
    }
    await this.screencast.stop();
  }

  close(): void {
    this.shooter?.close();
    this.shooter = null;
  }

  private async startMjpeg(options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    const width = this.ctx.info.screen.width;
    const scaling = options.maxWidth && options.maxWidth < width ? Math.max(1, Math.round((options.maxWidth / width) * 100)) : 100;
    await this.wda.settings({ mjpegServerFramerate: this.config.mjpegFramerate, mjpegServerScreenshotQuality: options.quality, mjpegScalingFactor: scaling });
    const socket = await this.ctx.usbmux.connectPort(this.ctx.udid, this.config.mjpegPort).catch((err: Error) => {
      throw new DriverError('DEVICE_ERROR', `Nothing answers on WebDriverAgent's MJPEG port ${this.config.mjpegPort}: ${err.message}`);
    });
    const state = { socket, stopped: false };
    this.mjpeg = state;
    socket.on('error', () => undefined);
    // WDA's MJPEG server starts sending once the client has spoken.
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    void readMjpeg(socket, async (jpeg) => {
      if (state.stopped) return;
      const size = jpegSize(jpeg) ?? { width: this.ctx.info.screen.width, height: this.ctx.info.screen.height };
      await onFrame({ jpeg, width: size.width, height: size.height, capturedAt: Date.now() });
    })
      .catch(() => undefined)
      .then(() => {
        if (state.stopped || this.mjpeg !== state) return;
        // WDA went away mid-stream (the runner ended): the screen goes on from screenshots.
        this.ctx.logger.warn({ udid: this.ctx.udid }, 'WebDriverAgent MJPEG stream ended; the live screen falls back to screenshots');
        this.mjpeg = null;
        this.mode = 'screenshots';
        void this.screencast.start('iOS', options, onFrame).catch((err: Error) => this.ctx.logger.warn({ err: err.message }, 'screenshot live screen failed'));
      });
  }

  private async wdaScreenshot(): Promise<Buffer> {
    const base64 = await this.wda.client.call<string>('GET', `/session/${this.wda.session()}/screenshot`);
    const png = Buffer.from(typeof base64 === 'string' ? base64 : '', 'base64');
    if (!pngSize(png)) throw new DriverError('DEVICE_ERROR', 'WebDriverAgent answered no PNG screenshot');
    return png;
  }

  /** How screenshots are taken without WDA: instruments on iOS 17+ with go-ios (until refused), else screenshotr. */
  get screenshotPath(): 'instruments' | 'screenshotr' {
    return this.ctx.majorVersion >= 17 && this.goIos?.available && this.instrumentsRefused === null ? 'instruments' : 'screenshotr';
  }

  /** One PNG: instruments on iOS 17+ (once it failed this session, no more), else screenshotr. */
  async capture(): Promise<Buffer> {
    if (this.ctx.majorVersion >= 17 && this.goIos?.available && this.instrumentsRefused === null) {
      try {
        const png = await this.goIos.screenshot(this.ctx.udid);
        if (pngSize(png)) return png;
        this.instrumentsRefused = 'instruments answered no PNG';
      } catch (err) {
        this.instrumentsRefused = (err as Error).message;
        this.ctx.logger.info({ udid: this.ctx.udid, reason: this.instrumentsRefused }, 'instruments screenshots refused; using screenshotr');
      }
    }
    try {
      return await this.screenshotr();
    } catch (err) {
      if (!(err instanceof DriverError) || !this.instrumentsRefused) throw err;
      throw new DriverError('DEVICE_ERROR', `${err.message}; instruments (go-ios) also failed: ${this.instrumentsRefused}`);
    }
  }

  private async screenshotr(): Promise<Buffer> {
    // One screenshotr connection serves a session's screenshots; a broken one is opened again once.
    for (let attempt = 0; ; attempt++) {
      try {
        this.shooter ??= await Screenshotr.open(await this.ctx.service('com.apple.mobile.screenshotr'));
        const png = await this.shooter.capture();
        if (!pngSize(png)) throw new DriverError('DEVICE_ERROR', 'screenshotr did not answer a PNG');
        return png;
      } catch (err) {
        this.close();
        if (attempt >= 1 || err instanceof DriverError) throw err instanceof DriverError ? err : new DriverError('DEVICE_ERROR', `Screenshot failed: ${(err as Error).message}`);
      }
    }
  }
}
