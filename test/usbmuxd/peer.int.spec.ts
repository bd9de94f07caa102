import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePairingCertificates } from './certs.js';
import { testScreen } from './fixtures.js';
import { PeerDevice, UsbmuxdPeer } from './peer.js';

/**
 * The test usbmuxd and its devices, judged by clients no one here wrote: Debian's libimobiledevice
 * tools (`idevice_id`, `ideviceinfo`, `idevicescreenshot`, `idevicesyslog`), run as subprocesses with
 * `USBMUXD_SOCKET_ADDRESS` pointing at the peer.
 */
const run = promisify(execFile);
let peer: UsbmuxdPeer;
const screen = testScreen();
const phone = new PeerDevice({ udid: '00008110-000A1B2C3D4E5F60', name: 'QA iPhone', productType: 'iPhone15,2', productVersion: '17.4.1', deviceClass: 'iPhone', screenshot: screen });
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
