import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, pixelAt } from '#test/adbd/png.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, testApk, type AdbServer } from '#test/helpers/adb.js';
import { eventually } from '#test/helpers/df-farm.js';
import type { DeviceDriver } from '../provider.js';
import type { AndroidDevice } from './device.js';
import { AndroidProvider } from './provider.js';

/**
 * The Android provider against the adbd test device through Debian's real adb server (one of this
 * file's own): devices come and go with `adb connect` / `adb disconnect`, and the driver works them.
 */
let adb: AdbServer;
let peer: AdbdPeer;
let peerPort: number;
let provider: AndroidProvider;
const added: DeviceDriver[] = [];
const removed: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'android-int-'));

beforeAll(async () => {
  ({ peer, port: peerPort } = await startPeer({ model: 'Int Phone', manufacturer: 'IntCo', release: '13', width: 400, height: 800 }));
  adb = await startAdbServer();
  // Gestures through `input`, which this file asserts on (the UiAutomator2 path: df-android-fast.e2e).
  provider = new AndroidProvider({ hostId: 'int-host', adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false, logger: pino({ level: 'silent' }) });
  await provider.start({ added: (d) => added.push(d), removed: (id) => removed.push(id) });
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await adb?.stop();
  await peer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('AndroidProvider', () => {
  let serial: string;
  let driver: AndroidDevice;

  it('offers a device when it is connected, described from its properties', { timeout: 60_000 }, async () => {
    expect(added).toHaveLength(0);
    serial = await adb.connect(peerPort);
    driver = (await eventually(async () => added[0], { what: 'the device to be added' })) as AndroidDevice;
    expect(driver.info).toMatchObject({
      platform: 'android',
      provider: 'android',
      model: 'Int Phone',
      manufacturer: 'IntCo',
      osVersion: '13',
      isRealDevice: true,
      type: 'phone',
      screen: { width: 400, height: 800, scale: 1 },
    });
    expect(driver.serial).toBe(serial);
    // Appium's UiAutomator2 driver is told the agent's adb server (its port is not the driver's default 5037).
    expect(await driver.webdriverCapabilities()).toEqual({ platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:udid': serial, 'appium:adbPort': adb.port });
  });

  it('prepares the device, screenshots its framebuffer and taps where asked', { timeout: 60_000 }, async () => {
    const screen = await driver.prepare(() => undefined);
    expect(screen).toEqual({ width: 400, height: 800, scale: 1 });
    expect(peer.record.keys).toEqual(expect.arrayContaining(['KEYCODE_WAKEUP', 'KEYCODE_HOME']));
    await driver.control({ action: 'tap', x: 100.4, y: 200.6 });
    expect(peer.record.taps.at(-1)).toEqual({ x: 100, y: 201 });
    const shot = await driver.screenshot('png');
    expect(shot).toMatchObject({ contentType: 'image/png', width: 400, height: 800 });
    expect(shot.data.equals(peer.screenshot())).toBe(true);
    expect(pixelAt(decodePng(shot.data), 100, 201)).toEqual([255, 255, 255]);
    await driver.control({ action: 'text', text: "it's a b" });
    expect(peer.record.texts.at(-1)).toBe("it's a b");
    await driver.control({ action: 'key', key: 'Backspace' });
    expect(peer.typed).toBe("it's a ");
    await expect(driver.control({ action: 'key', key: 'NoSuchKey' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('parses the UI tree and keeps the device log', { timeout: 60_000 }, async () => {
    const tree = await driver.uiTree();
    const field = tree.root.children[0]!.children.find((n) => n.role === 'textbox');
    expect(field).toMatchObject({ id: 'com.peer:id/field', text: "it's a ", bounds: { x: 20, y: 320, width: 360, height: 60 } });
    await eventually(async () => (driver.logs(0).entries.some((e) => e.source === 'InputDispatcher' && e.text.includes('tap at 100,201')) ? true : undefined), { what: 'the tap in the log' });
  });

  it('installs an app, moves files both ways, and release removes what the session left', { timeout: 60_000 }, async () => {
    const apk = join(work, 'app.apk');
    writeFileSync(apk, testApk('com.example.int'));
    expect(await driver.installApp(apk)).toEqual({ packageNames: ['com.example.int'] });
    expect(peer.packages.has('com.example.int')).toBe(true);
    expect(await driver.appPresence(['com.example.int', 'com.example.none'])).toEqual({ presence: { 'com.example.int': true, 'com.example.none': false } });
    const big = Buffer.alloc(1_300_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) % 253;
    const local = join(work, 'big.bin');
    writeFileSync(local, big);
    await driver.makeFolder('/sdcard/int-test');
    expect(await driver.pushFile(local, '/sdcard/int-test/big.bin')).toEqual({ path: '/sdcard/int-test/big.bin', size: big.length });
    expect(peer.files.get('/sdcard/int-test/big.bin')!.data.equals(big)).toBe(true);
    const back = join(work, 'back.bin');
    await driver.pullFile('/sdcard/int-test/big.bin', back);
    expect(readFileSync(back).equals(big)).toBe(true);
    const listing = await driver.listFiles('/sdcard/int-test');
    expect(listing.entries).toEqual([expect.objectContaining({ name: 'big.bin', type: 'file', size: big.length })]);
    await driver.release();
    expect(peer.packages.has('com.example.int')).toBe(false);
    expect(peer.record.uninstalls).toEqual(['com.example.int']);
    expect(peer.files.has('/sdcard/int-test')).toBe(false);
    expect([...peer.files.keys()].some((p) => p.startsWith('/data/local/tmp/df-session-'))).toBe(false);
  });

  it('reads the health signals the device gives in one shell, with what the agent measures itself', { timeout: 60_000 }, async () => {
    peer.health.set({ memTotalMb: 5_632, memAvailableMb: 2_048, uptimeS: 3 * 86_400 + 4 * 3_600, keyguardShowing: true, wifiConnected: true, sdcardFreeMb: null });
    const before = peer.record.commands.length;
    const first = await driver.readHealth();
    expect(peer.record.commands.length - before).toBe(1);
    expect(first).toMatchObject({ memory: { totalMb: 5_632, availableMb: 2_048 }, wifi: { on: true, connected: true }, screenLocked: true, linkReconnects: 0 });
    expect(first.uptimeS).toBeGreaterThanOrEqual(3 * 86_400 + 4 * 3_600);
    expect(first.lastCommandMs).toEqual(expect.any(Number));
    // /sdcard is /data's emulated storage here: not repeated.
    expect(first).not.toHaveProperty('sdcardFreeMb');
    peer.health.set({ keyguardShowing: false, wifiConnected: false, sdcardFreeMb: 900 });
    expect(await driver.readHealth()).toMatchObject({ wifi: { on: true, connected: false }, screenLocked: false, sdcardFreeMb: 900 });
    peer.settings.set('global/wifi_on', '0');
    peer.health.set({ wifiConnected: true });
    expect((await driver.readHealth()).wifi).toEqual({ on: false, connected: false });
    peer.settings.set('global/wifi_on', '1');
  });

  it('withdraws the device when it is disconnected', { timeout: 60_000 }, async () => {
    expect(removed).toEqual([]);
    await adb.disconnect(serial);
    await eventually(async () => (removed.length === 1 ? true : undefined), { what: 'the device to be removed' });
    expect(removed).toEqual([driver.info.deviceId]);
    expect(provider.serials()).toEqual([]);
  });

  it('counts the link coming back in the readings of the device offered again', { timeout: 60_000 }, async () => {
    await adb.connect(peerPort);
    const again = (await eventually(async () => added[1], { what: 'the device to be added again' })) as AndroidDevice;
    expect(again.info.deviceId).toBe(driver.info.deviceId);
    expect((await again.readHealth()).linkReconnects).toBe(1);
  });
});
