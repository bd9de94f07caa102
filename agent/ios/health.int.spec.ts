import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePairingCertificates } from '#test/usbmuxd/certs.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer } from '#test/usbmuxd/wda.js';
import { missingCapability } from '../ops/index.js';
import type { DeviceDriver } from '../provider.js';
import type { IosDevice } from './device.js';
import { IosProvider } from './provider.js';

/**
 * An iOS device's health readings through the provider, against the test usbmuxd (whose battery and
 * disk-usage domains libimobiledevice and go-ios read alike, test/usbmuxd/peer.int.spec.ts), through
 * appium-ios-device: what one reading holds, that it takes one lockdown session, and WebDriverAgent's
 * answer or its absence.
 */
const MB = 1024 * 1024;
let peer: UsbmuxdPeer;
let provider: IosProvider;
const added: DeviceDriver[] = [];
const phone = new PeerDevice({
  udid: '00008120-00HEA1TH00000001',
  name: 'Health iPhone',
  productType: 'iPhone16,1',
  productVersion: '17.5.1',
  deviceClass: 'iPhone',
  screenshot: testScreen(),
  health: { batteryLevel: 64, charging: false, externalConnected: false, dataFreeBytes: 5_000 * MB },
});
const wda = new WdaPeer({ size: { width: 393, height: 852, scale: 3 }, tree: sampleTree(393, 852), screenshot: testScreen() });
wda.install(phone);
let driver: IosDevice;

beforeAll(async () => {
  peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  peer.attach(phone);
  provider = new IosProvider({ hostId: 'health-host', usbmuxd: peer.address, logger: pino({ level: 'silent' }), goIos: { tunnel: 'off' } });
  await provider.start({ added: (d) => added.push(d), removed: () => undefined });
  driver = added[0] as IosDevice;
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await peer?.close();
});

describe('iOS health readings', () => {
  it('has the health capability, so the operations table offers `health`', () => {
    expect(driver.udid).toBe(phone.udid);
    expect(missingCapability(driver, 'health')).toBeNull();
  });

  it('reads battery, free storage, the iOS version and WebDriverAgent’s answer in one lockdown session', { timeout: 30_000 }, async () => {
    const sessions = phone.record.sessions;
    const asked = phone.record.getValues.length;
    const sample = await driver.readHealth();
    expect(sample).toEqual({ checkedAt: expect.any(String), battery: { level: 64, charging: false }, storageFreeMb: 5_000, osVersion: '17.5.1', wda: { answering: true } });
    expect(Date.now() - Date.parse(sample.checkedAt)).toBeLessThan(60_000);
    expect(phone.record.sessions).toBe(sessions + 1);
    expect(phone.record.getValues.slice(asked)).toEqual([
      { domain: 'com.apple.mobile.battery', key: null, inSession: true },
      { domain: 'com.apple.disk_usage', key: null, inSession: true },
      { domain: null, key: 'ProductVersion', inSession: true },
    ]);
    expect(wda.requests).toContain('GET /status');
  });

  it('follows what the device says from one reading to the next', { timeout: 30_000 }, async () => {
    Object.assign(phone.health, { batteryLevel: 11, charging: true, externalConnected: true, dataFreeBytes: 120 * MB });
    expect(await driver.readHealth()).toMatchObject({ battery: { level: 11, charging: true }, storageFreeMb: 120 });
    Object.assign(phone.health, { batteryLevel: 100, charging: false, fullyCharged: true });
    expect((await driver.readHealth()).battery).toEqual({ level: 100, charging: true });
  });

  it('leaves out a domain the device does not answer, and says why WebDriverAgent does not answer', { timeout: 30_000 }, async () => {
    phone.health.withoutDomains = ['com.apple.disk_usage'];
    const runner = phone.tcpServices.get(8100)!;
    phone.tcpServices.delete(8100);
    try {
      const sample = await driver.readHealth();
      expect(sample.storageFreeMb).toBeUndefined();
      expect(sample.battery).toEqual({ level: 100, charging: true });
      expect(sample.osVersion).toBe('17.5.1');
      expect(sample.wda).toEqual({ answering: false, reason: expect.stringMatching(/^WebDriverAgent does not answer on device port 8100/) });
    } finally {
      phone.health.withoutDomains = [];
      phone.tcpServices.set(8100, runner);
    }
  });

  it('fails the reading, publishing nothing, when the device cannot be reached', { timeout: 30_000 }, async () => {
    peer.detach(phone.udid);
    await expect(driver.readHealth()).rejects.toMatchObject({ code: 'DEVICE_ERROR', message: expect.stringMatching(/^The device did not answer lockdown: /) });
  });
});
