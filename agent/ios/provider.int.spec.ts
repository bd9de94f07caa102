import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { makePairingCertificates } from '#test/usbmuxd/certs.js';
import { testIpa, testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import type { DeviceDriver } from '../provider.js';
import type { IosDevice } from './device.js';
import { IosProvider } from './provider.js';

/**
 * The iOS provider against the test usbmuxd (test/usbmuxd, itself checked by libimobiledevice's tools)
 * through appium-ios-device: devices come and go with the peer's attach and detach, and the driver
 * works them over the same protocols a real iPhone speaks.
 */
const ECHO_PORT = 8123;
let peer: UsbmuxdPeer;
let provider: IosProvider;
const added: DeviceDriver[] = [];
const removed: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'ios-int-'));
const screen = testScreen(90, 160);
const phone = new PeerDevice({
  udid: '00008120-001A2B3C4D5E6F70',
  name: 'Int iPhone',
  productType: 'iPhone16,1',
  productVersion: '17.5',
  deviceClass: 'iPhone',
  screenshot: screen,
  apps: [
    { bundleId: 'com.apple.mobilesafari', name: 'Safari', version: '17.5', type: 'System' },
    { bundleId: 'com.example.preinstalled', name: 'Pre', version: '1.0', type: 'User' },
  ],
  safariPages: [{ id: 1, title: 'Example Domain', url: 'https://example.com/' }],
});
phone.tcpServices.set(ECHO_PORT, (socket: Duplex) => socket.pipe(socket));
const tablet = new PeerDevice({ udid: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', name: 'Int iPad', productType: 'iPad13,18', productVersion: '16.7.2', deviceClass: 'iPad', screenshot: screen });

beforeAll(async () => {
  peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  peer.attach(phone);
  provider = new IosProvider({ hostId: 'int-host', usbmuxd: peer.address, logger: pino({ level: 'silent' }), goIos: { tunnel: 'off' } });
  await provider.start({ added: (d) => added.push(d), removed: (id) => removed.push(id) });
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await peer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('IosProvider', () => {
  let driver: IosDevice;

  it('offers the device attached at start, described from lockdown', () => {
    expect(added).toHaveLength(1);
    driver = added[0] as IosDevice;
    expect(driver.udid).toBe(phone.udid);
    expect(driver.info).toMatchObject({ name: 'Int iPhone', platform: 'ios', provider: 'ios', osVersion: '17.5', model: 'iPhone 15 Pro', manufacturer: 'Apple', type: 'phone', isRealDevice: true, screen: { width: 1179, height: 2556, scale: 3 } });
    expect(phone.record.sessions).toBeGreaterThan(0);
  });

  it('adds a device attached while running and withdraws it on detach', { timeout: 30_000 }, async () => {
    peer.attach(tablet);
    const ipad = await eventually(async () => added.find((d) => d.info.name === 'Int iPad'), { what: 'the iPad to be added' });
    expect(ipad.info).toMatchObject({ type: 'tablet', osVersion: '16.7.2', model: 'iPad (10th generation)' });
    peer.detach(tablet.udid);
    await eventually(async () => (removed.includes(ipad.info.deviceId) ? true : undefined), { what: 'the iPad to be removed' });
    expect(provider.udids()).toEqual([phone.udid]);
  });

  it('prepares the device; screenshots are the PNG screenshotr sent; syslog lines reach the log', { timeout: 30_000 }, async () => {
    expect(await driver.prepare(() => undefined)).toEqual({ width: 1179, height: 2556, scale: 3 });
    const shot = await driver.screenshot('png');
    expect(shot).toMatchObject({ contentType: 'image/png', width: 90, height: 160 });
    expect(shot.data.equals(screen)).toBe(true);
    expect(phone.record.screenshots).toBe(1);
    await driver.screenshot('png');
    expect(phone.record.screenshots).toBe(2);
    if (phone.syslogClientCount === 0) await once(phone, 'syslog-clients');
    phone.emitSyslog('Nov 24 12:00:01 Int-iPhone SpringBoard(FrontBoard)[58] <Error>: peer says hello');
    const entry = await eventually(async () => driver.logs(0).entries.find((e) => e.text.includes('peer says hello')), { what: 'the syslog line' });
    expect(entry).toMatchObject({ level: 'error', source: 'SpringBoard', text: '[58] peer says hello' });
    // No WebDriverAgent on this device and no bundle id to start one: view-only, and it says why.
    await expect(driver.control({ action: 'tap', x: 1, y: 1 })).rejects.toMatchObject({ code: 'UNSUPPORTED', message: expect.stringContaining('view-only') });
    expect(driver.logs(0).entries).toContainEqual(expect.objectContaining({ level: 'warn', source: 'agent', text: expect.stringContaining('ios.wda.bundleId') }));
    expect(await driver.webdriverCapabilities()).toEqual({ platformName: 'iOS', 'appium:automationName': 'XCUITest', 'appium:udid': phone.udid });
  });

  it('installs an IPA through AFC and installation_proxy, lists and uninstalls apps', { timeout: 30_000 }, async () => {
    const ipa = testIpa('com.example.int', 'IntApp');
    const path = join(work, 'app.ipa');
    writeFileSync(path, ipa);
    expect(await driver.installApp(path)).toEqual({ packageNames: ['com.example.int'] });
    const install = phone.record.installs.at(-1)!;
    expect(install.bytes.equals(ipa)).toBe(true);
    expect(install.packagePath).toMatch(/^PublicStaging\/df-[0-9a-f]{8}\.ipa$/);
    expect(install.bundleId).toBe('com.example.int');
    expect(phone.files.has(`/${install.packagePath}`)).toBe(false);
    expect(await driver.listApps(true)).toEqual([
      { packageName: 'com.example.int', system: false },
      { packageName: 'com.example.preinstalled', system: false },
    ]);
    expect((await driver.listApps(false)).map((a) => a.packageName)).toContain('com.apple.mobilesafari');
    expect(await driver.appPresence(['com.example.int', 'com.example.none'])).toEqual({ presence: { 'com.example.int': true, 'com.example.none': false } });
    expect(await driver.uninstallApp('com.example.int')).toEqual({ packageName: 'com.example.int', uninstalled: true });
    expect(phone.record.uninstalls).toEqual(['com.example.int']);
    expect(await driver.uninstallApp('com.example.int')).toEqual({ packageName: 'com.example.int', uninstalled: false });
    const notIpa = join(work, 'x.ipa');
    writeFileSync(notIpa, 'not a zip');
    await expect(driver.installApp(notIpa)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('lists the Safari page the web inspector announces', { timeout: 30_000 }, async () => {
    expect(await driver.debugTargets()).toEqual([{ id: 'device', kind: 'device', title: 'Int iPhone (usbmuxd, this device only)', protocol: 'usbmux' }, { id: 'PID:4242.1', kind: 'page', title: 'Example Domain', pid: 4242, package: 'com.apple.mobilesafari', protocol: 'webkit_inspector' }]);
    // The peer refuses debugserver, as a device without the developer disk image does.
    expect(await driver.debugProtocols()).toEqual(['tcp_forward', 'webkit_inspector', 'usbmux']);
    await expect(driver.openDebugStream('lldb_rsp', undefined)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });

  it('forwards a device TCP port both ways', { timeout: 30_000 }, async () => {
    const stream = await driver.openDebugStream('tcp_forward', String(ECHO_PORT));
    const received: Buffer[] = [];
    stream.on('data', (c: Buffer) => received.push(c));
    const payload = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    stream.write(payload);
    await eventually(async () => (Buffer.concat(received).length >= payload.length ? true : undefined), { what: 'the echo' });
    expect(Buffer.concat(received).equals(payload)).toBe(true);
    stream.destroy();
    await expect(driver.openDebugStream('tcp_forward', '9')).rejects.toMatchObject({ code: 'DEVICE_ERROR' });
    await expect(driver.openDebugStream('webkit_inspector', '../x')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(driver.openDebugStream('tcp_forward', 'abc')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('moves files in an app container through house_arrest and AFC', { timeout: 30_000 }, async () => {
    const container = phone.containers.get('com.example.preinstalled')!;
    expect(await driver.listFiles('/')).toMatchObject({ entries: [{ name: 'com.example.preinstalled', type: 'directory' }] });
    expect(await driver.makeFolder('/com.example.preinstalled/Documents/farm/a')).toEqual({ path: '/com.example.preinstalled/Documents/farm/a' });
    expect(container.get('/Documents/farm/a')).toBeNull();
    const big = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    const local = join(work, 'big.bin');
    writeFileSync(local, big);
    expect(await driver.pushFile(local, '/com.example.preinstalled/Documents/farm/a/big.bin')).toEqual({ path: '/com.example.preinstalled/Documents/farm/a/big.bin', size: big.length });
    expect(container.get('/Documents/farm/a/big.bin')!.equals(big)).toBe(true);
    const back = join(work, 'back.bin');
    expect(await driver.pullFile('/com.example.preinstalled/Documents/farm/a/big.bin', back)).toEqual({ size: big.length });
    expect(readFileSync(back).equals(big)).toBe(true);
    expect((await driver.listFiles('/com.example.preinstalled/Documents/farm/a')).entries).toEqual([expect.objectContaining({ name: 'big.bin', type: 'file', size: big.length })]);
    expect((await driver.listFiles('/com.example.preinstalled')).entries.map((e) => e.name)).toEqual(['Documents', 'Library', 'tmp']);
    await expect(driver.deleteFile('/com.example.preinstalled/Documents')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(driver.listFiles('/com.example.absent/Documents')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/^No container of com.example.absent/) });
    await expect(driver.listFiles('/com.example.preinstalled/Documents/none')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/is not on the device$/) });
    const pushedAlone = join(work, 'note.txt');
    writeFileSync(pushedAlone, 'note');
    await driver.pushFile(pushedAlone, '/com.example.preinstalled/Documents/note.txt');
    expect(await driver.deleteFile('/com.example.preinstalled/Documents/note.txt')).toEqual({ path: '/com.example.preinstalled/Documents/note.txt', deleted: true });
    expect(container.has('/Documents/note.txt')).toBe(false);
  });

  it('release uninstalls what the session installed', { timeout: 30_000 }, async () => {
    const path = join(work, 'again.ipa');
    writeFileSync(path, testIpa('com.example.again', 'Again'));
    await driver.installApp(path);
    await driver.release();
    expect(phone.apps.has('com.example.again')).toBe(false);
    expect(phone.apps.has('com.example.preinstalled')).toBe(true);
    expect(phone.containers.get('com.example.preinstalled')!.has('/Documents/farm')).toBe(false);
    expect(phone.syslogClientCount).toBe(0);
  });
});

describe('the usbmux debug stream', () => {
  it('shows libimobiledevice only the session device, and reaches its lockdown', { timeout: 60_000 }, async () => {
    const driver = added[0] as IosDevice;
    await driver.prepare(() => undefined);
    const other = new PeerDevice({ udid: 'ffffeeee0000111122223333444455556666aaaa', name: 'Someone else', productType: 'iPhone14,5', productVersion: '16.0', deviceClass: 'iPhone', screenshot: screen });
    peer.attach(other);
    // Each tool connection gets its own stream, as each would get its own usbmuxd connection.
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      void driver.openDebugStream('usbmux', undefined).then((stream) => {
        stream.on('error', () => socket.destroy());
        socket.pipe(stream).pipe(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const run = promisify(execFile);
    const env = { ...process.env, USBMUXD_SOCKET_ADDRESS: `127.0.0.1:${port}` };
    try {
      expect((await run('idevice_id', ['-l'], { env, timeout: 20_000 })).stdout.trim()).toBe(phone.udid);
      expect((await run('ideviceinfo', ['-k', 'DeviceName'], { env, timeout: 20_000 })).stdout.trim()).toBe('Int iPhone');
      await expect(run('ideviceinfo', ['-u', other.udid, '-s'], { env, timeout: 20_000 })).rejects.toThrow();
    } finally {
      server.close();
      peer.detach(other.udid);
      await driver.release();
    }
  });
});
