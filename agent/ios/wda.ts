import { request } from 'node:http';
import type { Duplex } from 'node:stream';
import { DriverError } from '../provider.js';
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

const REQUEST_TIMEOUT_MS = 20_000;
const PROBE_TIMEOUT_MS = 3_000;

/** A WDA answer's `value` with an error (W3C shape: `{error, message}`). */
interface WdaFailure {
  error?: string;
  message?: string;
}

/**
 * WebDriverAgent's HTTP API on a device port, reached through usbmuxd (a usbmux Connect per request,
 * what `iproxy`/`ios forward` do, without a port on the host).
 */
export class WdaClient {
  constructor(private readonly open: () => Promise<Duplex>) {}

  /** `value` of WDA's answer; a WDA error is a DriverError naming WDA's message. */
  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const socket = await this.open();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          method,
          path,
          host: 'localhost',
          headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}), connection: 'close' },
          createConnection: () => socket as never,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`WebDriverAgent did not answer ${method} ${path} within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    }).finally(() => socket.destroy());
    let parsed: { value?: unknown };
    try {
      parsed = JSON.parse(answer.text) as { value?: unknown };
    } catch {
      throw new DriverError('DEVICE_ERROR', `WebDriverAgent answered ${method} ${path} with ${answer.status} and no JSON`);
    }
    const value = parsed.value as WdaFailure | undefined;
    if (answer.status >= 400 || (value && typeof value === 'object' && typeof value.error === 'string')) {
      const message = `WebDriverAgent refused ${method} ${path}: ${value?.error ?? answer.status}${value?.message ? ` (${value.message.slice(0, 300)})` : ''}`;
      throw new DriverError(answer.status === 404 || value?.error === 'invalid argument' ? 'BAD_REQUEST' : 'DEVICE_ERROR', message);
    }
    return parsed.value as T;
  }
}

/**
 * WebDriverAgent on one device: found when it already answers, else started with `ios runwda` (kept
 * running for the device's life, so the next session does not wait for it again), one WDA session
 * per farm session. Without it the device is view-only, and `reason` says why.
 */
export class Wda {
  readonly client: WdaClient;
  private runner: GoIosProcess | null = null;
  private sessionId: string | null = null;
  /** Why WDA is not there (null while it is). */
  reason: string | null = 'WebDriverAgent was not looked for yet';

  constructor(
    private readonly ctx: IosContext,
    private readonly config: WdaConfig,
    private readonly goIos: GoIos | null,
  ) {
    this.client = new WdaClient(() => ctx.usbmux.connectPort(ctx.udid, config.port));
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

  private async answers(): Promise<boolean> {
    try {
      const status = await this.client.call<{ ready?: boolean; state?: string }>('GET', '/status', undefined, PROBE_TIMEOUT_MS);
      return status?.ready !== false;
    } catch (err) {
      this.reason = `WebDriverAgent does not answer on device port ${this.config.port} (${(err as Error).message.slice(0, 200)})`;
      return false;
    }
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
