import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/helpers/adb.js';
import { makePairingCertificates } from '#test/usbmuxd/certs.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer } from '#test/usbmuxd/wda.js';
import { DriverError } from '../provider.js';
import { GoIos } from './go-ios.js';
import { TunnelSupervisor } from './tunnel.js';

/**
 * The go-ios wrapper runs the real binary of the `go-ios` package against the test usbmuxd and answers
 * typed results; a missing binary and a failing command are device errors with go-ios's reason.
 */
let peer: UsbmuxdPeer;
let goIos: GoIos;
const screen = testScreen(40, 80);
const phone = new PeerDevice({
  udid: '00008101-000C0FFEE0C0FFEE',
  name: 'Wrapped iPhone',
  productType: 'iPhone14,5',
  productVersion: '16.6',
  deviceClass: 'iPhone',
  screenshot: screen,
  apps: [
    { bundleId: 'com.example.one', name: 'One', version: '1.0', type: 'User' },
    { bundleId: 'com.apple.Preferences', name: 'Settings', version: '16.6', type: 'System' },
  ],
});
const wda = new WdaPeer({ size: { width: 390, height: 844, scale: 3 }, tree: sampleTree(390, 844), screenshot: screen });
wda.install(phone);

beforeAll(async () => {
  peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  peer.attach(phone);
  goIos = new GoIos({ usbmuxd: peer.address, tunnelInfoPort: await freePort() });
}, 60_000);

afterAll(async () => {
  await peer?.close();
});

describe('GoIos', () => {
  it('finds the binary in the package', () => {
    expect(goIos.available).toBe(true);
  });

  it('lists devices, with details', async () => {
    expect(await goIos.list()).toEqual([phone.udid]);
    expect(await goIos.listDetails()).toEqual([{ udid: phone.udid, productName: 'iPhone OS', productType: 'iPhone14,5', productVersion: '16.6', connectionType: 'USB' }]);
  });

  it('reads lockdown values', async () => {
    expect(await goIos.info(phone.udid)).toMatchObject({ DeviceName: 'Wrapped iPhone', ProductVersion: '16.6' });
  });

  it('lists apps as typed entries', async () => {
    expect(await goIos.apps(phone.udid)).toEqual([{ bundleId: 'com.example.one', name: 'One', version: '1.0', type: 'User' }]);
    expect((await goIos.apps(phone.udid, { all: true })).map((a) => a.bundleId).sort()).toEqual(['com.apple.Preferences', 'com.example.one']);
  });

  it('forwards a host port to a device port until stopped', async () => {
    const port = await freePort();
    const forward = await goIos.forward(phone.udid, port, 8100);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/status`);
      expect(await res.json()).toMatchObject({ value: { ready: true } });
    } finally {
      await forward.stop();
    }
    expect(forward.running).toBe(false);
  });

  it('answers a failing command as a device error carrying go-ios\'s reason', async () => {
    const err = await goIos.screenshot(phone.udid).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).code).toBe('DEVICE_ERROR');
    expect((err as DriverError).message).toMatch(/instruments|Developer Disk Image|InvalidService/);
  });

  it('answers runwda on a device without testmanagerd as a device error naming it', async () => {
    const run = goIos.runWda(phone.udid, { bundleId: 'com.example.WebDriverAgentRunner.xctrunner' });
    const err = await run.until(() => false, 30_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).message).toContain('testmanagerd');
  });

  it('answers a missing binary as a device error, not a crash', async () => {
    const missing = new GoIos({ usbmuxd: peer.address, binary: '/nonexistent/ios' });
    expect(missing.available).toBe(false);
    const err = await missing.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).message).toContain('go-ios is not installed');
  });
});

describe('TunnelSupervisor', () => {
  it('runs the host tunnel, answers tunnel ls through it, and starts it again when it dies', { timeout: 60_000 }, async () => {
    const tunnelGoIos = new GoIos({ usbmuxd: peer.address, tunnelInfoPort: await freePort() });
    const tunnel = new TunnelSupervisor(tunnelGoIos, pino({ level: 'silent' }), { userspace: true });
    const ready = () => new Promise<void>((resolve) => tunnel.once('ready', resolve));
    try {
      const first = ready();
      tunnel.start();
      await first;
      // The peer's device is iOS 16: the tunnel keeps none, and says so through its info API.
      expect(await tunnelGoIos.tunnels()).toEqual([]);
      const pid = tunnel.pid!;
      const again = ready();
      process.kill(pid, 'SIGKILL');
      await again;
      expect(tunnel.restarts).toBe(1);
      expect(tunnel.pid).not.toBe(pid);
    } finally {
      await tunnel.stop();
    }
    expect(tunnel.ready).toBe(false);
  });
});
