import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePairingCertificates } from './certs.js';
import { testScreen } from './fixtures.js';
import { freePort } from '#test/helpers/adb.js';
import { GoIos, goIosBinary } from '#agent/ios/go-ios.js';
import { PeerDevice, UsbmuxdPeer } from './peer.js';
import { sampleTree, WdaPeer } from './wda.js';

/**
 * The test usbmuxd and its devices, judged by clients no one here wrote: Debian's libimobiledevice
 * tools (`idevice_id`, `ideviceinfo`, `idevicescreenshot`, `idevicesyslog`), run as subprocesses with
 * `USBMUXD_SOCKET_ADDRESS` pointing at the peer; go-ios as a second judge.
 */
const run = promisify(execFile);
let peer: UsbmuxdPeer;
const screen = testScreen();
const phone = new PeerDevice({
  udid: '00008110-000A1B2C3D4E5F60',
  name: 'QA iPhone',
  productType: 'iPhone15,2',
  productVersion: '17.4.1',
  deviceClass: 'iPhone',
  screenshot: screen,
  apps: [
    { bundleId: 'com.example.judged', name: 'Judged', version: '2.1', type: 'User' },
    { bundleId: 'com.apple.mobilesafari', name: 'Safari', version: '17.4', type: 'System' },
  ],
});
const wda = new WdaPeer({ size: { width: 393, height: 852, scale: 3 }, tree: sampleTree(393, 852), screenshot: screen });
wda.install(phone);
const tablet = new PeerDevice({ udid: 'f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e', name: 'QA iPad', productType: 'iPad13,4', productVersion: '16.7', deviceClass: 'iPad', screenshot: screen });
const work = mkdtempSync(join(tmpdir(), 'usbmuxd-peer-'));

const tool = async (file: string, ...args: string[]) => {
  const { stdout } = await run(file, args, { env: { ...process.env, USBMUXD_SOCKET_ADDRESS: peer.address }, timeout: 20_000 });
  return stdout;
};

beforeAll(async () => {
  peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  peer.attach(phone);
}, 60_000);

