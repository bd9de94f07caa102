import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { W3cHttpClient } from '../w3c-http.js';
import { pushFile, shell, type AdbDevice } from './adb.js';
import { DEVICE_TMP, DeviceDaemon, type DeviceBuild } from './daemon.js';
import type { Point } from './minitouch.js';

/*
 * Touch on Android 10 and later, where minitouch needs root: Appium's UiAutomator2 server, an
 * instrumentation that runs as the shell user and injects W3C actions (several pointers at once, so a
 * pinch keeps its two fingers). It is the same server, from the same npm package and version, that
 * Appium's UiAutomator2 driver installs for a WebDriver session, so the two share what is on the device.
 */

/** The server's package, its instrumentation (test) package, and how Appium starts it. */
export const UIA2_SERVER_PACKAGE = 'io.appium.uiautomator2.server';
export const UIA2_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
export const UIA2_INSTRUMENTATION = `${UIA2_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;
/** The device port the server listens on. */
export const UIA2_DEVICE_PORT = 6790;
/** The first SDK the server runs on (its `minSdkVersion`). */
export const UIA2_FIRST_SDK = 26;
/** How long the instrumentation may take to answer `/status` (a first start on a slow phone takes seconds). */
const READY_WITHIN_MS = 30_000;

const requireHere = createRequire(import.meta.url);

/**
 * The server's two APKs as Appium's UiAutomator2 driver carries them (`appium-uiautomator2-server`,
 * resolved through the driver so both use one version), or null when either is missing.
 */
export function uiautomator2Apks(): { server: string; test: string; version: string } | null {
  try {
    const driver = dirname(requireHere.resolve('appium-uiautomator2-driver/package.json'));
    const pkgJson = createRequire(join(driver, 'package.json')).resolve('appium-uiautomator2-server/package.json');
    const version = (requireHere(pkgJson) as { version: string }).version;
    const apks = join(dirname(pkgJson), 'apks');
    const server = join(apks, `appium-uiautomator2-server-v${version}.apk`);
    const test = join(apks, 'appium-uiautomator2-server-debug-androidTest.apk');
    return existsSync(server) && existsSync(test) ? { server, test, version } : null;
  } catch {
    return null;
  }
}

/** Why a device cannot have this path, or null when it can. */
export function uiautomator2Refusal(build: DeviceBuild): string | null {
  if (build.sdk < UIA2_FIRST_SDK) return `the UiAutomator2 server needs Android 8 (SDK ${UIA2_FIRST_SDK}) or later`;
  if (!uiautomator2Apks()) return 'the UiAutomator2 server APKs are not installed on the agent (npm package appium-uiautomator2-server)';
  return null;
}

/**
 * A UiAutomator2 server the agent started on a device, reached through `tcp:6790` streams of adbkit
 * (no host port, nothing to remove afterwards) with one kept-alive HTTP connection (`W3cHttpClient`),
 * and one W3C session of its own. `gesture` sends each contact's path as one pointer input source.
 */
export class UiAutomator2Touch {
  private closed = false;

  private constructor(
    private readonly device: AdbDevice,
    private readonly daemon: DeviceDaemon,
    private readonly client: W3cHttpClient,
    private readonly sessionId: string,
  ) {}

  /**
   * Installs the server where it is missing, starts its instrumentation, waits for `/status` and opens
   * a session. Refuses to start when a server already answers on the device (an automation session's
   * Appium owns it: taking it over would end that session).
   */
  static async start(device: AdbDevice): Promise<UiAutomator2Touch> {
    const apks = uiautomator2Apks();
    if (!apks) throw new Error('the UiAutomator2 server APKs are not installed on the agent');
    const client = new W3cHttpClient('the UiAutomator2 server', () => device.openTcp(UIA2_DEVICE_PORT), { keepAlive: true });
    try {
      if (await client.call('GET', '/status', undefined, 2_000).then(() => true, () => false)) {
        throw new Error('a UiAutomator2 server already runs on the device (an automation session uses it)');
      }
      await installWhereMissing(device, UIA2_SERVER_PACKAGE, apks.server);
      await installWhereMissing(device, UIA2_TEST_PACKAGE, apks.test);
      const daemon = await DeviceDaemon.start(device, `am instrument -w -e disableAnalytics true ${UIA2_INSTRUMENTATION}`);
      try {
        await waitReady(client, daemon);
        const created = await client.call<{ sessionId?: string }>('POST', '/session', { capabilities: { firstMatch: [{}], alwaysMatch: {} } });
        if (typeof created?.sessionId !== 'string') throw new Error('the server answered a new session without its id');
        return new UiAutomator2Touch(device, daemon, client, created.sessionId);
      } catch (err) {
        await stopServer(device, daemon);
        throw err;
      }
    } catch (err) {
      client.close();
      throw err;
    }
  }

  get alive(): boolean {
    return !this.closed && this.daemon.running;
  }

  /**
   * Each contact follows its path from down to up over `durationMs` (one point: held that long), in
   * the screen's current orientation, as the display's pixels. Answers once the device has done it.
   */
  async gesture(paths: Point[][], durationMs: number): Promise<void> {
    const actions = paths.map((path, contact) => {
      const steps = path.length - 1;
      const moves = path.slice(1).map((p) => ({ type: 'pointerMove', duration: Math.max(1, Math.round(durationMs / steps)), x: px(p.x), y: px(p.y) }));
      return {
        type: 'pointer',
        id: `finger${contact}`,
        parameters: { pointerType: 'touch' },
        actions: [
          { type: 'pointerMove', duration: 0, x: px(path[0]!.x), y: px(path[0]!.y) },
          { type: 'pointerDown', button: 0 },
          ...(steps === 0 ? [{ type: 'pause', duration: Math.round(durationMs) }] : moves),
          { type: 'pointerUp', button: 0 },
        ],
      };
    });
    await this.client.call('POST', `/session/${this.sessionId}/actions`, { actions }, 30_000 + durationMs);
  }

  /** Ends the session and the instrumentation. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.daemon.running) await this.client.call('DELETE', `/session/${this.sessionId}`, undefined, 5_000).catch(() => undefined);
    this.client.close();
    await stopServer(this.device, this.daemon);
  }
}

const px = (v: number) => Math.round(v);

async function installWhereMissing(device: AdbDevice, packageName: string, apk: string): Promise<void> {
  if ((await shell(device, `pm path ${packageName}`)).includes('package:')) return;
  const remote = `${DEVICE_TMP}/df-${packageName}.apk`;
  await pushFile(device, apk, remote);
  const out = await shell(device, `pm install -r -t -g ${remote}; rm -f ${remote}`);
  if (!/Success/.test(out)) throw new Error(`installing ${packageName} failed: ${out.trim().slice(0, 200)}`);
}

/** Asks `/status` (100 ms, doubling to 1 s) until the server is ready, it ends, or the time is up. */
async function waitReady(client: W3cHttpClient, daemon: DeviceDaemon): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  let delay = 100;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!daemon.running) throw new Error(`the instrumentation ended: ${daemon.said || 'without a word'}`);
    const status = await client.call<{ ready?: boolean; message?: string } | null>('GET', '/status', undefined, 2_000).catch((err: Error) => {
      last = err.message;
      return undefined;
    });
    if (status !== undefined && status?.ready !== false) return;
    if (status) last = status.message ?? 'not ready';
    await daemon.endedWithin(delay);
    delay = Math.min(1_000, delay * 2);
  }
  throw new Error(`the server did not answer /status in ${READY_WITHIN_MS / 1000} s (${last})`);
}

/** Ends the instrumentation the way Appium does (`am force-stop` of both packages) and closes its stream. */
async function stopServer(device: AdbDevice, daemon: DeviceDaemon): Promise<void> {
  await shell(device, `am force-stop ${UIA2_TEST_PACKAGE}; am force-stop ${UIA2_SERVER_PACKAGE}`).catch(() => undefined);
  await daemon.stop();
}
