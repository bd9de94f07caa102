import type { AgentConfigFile } from '#agent/index.js';
import { makePairingCertificates } from '#test/usbmuxd/certs.js';
import { UsbmuxdPeer, type PeerDevice } from '#test/usbmuxd/peer.js';
import { writeAgentConfig } from './df-farm.js';
import { http, startTestServer, type TestServer } from './server.js';

/** The bundle id of the WebDriverAgent runner the test devices' WDA peer answers as. */
export const WDA_BUNDLE_ID = 'com.example.WebDriverAgentRunner.xctrunner';

/**
 * The test usbmuxd (test/usbmuxd) with `devices` attached, and a started server whose in-process agent
 * offers them through its iOS provider (WDA started with the test runner's bundle id), its first
 * administrator signed in.
 */
export async function startIosFarm(options: {
  admin: { email: string; password: string };
  devices: PeerDevice[];
  nodeName: string;
  /** How long a WDA start may take (30 s unless told). */
  wdaStartTimeoutMs?: number;
  /** go-ios's settings (no tunnel unless told). */
  goIos?: NonNullable<AgentConfigFile['ios']>['goIos'];
  /** The agent's browser and simulated devices (none unless told). */
  agentDevices?: AgentConfigFile['devices'];
  /** More of the server's environment (`AGENT_HEALTH_INTERVAL`, say). */
  env?: Record<string, string>;
}): Promise<{ peer: UsbmuxdPeer; server: TestServer; token: string }> {
  const peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  for (const device of options.devices) peer.attach(device);
  const server = await startTestServer({
    ...options.env,
    BOOTSTRAP_ADMIN_EMAIL: options.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: options.admin.password,
    AGENT_CONFIG: writeAgentConfig({
      nodeName: options.nodeName,
      heartbeatMs: 500,
      ios: { usbmuxd: peer.address, wda: { bundleId: WDA_BUNDLE_ID, startTimeoutMs: options.wdaStartTimeoutMs ?? 30_000 }, goIos: options.goIos ?? { tunnel: 'off' } },
      devices: options.agentDevices ?? [],
    }),
  });
  const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: options.admin })).body.token as string;
  return { peer, server, token };
}
