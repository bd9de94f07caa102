import { DriverError } from '../provider.js';
import { W3cHttpClient } from '../w3c-http.js';
import type { IosContext } from './context.js';
import type { GoIos, GoIosProcess } from './go-ios.js';

/** How the agent finds and starts WebDriverAgent on a device (the agent config's `ios.wda`). */
export interface WdaConfig {
  /** The bundle id of the signed WebDriverAgent runner (`com.example.WebDriverAgentRunner.xctrunner`); none: WDA is only used when it already runs. */
  bundleId?: string | undefined;
  testRunnerBundleId?: string | undefined;
  xctestConfig?: string | undefined;
  /** WDA's HTTP port on the device. */
  port: number;
  /** WDA's MJPEG port on the device. */
  mjpegPort: number;
  /** How long `runwda` may take until WDA answers. */
  startTimeoutMs: number;
  /** Frames a second WDA's MJPEG server sends (`mjpegServerFramerate`). */
  mjpegFramerate: number;
}

const PROBE_TIMEOUT_MS = 3_000;

/**
 * WebDriverAgent on one device: found when it already answers, else started with `ios runwda` (kept
 * running for the device's life, so the next session does not wait for it again), one WDA session
 * per farm session. Without it the device is view-only, and `reason` says why.
 */
export class Wda {
  readonly client: W3cHttpClient;
  private runner: GoIosProcess | null = null;
  private sessionId: string | null = null;
  /** Why WDA is not there (null while it is). */
  reason: string | null = 'WebDriverAgent was not looked for yet';

  constructor(
    private readonly ctx: IosContext,
    private readonly config: WdaConfig,
    private readonly goIos: GoIos | null,
  ) {
    this.client = new W3cHttpClient('WebDriverAgent', () => ctx.usbmux.connectPort(ctx.udid, config.port));
  }

  /** The WDA session of the farm session, or a refusal saying why there is none. */
  session(): string {
    if (!this.sessionId) throw new DriverError('UNSUPPORTED', `The device is view-only: ${this.reason ?? 'WebDriverAgent has no session'}`);
    return this.sessionId;
  }

  get running(): boolean {
    return this.sessionId !== null;
  }

  /** Finds or starts WDA and opens a session; answers whether the device can be driven. */
  async start(onProgress: (step: string) => void): Promise<boolean> {
    this.sessionId = null;
    if (!(await this.answers())) {
      const started = await this.launch(onProgress);
      if (!started) return false;
    }
    try {
      const created = await this.client.call<{ sessionId?: string }>('POST', '/session', { capabilities: { alwaysMatch: {}, firstMatch: [{}] } });
      if (!created?.sessionId) throw new DriverError('DEVICE_ERROR', 'WebDriverAgent answered no session id');
      this.sessionId = created.sessionId;
      this.reason = null;
      return true;
    } catch (err) {
      this.reason = `WebDriverAgent did not open a session: ${(err as Error).message}`;
      return false;
    }
  }

  /** WDA's settings for this session (`/appium/settings`): MJPEG frame rate, quality, scaling. */
  async settings(settings: Record<string, unknown>): Promise<void> {
    await this.client.call('POST', `/session/${this.session()}/appium/settings`, { settings });
  }

  /** Ends the WDA session (WDA itself keeps running). */
  async end(): Promise<void> {
    const id = this.sessionId;
    this.sessionId = null;
    if (id) await this.client.call('DELETE', `/session/${id}`, undefined, 5_000).catch(() => undefined);
  }

  /** Stops the runner the agent started (the device went away, the agent stops). */
  async close(): Promise<void> {
    this.sessionId = null;
    await this.runner?.stop();
    this.runner = null;
  }

  /** Whether WDA answers its `/status` now (also a health signal), and why not when it does not. */
  async probe(): Promise<{ answering: boolean; reason?: string }> {
    try {
      const status = await this.client.call<{ ready?: boolean; state?: string }>('GET', '/status', undefined, PROBE_TIMEOUT_MS);
      if (status?.ready === false) return { answering: false, reason: `WebDriverAgent answers on device port ${this.config.port} but is not ready${status.state ? ` (${status.state.slice(0, 100)})` : ''}` };
      return { answering: true };
    } catch (err) {
      return { answering: false, reason: `WebDriverAgent does not answer on device port ${this.config.port} (${(err as Error).message.slice(0, 200)})` };
    }
  }

  private async answers(): Promise<boolean> {
    const probe = await this.probe();
    if (!probe.answering) this.reason = probe.reason ?? null;
    return probe.answering;
  }

  private async launch(onProgress: (step: string) => void): Promise<boolean> {
    const bundleId = this.config.bundleId;
    if (!bundleId) {
      this.reason = 'WebDriverAgent is not running on the device, and the host names no WebDriverAgent bundle id to start (ios.wda.bundleId)';
      return false;
    }
    if (!this.goIos?.available) {
      this.reason = 'WebDriverAgent is not running on the device, and go-ios, which starts it, is not installed on the host';
      return false;
    }
    if (this.runner?.running) await this.runner.stop();
    onProgress('starting WebDriverAgent');
    const runner = this.goIos.runWda(this.ctx.udid, { bundleId, testRunnerBundleId: this.config.testRunnerBundleId, xctestConfig: this.config.xctestConfig });
    this.runner = runner;
    const deadline = Date.now() + this.config.startTimeoutMs;
    // WDA answers /status once its HTTP server is up; the runner ending first is a failure with go-ios's reason.
    while (Date.now() < deadline) {
      const ended = await Promise.race([runner.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 500).unref())]);
      if (ended) {
        this.reason = `WebDriverAgent could not be started (${bundleId}): ${runner.lastError ?? 'go-ios runwda ended'}`;
        this.runner = null;
        return false;
      }
      if (await this.answers()) return true;
    }
    await runner.stop();
    this.runner = null;
    this.reason = `WebDriverAgent (${bundleId}) did not answer within ${this.config.startTimeoutMs} ms${runner.lastError ? `: ${runner.lastError}` : ''}`;
    return false;
  }
}
