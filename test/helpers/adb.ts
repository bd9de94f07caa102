import { zipOf } from './zip.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AdbdPeer, type PeerOptions } from '#test/adbd/peer.js';
import { freePort } from './daemon.js';

const run = promisify(execFile);
export const ADB_BINARY = process.env.ADB_BINARY ?? '/usr/bin/adb';

/** The port helper of test/helpers/daemon.ts, for the files that take it from here. */
export { freePort };

/**
 * An adb server of the test file's own (Debian's `adb`), on its own port and with its own home (its key
 * pair in `$HOME/.android`), so tests never share a server, and two servers starting at once never
 * write the same key file.
 */
export interface AdbServer {
  port: number;
  /** Runs `adb -P <port> <args>` and returns its output. */
  adb(...args: string[]): Promise<string>;
  /** `adb connect 127.0.0.1:<port>`; returns the serial. */
  connect(peerPort: number): Promise<string>;
  disconnect(serial: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startAdbServer(): Promise<AdbServer> {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), 'qa-adb-home-'));
  const env = { ...process.env, HOME: home, ANDROID_ADB_LOG_PATH: join(home, 'adb.log') };
  const adb = async (...args: string[]) => {
    const { stdout, stderr } = await run(ADB_BINARY, ['-P', String(port), ...args], { timeout: 30_000, env });
    return `${stdout}${stderr}`;
  };
  await adb('start-server');
  return {
    port,
    adb,
    async connect(peerPort) {
      const serial = `127.0.0.1:${peerPort}`;
      const out = await adb('connect', serial);
      if (!/connected to/.test(out)) throw new Error(`adb connect ${serial}: ${out.trim()}`);
      return serial;
    },
    async disconnect(serial) {
      await adb('disconnect', serial);
    },
    async stop() {
      await adb('kill-server').catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Starts the test device on a loopback port. */
export async function startPeer(options: PeerOptions = {}): Promise<{ peer: AdbdPeer; port: number }> {
  const peer = new AdbdPeer(options);
  const port = await peer.start();
  return { peer, port };
}

/** An adb server of the test's own with one test device connected to it (its serial); `stop` ends both. */
export async function startConnectedPeer(options: PeerOptions = {}): Promise<{ adb: AdbServer; peer: AdbdPeer; serial: string; stop(): Promise<void> }> {
  const adb = await startAdbServer();
  const { peer, port } = await startPeer(options);
  const serial = await adb.connect(port);
  return {
    adb,
    peer,
    serial,
    async stop() {
      await adb.stop();
      await peer.close();
    },
  };
}

/**
 * A minimal APK for the test device: a zip whose stored `AndroidManifest.xml` names the package (the
 * peer's `pm install` reads it), padded with a stored `classes.dex` of `padding` bytes.
 */
export function testApk(packageName: string, padding = 1024): Buffer {
  const entries: [string, Buffer][] = [
    ['AndroidManifest.xml', Buffer.from(`<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${packageName}"/>`)],
    ['classes.dex', Buffer.alloc(padding, 0x5a)],
  ];
  return zipOf(entries, { store: true });
}
