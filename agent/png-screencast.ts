import { pngToJpeg } from './android/adb.js';
import { DriverError, type DriverFrame, type ScreencastOptions } from './provider.js';

/**
 * A live screen made of repeated PNG captures (Android's `screencap`, iOS's screenshotr), each turned
 * into a JPEG: the next capture is taken only after the previous frame was handed on, which is the
 * back-pressure, and at most one every `intervalMs`. A failed capture is reported and the loop goes on.
 */
export class PngScreencast {
  private streaming: { stop: boolean; done: Promise<void> } | null = null;

  constructor(
    private readonly capture: () => Promise<Buffer>,
    private readonly intervalMs: number,
    private readonly onFailure: (err: unknown) => void,
  ) {}

  /** Starts (restarts) the loop; refuses when no image codec is installed, naming `platform`. */
  async start(platform: string, options: ScreencastOptions, onFrame: (frame: DriverFrame) => Promise<void>): Promise<void> {
    await this.stop();
    if (!(await pngToJpeg(await this.capture(), options.quality, { width: 1 }))) {
      throw new DriverError('UNSUPPORTED', `The live screen of ${platform} devices needs the image codec (sharp) on the agent`);
    }
    const max = { ...(options.maxWidth ? { width: options.maxWidth } : {}), ...(options.maxHeight ? { height: options.maxHeight } : {}) };
    const state = { stop: false, done: Promise.resolve() };
    state.done = (async () => {
      while (!state.stop) {
        const began = Date.now();
        try {
          const png = await this.capture();
          if (state.stop) break;
          const jpeg = await pngToJpeg(png, options.quality, max);
          if (!jpeg || state.stop) break;
          await onFrame({ jpeg: jpeg.data, width: jpeg.width, height: jpeg.height, capturedAt: began });
        } catch (err) {
          this.onFailure(err);
        }
        const wait = this.intervalMs - (Date.now() - began);
        if (wait > 0 && !state.stop) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    this.streaming = state;
  }

  async stop(): Promise<void> {
    const streaming = this.streaming;
    if (!streaming) return;
    this.streaming = null;
    streaming.stop = true;
    await streaming.done.catch(() => undefined);
  }
}
