/*
 * The devices `bench/watchdog-soak.ts` runs its clients against, and what a client sends them.
 *
 * `peers` (the default): N adbd test devices (test/adbd/peer.ts) behind Debian's adb server on a port of
 * the soak's own, attached as the Android end-to-end specs attach them: the started server with its
 * in-process agent (`AGENT_CONFIG`: the adb server's host and port, Appium on, no UiAutomator2 touch:
 * a viewer's taps go through `input`). WebDriver sessions go through `/df/wd` to the agent's Appium and
 * its UiAutomator2 driver, which installs its server on the test device, starts it with `am instrument`
 * and talks to it over `tcp:6790` (test/adbd/uiautomator2.ts); a command is a W3C tap
 * (`POST /session/{id}/actions`), which the device's UiAutomator2 server receives. The device does not
 * run Appium Settings' foreground service, so the client asks Appium to skip its device initialisation
 * (`appium:skipDeviceInitialization`, `appium:skipUnlock`); nothing else of a client is special.
 *
 * `fake` (`--fake`): the embedded server with a device host on its bus holding N fake WebDriver devices
 * (agent/appium/fake-provider.ts), a command `GET /url`, and no viewer taps (a fake device has no input).
 */
import os from 'node:os';
import pino from 'pino';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { enrolHost, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

export type RigKind = 'peers' | 'fake';

export interface SoakRig {
  kind: RigKind;
  url: string;
  token: string;
  db: TestServer['process']['platform']['db'];
  /** The body of `POST /df/wd/session` for one of the rig's devices. */
  newSession: Record<string, unknown>;
  /** One WebDriver command of a session (a tap on a peer, `GET /url` on a fake device); answers its HTTP status. */
  command(sessionId: string): Promise<number>;
  /** Whether a viewer sends taps (`input` over its socket) before it falls silent. */
  viewerTaps: boolean;
  /** What the devices received (peers: taps through `input` and through the UiAutomator2 server), for the summary. */
  received(): { inputTaps: number; uiautomator2Actions: number } | null;
  stop(): Promise<void>;
}

export interface RigOptions {
  devices: number;
  periodMs: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADMIN = { email: 'soak-admin@example.com', password: 'soak-password-1' };
const SCREEN = { width: 360, height: 640 };

/** Waits until the device list shows `devices` available devices (each attached and described). */
async function devicesAvailable(url: string, token: string, devices: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = (await http(url, 'GET', '/df/api/devices?size=100', { token })).body;
    const available = (list.content as { status: string }[] | undefined)?.filter((d) => d.status === 'available').length ?? 0;
    if (available === devices) return;
    if (Date.now() > deadline) throw new Error(`only ${available} of ${devices} devices available after ${timeoutMs / 1000} s`);
    await pause(250);
  }
}

export async function startPeerRig(options: RigOptions): Promise<SoakRig> {
  const peers: AdbdPeer[] = [];
  let adb: AdbServer | null = null;
  let server: TestServer | null = null;
  try {
    adb = await startAdbServer();
    for (let n = 1; n <= options.devices; n++) {
      const { peer, port } = await startPeer({ model: `Soak ${String(n).padStart(2, '0')}`, release: '14', sdk: '34', ...SCREEN });
      peers.push(peer);
      await adb.connect(port);
    }
    server = await startTestServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      DF_WATCHDOG_PERIOD: `${options.periodMs}ms`,
      DF_WD_QUEUE_TIMEOUT: '5s',
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'soak-node', heartbeatMs: 1_000, appium: { enabled: true }, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }),
    });
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    await devicesAvailable(server.url, token, options.devices, 10 * 60_000);
    const url = server.url;
    const started = { server, adb };
    return {
      kind: 'peers',
      url,
      token,
      db: server.process.platform.db,
      newSession: { capabilities: { alwaysMatch: { platformName: 'android', 'appium:skipDeviceInitialization': true, 'appium:skipUnlock': true } } },
      async command(sessionId) {
        const x = Math.floor(Math.random() * SCREEN.width);
        const y = Math.floor(Math.random() * SCREEN.height);
        const tap = { type: 'pointer', id: 'finger', parameters: { pointerType: 'touch' }, actions: [{ type: 'pointerMove', duration: 0, x, y }, { type: 'pointerDown', button: 0 }, { type: 'pause', duration: 50 }, { type: 'pointerUp', button: 0 }] };
        return (await http(url, 'POST', `/df/wd/session/${sessionId}/actions`, { token, body: { actions: [tap] } })).status;
      },
      viewerTaps: true,
      received: () => ({ inputTaps: peers.reduce((n, p) => n + p.record.taps.length, 0), uiautomator2Actions: peers.reduce((n, p) => n + p.record.pointerActions.length, 0) }),
      async stop() {
        await started.server.stop();
        await started.adb.stop();
        for (const p of peers) await p.close();
      },
    };
  } catch (err) {
    await server?.stop();
    await adb?.stop();
    for (const p of peers) await p.close();
    throw err;
  }
}

export async function startFakeRig(options: RigOptions): Promise<SoakRig> {
  const server = await startTestServer({ AGENT_ENABLED: 'false', DF_WATCHDOG_PERIOD: `${options.periodMs}ms`, DF_WD_QUEUE_TIMEOUT: '5s' });
  const token = (await signUpCompany(server.url, 'soak')).token;
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, token, 'soak'), heartbeatMs: 1_000, devices: [] } });
  const agent = new AgentHost({
    bus: server.process.platform.bus,
    config,
    logger: pino({ level: 'silent' }),
    providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: Array.from({ length: options.devices }, (_, i) => ({ name: `Soak ${i + 1}` })) })],
  });
  await agent.start();
  await devicesAvailable(server.url, token, options.devices, 60_000);
  return {
    kind: 'fake',
    url: server.url,
    token,
    db: server.process.platform.db,
    newSession: { capabilities: { alwaysMatch: { platformName: 'android' } } },
    async command(sessionId) {
      return (await http(server.url, 'GET', `/df/wd/session/${sessionId}/url`, { token })).status;
    },
    viewerTaps: false,
    received: () => null,
    async stop() {
      await agent.stop();
      await server.stop();
    },
  };
}

/** The load average now, two decimals (1, 5 and 15 minutes). */
export const loadAverage = (): number[] => os.loadavg().map((l) => Number(l.toFixed(2)));