afterAll(async () => {
  await peer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('usbmuxd peer under libimobiledevice', () => {
  it('idevice_id -l lists the attached devices, and follows attach and detach', async () => {
    expect((await tool('idevice_id', '-l')).trim().split('\n')).toEqual([phone.udid]);
    peer.attach(tablet);
    expect((await tool('idevice_id', '-l')).trim().split('\n').sort()).toEqual([phone.udid, tablet.udid].sort());
    peer.detach(tablet.udid);
    expect((await tool('idevice_id', '-l')).trim().split('\n')).toEqual([phone.udid]);
  });

  it('ideviceinfo -s prints the lockdown values the peer was given', async () => {
    const out = await tool('ideviceinfo', '-s');
    expect(out).toContain('DeviceName: QA iPhone');
    expect(out).toContain('ProductType: iPhone15,2');
    expect(out).toContain('ProductVersion: 17.4.1');
    expect(out).toContain(`UniqueDeviceID: ${phone.udid}`);
    expect((await tool('ideviceinfo', '-u', phone.udid, '-s', '-k', 'ProductVersion')).trim()).toBe('17.4.1');
  });

  it('ideviceinfo without -s pairs through the pair record and reads the values inside the TLS session', async () => {
    const before = phone.record.sessions;
    expect((await tool('ideviceinfo', '-u', phone.udid, '-k', 'DeviceName')).trim()).toBe('QA iPhone');
    expect(phone.record.sessions).toBe(before + 1);
    const all = await tool('ideviceinfo', '-u', phone.udid);
    expect(all).toContain('DeviceClass: iPhone');
  });

  it('ideviceinfo -q answers the battery and disk-usage domains inside the session, as the test scripts them and after it changes them', async () => {
    const battery = async () => Object.fromEntries((await tool('ideviceinfo', '-u', phone.udid, '-q', 'com.apple.mobile.battery')).trim().split('\n').map((l) => l.split(': ')));
    expect(await battery()).toEqual({ BatteryCurrentCapacity: '87', BatteryIsCharging: 'true', ExternalChargeCapable: 'true', ExternalConnected: 'true', FullyCharged: 'false', GasGaugeCapability: 'true', HasBattery: 'true' });
    const disk = (await tool('ideviceinfo', '-u', phone.udid, '-q', 'com.apple.disk_usage')).trim().split('\n');
    expect(disk).toContain(`AmountDataAvailable: ${42 * 1024 ** 3}`);
    expect(disk).toContain(`TotalDataAvailable: ${42 * 1024 ** 3 + 200 * 1024 ** 2}`);
    expect(disk).toContain(`TotalDataCapacity: ${110 * 1024 ** 3}`);
    Object.assign(phone.health, { batteryLevel: 9, charging: false, externalConnected: false, dataFreeBytes: 300 * 1024 ** 2 });
    try {
      expect(await battery()).toMatchObject({ BatteryCurrentCapacity: '9', BatteryIsCharging: 'false', ExternalConnected: 'false' });
      expect((await tool('ideviceinfo', '-u', phone.udid, '-q', 'com.apple.disk_usage', '-k', 'AmountDataAvailable')).trim()).toBe(String(300 * 1024 ** 2));
      // Outside a session (-s) the device keeps these domains to itself.
      expect((await tool('ideviceinfo', '-u', phone.udid, '-s', '-q', 'com.apple.mobile.battery')).trim()).toBe('');
      expect(phone.record.getValues.filter((g) => g.domain === 'com.apple.mobile.battery').map((g) => g.inSession)).toEqual([true, true, false]);
    } finally {
      Object.assign(phone.health, { batteryLevel: 87, charging: true, externalConnected: true, dataFreeBytes: 42 * 1024 ** 3 });
    }
  });

  it('idevicescreenshot saves the PNG screenshotr sends', async () => {
    const file = join(work, 'shot.png');
    const out = await tool('idevicescreenshot', '-u', phone.udid, file);
    expect(out).toContain('Screenshot saved');
    expect(readFileSync(file).equals(screen)).toBe(true);
    expect(phone.record.services).toContain('com.apple.mobile.screenshotr');
  });

  it('idevicesyslog prints the lines syslog_relay sends', async () => {
    const child = spawn('idevicesyslog', ['-u', phone.udid], { env: { ...process.env, USBMUXD_SOCKET_ADDRESS: peer.address } });
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      if (phone.syslogClientCount === 0) await once(phone, 'syslog-clients');
      phone.emitSyslog('Nov 24 12:00:00 QA-iPhone SpringBoard[58] <Notice>: peer line one');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no syslog line in: ${out}`)), 15_000);
        const check = () => {
          if (out.includes('peer line one')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', check);
        check();
      });
    } finally {
      child.kill('SIGINT');
    }
  });
});

/** go-ios (`ios`, the npm package's binary) is the second judge: its own usbmuxd, lockdown and forwarding code. */
describe('usbmuxd peer under go-ios', () => {
  const ios = goIosBinary();
  const goIos = async (...args: string[]) => {
    const { stdout } = await run(ios!, args, { env: { ...process.env, USBMUXD_SOCKET_ADDRESS: peer.address }, timeout: 20_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown;
  };

  it('has the binary in the go-ios package', () => {
    expect(ios).toMatch(/go-ios-linux-(amd64|arm64)_linux_(amd64|arm64)\/ios$/);
  });

  it('ios list names the attached device, with --details its lockdown values', async () => {
    expect(await goIos('list')).toEqual({ deviceList: [phone.udid] });
    expect(await goIos('list', '--details')).toEqual({ deviceList: [{ Udid: phone.udid, ProductName: 'iPhone OS', ProductType: 'iPhone15,2', ProductVersion: '17.4.1', ConnectionType: 'USB' }] });
  });

  it('ios info reads the values inside the paired TLS session', async () => {
    const before = phone.record.sessions;
    expect(await goIos('info', `--udid=${phone.udid}`)).toMatchObject({ DeviceName: 'QA iPhone', ProductType: 'iPhone15,2', ProductVersion: '17.4.1', UniqueDeviceID: phone.udid, DeviceClass: 'iPhone' });
    expect(phone.record.sessions).toBeGreaterThan(before);
  });

  it('ios batterycheck and ios lockdown get --domain read the battery and the storage the test scripts', async () => {
    expect(await goIos('batterycheck', `--udid=${phone.udid}`)).toEqual({ BatteryCurrentCapacity: 87, BatteryIsCharging: true, ExternalChargeCapable: true, ExternalConnected: true, FullyCharged: false, GasGaugeCapability: true, HasBattery: true });
    expect(await goIos('lockdown', 'get', `--udid=${phone.udid}`, '--domain=com.apple.disk_usage')).toMatchObject({ AmountDataAvailable: 42 * 1024 ** 3, AmountDataReserved: 200 * 1024 ** 2, TotalDataCapacity: 110 * 1024 ** 3 });
    phone.health.batteryLevel = 14;
    try {
      expect(await goIos('lockdown', 'get', 'BatteryCurrentCapacity', `--udid=${phone.udid}`, '--domain=com.apple.mobile.battery')).toBe(14);
    } finally {
      phone.health.batteryLevel = 87;
    }
  });

  it('ios apps lists the user apps through installation_proxy, --all the system ones too', async () => {
    const user = (await goIos('apps', `--udid=${phone.udid}`)) as { CFBundleIdentifier: string; CFBundleShortVersionString: string }[];
    expect(user.map((a) => a.CFBundleIdentifier)).toEqual(['com.example.judged']);
    expect(user[0]!.CFBundleShortVersionString).toBe('2.1');
    const all = (await goIos('apps', `--udid=${phone.udid}`, '--all')) as { CFBundleIdentifier: string }[];
    expect(all.map((a) => a.CFBundleIdentifier).sort()).toEqual(['com.apple.mobilesafari', 'com.example.judged']);
  });

  it('ios forward carries HTTP to the WebDriverAgent peer on device port 8100', async () => {
    // Through the agent's own forward: go-ios logs "start listening" just before it binds, and the
    // agent's forward answers only once the port accepts a connection.
    const hostPort = await freePort();
    const forward = await new GoIos({ usbmuxd: peer.address, binary: ios }).forward(phone.udid, hostPort, 8100);
    try {
      const res = await fetch(`http://127.0.0.1:${hostPort}/status`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ value: { ready: true, state: 'success' } });
      expect(wda.requests).toContain('GET /status');
    } finally {
      await forward.stop();
    }
  });
});
